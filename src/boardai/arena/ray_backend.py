"""Games on a Ray cluster: the :class:`~boardai.arena.backends.Backend` that sends each chunk of
a run to a Ray task.

Ray is an optional extra (``pip install "boardai[ray]"``), imported only when a cluster is asked
for. Every game depends only on the run's seed and its index, so the results on a cluster are
exactly those of a local run with the same seed, whatever the number of nodes and workers.

Fault tolerance is Ray's: a task whose worker process or node dies is run again (``retries``
times); a chunk's results reach this process once, when its task has finished, so a chunk run
twice is never counted twice. Every node needs boardai installed (the tasks import it).
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import re
from collections.abc import Callable, Generator, Iterable, Sequence
from typing import Any, TypeVar

from boardai.arena.backends import Task
from boardai.errors import UsageError

R = TypeVar("R")

INSTALL_HINT = 'a cluster needs Ray: pip install "boardai[ray]"'

#: Seconds a stopped run waits for the chunks it asked to stop (a sweep's trials: the chunk of
#: training under way ends, then the trial saves) before it leaves Ray, which ends them.
STOP_GRACE = 120.0


def import_ray() -> Any:
    """The ``ray`` module, or a UsageError saying how to install it."""
    try:
        import ray
    except ImportError:
        raise UsageError(INSTALL_HINT) from None
    return ray


def connect(address: str, workers: int | None = None) -> Any:
    """Join or start Ray, quietly (no worker logs, no dashboard for a local one): ``local``
    starts Ray on this machine (``workers`` CPUs, default all), ``auto`` joins the cluster this
    machine is part of (``ray start``), anything else is a head address (``HOST:6379`` or
    ``ray://HOST:10001``). Does nothing if Ray is already up in this process."""
    ray = import_ray()
    if ray.is_initialized():
        return ray
    quiet: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.ERROR}
    try:
        if address == "local":
            start_node(lambda: ray.init(num_cpus=workers, include_dashboard=False, **quiet))
        else:
            ray.init(address=address, **quiet)
    except (ConnectionError, ValueError, RuntimeError) as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise UsageError(
            f"cannot join the Ray cluster at {address!r}: {_in_our_words(first)}"
        ) from None
    return ray


def _in_our_words(said: str) -> str:
    """Ray's error, with the ``--address`` flag of Ray's own commands (which boardai has not)
    told as boardai's ``--cluster``; "no running Ray instance" says how to start one."""
    if "Could not find any running Ray instance" in said:
        return (
            "no Ray cluster is running on this machine: start one with `ray start --head`, "
            "or give --cluster HOST:PORT (a cluster's head) or --cluster local"
        )
    return re.sub(r"(the )?`?--address`? flag", "--cluster HOST:PORT", said)


#: Tries at starting a Ray node on this machine. Ray gives a new node's raylet a fixed 30 s to
#: register ("The current node timed out during startup"), which a loaded 2-core machine can
#: miss while Ray's own processes start; such a start is ended and made again.
START_TRIES = 3


def start_node(start: Callable[[], R]) -> R:
    """``start()`` (``ray.init`` of a local Ray, a test cluster's ``add_node``), made again
    after a start that timed out, whose processes are ended first (Ray leaves them running, and
    their reaper ends them only when this process ends). The last timeout is a RuntimeError
    saying how many starts timed out."""
    tries = 0
    while True:
        tries += 1
        try:
            return start()
        except Exception as e:  # Ray raises a bare Exception for this one
            if "timed out during startup" not in str(e):
                raise
            _end_failed_node(e)
            if tries == START_TRIES:
                raise RuntimeError(
                    f"Ray's start on this machine timed out {tries} times (a busy machine?)"
                ) from e


def _end_failed_node(e: BaseException) -> None:
    """End (and reap) the processes of the Ray node whose start raised ``e``: the node object
    is no longer referenced but by the frames of ``e``'s traceback."""
    from ray._private.node import Node

    tb = e.__traceback__
    while tb is not None:
        node = tb.tb_frame.f_locals.get("self")
        if isinstance(node, Node):
            node.kill_all_processes(check_alive=False, allow_graceful=False, wait=True)
            return
        tb = tb.tb_next


class RayBackend:
    """Runs every chunk as a Ray task (one CPU each), yielding chunks as they finish.

    Args:
        address: ``local``, ``auto`` or a head address (see :func:`connect`).
        workers: with ``local``, the CPUs Ray may use (default: all of this machine's).
        retries: how often a task whose worker or node died is run again.
        notify: told, in a line, when a stopped run waits for its tasks to save.
    """

    def __init__(
        self,
        address: str = "local",
        workers: int | None = None,
        retries: int = 3,
        notify: Callable[[str], None] | None = None,
    ):
        self.address = address
        self.workers = workers
        self.retries = retries
        self.notify = notify
        self.shares_files = address == "local"  # a cluster's nodes have their own disks
        self._joined = False  # whether this backend started or joined Ray in this process

    def _connect(self) -> Any:
        fresh = not import_ray().is_initialized()
        ray = connect(self.address, self.workers)
        self._joined = self._joined or fresh
        return ray

    def cpus(self) -> int:
        """The CPUs of the cluster (joining it if this process has not yet)."""
        ray = self._connect()
        return max(1, int(ray.cluster_resources().get("CPU", 1)))

    def map_chunks(
        self, task: Task[R], chunks: Iterable[Sequence[int]]
    ) -> Generator[tuple[Sequence[int], R], None, None]:
        todo = iter(chunks)
        first = next(todo, None)
        if first is None:
            return
        ray = self._connect()
        remote = ray.remote(num_cpus=1, max_retries=self.retries)(_play_chunk)
        task_ref = ray.put(task)
        pending: dict[Any, Sequence[int]] = {}

        def submit(chunk: Sequence[int] | None) -> None:
            if chunk is not None:
                pending[remote.remote(task_ref, list(chunk))] = chunk

        submit(first)
        for chunk in itertools.islice(todo, 2 * self.cpus() - 1):  # two a CPU in flight
            submit(chunk)
        try:
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    chunk = pending.pop(ref)
                    try:
                        result = ray.get(ref)
                    except ray.exceptions.RayTaskError as e:
                        raise e.cause from None  # the task's own error, as the pool gives it
                    yield chunk, result
                    submit(next(todo, None))
        finally:  # Ctrl-C, an error, or the caller stopped early: stop what is left
            if pending:
                self._let_finish(ray, task, list(pending))
            if pending and self._joined:
                # This backend's own Ray session: leave it, which ends the tasks with it.
                # (Cancelling a running task races with its reply inside Ray 2.60, which then
                # aborts the process at exit: "Tried to complete task that was not pending".)
                ray.shutdown()
                self._joined = False
            else:  # a session the caller holds (and may go on using): cancel ours
                for ref in pending:
                    ray.cancel(ref)

    def _let_finish(self, ray: Any, task: Task[R], pending: list[Any]) -> None:
        """Ask ``task`` to stop its chunks under way (``task.stop()``, where it has one: a
        sweep's trials then save), and wait for them, :data:`STOP_GRACE` seconds at most;
        Ctrl-C again stops the wait. Their results are not read: the run has ended."""
        stop = getattr(task, "stop", None)
        if stop is None or not stop():
            return
        if self.notify is not None:
            self.notify(
                f"stopping: waiting for the {len(pending)} tasks under way to save "
                f"(at most {STOP_GRACE:.0f} s; Ctrl-C again to stop at once)"
            )
        with contextlib.suppress(KeyboardInterrupt):  # asked again: leave now
            ray.wait(pending, num_returns=len(pending), timeout=STOP_GRACE)


def _play_chunk(task: Task[R], chunk: list[int]) -> R:
    return task(chunk)
