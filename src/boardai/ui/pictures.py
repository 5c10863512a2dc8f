"""Board pictures (PNG) and whole games (GIF) for 2048 and Othello, in the web page's colours.

A picture is an RGB array (H x W x 3, uint8): the board, with a caption strip above it (the
score or the disc counts, and the move that led to the position). Each game draws its own
(its ``picture`` in :data:`boardai.games.GAMES`); the captions use Pillow's built-in font
(:func:`with_caption`). A GIF holds one
frame per position: the start, then one per move (so ``moves + 1`` frames), each shown for
``frame_ms`` (the last one longer). GIFs are written a frame at a time in one fixed palette
(the theme's colours and the blends of its caption text), so even a game of many thousand
moves needs the memory of one frame.

>>> from boardai.records import Frame
>>> from boardai.g2048 import Board
>>> frame_picture(Frame(Board.from_grid([[2, 4, 0, 0]] + [[0] * 4] * 3), 0), "2048").shape
(514, 460, 3)
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from typing import IO, Any

import numpy as np

from boardai.atomic import atomic_write
from boardai.games import parts
from boardai.records import Frame
from boardai.ui import theme

CAPTION = 54  # height of the caption strip, pixels
_LAST_HOLD_MS = 2000  # the final position stays this long in a GIF
#: The times a GIF frame may be shown, ms: a GIF keeps hundredths of a second in 16 bits, and
#: browsers show a frame of 0 or 1 hundredth for a tenth of a second.
FRAME_MS = (20, 655350)


def font(size: int) -> Any:
    from PIL import ImageFont

    return ImageFont.load_default(size=size)


def with_caption(board: np.ndarray, lines: Sequence[str], background: str, ink: str) -> np.ndarray:
    from PIL import Image, ImageDraw

    h, w, _ = board.shape
    img = Image.new("RGB", (w, h + CAPTION), theme.rgb(background))
    img.paste(Image.fromarray(board), (0, CAPTION))
    draw = ImageDraw.Draw(img)
    for k, line in enumerate(lines[:2]):
        draw.text((12, 6 + 24 * k), line, fill=theme.rgb(ink), font=font(20))
    return np.asarray(img)


def frame_picture(
    frame: Frame, game: str, previous: Frame | None = None, index: int = 0
) -> np.ndarray:
    """The picture of one replayed position of ``game`` (``previous`` marks what the move
    changed, such as an Othello move's flips)."""
    picture: np.ndarray = parts(game).picture(frame, previous, index)
    return picture


def game_pictures(frames: Sequence[Frame], game: str) -> Iterator[np.ndarray]:
    """One picture per position of a replayed game (the start, then one per move), made as
    they are asked for."""
    for k, f in enumerate(frames):
        yield frame_picture(f, game, frames[k - 1] if k else None, k)


def write_png(path: str | os.PathLike[str], image: np.ndarray) -> None:
    """Write ``image`` to ``path`` as a PNG, atomically."""
    import imageio.v3 as iio

    with atomic_write(path, "wb") as f:
        f.write(bytes(iio.imwrite("<bytes>", image, extension=".png")))


@cache
def _palette() -> Any:
    """A "P" image holding the GIF palette: every theme colour, then blends of each caption's
    ink into its background (the anti-aliased edges of the caption text)."""
    from PIL import Image

    c = theme.OTHELLO
    colours = [*theme.G2048.values(), *theme.TILES.values(), theme.SUPER_TILE, *c.values()]
    rgbs: list[tuple[int, ...]] = list(dict.fromkeys(theme.rgb(x) for x in colours))
    pairs = [(theme.G2048["page"], theme.G2048["text_dark"]), (c["frame"], c["text"])]
    for background, ink in pairs:
        b, i = np.array(theme.rgb(background)), np.array(theme.rgb(ink))
        rgbs += [tuple(int(v) for v in np.rint(b + (i - b) * t / 16)) for t in range(1, 16)]
    rgbs += [rgbs[0]] * (256 - len(rgbs))
    pal = Image.new("P", (1, 1))
    pal.putpalette([v for rgb in rgbs[:256] for v in rgb])
    return pal


def write_gif(fp: IO[bytes], images: Iterable[np.ndarray], frame_ms: int = 250) -> int:
    """Write ``images`` to ``fp`` as a looping GIF, one frame at a time; the last frame stays
    longer. Returns the number of frames.

    Raises:
        ValueError: no images, images of different sizes, or ``frame_ms`` outside
            :data:`FRAME_MS`.
    """
    from PIL import GifImagePlugin, Image

    if not FRAME_MS[0] <= frame_ms <= FRAME_MS[1]:
        raise ValueError(f"frame_ms {frame_ms} is not in {FRAME_MS[0]}..{FRAME_MS[1]}")

    def paletted(image: np.ndarray) -> Any:
        return Image.fromarray(image).quantize(palette=_palette(), dither=Image.Dither.NONE)

    it = iter(images)
    try:
        current = next(it)
    except StopIteration:
        raise ValueError("a GIF needs at least one picture") from None
    first = paletted(current)
    header, _ = GifImagePlugin.getheader(first, None, {"loop": 0, "duration": frame_ms})
    fp.write(b"".join(header))
    count = 0
    frame = first
    while True:
        nxt = next(it, None)
        if nxt is not None and nxt.shape != current.shape:
            raise ValueError(f"picture {count + 1} is {nxt.shape}, not {current.shape}")
        ms = frame_ms if nxt is not None else max(frame_ms, _LAST_HOLD_MS)
        fp.write(b"".join(GifImagePlugin.getdata(frame, duration=ms)))
        count += 1
        if nxt is None:
            break
        current, frame = nxt, paletted(nxt)
    fp.write(b";")
    return count
