"""Starting Ray on a loaded machine: a node that misses Ray's fixed 30 s to register ("The
current node timed out during startup") is ended, its processes reaped, and started again;
after the last try the command says so in a line."""

from __future__ import annotations

import sys
import time
from typing import Any, ClassVar

import pytest

ray = pytest.importorskip("ray")

from ray._private.node import Node  # noqa: E402

from boardai.arena import ray_backend  # noqa: E402
from boardai.arena.ray_backend import START_TRIES, start_node  # noqa: E402
from boardai.cli import main  # noqa: E402

TIMED_OUT = (
    "The current node timed out during startup. This could happen because some of the raylet "
    "failed to startup or the GCS has become overloaded."
)


class StalledNode(Node):
    """A node whose start raises what Ray raises when its raylet never registers (or, with
    ``fail=False``, one that started); ``ended`` counts the processes ended."""

    ended: ClassVar[list[dict[str, Any]]] = []

    def __init__(self, fail: bool, error: str = TIMED_OUT) -> None:
        if fail:
            raise Exception(error)  # as Ray's Node.__init__ does

    def kill_all_processes(self, **how: Any) -> None:
        StalledNode.ended.append(how)


@pytest.fixture(autouse=True)
def _no_ended() -> None:
    StalledNode.ended.clear()


def test_a_start_that_times_out_is_ended_and_made_again() -> None:
    fails = iter([True, True, False])
    node = start_node(lambda: StalledNode(next(fails)))
    assert isinstance(node, StalledNode)
    assert StalledNode.ended == [{"check_alive": False, "allow_graceful": False, "wait": True}] * 2


def test_the_last_timeout_says_how_many_starts_timed_out() -> None:
    with pytest.raises(RuntimeError, match=f"timed out {START_TRIES} times") as e:
        start_node(lambda: StalledNode(True))
    assert len(StalledNode.ended) == START_TRIES
    assert "timed out during startup" in str(e.value.__cause__)


def test_another_failure_is_raised_at_once() -> None:
    with pytest.raises(Exception, match="no such thing"):
        start_node(lambda: StalledNode(True, error="no such thing"))
    assert StalledNode.ended == []


def test_a_command_whose_ray_never_starts_says_so_in_a_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", lambda **_: StalledNode(True))
    argv = ["2048", "eval", "--agent", "random", "--games", "2", "--cluster", "local"]
    assert main(argv) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("boardai: error: ") and f"timed out {START_TRIES} times" in line
    assert len(StalledNode.ended) == START_TRIES


@pytest.mark.slow
def test_a_real_node_that_never_registers_is_ended_and_ray_starts_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ray's own start, its first node made to time out at once: every process it started is
    reaped (no ResourceWarning later), and the second start plays a task."""
    import ray._private.node as node_module

    real_get_node = ray._private.services.get_node
    started: list[Any] = []  # the Popen objects of the first node's processes
    jump = [0.0]

    def get_node(*args: Any, **kwargs: Any) -> Any:
        if not jump[0]:  # the first node never registers, and its 30 s are up at once
            node = sys._getframe(1).f_locals["self"]
            started.extend(i.process for infos in node.all_processes.values() for i in infos)
            jump[0] = 1000.0
            raise RuntimeError("no such node")
        return real_get_node(*args, **kwargs)

    class Clock:
        def __getattr__(self, name: str) -> Any:
            return getattr(time, name)

        def monotonic(self) -> float:
            return time.monotonic() + jump[0]

    monkeypatch.setattr(ray._private.services, "get_node", get_node)
    monkeypatch.setattr(node_module, "time", Clock())
    try:
        ray_backend.connect("local", workers=1)
        assert ray.get(ray.remote(lambda: 7).remote()) == 7
    finally:
        ray.shutdown()
    assert len(started) >= 3  # the reaper, the GCS, the raylet, ...
    assert all(process.returncode is not None for process in started)  # ended and reaped
