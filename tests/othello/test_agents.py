"""Every player returns a legal action on random positions."""

from __future__ import annotations

import numpy as np
import pytest

from boardai.errors import UsageError
from boardai.othello import Board
from boardai.othello import kernels as K
from boardai.othello.agents import agent_names, make_agent

FAST_SPECS = ["random", "greedy", "wpc"]


def random_boards(n: int, seed: int) -> list[Board]:
    """Non-terminal positions of random games (either colour to move)."""
    out = []
    for i, (p, o) in enumerate(K.random_positions(n, np.uint64(seed))):
        b = Board.from_mover(int(p), int(o), i % 2)
        if not b.is_terminal():
            out.append(b)
    return out


@pytest.mark.parametrize("spec", FAST_SPECS)
def test_player_is_legal_on_random_positions(spec: str) -> None:
    agent = make_agent(spec, seed=3)
    agent.reset()
    for b in random_boards(200, seed=11):
        assert agent.act(b) in b.legal_actions()


def test_registry() -> None:
    assert set(FAST_SPECS) <= set(agent_names())
    with pytest.raises(UsageError, match="unknown othello agent"):
        make_agent("nope")


def test_wpc_prefers_a_corner() -> None:
    # Black to move can take a1 (corner) or e1; WPC takes the corner.
    b = Board.from_str(". O X . O X . .\n" + ". . . . . . . .\n" * 7 + "black to move")
    assert set(b.legal_actions()) >= {0}
    assert make_agent("wpc", seed=0).act(b) == 0


def test_ntuple_preset_fills_what_the_spec_leaves_out() -> None:
    """preset=strong is the search over othello-eval at 0.9 s a move from 18 empties; options
    given override it, and the default preset is 1-ply as before."""
    from boardai.othello.agents.alphabeta import AlphaBetaAgent
    from boardai.othello.agents.ntuple import NTupleAgent

    strong = make_agent("ntuple:preset=strong", seed=0)
    assert isinstance(strong, AlphaBetaAgent)
    assert (strong.opts.depth, strong.opts.time, strong.opts.endgame) == (40, 0.9, 18)
    assert strong.opts.eval == "ntuple" and strong.opts.model == "othello-eval"
    assert make_agent("ntuple:preset=strong,model=othello-ntuple").opts.model == "othello-ntuple"
    quick = make_agent("ntuple:preset=strong,time=0.01,endgame=4", seed=0)
    assert (quick.opts.depth, quick.opts.time, quick.opts.endgame) == (40, 0.01, 4)
    b = Board.initial()
    for _ in range(4):
        a = quick.act(b)
        assert a in b.legal_actions()
        b = b.play(a)
    assert isinstance(make_agent("ntuple", seed=0), NTupleAgent)
    assert isinstance(make_agent("ntuple:preset=default", seed=0), NTupleAgent)
    with pytest.raises(UsageError, match="preset") as e:
        make_agent("ntuple:preset=fast")
    assert "\n" not in str(e.value)
    with pytest.raises(UsageError, match="time"):
        make_agent("ntuple:preset=strong,time=-1")


@pytest.mark.parametrize("spec", ["alphabeta:depth=30,endgame=0", "ntuple:depth=30,endgame=0"])
def test_a_node_limit_stops_the_search_and_plays_alike_every_time(spec: str) -> None:
    """``nodes=`` bounds each move's search by its node count, not by the clock: two players
    of the same spec play the same moves, and the search stops well short of its depth."""
    one, two = (make_agent(f"{spec},nodes=3000", seed=0) for _ in range(2))
    for b in random_boards(20, seed=5):
        a = one.act(b)  # once each: the table kept from move to move is part of the state
        assert a == two.act(b) and a in b.legal_actions()
        assert one.last is not None and one.last.depth < 30
    with pytest.raises(UsageError, match="nodes"):
        make_agent(f"{spec},nodes=-1")
