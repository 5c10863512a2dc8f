"""``boardai replay``: replay a recorded game in the terminal, exactly."""

from __future__ import annotations

import argparse
from typing import Any

from boardai.cli._common import nonneg_float, plural


def register(app: argparse.Namespace) -> None:
    p = app.command(
        "replay",
        help="replay a recorded game (2048 or Othello) in the terminal",
        description=(
            "Replay a game from a record file (JSON lines), checking every move and spawn, and "
            "show each position in turn. For stepping back and forth use 'boardai tui --replay'."
        ),
        examples="""
boardai replay games.jsonl                  # game 0, one position every 0.2 s
boardai replay games.jsonl --game 2 --final # only the last position and the score
boardai replay games.jsonl --delay 0        # as fast as the terminal prints
""",
    )
    p.add_argument(
        "file", help="record file (JSON lines, a 2048 eval --json file, or a --resume journal)"
    )
    p.add_argument(
        "--game", type=int, default=0, metavar="K", help="which game (0 = first, -1 = last)"
    )
    p.add_argument(
        "--delay",
        type=nonneg_float,
        default=0.2,
        help="seconds per position on a terminal (default 0.2)",
    )
    p.add_argument("--final", action="store_true", help="show only the final position")
    p.set_defaults(func=run)


def frame_text(frame: Any, game: str, index: int, total: int) -> str:
    """A position as text, with what led to it."""
    if game == "2048":
        from boardai.g2048.render import board_text

        body = board_text(frame.board, frame.score)
    else:
        b, w = frame.board.discs()
        body = f"{frame.board}\nblack {b}  white {w}"
    head = f"position {index}/{total - 1}" + (
        f"  after {frame.move}" if frame.move else "  (start)"
    )
    return f"{head}\n{body}"


COLOURS = ("black", "white")


def _title(record: dict[str, Any], game: str) -> str:
    """The game and who played it, as far as the record says."""
    if game == "2048":
        agent = record.get("agent")
        return f"2048 by {agent}" if isinstance(agent, str) else "2048"
    players = record.get("players")
    black, white = (players.get(c) if isinstance(players, dict) else None for c in COLOURS)
    if isinstance(black, str) and isinstance(white, str):
        return f"{black} (black) against {white} (white)"
    return "Othello"


def _show_in_place(frames: list[Any], game: str, title: str, delay: float) -> int | None:
    """Each position drawn in place in colour, ``delay`` seconds apart: None at the end, else
    the position Ctrl-C stopped at."""
    from rich.console import Group
    from rich.panel import Panel
    from rich.text import Text

    from boardai.cli._watch import watch
    from boardai.ui.boards import board_text_2048, board_text_othello
    from boardai.ui.session import board_state_othello

    at = 0

    def screen(line: str) -> Panel:
        frame = frames[at]
        if game == "2048":
            board = board_text_2048(frame.board.to_grid())
            head = f"score {frame.score:,}   max {frame.board.max_tile():,}"
        else:
            before = frames[at - 1].board if at else None
            state = board_state_othello(frame.board, before, frame.action)
            board = board_text_othello(state)
            head = f"black {state['counts']['black']}  white {state['counts']['white']}"
            head += f"   {state['result']}" if state["over"] else ""
        parts = Group(Text(head, style="bold"), board, Text(line, style="dim"))
        return Panel(parts, title=title, expand=False)

    def note(k: int) -> str:
        nonlocal at
        at = k
        move = frames[k].move
        return f"position {k}/{len(frames) - 1}" + (f"  after {move}" if move else "  (start)")

    stopped = watch(range(len(frames)), screen, note, delay, waiting=note(0), done="end")
    return at if stopped else None


def run(args: argparse.Namespace) -> int:
    import sys

    from boardai.errors import UsageError
    from boardai.records import game_of, pick, read_records, replay

    record = pick(read_records(args.file), args.game, args.file)
    try:
        frames = replay(record)
    except ValueError as e:
        raise UsageError(f"{args.file}: game {args.game}: {e}") from None
    game = game_of(record)
    stopped = None
    if sys.stdout.isatty() and not args.final:
        stopped = _show_in_place(frames, game, _title(record, game), args.delay)
    else:
        shown = range(len(frames) - 1, len(frames)) if args.final else range(len(frames))
        for k in shown:
            print(frame_text(frames[k], game, k, len(frames)) + "\n", flush=True)
    if stopped is not None:
        print(f"stopped at position {stopped} of {len(frames) - 1}")
        return 130
    last = frames[-1]
    if game == "2048":
        top = last.board.max_tile()
        who = f" by {record['agent']}" if isinstance(record.get("agent"), str) else ""
        print(
            f"replayed {len(frames) - 1} {plural(len(frames) - 1, 'move')}{who}: "
            f"score {last.score}, largest tile {top}"
        )
    else:
        b, w = last.board.discs()
        players = record.get("players")
        names = [players.get(c) if isinstance(players, dict) else None for c in ("black", "white")]
        black, white = (f" ({n})" if isinstance(n, str) else "" for n in names)
        print(
            f"replayed {len(frames) - 1} {plural(len(frames) - 1, 'move')}: "
            f"black{black} {b}, white{white} {w}"
        )
    return 0
