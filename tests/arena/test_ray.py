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
from boardai.arena.solo import Played, Solo
from boardai.cli import main

TIMINGS = {"seconds", "moves_per_s", "moves_per_second", "workers"}


@pytest.fixture(scope="module", params=["local", "cluster"])
def ray_up(request: pytest.FixtureRequest) -> Iterator[str]:
    """Ray in this process: started here with 2 CPUs, or joined to a 3-node cluster."""
    ray = pytest.importorskip("ray")
    import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # SlowSolo, in the workers
    quiet: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.ERROR}
    cluster = None
    if request.param == "local":
        ray.init(num_cpus=2, include_dashboard=False, **quiet)
    else:
        from ray.cluster_utils import Cluster

        cluster = Cluster(
            initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False}
        )
        for _ in range(2):
            cluster.add_node(num_cpus=1)
        ray.init(address=cluster.address, **quiet)
        cluster.wait_for_nodes()
    yield request.param
    ray.shutdown()
    if cluster is not None:
        cluster.shutdown()


def _json(path: Path) -> Any:
    """The file without its timings (which differ between any two runs)."""

    def untimed(x: Any) -> Any:
        if isinstance(x, dict):
            return {k: untimed(v) for k, v in x.items() if k not in TIMINGS}
        if isinstance(x, list):
            return [untimed(v) for v in x]
        return x

    return untimed(json.loads(path.read_text()))


@pytest.mark.parametrize(
    "argv",
    [
        ["eval", "--agent", "greedy", "--games", "12", "--seed", "5"],
        ["compare", "--agents", "random", "greedy", "--games", "6", "--seed", "2"],
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
    on_ray = _json(tmp_path / "ray.json")
    assert on_ray == _json(tmp_path / "here.json")
    assert "results" in on_ray or "matches" in on_ray or "runs" in on_ray or "wins" in on_ray
    capsys.readouterr()


@dataclass(frozen=True)
class SlowSolo(Solo):
    """2048 games that take a while, each leaving ``PID-INDEX`` in ``folder`` as it starts."""

    folder: str = ""

    def play(self, players: list[Any], index: int) -> Played:
        Path(self.folder, f"{os.getpid()}-{index}").touch()
        time.sleep(0.05)
        return super().play(players, index)


def test_a_worker_killed_mid_run_loses_no_game_and_counts_none_twice(
    ray_up: str, tmp_path: Path
) -> None:
    from boardai.arena import runner
    from boardai.arena.ray_backend import RayBackend

    games = 30
    killed: list[tuple[int, int]] = []  # (pid, the game it was playing)
    seen: list[int] = []

    def on_result(index: int, played: Played) -> None:
        seen.append(index)
        if killed:
            return
        started = [tuple(map(int, p.name.split("-"))) for p in tmp_path.iterdir()]
        # a game that is not the last of its chunk of 3: its worker has more of the chunk to play
        back = {i // 3 for i in seen}  # the chunks (of 3) that came back
        busy = [(pid, i) for pid, i in started if i // 3 not in back and i % 3 != 2]
        if busy:
            pid, index = busy[-1]
            assert pid != os.getpid()
            os.kill(pid, signal.SIGKILL)
            killed.append((pid, index))

    contest = SlowSolo("greedy", seed=9, folder=str(tmp_path))
    done = runner.run(contest, games, workers=2, backend=RayBackend(), chunk=3, on_result=on_result)
    assert killed, "no worker was busy when the first chunk came back"
    assert not done.interrupted
    assert sorted(seen) == list(range(games))  # every game once
    assert [r.index for r, _ in done.results] == list(range(games))
    pid, index = killed[0]
    again = [p.name for p in tmp_path.iterdir() if p.name.endswith(f"-{index}")]
    assert len(again) == 2 and f"{pid}-{index}" in again  # its chunk was played again
    local = play_games("greedy", games, seed=9, workers=1)
    assert [replace(r, seconds=0.0) for r, _ in done.results] == [
        replace(r, seconds=0.0) for r in local.results
    ]


def test_without_ray_a_cluster_is_one_line_saying_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails
    assert main(["eval", "--agent", "greedy", "--games", "2", "--cluster", "local"]) == 2
    match = ["othello", "match", "--black", "wpc", "--white", "random", "--games", "2"]
    assert main([*match, "--cluster", "auto"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ['boardai: error: a cluster needs Ray: pip install "boardai[ray]"'] * 2
    assert main(["eval", "--agent", "greedy", "--games", "2", "--workers", "1"]) == 0
