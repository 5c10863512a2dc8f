"""Where the games of a run are played: a backend maps a task over chunks of game indices.

A backend knows nothing of games. :func:`boardai.arena.runner.run` cuts the indices of a run
into chunks and gives a backend a picklable ``task(chunk)`` (it returns the chunk's results,
one per index in the chunk's order, and the seconds they took); the backend runs the task on
every chunk, wherever it likes, and yields each chunk with its results as soon as they are
done, in any order. As every game depends only on its index and the run's seed, where and in
what order the chunks run changes nothing.

The chunks come as an iterator that the backend reads as it hands work out, in the thread
that reads the backend's results, and at most two chunks a worker ahead of them: the runner
sizes each chunk from how long the games before it took (:class:`~boardai.arena.runner.Chunks`).

>>> list(InProcess().map_chunks(lambda c: [i * i for i in c], [[0, 1], [2]]))
[([0, 1], [0, 1]), ([2], [4])]

A cluster backend (Ray) implements the same :class:`Backend` protocol.
"""

from __future__ import annotations

import itertools
import multiprocessing
import multiprocessing.pool
import os
import queue
import signal
from collections.abc import Callable, Generator, Iterable, Sequence
from typing import Generic, Protocol, TypeVar

R = TypeVar("R")

#: ``task(chunk)``: plays the games of a chunk of indices; what it returns comes back as it is
#: (the runner's task: the chunk's results, one per index, and the seconds they took).
Task = Callable[[Sequence[int]], R]


class Backend(Protocol):
    """Runs a task over chunks of game indices.

    Attributes:
        shares_files: whether the tasks run where this process's files are (this machine):
            then a task may leave files for a later run to read (a game cut short).
    """

    shares_files: bool

    def map_chunks(
        self, task: Task[R], chunks: Iterable[Sequence[int]]
    ) -> Generator[tuple[Sequence[int], R], None, None]:
        """Yield ``(chunk, task(chunk))`` for every chunk as each is done, in any order;
        closing the generator stops the work still under way. ``chunks`` is read lazily, a
        chunk when a worker is about to need it, in the thread that reads the results.

        An exception of a task is raised here (as it was raised there). On KeyboardInterrupt
        (Ctrl-C, SIGTERM in the commands) the backend stops the work still under way and
        raises it; the chunks yielded before stay done.
        """
        ...


class InProcess:
    """Plays the chunks one after another in this process (no start-up cost, no pickling)."""

    shares_files = True

    def map_chunks(
        self, task: Task[R], chunks: Iterable[Sequence[int]]
    ) -> Generator[tuple[Sequence[int], R], None, None]:
        for chunk in chunks:
            yield chunk, task(chunk)


class ProcessPool:
    """Plays the chunks over a pool of fresh worker processes (spawned, not forked: no state of
    this process leaks into them, and numba and torch behave as in a new interpreter).

    Args:
        workers: processes (at most one per chunk is started).
    """

    shares_files = True

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise ValueError(f"workers must be >= 1, got {workers}")
        self.workers = workers

    def map_chunks(
        self, task: Task[R], chunks: Iterable[Sequence[int]]
    ) -> Generator[tuple[Sequence[int], R], None, None]:
        pending = iter(chunks)
        first = list(itertools.islice(pending, self.workers))
        if not first:
            return
        ctx = multiprocessing.get_context("spawn")
        pool = ctx.Pool(len(first), initializer=_start_worker)
        tagged = _Tagged(task)
        done: queue.Queue[tuple[Sequence[int], R] | _Failed] = queue.Queue()
        in_flight = 0

        def submit(chunk: Sequence[int]) -> None:
            nonlocal in_flight
            pool.apply_async(
                tagged, (chunk,), callback=done.put, error_callback=lambda e: done.put(_Failed(e))
            )
            in_flight += 1

        try:
            # every worker busy with one chunk and the next one queued
            for chunk in itertools.chain(first, itertools.islice(pending, len(first))):
                submit(chunk)
            while in_flight:
                item = done.get()  # Ctrl-C interrupts the wait
                in_flight -= 1
                if isinstance(item, _Failed):
                    raise item.error
                yield item
                following = next(pending, None)
                if following is not None:
                    submit(following)
        except BaseException:  # Ctrl-C, a task's error, or the caller stopped early
            _stop(pool)
            raise
        pool.close()  # let the workers finish cleanly (their players close their engines)
        pool.join()


class _Tagged(Generic[R]):
    """``task`` returning its chunk beside its results (a class, so that it pickles)."""

    def __init__(self, task: Task[R]) -> None:
        self.task = task

    def __call__(self, chunk: Sequence[int]) -> tuple[Sequence[int], R]:
        global _in_task
        _in_task = True
        try:
            return chunk, self.task(chunk)
        except WorkerStopped:  # the task has kept what it could: leave without a traceback
            os._exit(0)
        finally:
            _in_task = False


class _Failed:
    """A task's exception, as the pool's error callback hands it over."""

    def __init__(self, error: BaseException) -> None:
        self.error = error


def _stop(pool: multiprocessing.pool.Pool, patience: float = 10.0) -> None:
    """``pool.terminate()`` and ``join()``, within ``patience`` seconds: ``terminate`` can
    deadlock on the lock of the task queue (python/cpython#73945, seen once here in a test's
    pool of two); past that, the workers are killed and the pool's threads left behind (they
    are daemons, and its finalizer has already run). A second Ctrl-C meanwhile does not cut
    the stop short (it would leave the pool running, its workers too)."""
    import contextlib
    import threading
    import time

    def stop() -> None:
        pool.terminate()
        pool.join()

    stopper = threading.Thread(target=stop, daemon=True)
    stopper.start()
    deadline = time.monotonic() + patience
    while stopper.is_alive() and time.monotonic() < deadline:
        # Ctrl-C again: the pool is being stopped already
        with contextlib.suppress(KeyboardInterrupt):
            stopper.join(max(0.0, deadline - time.monotonic()))
    if stopper.is_alive():
        for worker in list(getattr(pool, "_pool", [])):
            worker.kill()


class WorkerStopped(KeyboardInterrupt):
    """Raised in a pool worker's task when the pool stops the worker (``terminate()``'s SIGTERM,
    on Ctrl-C in the parent or when the parent stops early). A KeyboardInterrupt, so a task
    keeps what it would keep on Ctrl-C in one process (a 2048 game saves its position); then
    the worker exits quietly."""


#: Whether this worker is running a task (a SIGTERM then interrupts the task, else it ends the
#: worker at once, as by default).
_in_task = False


def _start_worker() -> None:
    # Ctrl-C goes to the whole process group: the parent alone handles it, then stops the pool.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _on_sigterm)


def _on_sigterm(signum: int, frame: object) -> None:
    if _in_task:
        raise WorkerStopped
    os._exit(128 + signum)


def backend_for(workers: int, games: int) -> Backend:
    """The local backend for ``workers`` processes: this process for one worker or one game,
    else a process pool."""
    return InProcess() if workers <= 1 or games <= 1 else ProcessPool(workers)
