"""The Ray backend: on a local Ray and on a simulated cluster of three 1-CPU nodes, every command
gives the results of a local run on the same seeds, and a worker killed mid-run loses nothing and
counts nothing twice. Without Ray, asking for a cluster is one line saying how to install it."""

from __future__ import annotations

import json
import logging
import os
import signal
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from boardai.arena import play_games
from boardai.arena.results import Played
from boardai.arena.solo import Solo
from boardai.cli import main
from tests.arena.untimed import RAY_TIMINGS, untimed

# The Ray tests run on one pytest-xdist worker, one after another (tests/conftest.py): Ray's
# starts, several processes each, are what a loaded 2-core machine struggled with.

#: Seconds a simulated cluster's nodes may take to register, all three, on a loaded machine
#: (Ray's default is 30).
NODES_UP_S = 300


@pytest.fixture(scope="module", params=["local", "cluster"])
def ray_up(request: pytest.FixtureRequest) -> Iterator[str]:
    """Ray in this process, once for the module's tests of each kind: started here with 2
    CPUs, or joined to a 3-node cluster. A node whose start times out is ended and started again
    (``start_node``), and whatever did start is shut down, even when the setup fails."""
    ray = pytest.importorskip("ray")
    import cloudpickle

    from boardai.arena.ray_backend import connect, start_node

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # SlowSolo, in the workers
    cluster = None
    try:
        if request.param == "local":
            connect("local", workers=2)
        else:
            from ray.cluster_utils import Cluster

            cluster = Cluster()
            start_node(lambda: cluster.add_node(wait=False, num_cpus=1, include_dashboard=False))
            for _ in range(2):
                start_node(lambda: cluster.add_node(wait=False, num_cpus=1))
            cluster.wait_for_nodes(timeout=NODES_UP_S)
            ray.init(address=cluster.address, log_to_driver=False, logging_level=logging.ERROR)
        yield request.param
    finally:
        ray.shutdown()
        if cluster is not None:
            cluster.shutdown()


@pytest.mark.parametrize(
    "argv",
    [
        ["2048", "eval", "--agent", "greedy", "--games", "12", "--seed", "5"],
        ["2048", "compare", "--agents", "random", "greedy", "--games", "6", "--seed", "2"],
        ["othello", "match", "--black", "wpc", "--white", "random", "--games", "10", "--seed", "3"],
        [
            "othello",
            "tournament",
            "--agents",
            "random",
            "greedy",
            "wpc",
            "--games",
            "4",
            "--epsilon",
            "0.1",
        ],
    ],
    ids=["eval", "compare", "match", "tournament"],
)
def test_commands_on_ray_give_the_local_results(
    ray_up: str, argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Ray is up in this process, so --cluster local plays on it (the local Ray or the cluster)
    assert main([*argv, "--cluster", "local", "--json", str(tmp_path / "ray.json")]) == 0
    assert main([*argv, "--workers", "1", "--json", str(tmp_path / "here.json")]) == 0
    on_ray = untimed(tmp_path / "ray.json", RAY_TIMINGS)
    assert on_ray == untimed(tmp_path / "here.json", RAY_TIMINGS)
    assert "results" in on_ray or "matches" in on_ray or "runs" in on_ray or "wins" in on_ray
    capsys.readouterr()


def test_a_sweep_on_ray_gives_the_local_results(ray_up: str, tmp_path: Path) -> None:
    from tests.train.test_sweep import TINY, untimed

    sweep = tmp_path / "tiny.toml"
    sweep.write_text(TINY)
    for where in (["--cluster", "local"], ["--workers", "1"]):
        out = tmp_path / where[0].strip("-")
        argv = ["sweep", str(sweep), "--out", str(out), *where, "--json", f"{out}.json"]
        assert main(argv) == 0
    on_ray = json.loads((tmp_path / "cluster.json").read_text())
    assert len(on_ray["results"]) == 3
    assert untimed(on_ray) == untimed(json.loads((tmp_path / "workers.json").read_text()))
    for r in on_ray["results"]:  # each trial wrote its folder (one file system here)
        assert (tmp_path / "cluster" / r["name"] / "model.npz").is_file()


@dataclass(frozen=True)
class SlowSolo(Solo):
    """2048 games that leave ``PID-INDEX`` in ``folder`` as they start; the first attempt at game
    ``stall`` then waits (for the test to kill its worker), a retry plays it."""

    folder: str = ""
    stall: int = -1

    def play(self, players: list[Any], index: int) -> Played:
        first = not any(p.name.endswith(f"-{index}") for p in Path(self.folder).iterdir())
        Path(self.folder, f"{os.getpid()}-{index}").touch()
        if index == self.stall and first:
            time.sleep(400)  # killed long before this ends (the killer gives up at 300 s)
        return super().play(players, index)


def test_a_worker_killed_mid_run_loses_no_game_and_counts_none_twice(
    ray_up: str, tmp_path: Path
) -> None:
    import threading

    from boardai.arena import runner
    from boardai.arena.ray_backend import RayBackend

    games, stall = 30, 7  # game 7: the middle of the chunk 6..8
    killed: list[int] = []

    def kill_the_stalled_worker() -> None:
        deadline = time.monotonic() + 300  # a worker's start on a loaded machine
        while time.monotonic() < deadline:
            found = [p.name for p in tmp_path.iterdir() if p.name.endswith(f"-{stall}")]
            if found:
                pid = int(found[0].split("-")[0])
                assert pid != os.getpid()
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
                return
            time.sleep(0.02)

    killer = threading.Thread(target=kill_the_stalled_worker)
    killer.start()
    seen: list[int] = []
    contest = SlowSolo("greedy", seed=9, folder=str(tmp_path), stall=stall)
    done = runner.run(
        contest,
        games,
        workers=2,
        backend=RayBackend(),
        chunk=3,
        on_result=lambda index, _: seen.append(index),
    )
    killer.join()
    assert killed, "the stalled game never started"
    assert not done.interrupted
    assert sorted(seen) == list(range(games))  # every game once
    assert [r.index for r, _ in done.results] == list(range(games))
    again = sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(f"-{stall}"))
    assert len(again) == 2 and f"{killed[0]}-{stall}" in again  # its chunk was played again
    local = play_games("greedy", games, seed=9, workers=1)
    assert [replace(r, seconds=0.0, cpu_seconds=0.0) for r, _ in done.results] == [
        replace(r, seconds=0.0, cpu_seconds=0.0) for r in local.results
    ]


def test_without_ray_a_cluster_is_one_line_saying_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from tests.train.test_sweep import TINY

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails
    assert main(["2048", "eval", "--agent", "greedy", "--games", "2", "--cluster", "local"]) == 2
    match = ["othello", "match", "--black", "wpc", "--white", "random", "--games", "2"]
    assert main([*match, "--cluster", "auto"]) == 2
    (tmp_path / "s.toml").write_text(TINY)
    assert main(["sweep", str(tmp_path / "s.toml"), "--cluster", "auto"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ['boardai: error: a cluster needs Ray: pip install "boardai[ray]"'] * 3
    assert not any((tmp_path / "s").iterdir())  # no trial started
    assert main(["2048", "eval", "--agent", "greedy", "--games", "2", "--workers", "1"]) == 0
