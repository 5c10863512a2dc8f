"""Time boardai's n-tuple TD trainer against a plain C++ one (benchmarks/ntuple_td.cpp) on this
machine: the same rules, 4x6 network, TD(0) backward, alpha 0.1, fresh weights, one thread.

    python benchmarks/compare_ntuple.py --episodes 2000 --repeat 3

Prints, for each, the median training moves per second (wall) and per CPU second, and the
average score (both learn at the same pace, a check that they do the same work).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
from pathlib import Path

HERE = Path(__file__).parent


def run_cpp(exe: Path, episodes: int, seed: int) -> tuple[float, float, float]:
    out = subprocess.run(
        [str(exe), str(episodes), str(seed)], capture_output=True, text=True, check=True
    )
    _, moves, secs, cpu, avg = out.stdout.split()
    return int(moves) / float(secs), int(moves) / float(cpu), float(avg)


def run_boardai(episodes: int, seed: int) -> tuple[float, float, float]:
    from boardai.g2048.train.config import TrainConfig
    from boardai.g2048.train.trainer import Trainer

    Trainer(TrainConfig(patterns="0123", seed=seed)).train(2)  # compile / load the cache
    trainer = Trainer(TrainConfig(patterns="4x6", seed=seed))
    chunk = trainer.train(episodes)
    return chunk.moves_per_second, chunk.moves_per_cpu_second, float(chunk.scores.mean())


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--episodes", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    exe = Path(tempfile.mkdtemp()) / "ntuple_td"
    subprocess.run(
        ["g++", "-O3", "-march=native", "-o", str(exe), str(HERE / "ntuple_td.cpp")], check=True
    )
    for name, fn in (
        ("C++ (g++ -O3)", lambda s: run_cpp(exe, args.episodes, s)),
        ("boardai", lambda s: run_boardai(args.episodes, s)),
    ):
        runs = [fn(seed) for seed in range(1, args.repeat + 1)]
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        avg = statistics.mean(r[2] for r in runs)
        print(
            f"{name:15s} {wall:12,.0f} moves/s {cpu:12,.0f} moves/CPU-s   average score {avg:,.0f}"
        )


if __name__ == "__main__":
    main()
