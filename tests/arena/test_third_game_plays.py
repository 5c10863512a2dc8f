"""A third game is played by the one game loop and the arena's runner with nothing of them
changed: the tiny Nim of ``tests/nim_game.py`` (an engine and its contract, nothing in
``src``), its players acting on its contract state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from boardai.agent import Agent
from boardai.arena import runner
from boardai.arena.play import IllegalMoveError, Turn, play
from boardai.arena.seeding import agent_seed
from boardai.contract import CHANCE, play_random, random_choice
from boardai.rng import Stream
from tests.nim_game import RULES, NimState


class RandomNim:
    """The contract's random player as an :class:`~boardai.agent.Agent` of Nim states: one
    draw of its stream a decision. Both sides share one, as :func:`play_random` does."""

    name = "random"

    def __init__(self, stream: int = 0) -> None:
        self.stream = Stream(stream)

    def act(self, state: NimState) -> int:
        return random_choice(state, self.stream)

    def reset(self) -> None:
        pass

    def reseed(self, seed: int) -> None:
        self.stream = Stream(seed)


class TakesThree:
    name = "takes-three"

    def act(self, state: NimState) -> int:
        return 3

    def reset(self) -> None:
        pass

    def reseed(self, seed: int) -> None:
        pass


def test_the_loop_plays_nim_as_the_contract_s_random_games() -> None:
    for index in range(40):
        player = RandomNim(agent_seed(7, index))
        assert isinstance(player, Agent)
        state = RULES.new(7, index)
        turns = list(play(state, [player, player]))
        want = play_random(RULES, 7, index)
        assert state.to_record() == want.to_record()
        assert state.outcome() == want.outcome() == tuple(RULES.play_random(7, index, 1)[0])
        decisions = [a for a, chance in _actions(state) if not chance]
        assert [t.action for t in turns] == decisions
        assert [t.mover for t in turns] == [i % 2 for i in range(len(turns))]


def _actions(state: NimState) -> list[tuple[int, bool]]:
    """Each action of a played game and whether it was chance's."""
    replay, out = NimState(state.seed, state.index), []
    for action in state.moves:
        out.append((action, replay.turn() == CHANCE))
        replay.apply(action)
    return out


def test_the_loop_stops_at_a_person_and_names_an_illegal_move() -> None:
    state = RULES.new(1, 0)
    turns = list(play(state, [RandomNim(5), None]))
    assert [t.mover for t in turns] == [0] and state.turn() == 1  # the person's turn
    with pytest.raises(IllegalMoveError, match="takes-three played illegal 3") as e:
        list(play(state, [None, TakesThree()]))
    assert e.value.action == 3 and state.turn() == 1  # left before the move


@dataclass(frozen=True)
class NimContest:
    """A Nim run: game ``index`` of ``seed``, the random player on both sides."""

    seed: int

    def build(self) -> list[Agent[Any]]:
        return [RandomNim()]

    def play(self, players: list[Agent[Any]], index: int) -> tuple[int, list[Turn], float]:
        player = players[0]
        player.reseed(agent_seed(self.seed, index))
        state = RULES.new(self.seed, index)
        turns = [t._replace(seconds=0.0) for t in play(state, [player, player])]
        return index, turns, state.outcome()[0]


@pytest.mark.parametrize("workers", [1, 2])
def test_the_runner_plays_a_nim_run_whatever_the_workers(workers: int) -> None:
    done = runner.run(NimContest(seed=3), 30, workers=workers, chunk=4)
    assert not done.interrupted
    assert [index for index, _, _ in done.results] == list(range(30))
    outcomes = [outcome for _, _, outcome in done.results]
    assert outcomes == list(RULES.play_random(3, 0, 30)[:, 0])
    assert {1.0, -1.0} <= set(outcomes)  # both sides win some
