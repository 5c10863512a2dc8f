"""``boardai render``: a recorded game as a PNG picture or an animated GIF."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boardai.cli._common import PICTURES, int_in, output_option, progress

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID


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
    # a picture goes into a folder that is there: a mistyped one is said, not made
    output_option(
        p,
        "--png",
        metavar="OUT",
        needs=PICTURES,
        make_folders=False,
        help="write a picture of one position (into a folder that exists)",
    )
    output_option(
        p,
        "--gif",
        metavar="OUT",
        needs=PICTURES,
        make_folders=False,
        help="write the whole game as an animated GIF (into a folder that exists)",
    )
    p.add_argument(
        "--at",
        type=int,
        default=-1,
        metavar="N",
        help="position for --png (0 = start; default: the end)",
    )
    p.add_argument(
        "--frame-ms",
        type=frame_ms,
        default=250,
        help="GIF milliseconds per move, 20 to 655350 (default 250)",
    )
    p.set_defaults(func=run)


def frame_ms(text: str) -> int:
    """argparse type: a GIF frame's time in ms, within what a GIF can hold and a browser
    shows (:data:`boardai.ui.pictures.FRAME_MS`)."""
    from boardai.ui.pictures import FRAME_MS

    return int_in(*FRAME_MS)(text)


def check_suffix(path: str, flag: str, kind: str) -> None:
    """Refuse an output name whose suffix says another picture format (``--png x.gif``),
    which would leave a file that lies about what it holds; other names are taken as given.

    Raises:
        UsageError: the suffix is another image format's.
    """
    from PIL import Image

    from boardai.errors import UsageError

    suffix = Path(path).suffix.lower()
    found = Image.registered_extensions().get(suffix)
    if found is not None and found != kind:
        other = " (--gif draws the whole game)" if kind == "PNG" else ""
        raise UsageError(
            f"{flag} {path}: writes a {kind}, not a {found}: name it .{kind.lower()}{other}"
        )


def _advancing(images: Iterator[Any], bar: Progress, task: TaskID) -> Iterator[Any]:
    """``images``, advancing ``task`` of ``bar`` as each is written."""
    for image in images:
        yield image
        bar.advance(task)


def run(args: argparse.Namespace) -> int:
    from boardai.errors import UsageError
    from boardai.records import game_of, pick, read_records, replay
    from boardai.ui import pictures

    if not args.png and not args.gif:
        raise UsageError("nothing to do: give --png OUT and/or --gif OUT")
    for path, flag, kind in ((args.png, "--png", "PNG"), (args.gif, "--gif", "GIF")):
        if path:
            check_suffix(path, flag, kind)
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

        # a long game's GIF takes minutes (some 15 ms a frame): say how far it is, on a
        # terminal (elsewhere the bar would leave only a blank line)
        bar = progress(transient=True)
        bar.disable = not bar.console.is_terminal
        with bar, atomic_write(args.gif, "wb") as f:
            task = bar.add_task("drawing the GIF", total=len(frames))
            images = _advancing(pictures.game_pictures(frames, game), bar, task)
            n = pictures.write_gif(f, images, args.frame_ms)
        print(f"wrote {args.gif} ({n} frames: the start and {n - 1} moves)")
    return 0
