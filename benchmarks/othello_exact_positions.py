"""Pick held-out positions from recorded Othello games for measuring a static evaluation.

One position per game, at a number of empty squares drawn uniformly from a range, written in the
obf format that ``boardai othello solve`` and ``boardai othello analyze`` read. The games should
be ones no fit trained on (a match played on its own seed). Solving the positions exactly gives
the reference scores:

    python benchmarks/othello_exact_positions.py runs/exact/games.jsonl --empties 20-24 \
        --seed 1 --out data/othello/heldout-20-24.obf
    boardai othello solve data/othello/heldout-20-24.obf --json data/othello/heldout-20-24.json
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from boardai.othello.board import BLACK, Board


def obf(board: Board) -> str:
    """The obf line of a position: 64 squares a1..h8 (X black, O white, - empty) and the mover."""
    cells = []
    for row in board.to_grid():
        for v in row:
            cells.append("X" if v == 1 else "O" if v == 2 else "-")
    return "".join(cells) + (" X" if board.to_move == BLACK else " O")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", help="a record file of Othello games (JSON lines)")
    parser.add_argument("--empties", default="20-24", help="range LO-HI of empty squares")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    lo, hi = (int(x) for x in args.empties.split("-"))
    rng = np.random.default_rng(args.seed)
    lines = []
    with open(args.records, encoding="utf-8") as f:
        for number, text in enumerate(f, 1):
            record = json.loads(text)
            want = int(rng.integers(lo, hi + 1))
            board = Board.initial()
            for move in record["moves"]:
                if board.empties() == want and board.legal_actions() != [64]:
                    lines.append(f"{obf(board)} ; game {number}, {want} empties")
                    break
                board = board.play(move)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{len(lines)} positions written to {args.out}")


if __name__ == "__main__":
    main()
