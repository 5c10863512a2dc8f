"""What the commands that show a game share before its first move: the players are built and
make one move each off the record, so that numba compiles (first use on a machine) or loads
(later runs) their kernels before the game's clock starts, and a compile says so on stderr
instead of leaving the screen blank for a minute.

The note is printed only when numba really compiles: ``numba:compile`` is the event numba
raises on a cache miss only (a kernel loaded from its cache raises none), so a slow warm start on
a busy machine is not told "first run only".
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TextIO

#: Said on stderr once the players have taken :data:`NOTE_AFTER_S` seconds to get ready and
#: numba has been compiling meanwhile.
COMPILE_NOTE = "compiling the search for this machine (first run only; about a minute)..."
#: A warm start (kernels loaded from numba's cache) takes under this on a quiet machine.
NOTE_AFTER_S = 2.0
#: The thinking time of a search's warm-up move (its first depths compile all it uses).
WARM_UP_S = 0.05


@contextmanager
def noting_compiles(
    after: float | None = None, note: str = COMPILE_NOTE, out: TextIO | None = None
) -> Iterator[None]:
    """Run the body; once it has taken ``after`` seconds (default :data:`NOTE_AFTER_S`), and
    numba has compiled a kernel since it began, print ``note`` on ``out`` (default stderr),
    once."""
    from numba.core import event

    after = NOTE_AFTER_S if after is None else after
    start = time.monotonic()
    done = threading.Event()
    lock = threading.Lock()
    state = {"compiled": False, "said": False}

    def say_if_due() -> None:
        with lock:
            if state["compiled"] and not state["said"] and time.monotonic() - start >= after:
                state["said"] = True
                print(note, file=out or sys.stderr, flush=True)

    class Compiles(event.Listener):
        def on_start(self, ev: Any) -> None:
            state["compiled"] = True
            say_if_due()

        def on_end(self, ev: Any) -> None:
            say_if_due()

    def watch() -> None:
        if done.wait(after):
            return
        while not done.wait(0.1) and not state["said"]:
            say_if_due()

    watcher = threading.Thread(target=watch, name="boardai-first-use", daemon=True)
    with event.install_listener("numba:compile", Compiles()):
        watcher.start()
        try:
            yield
        finally:
            done.set()
            watcher.join()


def warm_up(
    players: Sequence[Any],
    state: Any,
    seeds: Sequence[int | None],
    skip: Sequence[bool] = (),
) -> None:
    """One move of each player on ``state`` (a start position; boards are values, so it stays
    as it was), then each is reseeded with its seed (where it has one) and reset: by the
    :class:`~boardai.agent.Agent` contract it then plays exactly the game it would have played
    unwarmed. A search that takes a time limit (:class:`~boardai.agent.Timed`) has
    :data:`WARM_UP_S` for it: its kernels compile whatever its depth, and a deep setting does
    not think a whole move before the game. Skipped: a player holding an engine's process
    (:class:`~boardai.agent.Closable`: it compiles nothing, and its move would cost the
    engine's own thinking time), and those ``skip`` marks (a setting slow enough to be warned
    about: a move's thinking would dwarf any compile)."""
    from boardai.agent import Closable, Timed

    for k, (player, seed) in enumerate(zip(players, seeds, strict=True)):
        if isinstance(player, Closable) or (k < len(skip) and skip[k]):
            continue
        timed = isinstance(player, Timed)
        if timed:
            player.limit_time(WARM_UP_S)
        try:
            player.act(state)
        finally:
            if timed:
                player.limit_time(None)
        if seed is not None:
            player.reseed(seed)
        player.reset()
