"""Whole games in one compiled loop (:mod:`boardai.g2048.search_games`): every move the one
the player's ``act`` chooses on the same board, the spawns of the 1-ply benchmark's streams."""

from __future__ import annotations

import json

import numpy as np
import pytest

from boardai.cli import main
from boardai.g2048.agents import make_agent
from boardai.g2048.board import Board
from boardai.g2048.kernels import legal_mask, max_exponent, move, spawn_wide, start_board
from boardai.rng import seed_stream, splitmix64


def act_loop(agent, seed: int, game: int, p4: float = 0.1) -> tuple[int, int, int]:
    """The reference: game ``game`` of ``seed`` move by move through ``agent.act``, spawned
    from the same stream as the compiled loop."""
    state = seed_stream(np.uint64(seed), np.uint64(game))
    lo, state = start_board(state, 2, p4)
    hi = np.uint64(0)
    score = moves = 0
    while legal_mask(lo, hi):
        a = agent.act(Board._make(int(lo), int(hi)))
        lo, hi, reward = move(lo, hi, a)
        score += reward
        moves += 1
        state, bits = splitmix64(state)
        lo = spawn_wide(lo, hi, bits, p4)
    return score, int(max_exponent(lo, hi)), moves


@pytest.mark.parametrize(
    "spec",
    [
        "ntuple:model={model},depth=2",
        "ntuple:model={model},depth=3,prob_cut=0.01",
        "expectimax:preset=fast,min_depth=1,max_depth=3",  # depth by distinct tiles, each move
    ],
)
def test_compiled_games_are_the_players_games(model, spec) -> None:
    spec = spec.format(model=model)
    compiled = make_agent(spec).play_games(seed=5, games=2, first=3)
    player = make_agent(spec)
    expected = [act_loop(player, 5, 3 + g) for g in range(2)]
    assert [tuple(int(x[g]) for x in compiled) for g in range(2)] == expected
    assert all(moves > 50 for _, _, moves in expected)


def test_generations_wrap_as_the_table_does(model) -> None:
    """Near the end of the table's 24 bits of generation, the loop empties the table and
    starts again, and plays the same game."""
    spec = f"ntuple:model={model},depth=3"
    agent = make_agent(spec)
    agent.table.generation = (1 << 24) - 5
    got = agent.play_games(seed=1, games=1)
    assert 0 < agent.table.generation < 1 << 24
    assert int(got[2][0]) > agent.table.generation  # it wrapped on the way
    assert tuple(int(x[0]) for x in got) == act_loop(make_agent(spec), 1, 0)


def test_a_time_budget_is_refused(model) -> None:
    agent = make_agent(f"ntuple:model={model},depth=3,time_ms=5")
    with pytest.raises(ValueError, match="time budget"):
        agent.play_games(seed=1, games=1)


def test_bench_ntuple_plays_depth_games_compiled(model, tmp_path) -> None:
    out = tmp_path / "b.json"
    args = ["2048", "bench", "ntuple", "--model", str(model), "--episodes", "0", "--games", "3"]
    depth = ["--depth", "2", "--prob-cut", "0.01"]
    assert main([*args, *depth, "--seed", "9", "--json", str(out)]) == 0
    r = json.loads(out.read_text())
    assert (r["depth"], r["prob_cut"], r["games"]["games"]) == (2, 0.01, 3)
    assert r["play_moves_per_s"] > 0
    agent = make_agent(f"ntuple:model={model},depth=2,prob_cut=0.01")
    scores = [act_loop(agent, 9, g)[0] for g in range(3)]
    assert r["games"]["mean"] == pytest.approx(sum(scores) / 3)
    assert main([*args, "--depth", "13"]) == 2
