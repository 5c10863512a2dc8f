"""2048 players, built from specs like ``expectimax:depth=3``.

>>> from boardai.g2048 import Game
>>> agent = make_agent("random", seed=1)
>>> g = Game(seed=1)
>>> g.board.slide(agent.act(g.board))[0] != g.board
True

Every module of this package registers its players with :data:`REGISTRY`, which imports them
on first use; modules keep heavy imports (torch) inside their factories.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardai.spec import Registry

if TYPE_CHECKING:
    from boardai.agent import Agent
    from boardai.g2048.board import Board

REGISTRY = Registry("2048", package=__name__)

#: The deepest expectimax search (max layers) a player or ``bench search`` takes: depth 12
#: already takes minutes a move without a probability cut-off.
MAX_SEARCH_DEPTH = 12


def make_agent(spec: str, seed: int | None = None) -> Agent[Board]:
    """Build the 2048 player a spec names; ``seed`` seeds its randomness.

    Raises:
        UsageError: a bad spec (unknown player, option or value, a missing model file).
    """
    agent: Agent[Board] = REGISTRY.make(spec, seed)
    return agent


#: Raise UsageError if a spec is not a valid 2048 player spec (builds nothing).
check_spec = REGISTRY.check
#: Player name -> one-line description.
agent_names = REGISTRY.describe
