"""Othello players, built from specs like ``alphabeta:depth=4``.

>>> from boardai.othello import Board
>>> agent = make_agent("wpc", seed=1)
>>> agent.act(Board.initial()) in Board.initial().legal_actions()
True

Every module of this package registers its players with :data:`REGISTRY`, which imports them
on first use; modules keep heavy imports (torch) inside their factories.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardai.spec import Registry

if TYPE_CHECKING:
    from boardai.agent import Agent
    from boardai.othello.board import Board

REGISTRY = Registry("othello", package=__name__)


def make_agent(spec: str, seed: int | None = None) -> Agent[Board]:
    """Build the Othello player a spec names; ``seed`` seeds its randomness.

    Raises:
        UsageError: a bad spec (unknown player, option or value, a missing model file).
    """
    agent: Agent[Board] = REGISTRY.make(spec, seed)
    return agent


#: Raise UsageError if a spec is not a valid Othello player spec (builds nothing).
check_spec = REGISTRY.check
#: Player name -> one-line description.
agent_names = REGISTRY.describe
