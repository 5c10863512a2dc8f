"""Gradient updates per CPU second of the DQN trainer, the way ``boardai 2048 train dqn`` runs them.

Builds a trainer with a preset (default ``strong``), fills the replay buffer with WARMUP
transitions of its own play, then times UPDATES updates (minibatch sampling, targets, forward,
backward, Adam, target net) in this process's CPU time, REPEAT times, and prints the median:

    python benchmarks/dqn_updates.py
    python benchmarks/dqn_updates.py --preset seed003 --updates 200 --repeat 5
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--preset", default="strong", help="DQN preset (default: strong)")
    ap.add_argument("--updates", type=int, default=300, help="updates per timing (default: 300)")
    ap.add_argument("--repeat", type=int, default=3, help="timings (default: 3)")
    ap.add_argument("--warmup", type=int, default=5000, help="transitions first (default: 5000)")
    args = ap.parse_args()

    from boardai.g2048.train.dqn import DQNTrainer, preset_config

    cfg = preset_config(args.preset, warmup=args.warmup, eval_every=0)
    trainer = DQNTrainer(cfg, tempfile.mkdtemp())
    while len(trainer.replay) < max(args.warmup, cfg.batch_size):
        trainer.collect(1)
    for _ in range(20):  # first calls allocate
        trainer.update()
    rates = []
    for _ in range(args.repeat):
        t0 = time.process_time()
        for _ in range(args.updates):
            trainer.update()
        rates.append(args.updates / (time.process_time() - t0))
    print(
        f"{args.preset}: {statistics.median(rates):.1f} updates per CPU second "
        f"(median of {args.repeat}: {', '.join(f'{r:.1f}' for r in rates)})"
    )


if __name__ == "__main__":
    main()
