"""``boardai replay``: replay a recorded game in the terminal, exactly."""

from __future__ import annotations

import argparse
from typing import Any

from boardai.cli._common import nonneg_float


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


def run(args: argparse.Namespace) -> int:
    import sys
    import time

    from boardai.errors import UsageError
    from boardai.records import game_of, pick, read_records, replay

    record = pick(read_records(args.file), args.game, args.file)
    try:
        frames = replay(record)
    except ValueError as e:
        raise UsageError(f"{args.file}: game {args.game}: {e}") from None
    game = game_of(record)
    tty = sys.stdout.isatty()
    shown = range(len(frames) - 1, len(frames)) if args.final else range(len(frames))
    for k in shown:
        text = frame_text(frames[k], game, k, len(frames))
        print(("\x1b[H\x1b[2J" if tty else "") + text + ("" if tty else "\n"), flush=True)
        if tty and not args.final and k < len(frames) - 1:
            time.sleep(max(0.0, args.delay))
    last = frames[-1]
    if game == "2048":
        top = last.board.max_tile()
        who = f" by {record['agent']}" if isinstance(record.get("agent"), str) else ""
        print(f"replayed {len(frames) - 1} moves{who}: score {last.score}, largest tile {top}")
    else:
        b, w = last.board.discs()
        players = record.get("players")
        names = [players.get(c) if isinstance(players, dict) else None for c in ("black", "white")]
        black, white = (f" ({n})" if isinstance(n, str) else "" for n in names)
        print(f"replayed {len(frames) - 1} moves: black{black} {b}, white{white} {w}")
    return 0
