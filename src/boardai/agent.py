"""The interface every player shares, in both games."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Agent(Protocol):
    """A player: ``act(state) -> action`` on any non-terminal position, never an illegal move.

    ``name`` is the spec it was built from (``expectimax:depth=3``); ``reset()`` is called
    before each new game (clear caches, per-game state).
    """

    name: str

    def act(self, state: Any) -> int: ...

    def reset(self) -> None: ...
