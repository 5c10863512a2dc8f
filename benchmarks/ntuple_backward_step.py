"""Time one step of the backward TD pass, two ways, on weights in cache and out of it.

    python benchmarks/ntuple_backward_step.py

"one after the other": the value before the update, the update, the value after it (three
passes, each sum waiting for the one before); "side by side": the value after the update
summed together with the next board's value before its update (what
``boardai.g2048.train.episodes`` does, the same numbers bit for bit). ``span`` is the range of
the random indices: 4,096 entries stay in L1, 2**26 (256 MiB) go to memory.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from boardai.intrinsics import prefetch
from boardai.learn.ntuple import add_at, map_pages, sum_at, sum_at_pair

AHEAD = 2


@njit(cache=True)
def backward(weights, looked, rewards, values, reps, pair):  # type: ignore[no-untyped-def]
    n = looked.shape[0]
    for _ in range(reps):
        value = sum_at(weights, looked[n - 1])
        for t in range(n - 1, -1, -1):
            if t >= AHEAD:
                for k in range(looked.shape[1]):
                    prefetch(weights, looked[t - AHEAD, k])
            target = 0.0 if t == n - 1 else rewards[t + 1] + values[t + 1]
            if pair:
                add_at(weights, looked[t], 0.1 / 32 * (target - value))
                values[t], value = sum_at_pair(weights, looked[t], looked[max(t - 1, 0)])
            else:
                error = target - sum_at(weights, looked[t])
                add_at(weights, looked[t], 0.1 / 32 * error)
                values[t] = sum_at(weights, looked[t])


def main() -> None:
    weights = map_pages(np.zeros(2**26, np.float32))  # mapped before timing
    n, reps = 800, 100
    rng = np.random.default_rng(0)
    rewards = rng.integers(0, 64, n).astype(np.int64)
    values = np.zeros(n)
    for span in (2**12, 2**16, 2**20, 2**26):
        looked = rng.integers(0, span, (n, 32)).astype(np.int64)
        times: list[list[float]] = [[], []]
        for pair in (False, True):
            backward(weights, looked, rewards, values, 1, pair)  # compile or load
        for _ in range(7):  # alternate, and take medians: other work shares the machine
            for pair in (False, True):
                start = time.perf_counter()
                backward(weights, looked, rewards, values, reps, pair)
                times[pair].append((time.perf_counter() - start) / (reps * n) * 1e9)
        one, two = np.median(times[0]), np.median(times[1])
        print(
            f"span {span:>10,}: one after the other {one:6.1f} ns a step, "
            f"side by side {two:6.1f} ns ({two / one:.2f}x), medians of 7"
        )


if __name__ == "__main__":
    main()
