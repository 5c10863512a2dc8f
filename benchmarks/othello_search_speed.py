"""Othello midgame search speed: CPU milliseconds a move of an Othello player over positions
4-35 of one random game (seed 3), and a hash of its moves (the same hash: the same moves).

    python benchmarks/othello_search_speed.py alphabeta:depth=8
    python benchmarks/othello_search_speed.py ntuple:depth=7
"""

from __future__ import annotations

import sys
import time

from boardai.othello import Game
from boardai.othello.agents import make_agent


def main() -> None:
    spec = sys.argv[1] if len(sys.argv) > 1 else "alphabeta:depth=8"
    game, mover, boards = Game(), make_agent("random", seed=3), []
    while not game.is_over() and len(boards) < 36:
        boards.append(game.board)
        game.play(mover.act(game.board))
    player = make_agent(spec, seed=1)
    player.act(boards[5])  # compile outside the timing
    start = time.process_time()
    moves = [player.act(b) for b in boards[4:36]]
    cpu = time.process_time() - start
    print(f"{spec}: {1000 * cpu / len(moves):.1f} ms a move, moves hash {hash(tuple(moves))}")


if __name__ == "__main__":
    main()
