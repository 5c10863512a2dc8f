"""The game loop: players play a game move by move, written once for every game.

Every place that lets players play (the arena's runs and matches, ``boardai 2048 watch``,
``boardai othello play``, ``boardai 2048 bench search``, the terminal and web apps) plays
through :func:`play`, over a game's contract state (:mod:`boardai.contract`): it asks the
player whose turn it is, applies the move, lets chance act (a 2048 spawn is the game's seeded
draw), and yields the move. It is lazy: each ``next()`` plays one decision and yields it as a
:class:`Turn`, so a screen can draw between moves, a caller can stop early, and the state
holds the whole game (a caller may undo moves between two ``next()``: the loop reads the state
afresh).

>>> from boardai.g2048.agents import make_agent
>>> from boardai.g2048.contract_game import RULES
>>> state = RULES.new(seed=1)
>>> turns = list(play(state, [make_agent("random", seed=1)], observe=board_of))
>>> len(turns) == state.game.moves and state.is_over()
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

import numpy as np

from boardai.agent import Agent
from boardai.contract import CHANCE, TERMINAL, State


class Turn(NamedTuple):
    """One move played by the game loop."""

    action: int
    #: who moved: the contract's player (0 for the 2048 player; 0 black, 1 white in Othello).
    mover: int = 0
    #: seconds the player took to choose (0 for a random or an unasked move).
    seconds: float = 0.0
    #: a uniformly random move (Othello's epsilon), not the player's.
    random: bool = False


class IllegalMoveError(ValueError):
    """A player chose an action that is not legal in the position it was given.

    Attributes:
        action: what the player returned.
    """

    def __init__(self, action: object, message: str) -> None:
        super().__init__(message)
        self.action = action


def board_of(state: Any) -> Any:
    """What the players of the two board games see: the board of the state's game."""
    return state.game.board


def play(
    state: State,
    players: Sequence[Agent[Any] | None],
    *,
    observe: Callable[[Any], Any] | None = None,
    epsilon: float = 0.0,
    rng: np.random.Generator | None = None,
    unasked: int | None = None,
) -> Iterator[Turn]:
    """Let ``players`` (one for each of the game's players) play ``state``, one decision per
    ``next()``; chance nodes are played as the game's seed draws them, between two decisions.
    A state with a ``step(action)`` method (the action, then chance's reply, in one call) is
    played through it.

    The loop ends when the game does, or when it is the turn of a player given as None (a
    person: the caller takes their move, then may start the loop again).

    Args:
        state: the game, played on from where it stands.
        players: the game's players in turn order; None for a person.
        observe: what a player is shown of the state (:func:`board` for 2048 and Othello,
            whose players act on boards); None shows the state itself.
        epsilon: with this probability a decision (a forced one included) is a uniformly
            random legal action instead of the player's (the Othello League's rule); it draws
            from ``rng``.
        rng: the random moves' generator (needed when ``epsilon > 0``).
        unasked: an action the loop plays itself, without asking the player, when it is the
            only legal one (Othello's forced pass, for a screen's opponent); None asks always
            (matches: an engine may want to hear it).

    Raises:
        IllegalMoveError: a player returned an illegal action (the game is left before it, the
            player who failed is the one to move). What a player raises passes through.
    """
    if epsilon > 0 and rng is None:
        raise ValueError("epsilon > 0 needs an rng")
    step = getattr(state, "step", None) or (lambda action: _step(state, action))
    while True:
        mover = state.turn()
        if mover == CHANCE:
            state.apply(state.sample_chance())
            continue
        if mover == TERMINAL:
            return
        player = players[mover]
        if player is None:
            return
        seconds, drawn = 0.0, False
        legal = state.legal_actions() if epsilon > 0 or unasked is not None else None
        if legal is not None and epsilon > 0 and rng is not None and rng.random() < epsilon:
            action, drawn = legal[int(rng.integers(len(legal)))], True
        elif legal is not None and len(legal) == 1 and legal[0] == unasked:
            action = unasked
        else:
            shown = state if observe is None else observe(state)
            t0 = time.perf_counter()
            action = player.act(shown)
            seconds = time.perf_counter() - t0
        try:
            step(action)
        except ValueError:
            raise IllegalMoveError(action, f"{player.name} played illegal {action!r}") from None
        yield Turn(int(action), mover, seconds, drawn)


def _step(state: State, action: int) -> None:
    """Apply ``action``, then the chance outcomes that follow it, as the game's seed draws
    them: what a state's own ``step`` does in one call, where it has one (2048's: one
    :meth:`~boardai.g2048.game.Game.move`, the arena's hot path)."""
    state.apply(action)
    while state.turn() == CHANCE:
        state.apply(state.sample_chance())
