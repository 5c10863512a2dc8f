"""A 2048 game's positions for replays: the start, then one per move, each with the score.

>>> from boardai.g2048.game import Game
>>> g = Game(seed=3)
>>> _ = g.move(g.board.legal_actions()[0])
>>> [f.move for f in frames(g)][1:], frames(g)[-1].board == g.board
(['up'], True)
"""

from __future__ import annotations

from boardai.g2048.board import ACTION_NAMES
from boardai.g2048.game import Game
from boardai.records import Frame


def frames(game: Game) -> list[Frame]:
    """Every position of ``game``, rebuilt from its start and steps (slide, then the spawn)."""
    board = game.start_board
    score = 0
    out = [Frame(board, 0)]
    for step in game.steps:
        board, reward = board.slide(step.action)
        if step.cell >= 0:
            board = board.place(step.cell, step.value)
        score += reward
        out.append(Frame(board, score, step.action, ACTION_NAMES[step.action]))
    return out
