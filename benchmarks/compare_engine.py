"""Side by side: boardai's compiled slide_all against the same row-table slide in plain C.

Run: python benchmarks/compare_engine.py [--repeat 7]
Builds benchmarks/slide.c with gcc -O2 into a temporary folder, feeds both the same boards
(every position of 2000 random games), checks they agree, and prints medians and the ratio.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

from boardai.g2048 import kernels as K


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    boards = K.random_game_boards(2000, np.uint64(2048), 0.1)
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(tmp) / "slide"
        data = Path(tmp) / "boards.bin"
        boards.tofile(data)
        subprocess.run(
            ["gcc", "-O2", "-o", str(exe), str(Path(__file__).with_name("slide.c"))], check=True
        )
        K.slide_all(boards[:8])
        c_rates, nb_rates = [], []
        for _ in range(args.repeat):  # interleave so both see the same machine load
            out = subprocess.run(
                [str(exe), str(data), "1"], check=True, capture_output=True, text=True
            )
            rate, check = out.stdout.split()
            c_rates.append(float(rate))
            t = time.perf_counter()
            after, rewards = K.slide_all(boards)
            nb_rates.append(4 * len(boards) / (time.perf_counter() - t))
        ours = np.bitwise_xor.reduce(after.ravel() + rewards.ravel().astype(np.uint64))
        assert int(ours) == int(check), "C and numba disagree"
    c, nb = statistics.median(c_rates), statistics.median(nb_rates)
    print(f"boards {len(boards):,} x 4 directions, median of {args.repeat}")
    print(f"C (gcc -O2):     {c:.3e} slides/s")
    print(f"boardai (numba): {nb:.3e} slides/s")
    print(f"ratio boardai/C: {nb / c:.2f}")


if __name__ == "__main__":
    main()
