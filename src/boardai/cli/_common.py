"""Small pieces the command modules share: argument types, the console, progress bars."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress


def _int_at_least(low: int, text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < low:
        raise argparse.ArgumentTypeError(f"{value} is not >= {low}")
    return value


def positive_int(text: str) -> int:
    """argparse type: an integer >= 1."""
    return _int_at_least(1, text)


def nonneg_int(text: str) -> int:
    """argparse type: an integer >= 0."""
    return _int_at_least(0, text)


def probability(text: str) -> float:
    """argparse type: a float in [0, 1]."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{value} is not in [0, 1]")
    return value


def default_workers() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


@contextlib.contextmanager
def sigterm_as_ctrl_c() -> Iterator[None]:
    """While inside, SIGTERM (``kill``, ``timeout``, a job scheduler) stops the work as Ctrl-C
    does: a KeyboardInterrupt in the main thread, so a training run saves its model and the
    command exits 130. Outside the main thread this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


def console(stderr: bool = False) -> Console:
    """A rich console (plain text when the output is not a terminal)."""
    from rich.console import Console

    return Console(stderr=stderr, highlight=False)


def progress(*columns_extra: Any, transient: bool = False) -> Progress:
    """A progress bar on stderr: description, bar, done/total, rate extras, time left."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        *columns_extra,
        TimeRemainingColumn(),
        console=console(stderr=True),
        transient=transient,
    )


def write_json(path: str | Path, data: Any) -> None:
    """Write ``data`` as indented JSON, atomically."""
    from boardai.atomic import atomic_write

    with atomic_write(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2)
        f.write("\n")
