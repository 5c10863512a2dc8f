"""``boardai render``: a recorded game as a PNG picture or an animated GIF."""

from __future__ import annotations

import argparse

from boardai.cli._common import output_option, positive_int


def register(app: argparse.Namespace) -> None:
    p = app.command(
        "render",
        help="draw a recorded game: a PNG of one position, a GIF of the whole game",
        description=(
            "Draw a game from a record file (JSON lines, from watch/eval --record, the web app "
            "or the terminal app) in the web page's colours. The GIF has one frame per position: "
            "the start, then one per move."
        ),
        examples="""
boardai render games.jsonl --png final.png             # the last position of game 0
boardai render games.jsonl --game 3 --gif game3.gif    # the whole of game 3
boardai render games.jsonl --png start.png --at 0      # the start position
""",
    )
    p.add_argument(
        "file", help="record file (JSON lines, a 2048 eval --json file, or a --resume journal)"
    )
    p.add_argument(
        "--game", type=int, default=0, metavar="K", help="which game (0 = first, -1 = last)"
    )
    output_option(p, "--png", metavar="OUT", help="write a picture of one position")
    output_option(p, "--gif", metavar="OUT", help="write the whole game as an animated GIF")
    p.add_argument(
        "--at",
        type=int,
        default=-1,
        metavar="N",
        help="position for --png (0 = start; default: the end)",
    )
    p.add_argument(
        "--frame-ms", type=positive_int, default=250, help="GIF milliseconds per move (default 250)"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from boardai.errors import UsageError
    from boardai.records import game_of, pick, read_records, replay
    from boardai.ui import pictures

    if not args.png and not args.gif:
        raise UsageError("nothing to do: give --png OUT and/or --gif OUT")
    record = pick(read_records(args.file), args.game, args.file)
    try:
        frames = replay(record)
    except ValueError as e:
        raise UsageError(f"{args.file}: game {args.game}: {e}") from None
    game = game_of(record)
    if args.png:
        if not -len(frames) <= args.at < len(frames):
            raise UsageError(f"--at {args.at}: the game has positions 0..{len(frames) - 1}")
        k = args.at % len(frames)
        image = pictures.frame_picture(frames[k], game, frames[k - 1] if k else None, k)
        pictures.write_png(args.png, image)
        print(f"wrote {args.png} (position {k} of {len(frames) - 1})")
    if args.gif:
        from boardai.atomic import atomic_write

        with atomic_write(args.gif, "wb") as f:
            n = pictures.write_gif(f, pictures.game_pictures(frames, game), args.frame_ms)
        print(f"wrote {args.gif} ({n} frames: the start and {n - 1} moves)")
    return 0
