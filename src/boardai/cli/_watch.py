"""What ``boardai 2048 watch``, ``boardai othello watch`` and ``boardai replay`` share: a game
shown move by move (the turns of :mod:`boardai.arena.play`, or a record's frames), drawn in
place on a terminal, a pause between moves."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from rich.console import RenderableType

T = TypeVar("T")

#: The most frames a second a game at full speed (``--delay 0``) is drawn at.
MAX_FPS = 30


def add_watch_options(p: argparse.ArgumentParser, delay: float) -> None:
    """The options of a command that shows one game played: ``--delay`` (``delay`` seconds by
    default) and ``--record``."""
    from boardai.cli._common import nonneg_float, output_option

    p.add_argument(
        "--delay",
        type=nonneg_float,
        default=delay,
        help=f"seconds between moves on a terminal (default {delay:g}; 0: full speed)",
    )
    output_option(p, "--record", metavar="FILE", help="write the game's replay record (JSON lines)")


def watch(
    turns: Iterable[T],
    screen: Callable[[str], RenderableType],
    note: Callable[[T], str],
    delay: float,
    waiting: str,
    done: str,
) -> bool:
    """Go through ``turns`` to the end, drawing ``screen(line)`` after each on a terminal.

    ``note(turn)`` is called after every turn (terminal or not) and gives the line under the
    board; ``waiting`` is that line before the first move, ``done`` is added after the last.
    Off a terminal nothing is drawn (the caller prints the end) and nobody waits.

    Returns:
        True when Ctrl-C stopped the game (it stands where it was), False at its end.
    """
    if not sys.stdout.isatty():
        try:
            for turn in turns:
                note(turn)
        except KeyboardInterrupt:
            return True
        return False

    from rich.live import Live

    from boardai.cli._common import console

    line = waiting
    try:
        with Live(screen(line), console=console(), auto_refresh=False) as live:
            last_draw = 0.0
            for turn in turns:
                line = note(turn)
                now = time.perf_counter()
                if delay > 0 or now - last_draw > 1 / MAX_FPS:
                    live.update(screen(line), refresh=True)
                    last_draw = now
                if delay > 0:
                    time.sleep(delay)
            live.update(screen(f"{line}   {done}"), refresh=True)
    except KeyboardInterrupt:
        return True
    return False
