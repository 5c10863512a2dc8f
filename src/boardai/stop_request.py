"""A request, written as a file, that work running where no Ctrl-C reaches stop and save.

A run on Ray stopped by Ctrl-C cannot signal its workers: it writes a small file instead
(:func:`ask`), and each piece of work under way looks at it now and then (:func:`looker`),
saves what it has and stops. Both arena runs (games cut short) and sweeps (trials) ask this
way. The file's text says which run is asked, where an old file could be read by a newer run
(a sweep's trials look for their run's id).

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "stop")
>>> asked = looker(path, "run-a", every=0.0)
>>> asked()
False
>>> ask(path, "run-a")
>>> asked(), looker(path, "run-b", every=0.0)(), looker(path, every=0.0)()
(True, False, True)
"""

from __future__ import annotations

import contextlib
import math
import os
import time
from collections.abc import Callable

#: Seconds between two looks at a request's file (a read of a small file, maybe on a network
#: disk): the most a piece of work plays on after it was asked, besides its own step.
LOOK_EVERY = 0.5


def ask(path: str | os.PathLike[str], text: str = "stop") -> None:
    """Ask the work that looks at ``path`` (with ``text``, or with none) to stop, atomically.

    Raises:
        OSError: the file could not be written.
    """
    from boardai.atomic import atomic_write

    with atomic_write(path, "w", encoding="utf-8") as f:
        f.write(text)


def looker(
    path: str | os.PathLike[str], text: str | None = None, *, every: float | None = None
) -> Callable[[], bool]:
    """A function telling whether :func:`ask` has asked ``path``'s work to stop: a file there
    whose text is ``text`` (any text when None). It looks no more often than every ``every``
    seconds (:data:`LOOK_EVERY` when None, read at each call, so tests can set it); once
    asked, always."""
    last, asked = -math.inf, False

    def check() -> bool:
        nonlocal last, asked
        if asked:
            return True
        now = time.monotonic()
        if now - last >= (LOOK_EVERY if every is None else every):
            last = now
            with contextlib.suppress(OSError), open(path, encoding="utf-8") as f:
                asked = text is None or f.read() == text
        return asked

    return check
