"""What resuming a TC run costs, by what the resumed run keeps of its TC state.

Trains a base network with temporal coherence (or reads one), then goes on from it in arms
that differ only in the TC state (and weights) they start from, on the same episode seeds,
one thread each (so each arm is exactly reproducible), and prints each arm's training average
and 1-ply average over the same games at every step:

- ``full``: the state as the run left it (the float32 E and A of every weight);
- ``packed``: :func:`boardai.learn.ntuple.tc_pack` and back (two bytes a weight);
- ``packed12``: the same with the weights at 12 bits, as a compact training file keeps them;
- ``blocks``: one rate and one A per block of 4,096 weights (a summary, for comparison);
- ``fresh``: no TC state (what a compact file without it resumes with);
- ``warmupK`` (``warmupKxC``): no TC state, then K episodes that measure TC's accumulators
  with the weights held (alpha 0), the accumulators then scaled by C.

    python benchmarks/tc_resume_cost.py --base runs/57/proxy/base.npz --base-episodes 150000 \
        --episodes 50000 --step 10000 --games 2000
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

import numpy as np

from boardai.g2048.ntuple import NTupleNetwork
from boardai.g2048.train.config import TrainConfig
from boardai.g2048.train.trainer import Trainer
from boardai.learn.model_file import compact_model, load_model
from boardai.learn.ntuple import tc_pack, tc_unpack

BLOCK = 4096


def blocks(tc: np.ndarray) -> np.ndarray:
    """Every touched weight of a block gets the block's median A and mean rate (sign +)."""
    out = np.zeros_like(tc)
    n = tc.shape[0] // BLOCK * BLOCK
    e, a = tc[:n, 0].reshape(-1, BLOCK), tc[:n, 1].reshape(-1, BLOCK)
    seen = a > 0
    rate = np.where(seen, np.abs(e) / np.where(seen, a, 1), np.nan)
    with np.errstate(all="ignore"):
        mid_a = np.nanmedian(np.where(seen, a, np.nan), axis=1)
        mean_rate = np.nanmean(rate, axis=1)
    fill_a = np.where(seen, np.nan_to_num(mid_a)[:, None], 0)
    out[:n, 1] = fill_a.reshape(-1)
    out[:n, 0] = (fill_a * np.nan_to_num(mean_rate)[:, None]).reshape(-1)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--base", required=True)
    p.add_argument("--patterns", default="4x6")
    p.add_argument("--base-episodes", type=int, default=150_000)
    p.add_argument("--episodes", type=int, default=50_000)
    p.add_argument("--step", type=int, default=10_000)
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--seed", type=int, default=2024)
    p.add_argument("--arms", default="full,packed,packed12,blocks,fresh")
    args = p.parse_args()

    if not os.path.exists(args.base):
        t = Trainer(TrainConfig(patterns=args.patterns, tc=True, alpha=1.0, seed=3))
        start = time.perf_counter()
        while t.episodes < args.base_episodes:
            c = t.train(min(10_000, args.base_episodes - t.episodes))
            print(f"base {t.episodes}: {c.scores.mean():,.0f}", flush=True)
        t.save(args.base)
        print(f"base trained in {time.perf_counter() - start:,.0f} s", flush=True)
    base = Trainer.load(args.base)
    size = base.network.weights.shape[0]
    saved = base.tc.copy()
    packed = tc_pack(saved)
    with tempfile.TemporaryDirectory() as d:
        np.savez_compressed(os.path.join(d, "tc.npz"), **packed)
        kb = os.path.getsize(os.path.join(d, "tc.npz")) / 1024
        compact_model(args.base, os.path.join(d, "c12.npz"), NTupleNetwork, bits=12)
        w12 = load_model(os.path.join(d, "c12.npz"), NTupleNetwork)[0].weights.copy()
    seen = saved[:, 1] > 0
    rate = np.abs(saved[seen, 0]) / saved[seen, 1]
    print(
        f"{size:,} weights, {seen.sum():,} touched; rate median {np.median(rate):.4f}; "
        f"packed TC state {kb:,.0f} KiB zipped",
        flush=True,
    )

    def play(t: Trainer) -> float:
        return float(t.play(args.games, args.seed)[0].mean())

    print(f"start: 1-ply {play(base):,.0f} over {args.games} games", flush=True)
    for arm in args.arms.split(","):
        t = Trainer.load(args.base)
        if arm == "packed":
            t.tc = tc_unpack(packed, size)
        elif arm == "packed12":
            t.tc = tc_unpack(packed, size)
            t.network.weights[:] = w12
        elif arm == "blocks":
            t.tc = blocks(saved)
        elif arm == "fresh":
            t.tc[:] = 0
        elif arm.startswith("warmup"):  # warmupK or warmupKxC: K episodes at alpha 0, A * C
            k, _, c = arm[len("warmup") :].partition("x")
            t.tc[:] = 0
            alpha, t.config.alpha = t.config.alpha, 0.0  # TC measures, the weights stay
            t.train(int(k))
            t.config.alpha = alpha
            t.tc *= float(c or 1)
        row = []
        for _ in range(args.episodes // args.step):
            c = t.train(args.step)
            row.append(f"{c.scores.mean():,.0f}/{play(t):,.0f}")
        print(f"{arm:9s} " + "  ".join(row), flush=True)


if __name__ == "__main__":
    main()
