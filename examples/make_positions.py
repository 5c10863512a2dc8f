"""Write examples/positions.obf, the endgame positions of ``boardai othello solve``'s examples.

Each comes from a game boardai's own players played: a few random moves, then
``alphabeta:depth=2`` on both sides, stopped when the board has the chosen number of empty
squares (12 to 20, so each solves exactly in a few seconds at most). Run from the repository
root: ``python examples/make_positions.py``; the same file comes out every time.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from boardai.othello import Board
from boardai.othello.agents import make_agent
from boardai.othello.board import PASS

OUT = Path(__file__).with_name("positions.obf")
#: (seed, empty squares): one position each.
WANTED = [(1, 12), (2, 15), (3, 16), (4, 19), (5, 20)]
RANDOM_OPENING = 6  # moves played at random, so that the games differ


def obf(board: Board) -> str:
    """The position as an obf line: a1..h8 (X black, O white, - empty), the side to move."""
    cells = "".join(
        "X" if board.black >> sq & 1 else "O" if board.white >> sq & 1 else "-" for sq in range(64)
    )
    return f"{cells} {'XO'[board.to_move]}"


def position(seed: int, empties: int) -> Board:
    """The first position with ``empties`` empty squares and a move for the side to move."""
    rng = np.random.default_rng(seed)
    player = make_agent("alphabeta:depth=2", seed)
    board = Board.initial()
    plies = 0
    while not board.is_terminal():
        if board.empties() == empties and board.legal_actions() != [PASS]:
            return board
        legal = board.legal_actions()
        move = int(rng.choice(legal)) if plies < RANDOM_OPENING else player.act(board)
        board = board.play(move)
        plies += 1
    raise ValueError(f"seed {seed}: the game ended before {empties} empty squares")


def main() -> None:
    lines = [
        "; Endgame positions for `boardai othello solve` (python examples/make_positions.py)",
        "; one a line: 64 squares a1..h8 (X black, O white, - empty), the side to move",
    ]
    for seed, empties in WANTED:
        lines.append(f"{obf(position(seed, empties))} ; seed {seed}, {empties} empties")
    OUT.write_text("\n".join(lines) + "\n")
    print(f"wrote {len(WANTED)} positions to {OUT}")


if __name__ == "__main__":
    main()
