"""How often compact n-tuple files choose another 1-ply move than the full-precision network.

Plays ``--games`` games with the full network (1-ply greedy, seeded spawns), and on every
position asks each compact file for its greedy move; prints, per file, the share of positions
where the move differs and the mean and largest change of the chosen move's value (r + V).
The strength check is the card's 1,000 games; this is the finer, faster signal.

    python benchmarks/compact_agreement.py FULL.npz C1.npz [C2.npz ...] --games 30 --seed 7
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np
from numba import njit

from boardai.g2048 import kernels
from boardai.g2048.downgrade import downgrade_exponent
from boardai.g2048.ntuple import NTupleNetwork
from boardai.g2048.ntuple_play import greedy_move_into
from boardai.learn.model_file import load_model
from boardai.rng import splitmix64


@njit
def _play(data: Any, dg: np.int64, games: int, state: np.uint64) -> tuple[np.ndarray, np.ndarray]:
    """The positions of ``games`` greedy games: (lo, hi) arrays."""
    buf = np.empty((4, 8 * data[2].shape[0]), np.int64)
    los, his = [], []
    for _ in range(games):
        lo, state = kernels.start_board(state, 2, 0.1)
        hi = np.uint64(0)
        while True:
            a, alo, ahi, _r, _q = greedy_move_into(lo, hi, data, dg, buf)
            if a < 0:
                break
            los.append(lo)
            his.append(hi)
            state, bits = splitmix64(state)
            lo, hi = kernels.spawn_wide(alo, ahi, bits, 0.1), ahi
    return np.array(los), np.array(his)


@njit
def _choose(
    los: np.ndarray, his: np.ndarray, data: Any, dg: np.int64
) -> tuple[np.ndarray, np.ndarray]:
    buf = np.empty((4, 8 * data[2].shape[0]), np.int64)
    acts = np.empty(los.size, np.int64)
    qs = np.empty(los.size, np.float64)
    for i in range(los.size):
        a, _, _, _, q = greedy_move_into(los[i], his[i], data, dg, buf)
        acts[i] = a
        qs[i] = q
    return acts, qs


def reference(path: str, games: int, seed: int) -> tuple[Any, ...]:
    """The full network of ``path``, its downgrade exponent (boards read as the player reads
    them), the positions of ``games`` greedy games of ``seed`` and its move and value (r + V)
    on each: ``(network, dg, los, his, acts, qs)``."""
    full, meta, _ = load_model(path, NTupleNetwork, with_extra=False)
    tile = int(meta.get("config", {}).get("downgrade", 0))
    dg = np.int64(downgrade_exponent(tile) if tile else 0)
    los, his = _play(full.data(), dg, games, np.uint64(seed))
    acts, qs = _choose(los, his, full.data(), dg)
    return full, dg, los, his, acts, qs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("full")
    ap.add_argument("compact", nargs="+")
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    full, dg, los, his, acts, qs = reference(args.full, args.games, args.seed)
    print(f"{los.size} positions of {args.games} games")
    del full
    for path in args.compact:
        net = load_model(path, NTupleNetwork, with_extra=False)[0]
        a2, q2 = _choose(los, his, net.data(), dg)
        differ = int(np.count_nonzero(a2 != acts))
        e = np.abs(q2 - qs)
        print(
            f"{path}: other move in {differ} ({100 * differ / los.size:.3f}%); "
            f"|change of the chosen value| mean {e.mean():.2f}, max {e.max():.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
