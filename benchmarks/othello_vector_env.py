"""Steps a second of the Othello vector envs: the native one (all boards and the opponent's
replies in one compiled call) against Gymnasium's SyncVectorEnv over the single env (what
``make_vec`` gave before), the learner playing the first legal move.

Rounds alternate the two; the script prints each round and the medians (wall and CPU time).

    python benchmarks/othello_vector_env.py --num-envs 1024 --opponent wpc --rounds 5
"""

from __future__ import annotations

import argparse
import statistics
import time

import gymnasium as gym

import boardai  # noqa: F401


def rate(mode: str, num_envs: int, opponent: str, steps: int) -> tuple[float, float]:
    """Board steps per wall second and per CPU second."""
    envs = gym.make_vec(
        "boardai/Othello-v0", num_envs=num_envs, opponent=opponent, vectorization_mode=mode
    )
    _, info = envs.reset(seed=0)
    envs.step(info["action_mask"].argmax(axis=1))  # compiled, warm
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(steps):
        _, _, _, _, info = envs.step(info["action_mask"].argmax(axis=1))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    envs.close()
    return steps * num_envs / wall, steps * num_envs / cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--num-envs", type=int, default=1024)
    parser.add_argument("--opponent", default="wpc")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=200, help="native steps a round")
    args = parser.parse_args()
    got: dict[str, list[tuple[float, float]]] = {"vector_entry_point": [], "sync": []}
    for r in range(args.rounds):
        for mode in got:
            # the sync env is about 60x slower: a sixtieth of the steps, at least 2
            steps = args.steps if mode != "sync" else max(2, args.steps // 60)
            wall, cpu = rate(mode, args.num_envs, args.opponent, steps)
            got[mode].append((wall, cpu))
            print(f"round {r}: {mode:18} {wall:12,.0f} wall {cpu:12,.0f} cpu")
    med = {m: [statistics.median(x[k] for x in v) for k in (0, 1)] for m, v in got.items()}
    for mode, (wall, cpu) in med.items():
        print(f"median {mode:18} {wall:12,.0f} steps/s wall {cpu:12,.0f} steps/CPU s")
    ratio = med["vector_entry_point"][0] / med["sync"][0]
    print(f"native / sync (wall): {ratio:.1f}x  (N = {args.num_envs}, opponent {args.opponent})")


if __name__ == "__main__":
    main()
