"""Othello players, built from specs like ``alphabeta:depth=4``.

>>> from boardai.othello import Board
>>> agent = make_agent("wpc", seed=1)
>>> agent.act(Board.initial()) in Board.initial().legal_actions()
True

Every module of this package registers its players with :data:`REGISTRY` when imported;
modules keep heavy imports (torch) inside their factories.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from boardai.spec import Registry

REGISTRY = Registry("othello")

_loaded = False


def _load() -> None:
    global _loaded
    if not _loaded:
        for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
            if not info.name.startswith("_"):
                importlib.import_module(f"{__name__}.{info.name}")
        _loaded = True


def make_agent(spec: str, seed: int | None = None) -> Any:
    """Build the Othello player ``spec`` names (raises UsageError for a bad spec)."""
    _load()
    agent = REGISTRY.make(spec, seed)
    agent.name = spec
    return agent


def check_spec(spec: str) -> None:
    """Raise UsageError if ``spec`` is not a valid Othello player spec (builds nothing)."""
    _load()
    REGISTRY.options(spec)


def agent_names() -> dict[str, str]:
    """Player name -> one-line description."""
    _load()
    return REGISTRY.describe()
