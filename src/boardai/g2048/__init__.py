"""2048: the rules engine (numba bitboard kernels) and its value API.

>>> from boardai.g2048 import Board, Game, LEFT
>>> Board.from_grid([[2, 2, 4, 0]] + [[0] * 4] * 3).slide(LEFT)[1]
4

Importing this package compiles nothing until a kernel is first called (and numba's cache
makes later runs load, not compile).
"""

from boardai.g2048.board import ACTION_NAMES, DOWN, LEFT, RIGHT, UP, Board, parse_action
from boardai.g2048.game import Game, Step

__all__ = ["ACTION_NAMES", "DOWN", "LEFT", "RIGHT", "UP", "Board", "Game", "Step", "parse_action"]
