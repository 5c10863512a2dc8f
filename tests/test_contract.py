"""The game contract's conformance test (like pgx's ``api_test``), run against every game:
2048, Othello, and a tiny test game that lives only in tests (``tests/nim_game.py``)."""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardai.contract import CHANCE, TERMINAL, Rules, State, play_random, random_choice
from boardai.g2048.contract_game import RULES as RULES_2048
from boardai.othello.contract_game import RULES as RULES_OTHELLO
from boardai.rng import Stream, player_stream
from tests.nim_game import RULES as RULES_NIM

GAMES: list[Rules] = [RULES_2048, RULES_OTHELLO, RULES_NIM]


def _walk(rules: Rules, seed: int, index: int) -> list[tuple[Any, dict[str, Any]]]:
    """Game ``index`` of ``seed`` by the random player, checking every node on the way;
    returns (key, record) of each node."""
    state = rules.new(seed, index)
    picks = Stream(player_stream(seed, index))
    seen = []
    while True:
        seen.append((rules.key(state), state.to_record()))
        turn = state.turn()
        if state.is_over():
            assert turn == TERMINAL
            assert state.legal_actions() == [] and state.chance_outcomes() == []
            return seen
        legal = state.legal_actions()
        assert legal and legal == sorted(set(legal))
        if turn == CHANCE:
            outcomes = state.chance_outcomes()
            assert [o for o, _ in outcomes] == legal
            assert math.isclose(sum(p for _, p in outcomes), 1.0)
            assert all(p > 0 for _, p in outcomes)
            drawn = state.sample_chance()
            assert drawn in legal and state.sample_chance() == drawn  # drawing does not advance
            action = drawn
        else:
            assert 0 <= turn < rules.players
            assert state.chance_outcomes() == []
            action = random_choice(state, picks)
        for bad in (min(legal) - 1, max(legal) + 100):
            before = rules.key(state)
            with pytest.raises(ValueError):
                state.apply(bad)
            assert rules.key(state) == before  # a refused action changes nothing
        state.apply(action)


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.name)
def test_a_seed_gives_the_same_game(rules: Rules) -> None:
    a, b = _walk(rules, 7, 3), _walk(rules, 7, 3)
    assert a == b
    assert play_random(rules, 7, 3).outcome() == play_random(rules, 7, 3).outcome()


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.name)
def test_games_of_a_seed_differ(rules: Rules) -> None:
    games = {tuple(k for k, _ in _walk(rules, 1, i)) for i in range(8)}
    assert len(games) > 1


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.name)
def test_over_and_outcome(rules: Rules) -> None:
    for i in range(4):
        state = play_random(rules, 2, i)
        assert state.is_over() and state.turn() == TERMINAL
        out = state.outcome()
        assert len(out) == rules.players
        if rules.players == 2:
            assert out[0] == -out[1] and out[0] in (-1.0, 0.0, 1.0)
        with pytest.raises(ValueError):
            state.apply(0)


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.name)
def test_record_round_trip(rules: Rules) -> None:
    nodes = _walk(rules, 5, 1)
    for key, record in nodes[:: max(1, len(nodes) // 6)] + nodes[-1:]:
        if rules.key(rules.from_record(record)) == key:
            continue
        # a record is written between whole moves: a chance node's key differs from the
        # decision before it only by the pending action
        assert rules.name == "2048" and key[1] is not None
    final = rules.from_record(json.loads(json.dumps(nodes[-1][1])))
    assert rules.key(final) == nodes[-1][0] and final.is_over()


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.name)
def test_a_record_of_another_game_is_refused(rules: Rules) -> None:
    with pytest.raises(ValueError):
        rules.from_record({"game": "not-a-game", "moves": []})


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.name)
def test_batch_path_plays_the_same_games(rules: Rules) -> None:
    batch = rules.play_random(11, 4, 6)
    python = np.array([play_random(rules, 11, 4 + k).outcome() for k in range(6)])
    np.testing.assert_array_equal(batch, python)
    # a batch's games are the seed's whatever the split
    np.testing.assert_array_equal(rules.play_random(11, 6, 2), batch[2:4])


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.name)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**63), index=st.integers(0, 10**6))
def test_batch_path_matches_on_any_seed(rules: Rules, seed: int, index: int) -> None:
    batch = rules.play_random(seed, index, 1)[0]
    assert tuple(batch) == play_random(rules, seed, index).outcome()


def test_the_2048_chance_outcomes_are_the_spawns() -> None:
    state: State = RULES_2048.new(3)
    state.apply(state.legal_actions()[0])
    outcomes = dict(state.chance_outcomes())
    empties = len(outcomes) // 2
    assert all(math.isclose(outcomes[c], 0.9 / empties) for c in outcomes if c < 16)
    assert all(math.isclose(outcomes[c], 0.1 / empties) for c in outcomes if c >= 16)
