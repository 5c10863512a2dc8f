"""2048 players, built from specs like ``expectimax:depth=3``.

>>> from boardai.g2048 import Game
>>> agent = make_agent("random", seed=1)
>>> g = Game(seed=1)
>>> g.board.slide(agent.act(g.board))[0] != g.board
True

Every module of this package registers its players with :data:`REGISTRY` when imported;
modules keep heavy imports (torch) inside their factories.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from boardai.spec import Registry

REGISTRY = Registry("2048")

_loaded = False


def _load() -> None:
    global _loaded
    if not _loaded:
        for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
            if not info.name.startswith("_"):
                importlib.import_module(f"{__name__}.{info.name}")
        _loaded = True


def make_agent(spec: str, seed: int | None = None) -> Any:
    """Build the 2048 player ``spec`` names (raises UsageError for a bad spec)."""
    _load()
    return REGISTRY.make(spec, seed)


def check_spec(spec: str) -> None:
    """Raise UsageError if ``spec`` is not a valid 2048 player spec (builds nothing)."""
    _load()
    REGISTRY.options(spec)


def agent_names() -> dict[str, str]:
    """Player name -> one-line description."""
    _load()
    return REGISTRY.describe()
