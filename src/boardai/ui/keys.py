"""Reading single key presses from a terminal, or from a pipe (for scripted play and tests)."""

from __future__ import annotations

import contextlib
import os
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


def read_key(stream: IO[str] | None = None) -> str | None:
    """One key: a character, or an arrow's name ("up", ...); None at end of input."""
    stream = stream or sys.stdin
    fd = stream.fileno()
    ch = os.read(fd, 1).decode(errors="replace")
    if ch == "":
        return None
    if ch != "\x1b":
        return ch
    seq = ch
    while len(seq) < 3:
        nxt = os.read(fd, 1).decode(errors="replace")
        if nxt == "":
            break
        seq += nxt
    return ARROWS.get(seq, seq)
