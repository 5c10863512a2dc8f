"""An Othello game's positions for replays: the start, then one per move (a pass included).

>>> from boardai.othello.game import Game
>>> g = Game()
>>> g.play("d3")
>>> [f.move for f in frames(g)]
[None, 'd3']
"""

from __future__ import annotations

from boardai.othello.board import action_text
from boardai.othello.game import Game
from boardai.records import Frame


def frames(game: Game) -> list[Frame]:
    """Every position of ``game``, from its history."""
    boards = game.history
    out = [Frame(boards[0])]
    for board, action in zip(boards[1:], game.moves, strict=True):
        out.append(Frame(board, None, int(action), action_text(action)))
    return out
