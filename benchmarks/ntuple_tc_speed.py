"""Training moves per CPU second of a saved n-tuple run, with temporal coherence on and off, in
interleaved rounds (the run's own weights, filled tables: realistic cache behaviour):

    python benchmarks/ntuple_tc_speed.py RUN.npz [EPISODES] [ROUNDS] [METHOD]

RUN.npz is a full-state file of `boardai 2048 train ntuple --tc` (it keeps the TC state).
Each round trains EPISODES (default 500) with TC, then as many without: the network moves on
between timings, so compare trees in alternating runs, not one run's two figures.
"""

import sys
from dataclasses import replace

import numpy as np

from boardai.g2048.train.trainer import Trainer


def main() -> None:
    path = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    t = Trainer.load(path)
    if len(sys.argv) > 4:  # another TD method than the run's
        t.config = replace(t.config, method=sys.argv[4])
    t.train(20)  # compile
    res: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(rounds):
        for tc in (True, False):
            t.config = replace(t.config, tc=tc)  # keeps the TC state (reconfigure clears it)
            c = t.train(n)
            res[tc].append(float(c.moves.sum()) / c.cpu_seconds)
    for k, v in res.items():
        print("tc   " if k else "plain", [f"{x:,.0f}" for x in v], f"median {np.median(v):,.0f}")


if __name__ == "__main__":
    main()
