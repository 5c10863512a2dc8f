"""The commands that show a game get their players ready before it: a first use that compiles
says so on stderr (the first ``othello play`` reply took 11-36 s with nothing on screen), and
the time a move they report is the moves' own (the first ``2048 watch --agent ntuple`` reported
5.27 ms a move, 0.03 ms later), while the game played is the one an unwarmed player plays."""

from __future__ import annotations

import io
import json
import re
import time
from pathlib import Path
from typing import Any

import numba
import numpy as np
import pytest

from boardai.cli import _first_use, main
from boardai.cli._first_use import COMPILE_NOTE, noting_compiles


def test_a_compile_past_the_wait_is_said_once() -> None:
    out = io.StringIO()
    with noting_compiles(after=0.0, out=out):
        numba.njit(lambda x: x + 1)(1)  # a new function: numba compiles it
        numba.njit(lambda x: x + 2)(1)
    assert out.getvalue() == COMPILE_NOTE + "\n"


def test_a_slow_start_that_compiles_nothing_says_nothing() -> None:
    """Kernels loaded from numba's cache raise no compile event: a warm start on a busy
    machine is not told "first run only"."""
    out = io.StringIO()
    with noting_compiles(after=0.05, out=out):
        time.sleep(0.3)
    assert out.getvalue() == ""


def test_a_quick_compile_says_nothing() -> None:
    out = io.StringIO()
    with noting_compiles(after=60.0, out=out):
        numba.njit(lambda x: x + 3)(1)
    assert out.getvalue() == ""


class SlowFirstMove:
    """A 2048 player wrapping ``inner`` whose first move takes ``first_s`` seconds more (as a
    first move that compiles the search does)."""

    def __init__(self, inner: Any, first_s: float) -> None:
        self.inner, self.first_s, self.name, self.moved = inner, first_s, inner.name, False

    def act(self, state: Any) -> int:
        if not self.moved:
            self.moved = True
            time.sleep(self.first_s)
        return int(self.inner.act(state))

    def reset(self) -> None:
        self.inner.reset()

    def reseed(self, seed: int) -> None:
        self.inner.reseed(seed)


def test_2048_watch_times_the_moves_not_the_first_use(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import boardai.g2048.agents as agents
    from boardai.g2048 import Game

    make = agents.make_agent
    monkeypatch.setattr(
        agents, "make_agent", lambda spec, seed=None: SlowFirstMove(make(spec, seed=seed), 1.0)
    )
    record = tmp_path / "w.jsonl"
    argv = ["2048", "watch", "--agent", "random", "--seed", "5", "--delay", "0"]
    assert main([*argv, "--record", str(record)]) == 0
    found = re.search(r"(\d+) moves, ([\d.]+) ms per move", capsys.readouterr().out)
    assert found
    assert int(found[1]) * float(found[2]) < 500  # the second of the first move is not in it
    # the warmed player played the game an unwarmed one plays: the same seed, the same moves
    game, player = Game(seed=5), make("random", seed=5)
    while not game.is_over():
        game.move(player.act(game.board))
    assert json.loads(record.read_text())["moves"] == game.to_record()["moves"]


def test_othello_watch_plays_the_game_of_unwarmed_players(tmp_path: Path) -> None:
    from boardai.arena.play import board_of, play
    from boardai.othello import Game
    from boardai.othello.agents import make_agent
    from boardai.othello.contract_game import StateOthello

    record = tmp_path / "w.jsonl"
    argv = ["othello", "watch", "--black", "random", "--white", "random", "--seed", "3"]
    assert main([*argv, "--delay", "0", "--record", str(record)]) == 0
    game = Game(players=("random", "random"))
    players = [make_agent("random", 3), make_agent("random", 4)]
    for _ in play(StateOthello(game), players, observe=board_of, rng=np.random.default_rng(3)):
        pass
    assert json.loads(record.read_text())["moves"] == game.to_record()["moves"]


@pytest.mark.parametrize(
    "argv",
    [
        ["2048", "watch", "--agent", "greedy", "--seed", "1", "--delay", "0"],
        ["othello", "watch", "--black", "wpc", "--white", "random", "--seed", "1", "--delay", "0"],
        ["othello", "play", "--ai", "wpc"],
    ],
    ids=["2048 watch", "othello watch", "othello play"],
)
def test_a_first_use_that_compiles_says_so_before_the_game(
    argv: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """While the players are built and make their first move, numba compiles (a new function
    here, as a first run compiles the search): one line on stderr, before the game."""
    import boardai.g2048.agents as agents_2048
    import boardai.othello.agents as agents_othello

    monkeypatch.setattr(_first_use, "NOTE_AFTER_S", 0.0)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))  # othello play: the person quits
    for module in (agents_2048, agents_othello):
        make = module.make_agent

        def compiling(spec: str, seed: int | None = None, make: Any = make) -> Any:
            numba.njit(lambda x: x + 4)(1)
            return make(spec, seed)

        monkeypatch.setattr(module, "make_agent", compiling)
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert err.count(COMPILE_NOTE) == 1, err


def test_a_deep_search_warms_up_in_a_moment_and_keeps_its_own_limits() -> None:
    import time

    from boardai.cli._first_use import warm_up
    from boardai.othello.agents import make_agent
    from boardai.othello.board import Board

    agent = make_agent("alphabeta:depth=60,endgame=0")  # a move of its own would not end
    start = time.perf_counter()
    warm_up([agent], Board.initial(), [None])
    assert time.perf_counter() - start < 30  # its warm-up budget, with room for a busy box
    assert agent.clock_limit is None  # the game's moves are its own again
