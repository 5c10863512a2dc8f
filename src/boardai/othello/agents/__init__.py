"""Othello players, built from specs like ``alphabeta:depth=4``.

>>> from boardai.othello import Board
>>> agent = make_agent("wpc", seed=1)
>>> agent.act(Board.initial()) in Board.initial().legal_actions()
True

Every module of this package registers its players with :data:`REGISTRY`, which imports them
on first use; modules keep heavy imports (torch) inside their factories.
"""

from __future__ import annotations

from boardai.spec import Registry

REGISTRY = Registry("othello", package=__name__)

#: Build the Othello player a spec names (UsageError for a bad spec): ``make_agent(spec, seed)``.
make_agent = REGISTRY.make
#: Raise UsageError if a spec is not a valid Othello player spec (builds nothing).
check_spec = REGISTRY.check
#: Player name -> one-line description.
agent_names = REGISTRY.describe
