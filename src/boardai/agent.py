"""The interface every player shares, in both games.

A player is built from a spec (``expectimax:depth=3``) by its game's registry
(:func:`boardai.g2048.agents.make_agent`, :func:`boardai.othello.agents.make_agent`); the arena,
the commands and the apps then use only what :class:`Agent` names:

>>> from boardai.g2048 import Game
>>> from boardai.g2048.agents import make_agent
>>> player = make_agent("random")
>>> isinstance(player, Agent)
True
>>> player.reseed(5)
>>> player.reset()
>>> first = player.act(Game(seed=1).board)
>>> player.reseed(5)
>>> player.act(Game(seed=1).board) == first
True
"""

from __future__ import annotations

from typing import Protocol, TypeVar, runtime_checkable

#: The position a player is asked about: a 2048 or an Othello ``Board``.
S_contra = TypeVar("S_contra", contravariant=True)


@runtime_checkable
class Agent(Protocol[S_contra]):
    """A player of positions ``S``: ``act(state) -> action`` on any non-terminal position,
    never an illegal move.

    Attributes:
        name: the spec it was built from (``expectimax:depth=3``).
    """

    name: str

    def act(self, state: S_contra) -> int:
        """The action to play in ``state`` (Othello: 64 is a pass)."""
        ...

    def reset(self) -> None:
        """Called before each new game: clear per-game state (caches, an engine's board)."""
        ...

    def reseed(self, seed: int) -> None:
        """Restart the player's own randomness from ``seed`` (a player that draws nothing
        does nothing): after ``reseed(s)`` and ``reset()`` a player plays a game exactly as
        one just built with seed ``s``, which is how the arena makes every game depend on its
        seed alone, whichever process plays it and whatever it played before."""
        ...


def memoryless(agent: object) -> bool:
    """Whether ``agent`` says (a class attribute ``memoryless = True``) that its move depends on
    the position alone: it draws nothing, and nothing it keeps from earlier moves changes a
    choice (a cache of exact values may stay). A game it was playing can then go on from any
    position of its record, in a fresh process, exactly as if it had never stopped: the arena
    resumes such games mid-way (:mod:`boardai.arena.solo`)."""
    return getattr(agent, "memoryless", False) is True


@runtime_checkable
class Closable(Protocol):
    """A player that holds something to let go of when it is done (an engine's process)."""

    def close(self) -> None:
        """Release it (a player may start it again if asked to play on)."""
        ...


@runtime_checkable
class Timed(Protocol):
    """A player whose thinking a game clock can bound (a search with a time budget)."""

    def limit_time(self, seconds: float | None) -> None:
        """Spend at most ``seconds`` on each move from now on, or less where the player's own
        limit is lower (None: its own limit alone)."""
        ...
