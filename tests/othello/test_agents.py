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
