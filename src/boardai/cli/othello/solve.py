"""``boardai othello solve FILE``: solve endgame positions exactly (FFO / obf files)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from boardai.cli._common import json_option, positive_float, positive_int
from boardai.cli.othello._positions import Position, read_positions
from boardai.errors import UsageError

if TYPE_CHECKING:
    from boardai.cli import App

#: Past this many empty squares an exact solve with no --time or --nodes can take from minutes
#: to years, with no output until it ends, so the command says so before it starts. FFO #41
#: and #42 (22 empties) take about 2 s on a busy 2-core machine, and each empty square more
#: some 2.5 times longer (FFO #40-#49 with the fitted network's order: #49, 26 empties, 81 s).
SLOW_EMPTIES = 24


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
    p.add_argument(
        "--order",
        metavar="MODEL",
        default="othello-fit",
        help="a network fitted to disc differences (name or file) whose values help order the"
        " moves high in the tree, or 'none' (default: othello-fit; the scores are exact either"
        " way)",
    )
    p.set_defaults(func=run)


def _warn_if_slow(path: str, positions: list[Position]) -> None:
    """Say on stderr how long the largest position may take, if past :data:`SLOW_EMPTIES`."""
    import sys

    from boardai.cli._common import rough_duration

    slow = [pos for pos in positions if pos.empties > SLOW_EMPTIES]
    if not slow:
        return
    worst = max(slow, key=lambda pos: pos.empties)
    more = f" (and {len(slow) - 1} more past {SLOW_EMPTIES})" if len(slow) > 1 else ""
    took = rough_duration(2.0 * 2.5 ** (worst.empties - 22))
    print(
        f"boardai: warning: {path}:{worst.line}: {worst.empties} empty squares{more}: an exact"
        f" solve with no limit can take {took} (22: about 2 s, each one more some 2.5 times that);"
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
    from boardai.othello.agents.alphabeta import solver_order

    order = None if args.order == "none" else solver_order(model=args.order)
    solve_position(1, 2, order=order)  # compile or load the solver before timing
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
                pos.mover,
                pos.opponent,
                wld=args.wld,
                max_nodes=args.nodes,
                seconds=args.time,
                order=order,
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
