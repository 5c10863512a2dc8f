"""Reading single key presses from a terminal, or from a pipe (for scripted play and tests)."""

from __future__ import annotations

import contextlib
import os
import select
import sys
from collections.abc import Iterator
from typing import IO

#: Escape sequences of the arrow keys, by name.
ARROWS = {
    "\x1b[A": "up",
    "\x1b[B": "down",
    "\x1b[C": "right",
    "\x1b[D": "left",
    "\x1bOA": "up",
    "\x1bOB": "down",
    "\x1bOC": "right",
    "\x1bOD": "left",
}


@contextlib.contextmanager
def cbreak(stream: IO[str]) -> Iterator[None]:
    """Put a terminal in cbreak mode (keys arrive one by one, unechoed); no-op for pipes."""
    if not stream.isatty():
        yield
        return
    import termios
    import tty

    fd = stream.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


#: How long an escape sequence's bytes may lag behind its escape on a terminal, seconds.
ESCAPE_WAIT = 0.05


def read_key(stream: IO[str] | None = None) -> str | None:
    """One key: a character, or an arrow's name ("up", ...); None at end of input.

    On a terminal, an escape with nothing right behind it is the Esc key ("\x1b"), and one
    followed by anything but ``[`` or ``O`` is taken with that one character (Alt and a key):
    waiting for three bytes made Esc hang until two more keys came, and ate them.
    """
    stream = stream or sys.stdin
    fd = stream.fileno()
    ch = os.read(fd, 1).decode(errors="replace")
    if ch == "":
        return None
    if ch != "\x1b":
        return ch
    tty = stream.isatty()
    seq = ch
    while len(seq) < 3:
        if tty and not select.select([fd], [], [], ESCAPE_WAIT)[0]:
            break
        nxt = os.read(fd, 1).decode(errors="replace")
        if nxt == "":
            break
        seq += nxt
        if len(seq) == 2 and nxt not in "[O":
            break
    return ARROWS.get(seq, seq)
