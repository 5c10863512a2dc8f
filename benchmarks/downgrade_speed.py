"""Tile downgrading: boardai's word operations against the same rule looped cell by cell.

The afterstates of every ``--every``-th position of a seeded game of ``--agent`` (default the
shipped network at 1-ply; a search plays on to larger tiles), downgraded from ``--tile`` up by
both functions compiled side by side; the results must agree board for board. Prints the best
of ``--repeat`` interleaved rounds, in nanoseconds an afterstate, over the whole game and over
its second half (the boards that hold the large tiles downgrading works on).

    python benchmarks/downgrade_speed.py --seed 282 --every 5 --repeat 7
    python benchmarks/downgrade_speed.py --agent ntuple:depth=2 --seed 3 --every 5
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from boardai._jit import njit
from boardai.g2048 import Game
from boardai.g2048.agents import make_agent
from boardai.g2048.downgrade import downgrade, downgrade_exponent
from boardai.g2048.kernels import move
from boardai.g2048.ntuple import tile_presence

_NIB = np.uint64(0xF)


@njit
def downgrade_by_cells(board: np.uint64, min_exponent: int) -> np.uint64:
    """The rule as session 26 wrote it: presence, top and gap by loops, then every cell."""
    board = np.uint64(board)
    while True:
        present = tile_presence(board)
        top = 0
        for e in range(16):
            if (present >> np.int64(e)) & 1:
                top = e
        if top < min_exponent:
            return board
        gap = 0
        for e in range(top - 1, 0, -1):
            if not (present >> np.int64(e)) & 1:
                gap = e
                break
        if gap == 0:
            return board
        out = np.uint64(0)
        for i in range(16):
            shift = np.uint64(4 * i)
            t = (board >> shift) & _NIB
            if t > np.uint64(gap):
                t -= np.uint64(1)
            out |= t << shift
        board = out


@njit
def _timed(boards: np.ndarray, m: int, words: bool) -> np.uint64:
    s = np.uint64(0)
    for r in range(10):
        for i in range(boards.shape[0]):
            b = boards[i] ^ np.uint64(r & 1)
            s ^= downgrade(b, m) if words else downgrade_by_cells(b, m)
    return s


def afterstates(spec: str, seed: int, every: int) -> np.ndarray:
    """The legal afterstates of every ``every``-th position of a game of ``spec``."""
    game, agent = Game(seed=seed), make_agent(spec, seed=0)
    out = []
    while game.board.legal_actions():
        if game.moves % every == 0 and game.board.hi == 0:
            lo = np.uint64(game.board.lo)
            for a in range(4):
                after, _, _ = move(lo, np.uint64(0), a)
                if after != lo:
                    out.append(int(after))
        game.move(agent.act(game.board))
    return np.array(out, np.uint64)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--agent", default="ntuple")
    p.add_argument("--seed", type=int, default=282)
    p.add_argument("--every", type=int, default=5)
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--tile", type=int, default=16384)
    args = p.parse_args()
    m = downgrade_exponent(args.tile)
    boards = afterstates(args.agent, args.seed, args.every)
    print(f"{args.agent}, seed {args.seed}: a game of {len(boards):,} afterstates")
    for label, part in (("whole game", boards), ("second half", boards[len(boards) // 2 :])):
        for b in part:
            assert downgrade(b, m) == downgrade_by_cells(b, m), hex(int(b))
        best = {"words": np.inf, "cells": np.inf}
        for _ in range(args.repeat):
            for name in ("words", "cells"):
                t = time.perf_counter()
                _timed(part, m, name == "words")
                best[name] = min(best[name], (time.perf_counter() - t) / (10 * len(part)))
        print(
            f"{label}: {len(part):,} afterstates, words {1e9 * best['words']:.1f} ns, "
            f"cells {1e9 * best['cells']:.1f} ns, ratio {best['cells'] / best['words']:.2f}"
        )


if __name__ == "__main__":
    main()
