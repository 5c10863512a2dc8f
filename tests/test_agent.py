"""The Agent protocol is the contract of every registered player of both games: act, reset,
reseed, a name; and reseeding makes a game repeat exactly."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import pytest

from boardai.agent import Agent, Closable
from boardai.arena.match import play_game
from boardai.arena.play import board_of, play
from boardai.g2048 import Game
from boardai.g2048.agents import REGISTRY as REGISTRY_2048
from boardai.g2048.contract_game import State2048
from boardai.othello.agents import REGISTRY as REGISTRY_OTHELLO

RHINO = "/usr/games/gtp-rhino"

#: A spec of every registered player that can be built here (the learned players with the
#: shipped models they take when ``model=`` is left out).
SPECS_2048 = {
    "dqn": "dqn",
    "expectimax": "expectimax:depth=1",
    "greedy": "greedy",
    "heuristic": "heuristic",
    "ntuple": "ntuple",
    "random": "random",
}
SPECS_OTHELLO = {
    "alphabeta": "alphabeta:depth=2",
    "dqn": "dqn",
    "greedy": "greedy",
    "gtp": f"gtp:cmd={RHINO} -l 1",
    "ntuple": "ntuple",
    "random": "random",
    "wpc": "wpc",
}


def test_every_registered_player_is_listed_here() -> None:
    assert sorted(SPECS_2048) == REGISTRY_2048.names()
    assert sorted(SPECS_OTHELLO) == REGISTRY_OTHELLO.names()


def _build(registry: Any, spec: str) -> Any:
    if spec.startswith("gtp:") and not Path(RHINO).exists():
        pytest.skip("no gtp-rhino")
    if spec.startswith("dqn"):
        pytest.importorskip("torch")
    return registry.make(spec, seed=1)


@pytest.mark.parametrize(
    ("registry", "spec"),
    [(REGISTRY_2048, s) for s in SPECS_2048.values()]
    + [(REGISTRY_OTHELLO, s) for s in SPECS_OTHELLO.values()],
    ids=lambda x: x if isinstance(x, str) else x.game,
)
def test_every_player_satisfies_the_protocol(registry: Any, spec: str) -> None:
    agent = _build(registry, spec)
    try:
        assert isinstance(agent, Agent) and agent.name == spec
        for method in ("act", "reset", "reseed"):
            params = list(inspect.signature(getattr(agent, method)).parameters)
            assert len(params) == {"act": 1, "reset": 0, "reseed": 1}[method], method
    finally:
        if isinstance(agent, Closable):
            agent.close()


@pytest.mark.parametrize("spec", ["random", "greedy", "expectimax:depth=1"])
def test_reseeding_repeats_a_2048_game(spec: str) -> None:
    agent = REGISTRY_2048.make(spec, seed=0)

    def moves(seed: int) -> list[int]:
        agent.reseed(seed)
        agent.reset()
        return [turn.action for turn in play(State2048(Game(seed=5)), [agent], observe=board_of)]

    first = moves(3)
    assert moves(4) != first or spec.startswith("expectimax")  # the seed is used
    assert moves(3) == first
    fresh = REGISTRY_2048.make(spec, seed=3)
    assert [
        turn.action for turn in play(State2048(Game(seed=5)), [fresh], observe=board_of)
    ] == first


@pytest.mark.parametrize("spec", ["random", "greedy", "wpc", "alphabeta:depth=2"])
def test_reseeding_repeats_an_othello_game(spec: str) -> None:
    black, white = REGISTRY_OTHELLO.make(spec, seed=0), REGISTRY_OTHELLO.make("random", seed=0)

    def moves(seed: int) -> list[str]:
        for agent, s in ((black, seed), (white, seed + 1)):
            agent.reseed(s)
            agent.reset()
        return play_game(black, white, epsilon=0.1, seed=seed)[0].move_texts()

    first = moves(7)
    assert moves(8) != first
    assert moves(7) == first
    fresh = (REGISTRY_OTHELLO.make(spec, seed=7), REGISTRY_OTHELLO.make("random", seed=8))
    assert play_game(*fresh, epsilon=0.1, seed=7)[0].move_texts() == first
