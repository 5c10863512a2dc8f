"""``boardai replay``: replay a recorded game in the terminal, exactly."""

from __future__ import annotations

import argparse
from typing import Any

from boardai.cli._common import nonneg_float, plural
from boardai.games import parts


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
    head = f"position {index}/{total - 1}" + (
        f"  after {frame.move}" if frame.move else "  (start)"
    )
    return f"{head}\n{parts(game).frame_text(frame)}"


def _show_in_place(frames: list[Any], game: str, title: str, delay: float) -> int | None:
    """Each position drawn in place in colour, ``delay`` seconds apart: None at the end, else
    the position Ctrl-C stopped at."""
    from rich.console import Group
    from rich.panel import Panel
    from rich.text import Text

    from boardai.cli._watch import watch

    at = 0
    screen_of = parts(game).frame_screen

    def screen(line: str) -> Panel:
        head, board = screen_of(frames[at], frames[at - 1] if at else None)
        body = Group(Text(head, style="bold"), board, Text(line, style="dim"))
        return Panel(body, title=title, expand=False)

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
        stopped = _show_in_place(frames, game, parts(game).record_title(record), args.delay)
    else:
        shown = range(len(frames) - 1, len(frames)) if args.final else range(len(frames))
        for k in shown:
            print(frame_text(frames[k], game, k, len(frames)) + "\n", flush=True)
    if stopped is not None:
        print(f"stopped at position {stopped} of {len(frames) - 1}")
        return 130
    moves = len(frames) - 1
    summary = parts(game).replay_summary(record, frames[-1])
    print(f"replayed {moves} {plural(moves, 'move')}{summary}")
    return 0
