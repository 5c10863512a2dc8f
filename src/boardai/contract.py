"""The game contract: what a game gives the layers above its engine, in plain Python.

A game is two things. Its :class:`Rules` (one object a game, the entry of the per-game table)
start a game from a seed, read one back from a record, and play whole batches of games in
compiled code. A :class:`State` is one game under way: whose turn it is, the legal actions,
apply, over, outcome, record. Chance is a player: where the rules draw (a 2048 spawn) the turn
is :data:`CHANCE`, the state lists its outcomes with their probabilities, and
:meth:`State.sample_chance` gives the one the game's seed draws, so a seeded game is
deterministic without the caller keeping an rng (as pgx keeps the key in the state; the turns
and chance outcomes are OpenSpiel's).

**Seeds.** Game ``index`` of seed ``S`` (:meth:`Rules.new`) draws its chance outcomes from
``seed_stream(S, index)`` and its players from ``agent_stream(S, index)``
(:mod:`boardai.rng`); :meth:`Rules.play_random` plays the same games in compiled code as
:func:`play_random` plays them here, move by move (the conformance test,
``tests/test_contract.py``, checks it for every game).

**The random player**, the one reference player every game has: one draw of the players'
stream per decision, ``legal[below(bits, len(legal))]`` with ``legal`` increasing.

>>> from boardai.g2048.contract_game import RULES
>>> state = play_random(RULES, seed=5, index=0)
>>> state.is_over(), state.turn() == TERMINAL
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import numpy as np

from boardai.rng import Stream, player_stream

#: The turn of a chance node: the next action is a chance outcome.
CHANCE = -1
#: The turn of a finished game.
TERMINAL = -2


class State(Protocol):
    """One game under way. Actions and chance outcomes are ints; players are ``0 ..
    players-1``."""

    def turn(self) -> int:
        """The player to act, :data:`CHANCE` at a chance node, :data:`TERMINAL` when over."""
        ...

    def legal_actions(self) -> list[int]:
        """The actions of the player to act, increasing (the outcomes at a chance node; none
        when over)."""
        ...

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node, every outcome with its probability (they sum to 1); else none."""
        ...

    def sample_chance(self) -> int:
        """At a chance node, the outcome this game's seed draws (the state's stream does not
        advance until it is applied)."""
        ...

    def apply(self, action: int) -> None:
        """Play ``action`` (a chance outcome at a chance node).

        Raises:
            ValueError: the action is not legal here.
        """
        ...

    def is_over(self) -> bool:
        """Whether the game has ended."""
        ...

    def outcome(self) -> tuple[float, ...]:
        """What each player got: the score in a one-player game, +1 / 0 / -1 in a two-player
        one (meaningful once the game is over)."""
        ...

    def to_record(self) -> dict[str, Any]:
        """A JSON-ready record; :meth:`Rules.from_record` replays it to an equal state."""
        ...


class Rules(Protocol):
    """A game's entry in the per-game table: its name, its players, and the ways in."""

    name: str
    players: int

    def new(self, seed: int, index: int = 0) -> State:
        """Game ``index`` of seed ``seed``, at its first decision (or chance node)."""
        ...

    def from_record(self, record: dict[str, Any]) -> State:
        """The game of a record, replayed and checked move by move.

        Raises:
            ValueError: not this game's record, or an impossible move in it.
        """
        ...

    def key(self, state: State) -> Any:
        """A hashable value equal for two states exactly when they are the same position with
        the same player to act (what a test compares)."""
        ...

    def play_random(self, seed: int, first: int, n: int) -> np.ndarray:
        """Compiled: games ``first .. first+n-1`` of ``seed`` played to the end by the random
        player, their outcomes ``(n, players)``; equal to :func:`play_random` of each."""
        ...


#: ``choose(state, stream)``: a player's action in ``state``, drawing from ``stream``.
Chooser = Callable[[State, Stream], int]


def random_choice(state: State, stream: Stream) -> int:
    """The random player: one draw a decision, the k-th legal action (module docstring)."""
    legal = state.legal_actions()
    return legal[stream.integers(len(legal))]


def play(state: State, choose: Chooser, stream: Stream) -> State:
    """Play ``state`` to its end: chance nodes as its seed draws, decisions by ``choose``."""
    while not state.is_over():
        if state.turn() == CHANCE:
            state.apply(state.sample_chance())
        else:
            state.apply(choose(state, stream))
    return state


def play_random(rules: Rules, seed: int, index: int) -> State:
    """Game ``index`` of ``seed`` played to its end by the random player (the Python path of
    :meth:`Rules.play_random`)."""
    return play(rules.new(seed, index), random_choice, Stream(player_stream(seed, index)))
