"""The game loop of each game: players play a game move by move.

Every place that lets players play (the arena's runs and matches, ``boardai 2048 watch``,
``boardai othello play``, ``boardai 2048 bench search``, the terminal and web apps) plays
through these two generators. They are lazy: each ``next()`` plays one move and yields it as a
:class:`Turn`, so a screen can draw between moves, a caller can stop early, and the game object
holds the whole state (a caller may undo moves between two ``next()``, the loop reads the game
afresh).

>>> from boardai.g2048 import Game
>>> from boardai.g2048.agents import make_agent
>>> game = Game(seed=1)
>>> turns = list(play_2048(game, make_agent("random", seed=1)))
>>> len(turns) == game.moves and game.is_over()
True
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from boardai.agent import Agent

if TYPE_CHECKING:
    from boardai.g2048.board import Board as Board2048
    from boardai.g2048.game import Game as Game2048
    from boardai.othello.board import Board as BoardOthello
    from boardai.othello.game import Game as GameOthello


class Turn(NamedTuple):
    """One move played by a game loop."""

    action: int
    #: who moved: 0 for the 2048 player; the colour (0 black, 1 white) in Othello.
    mover: int = 0
    #: seconds the player took to choose (0 for a random or a forced move).
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


def play_2048(game: Game2048, agent: Agent[Board2048]) -> Iterator[Turn]:
    """Let ``agent`` play ``game`` to its end, one move per ``next()``.

    Raises:
        IllegalMoveError: the player returned an illegal action (the game is left before it).
    """
    while not game.is_over():
        t0 = time.perf_counter()
        action = agent.act(game.board)
        seconds = time.perf_counter() - t0
        try:
            game.move(action)
        except ValueError as e:
            raise IllegalMoveError(action, str(e)) from None
        yield Turn(action, 0, seconds)


def play_othello(
    game: GameOthello,
    players: Sequence[Agent[BoardOthello] | None],
    *,
    epsilon: float = 0.0,
    rng: np.random.Generator | None = None,
    ask_to_pass: bool = True,
) -> Iterator[Turn]:
    """Let ``players`` (black, white) play ``game``, one move per ``next()``.

    The loop ends when the game does, or when it is the turn of a player given as None (a
    person: the caller takes their move, then may start the loop again).

    Args:
        game: the game, played on from where it stands.
        players: the black and the white player; None for a person.
        epsilon: with this probability a ply (a pass included) is a uniformly random legal move
            instead of the player's (the Othello League's rule); it draws from ``rng``.
        rng: the random moves' generator (needed when ``epsilon > 0``).
        ask_to_pass: False plays a forced pass without asking the player (a screen's
            opponent); matches ask, as an engine may want to hear it.

    Raises:
        IllegalMoveError: a player returned an illegal action (the game is left before it, the
            player who failed is the one to move). What a player raises passes through.
    """
    from boardai.othello.board import PASS

    if epsilon > 0 and rng is None:
        raise ValueError("epsilon > 0 needs an rng")
    while not game.is_over():
        board = game.board
        player = players[board.to_move]
        if player is None:
            return
        legal = board.legal_actions()
        seconds = 0.0
        if epsilon > 0 and rng is not None and rng.random() < epsilon:
            action, drawn = legal[int(rng.integers(len(legal)))], True
        elif not ask_to_pass and legal == [PASS]:
            action, drawn = PASS, False
        else:
            t0 = time.perf_counter()
            action, drawn = player.act(board), False
            seconds = time.perf_counter() - t0
            if action not in legal:
                raise IllegalMoveError(action, f"{player.name} played illegal {action!r}")
        game.play(action)
        yield Turn(int(action), board.to_move, seconds, drawn)
