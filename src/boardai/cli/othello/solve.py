"""``boardai othello solve FILE``: solve endgame positions exactly (FFO / obf files)."""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from boardai.cli._common import json_option, positive_float, positive_int
from boardai.errors import MIB, UsageError, read_limited

if TYPE_CHECKING:
    from boardai.cli import App

_BLACK_CHARS = "XxBb*"
_WHITE_CHARS = "OoWw"
_EMPTY_CHARS = "-."
#: A line of board text as ``str(Board)`` writes it: the header, a row, the side to move.
_BOARD_TEXT = re.compile(r"a b c d e f g h|(\d\s+)?([XxOo.-]\s*){8}|(black|white) to move", re.I)
_SIDES = {"x": 0, "b": 0, "black": 0, "*": 0, "o": 1, "w": 1, "white": 1}
#: Past this many empty squares an exact solve with no --time or --nodes can take from minutes
#: to years, with no output until it ends, so the command says so before it starts. FFO #41
#: and #42 (22 empties) take about 10 s on a busy 2-core machine, and each empty square more
#: some 3 times longer.
SLOW_EMPTIES = 24
#: The most bytes of a position file read (a line a position: some 200,000 of them, each an
#: exact solve); a larger or endless one (``/dev/zero``) is refused in one line.
MAX_POSITION_BYTES = 16 * MIB


def register(app: App) -> None:
    p = app.command(
        "othello solve",
        help="solve Othello endgame positions exactly: final disc difference and a best move",
        description=(
            "Solve Othello endgame positions exactly with perfect play by both sides.\n\n"
            "FILE holds positions one a line in the FFO / obf format: 64 characters a1..h8 row\n"
            "by row (X black, O white, - empty), a space, the side to move (X or O); anything\n"
            "after a ';' is ignored. Board text as boardai prints it (8 rows of X O ., then\n"
            "'black to move' or 'white to move') works too. For each position it prints the\n"
            "final disc difference for the side to move, a best move, nodes, seconds, nodes/s."
        ),
        examples=(
            "boardai othello solve examples/positions.obf   # the repository's 5 positions, "
            "12-20 empties: seconds\n"
            "boardai othello solve examples/positions.obf --json solved.json --empties-max 22\n"
            "boardai othello solve examples/positions.obf --wld --time 60"
        ),
    )
    p.add_argument("file", metavar="FILE", help="positions, one a line (obf) or board text")
    json_option(p, "write per-position results and totals as JSON")
    p.add_argument(
        "--empties-max",
        type=positive_int,
        metavar="N",
        help="refuse the file if a position has more than N empty squares",
    )
    p.add_argument(
        "--wld",
        action="store_true",
        help="win / loss / draw only (score -1, 0 or 1 for the side to move; faster)",
    )
    p.add_argument(
        "--nodes", type=positive_int, metavar="N", help="node limit per position (about)"
    )
    p.add_argument(
        "--time", type=positive_float, metavar="S", help="time limit per position in seconds"
    )
    p.set_defaults(func=run)


@dataclass
class Position:
    """One position of the file and where it came from."""

    line: int
    mover: int
    opponent: int
    empties: int


def _bad(path: str, line: int, why: str) -> UsageError:
    return UsageError(f"{path}:{line}: {why}")


def _obf(path: str, number: int, text: str) -> tuple[int, int, int]:
    """(black, white, side) of an obf line without its comment."""
    words = text.split()
    board = words[0]
    if len(board) != 64:
        raise _bad(path, number, f"the board has {len(board)} squares, not 64")
    for ch in board:
        if ch not in _BLACK_CHARS + _WHITE_CHARS + _EMPTY_CHARS:
            raise _bad(path, number, f"bad character {ch!r} in the board (X, O or -)")
    if len(words) < 2:
        raise _bad(path, number, "no side to move after the board (X or O)")
    side = _SIDES.get(words[1].lower())
    if side is None or len(words) > 2:
        raise _bad(path, number, f"bad side to move {' '.join(words[1:])!r} (X or O)")
    black = sum(1 << i for i, ch in enumerate(board) if ch in _BLACK_CHARS)
    white = sum(1 << i for i, ch in enumerate(board) if ch in _WHITE_CHARS)
    return black, white, side


def read_positions(path: str) -> list[Position]:
    """The positions of an obf / board-text file; a bad line raises a :class:`UsageError`
    naming the file and line."""
    from boardai.othello import Board

    try:
        text = read_limited(path, MAX_POSITION_BYTES, "a position file").decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"{path}: cannot read: {e}") from None
    lines = text.splitlines()
    out: list[Position] = []
    block: list[str] = []  # board text collected so far
    block_start = 0

    def add(number: int, black: int, white: int, side: int) -> None:
        if black & white:
            raise _bad(path, number, "a square is both black and white")
        board = Board(black, white, side)
        if board.is_terminal():
            raise _bad(path, number, "the game is over: there is nothing to solve")
        out.append(Position(number, board.mover, board.opponent, board.empties()))

    for number, raw in enumerate(lines, start=1):
        text = raw.split(";", 1)[0].strip()
        if not text or text.startswith(("%", "#")):
            if block:
                raise _bad(path, block_start, "board text without 'black/white to move'")
            continue
        if not block and not _BOARD_TEXT.fullmatch(text):
            add(number, *_obf(path, number, text))
            continue
        if not block:
            block_start = number
        block.append(text)
        if text.lower().split()[0] in ("black", "white"):
            try:
                b = Board.from_str("\n".join(block))
            except ValueError as e:
                raise _bad(path, block_start, str(e)) from None
            add(block_start, b.black, b.white, b.to_move)
            block = []
    if block:
        raise _bad(path, block_start, "board text without 'black/white to move'")
    if not out:
        raise UsageError(f"{path}: no positions")
    return out


def _warn_if_slow(path: str, positions: list[Position]) -> None:
    """Say on stderr how long the largest position may take, if past :data:`SLOW_EMPTIES`."""
    import sys

    from boardai.cli._common import rough_duration

    slow = [pos for pos in positions if pos.empties > SLOW_EMPTIES]
    if not slow:
        return
    worst = max(slow, key=lambda pos: pos.empties)
    more = f" (and {len(slow) - 1} more past {SLOW_EMPTIES})" if len(slow) > 1 else ""
    took = rough_duration(10.0 * 3.0 ** (worst.empties - 22))
    print(
        f"boardai: warning: {path}:{worst.line}: {worst.empties} empty squares{more}: an exact"
        f" solve with no limit can take {took} (22: about 10 s, each one more some 3 times that);"
        " --time S or --nodes N bounds each position",
        file=sys.stderr,
    )


def run(args: argparse.Namespace) -> int:
    import sys

    from boardai.cli._common import plural, write_json
    from boardai.othello.board import action_text
    from boardai.othello.search import solve_position

    out = sys.stderr if args.json == "-" else sys.stdout  # stdout carries the JSON alone

    positions = read_positions(args.file)
    if args.empties_max is not None:
        for pos in positions:
            if pos.empties > args.empties_max:
                raise UsageError(
                    f"{args.file}:{pos.line}: {pos.empties} empty squares, more than"
                    f" --empties-max {args.empties_max}"
                )
    if args.time is None and args.nodes is None:
        _warn_if_slow(args.file, positions)
    solve_position(1, 2)  # compile or load the solver before timing
    rows: list[dict[str, Any]] = []
    interrupted = False
    what = "win/loss/draw" if args.wld else "disc difference"
    print(
        f"{len(positions)} {plural(len(positions), 'position')}; "
        f"score = {what} for the side to move",
        file=out,
        flush=True,
    )
    for i, pos in enumerate(positions, start=1):
        try:
            r = solve_position(
                pos.mover, pos.opponent, wld=args.wld, max_nodes=args.nodes, seconds=args.time
            )
        except KeyboardInterrupt:
            interrupted = True
            break
        rate = r.nodes / r.seconds if r.seconds > 0 else float("nan")
        head = f"#{i:<3} line {pos.line:<4} {pos.empties:2d} empties"
        if r.complete:
            result = f"{r.score:+3d}  {action_text(r.action) if r.action >= 0 else '-':>4}"
        else:
            result = "stopped (limit)"
        print(
            f"{head}  {result}  {r.nodes:>14,} nodes  {r.seconds:8.3f} s  {rate / 1e6:6.2f} M/s",
            file=out,
            flush=True,
        )
        rows.append(
            {
                "line": pos.line,
                "empties": pos.empties,
                "score": r.score if r.complete else None,
                "move": (action_text(r.action) if r.action >= 0 else None) if r.complete else None,
                "nodes": r.nodes,
                "seconds": r.seconds,
            }
        )
    nodes = sum(row["nodes"] for row in rows)
    seconds = sum(row["seconds"] for row in rows)
    rate = nodes / seconds if seconds > 0 else float("nan")
    print(
        f"total: {len(rows)} {plural(len(rows), 'position')}  {nodes:,} nodes  "
        f"{seconds:.3f} s  {rate / 1e6:.2f} M/s",
        file=out,
    )
    if args.json:
        write_json(
            args.json,
            {
                "positions": rows,
                "seconds": seconds,
                "nodes": nodes,
                "wld": args.wld,
                "interrupted": interrupted,
            },
        )
    if interrupted:
        pos = positions[len(rows)]
        print(f"interrupted at #{len(rows) + 1} (line {pos.line}, {pos.empties} empties)", file=out)
        return 130
    return 0
