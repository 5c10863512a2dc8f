"""The one runner: the same games whatever the backend, worker count and chunk size (both
games), results sorted by index, and Ctrl-C keeping the finished games."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Generator, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from boardai.arena import play_games, play_match, runner
from boardai.arena.backends import InProcess, ProcessPool, Task
from boardai.arena.match import Match, run_match
from boardai.arena.solo import Solo
from tests.arena.untimed import untimed_outcomes

SRC = Path(__file__).parents[2] / "src"


def _untimed(run: Any) -> list[Any]:
    return [replace(r, seconds=0.0, cpu_seconds=0.0) for r in run.results]


def test_2048_same_games_whatever_the_workers_and_chunks() -> None:
    base = play_games("greedy", 9, seed=11, workers=1, chunk=9)
    assert [r.index for r in base.results] == list(range(9))
    for workers, chunk in ((1, 1), (1, 4), (2, 1), (2, 4)):
        other = play_games("greedy", 9, seed=11, workers=workers, chunk=chunk)
        assert _untimed(other) == _untimed(base), (workers, chunk)
    assert len({r.score for r in base.results}) > 1  # the games differ from one another


def test_othello_same_games_whatever_the_workers_and_chunks() -> None:
    def games(workers: int, chunk: int) -> list[Any]:
        return run_match(
            "wpc", "random", 10, epsilon=0.2, seed=4, workers=workers, chunk=chunk,
            keep_records=True,
        ).results  # fmt: skip

    base = games(1, 10)
    assert [o.index for o in base] == list(range(10))
    for workers, chunk in ((1, 1), (1, 3), (2, 1), (2, 3)):
        assert untimed_outcomes(games(workers, chunk)) == untimed_outcomes(base), (workers, chunk)
    moves = [o.record["moves"] for o in base if o.record is not None]
    assert len({tuple(m) for m in moves}) == 10  # every game its own


def test_the_double_game_rule() -> None:
    # Game i belongs to pair i // 2 (i without swapping); a pair's seed g draws the random
    # moves and reseeds A with g and B with g + 1, whatever colour each plays.
    from boardai.arena.match import play_game
    from boardai.arena.seeding import pair_seed
    from boardai.othello.agents import make_agent

    swapped = run_match("random", "wpc", 4, epsilon=0.3, seed=9, keep_records=True).results
    fixed = run_match(
        "random", "wpc", 2, epsilon=0.3, seed=9, swap=False, keep_records=True
    ).results
    assert [o.a_color for o in swapped] == [0, 1, 0, 1] and [o.a_color for o in fixed] == [0, 0]
    moves = [[o.record["moves"] for o in run if o.record] for run in (swapped, fixed)]
    assert moves[1] == [moves[0][0], moves[0][2]]  # A black in pair p: the same game
    g = pair_seed(9, 1)
    game, _ = play_game(make_agent("wpc", g + 1), make_agent("random", g), epsilon=0.3, seed=g)
    assert game.move_texts() == moves[0][3]  # game 3: pair 1, B black


class _Squares:
    """A contest whose game ``i`` scores ``i * i`` (no players)."""

    def build(self) -> list[Any]:
        return []

    def play(self, players: list[Any], index: int) -> int:
        return index * index


@dataclass
class _Reversed:
    """A backend that runs the chunks last first (a cluster finishes them in any order)."""

    def map_chunks(
        self, task: Task[Any], chunks: Iterable[Sequence[int]]
    ) -> Generator[tuple[Sequence[int], Any], None, None]:
        for chunk in reversed(list(chunks)):
            yield chunk, task(chunk)


def test_results_come_sorted_and_the_callback_sees_each_once() -> None:
    seen: list[int] = []
    done = runner.run(
        _Squares(), 10, backend=_Reversed(), chunk=3, on_result=lambda i, r: seen.append(i)
    )
    assert done.results == [i * i for i in range(10)] and not done.interrupted
    assert seen == [9, 6, 7, 8, 3, 4, 5, 0, 1, 2]


def test_chunks_follow_the_time_a_game_takes() -> None:
    fixed = runner.Chunks([0, 1, 2, 4, 5, 6, 7], 3)
    fixed.timed(3, 100.0)  # a fixed size ignores the timings
    assert list(fixed) == [[0, 1, 2], [4, 5, 6], [7]]
    with pytest.raises(ValueError, match="chunk size"):
        runner.Chunks([0], 0)
    chunks = runner.Chunks(range(100))
    assert [next(chunks), next(chunks)] == [[0], [1]]  # nothing timed yet: one game each
    chunks.timed(1, 30.0)  # slow games stay one a chunk (a Ctrl-C loses one game a worker)
    chunks.timed(1, 10.0)
    assert next(chunks) == [2]
    fast = runner.Chunks(range(100))
    fast.timed(2, 1e-4)  # fast games: the most a chunk holds
    assert fast.size() == runner.MAX_CHUNK
    c = runner.Chunks(range(100))
    c.timed(10, 10 * runner.CHUNK_SECONDS / 5)  # five games take a chunk's time
    assert next(c) == [0, 1, 2, 3, 4]


def test_a_run_times_its_chunks_and_grows_them() -> None:
    sizes: list[int] = []

    @dataclass
    class _Recording:
        def map_chunks(
            self, task: Task[Any], chunks: Iterable[Sequence[int]]
        ) -> Generator[tuple[Sequence[int], Any], None, None]:
            for chunk in chunks:  # lazily: each chunk sized after the ones before
                sizes.append(len(chunk))
                yield chunk, task(chunk)

    done = runner.run(_Squares(), 40, backend=_Recording())
    assert done.results == [i * i for i in range(40)]
    assert sizes[0] == 1 and max(sizes) == runner.MAX_CHUNK and sum(sizes) == 40


def test_ctrl_c_keeps_the_finished_games_in_process() -> None:
    def stop_at_game_4(index: int, result: int) -> None:
        if index == 4:
            raise KeyboardInterrupt

    done = runner.run(_Squares(), 12, backend=InProcess(), chunk=2, on_result=stop_at_game_4)
    assert done.interrupted and done.results == [0, 1, 4, 9, 16]


def test_a_run_of_very_many_games_lists_none_ahead() -> None:
    # --games 100000000 built a list of every index first: 14 s and some 4 GB before a game
    def stop_at_game_4(index: int, result: int) -> None:
        if index == 4:
            raise KeyboardInterrupt

    done = runner.run(_Squares(), 10**15, backend=InProcess(), chunk=2, on_result=stop_at_game_4)
    assert done.interrupted and done.results == [0, 1, 4, 9, 16]
    part = runner.run(_Squares(), 10**15, backend=InProcess(), part=range(10**14, 10**14 + 3))
    assert part.results == [i * i for i in range(10**14, 10**14 + 3)]


def test_play_match_passes_ctrl_c_on() -> None:
    # a training run's evaluation match: Ctrl-C must reach the trainer (it saves its model)
    def stop(outcome: Any) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        play_match("random", "random", 4, on_game=stop)


def test_ctrl_c_over_a_process_pool_keeps_finished_games_and_stops_the_workers() -> None:
    # A real SIGINT to the parent while two workers play (they ignore it; the parent stops
    # them), in a fresh interpreter so that pytest's own process is not interrupted.
    # A shell that starts a job in the background without job control (nohup ... &) makes
    # it ignore SIGINT, and so this interpreter: put Python's handler back.
    script = """
import json, os, signal, sys
import multiprocessing
from boardai.arena import play_games

signal.signal(signal.SIGINT, signal.default_int_handler)

def on_result(result, record):
    if not sent:
        sent.append(1)
        os.kill(os.getpid(), signal.SIGINT)

sent = []
run = play_games("random", 4000, seed=2, workers=2, on_result=on_result)
print(json.dumps({
    "interrupted": run.interrupted,
    "indices": [r.index for r in run.results],
    "scores": [r.score for r in run.results],
    "children": len(multiprocessing.active_children()),
}))
"""
    env = {"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"}
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=env
    )
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got["interrupted"] and got["children"] == 0, (got["interrupted"], got["children"])
    indices = got["indices"]
    assert 0 < len(indices) < 4000 and indices == sorted(indices)
    contest = Solo("random", seed=2)
    players = contest.build()
    for i, score in list(zip(indices, got["scores"], strict=True))[-3:]:
        assert contest.play(players, i)[0].score == score  # the run's own games


def test_contests_pickle_and_compare_by_value() -> None:
    import pickle

    m = Match("wpc", "random", 0.1, 3)
    assert pickle.loads(pickle.dumps(m)) == m
    assert pickle.loads(pickle.dumps(Solo("greedy", 1, True))) == Solo("greedy", 1, True)


def test_a_bad_player_in_a_worker_is_the_same_usage_error() -> None:
    from boardai.errors import UsageError

    with pytest.raises(UsageError, match="nosuch"):
        runner.run(Match("wpc", "nosuch"), 4, backend=ProcessPool(2))


def test_a_pool_that_hangs_in_terminate_is_killed_after_its_patience() -> None:
    # Pool.terminate can deadlock (python/cpython#73945): stopping a pool must not hang.
    import multiprocessing
    import threading
    import time

    from boardai.arena.backends import _stop

    class HangingPool:
        """What _stop uses of a Pool, with a terminate that never returns."""

        def __init__(self) -> None:
            ctx = multiprocessing.get_context("spawn")
            self._pool = [ctx.Process(target=time.sleep, args=(600,)) for _ in range(2)]
            for w in self._pool:
                w.start()

        def terminate(self) -> None:
            threading.Event().wait()

        def join(self) -> None:
            pass

    pool = HangingPool()
    t0 = time.monotonic()
    _stop(pool, patience=1.0)  # type: ignore[arg-type]
    assert time.monotonic() - t0 < 30
    for w in pool._pool:
        w.join(30)
        assert w.exitcode is not None  # killed
