"""The ``ntuple`` player: greedy by r + V(afterstate), or expectimax over the network."""

from __future__ import annotations

import pytest

from boardai.errors import UsageError
from boardai.g2048 import Game
from boardai.g2048.agents import make_agent
from boardai.g2048.train.config import TrainConfig
from boardai.g2048.train.trainer import Trainer


def test_greedy_agent_picks_the_best_afterstate(model) -> None:
    agent = make_agent(f"ntuple:model={model}")
    game = Game(seed=8)
    for _ in range(60):
        if game.is_over():
            break
        board = game.board
        best = max(
            board.legal_actions(),
            key=lambda a: board.slide(a)[1] + agent.network.value(board.slide(a)[0]),
        )
        action = agent.act(board)
        assert action == best
        game.move(action)


def test_agent_plays_whole_games(model) -> None:
    agent = make_agent(f"ntuple:model={model}")
    game = Game(seed=1)
    while not game.is_over():
        game.move(agent.act(game.board))
    assert game.score > 1000


def test_depth_2_uses_the_search(model) -> None:
    agent = make_agent(f"ntuple:model={model},depth=2")
    assert agent.name.endswith("depth=2")
    game = Game(seed=2)
    for _ in range(20):
        action = agent.act(game.board)
        assert action in game.board.legal_actions()
        game.move(action)


def test_downgrade_changes_nothing_below_its_tile(model) -> None:
    # No game of this tiny network gets near 32768, so the values and moves are the plain ones.
    plain = make_agent(f"ntuple:model={model},depth=2")
    down = make_agent(f"ntuple:model={model},depth=2,downgrade=32768")
    assert down.name.endswith("downgrade=32768")
    game = Game(seed=5)
    for _ in range(40):
        action = down.act(game.board)
        assert action == plain.act(game.board)
        assert down.last.values.tolist() == plain.last.values.tolist()
        game.move(action)


def test_downgrade_at_depth_1_plays_through_the_search(model) -> None:
    agent = make_agent(f"ntuple:model={model},downgrade=8")
    game = Game(seed=6)
    while not game.is_over():
        game.move(agent.act(game.board))
    assert agent.last is not None and agent.last.depth == 1
    assert game.board.max_tile() >= 64


def test_a_network_trained_downgrading_plays_downgrading(tmp_path) -> None:
    """Left out, the option is the one the network was trained with; 0 turns it off."""
    path = tmp_path / "dg.npz"
    trainer = Trainer(TrainConfig(patterns="0123,4567", seed=4, downgrade=8))
    trainer.train(100)
    trainer.save(path)
    default = make_agent(f"ntuple:model={path},depth=2")
    same = make_agent(f"ntuple:model={path},depth=2,downgrade=8")
    plain = make_agent(f"ntuple:model={path},depth=2,downgrade=0")
    game = Game(seed=7)
    differ = 0
    for _ in range(30):
        action = default.act(game.board)
        assert action == same.act(game.board)
        assert default.last.values.tolist() == same.last.values.tolist()
        plain.act(game.board)
        differ += default.last.values.tolist() != plain.last.values.tolist()
        game.move(action)
    assert differ > 0
    assert type(make_agent(f"ntuple:model={path},downgrade=0")).__name__ == "NTupleAgent"


def test_time_budget_deepens_only_while_the_next_depth_fits(model) -> None:
    game = Game(seed=5)
    for _ in range(20):
        game.move(game.board.legal_actions()[0])
    roomy = make_agent(f"ntuple:model={model},depth=3,time_ms=60000")
    tight = make_agent(f"ntuple:model={model},depth=3,time_ms=0.000001")
    fixed = make_agent(f"ntuple:model={model},depth=3")
    assert roomy.name.endswith("depth=3,time_ms=60000")
    roomy.act(game.board)
    tight.act(game.board)
    fixed.act(game.board)
    assert roomy.last.depth == 3 and tight.last.depth == 1
    assert roomy.last.values.tolist() == fixed.last.values.tolist()


def test_a_large_cut_off_searches_deep_and_names_itself(model) -> None:
    # prob_cut 0.1 expands a spawn only while its probability stays above 10%: depth 10 ends
    # in a few chance layers. The moves may differ from the full search's, so the name (the
    # spec, which a results file and its journal carry) says so.
    game = Game(seed=6)
    for _ in range(30):
        game.move(game.board.legal_actions()[0])
    deep = make_agent(f"ntuple:model={model},depth=10,prob_cut=0.1")
    assert deep.name.endswith("depth=10,prob_cut=0.1")
    assert make_agent(f"ntuple:model={model},depth=2,p4=0.2").name.endswith("depth=2,p4=0.2")
    assert deep.act(game.board) in game.board.legal_actions()
    assert deep.last.depth == 10 and deep.last.chance_nodes > 0


def test_the_strong_preset_searches_depth_8_at_a_cut_off_of_0_005(model) -> None:
    strong = make_agent(f"ntuple:model={model},preset=strong")
    assert (strong.opts.depth, strong.opts.prob_cut) == (8, 0.005)
    game = Game(seed=4)
    assert strong.act(game.board) in game.board.legal_actions()
    assert strong.last.depth == 8
    given = make_agent(f"ntuple:model={model},preset=strong,depth=3,prob_cut=0.01")
    assert (given.opts.depth, given.opts.prob_cut) == (3, 0.01)  # what the spec gives wins
    assert not hasattr(make_agent(f"ntuple:model={model}"), "opts")  # default: 1-ply, no search


@pytest.mark.parametrize(
    "spec",
    [
        "ntuple:model=x.npz,preset=fast",
        "ntuple:model=/no/such.npz",
        "ntuple:model=x.npz,depth=13",
        "ntuple:model=x.npz,time_ms=100",
        "ntuple:model=x.npz,depth=3,time_ms=-1",
        "ntuple:model=x.npz,downgrade=100",
        "ntuple:model=x.npz,downgrade=65536",
    ],
)
def test_bad_specs(spec: str) -> None:
    with pytest.raises(UsageError):
        make_agent(spec)


def test_foreign_model_file(tmp_path) -> None:
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(UsageError, match=r"bad\.npz"):
        make_agent(f"ntuple:model={bad}")
