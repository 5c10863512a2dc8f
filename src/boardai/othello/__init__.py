"""Othello: the rules engine (numba bitboard kernels) and its value API.

>>> from boardai.othello import Board
>>> b = Board.initial()
>>> [Board.action_text(a) for a in b.legal_actions()]
['d3', 'c4', 'f5', 'e6']
>>> b.play("d3").to_move == WHITE
True
"""

from boardai.othello.board import BLACK, PASS, WHITE, Board, parse_action
from boardai.othello.game import Game

__all__ = ["BLACK", "PASS", "WHITE", "Board", "Game", "parse_action"]
