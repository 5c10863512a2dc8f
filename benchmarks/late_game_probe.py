"""Where does a late-game n-tuple network fail? Play from the boards in its restart pools.

A model trained with ``boardai 2048 train ntuple --restart P --restart-at LIST`` carries its restart
pools (the first boards on which its games reached each threshold). This plays GAMES games from
random boards of each pool, 1-ply (or expectimax with ``--depth``), and prints per pool the
points gained from the pooled board and the share of games that make 32768:

    python benchmarks/late_game_probe.py /work/runs/s4/carousel.npz --games 40
    python benchmarks/late_game_probe.py m.npz --games 10 --depth 3 --show 1

``--show N`` also prints the start and end boards of the first N games of each pool.
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("model", help="a model file with restart pools")
    ap.add_argument("--games", type=int, default=40, help="games per pool (default: 40)")
    ap.add_argument("--depth", type=int, default=1, help="1: greedy; 2-4: expectimax")
    ap.add_argument("--seed", type=int, default=1, help="rng seed (boards and spawns)")
    ap.add_argument("--show", type=int, default=0, help="print start/end boards of N games")
    args = ap.parse_args()

    from boardai.g2048.agents import make_agent
    from boardai.g2048.board import Board
    from boardai.learn.model_file import load_model

    _, meta, extra = load_model(args.model)
    if "pool" not in extra:
        raise SystemExit(f"{args.model}: no restart pools (trained without --restart)")
    pool, pool_state = extra["pool"], extra["pool_state"]
    if pool.ndim == 2:  # files from before --restart-at: one pool per thread
        pool, pool_state = pool[:, None, :], pool_state[:, None, :]
    spec = f"ntuple:model={args.model}" + (f",depth={args.depth}" if args.depth > 1 else "")
    agent = make_agent(spec, seed=args.seed)
    rng = np.random.default_rng(args.seed)
    thresholds = meta.get("config", {}).get("restart_at") or []
    levels = ["+".join(map(str, x)) if isinstance(x, list) else str(x) for x in thresholds]
    levels = levels or ["late boards"]
    for level in range(pool.shape[1]):
        boards = np.concatenate(
            [pool[t, level, : pool_state[t, level, 0]] for t in range(pool.shape[0])]
        )
        if len(boards) == 0:
            print(f"pool {level} ({levels[level]}): empty")
            continue
        gains, tiles, moves = [], [], []
        start = time.perf_counter()
        for g in range(args.games):
            board = Board._make(int(boards[rng.integers(len(boards))]))
            first, gain, n = board, 0, 0
            while not board.is_terminal():
                board, reward = board.slide(agent.act(board))
                board = board.spawn(rng)
                gain, n = gain + reward, n + 1
            gains.append(gain)
            tiles.append(board.max_tile())
            moves.append(n)
            if g < args.show:
                print(f"start\n{first}\nend after {n} moves, +{gain:,}\n{board}\n")
        reach = np.mean(np.array(tiles) >= 32768)
        print(
            f"pool {level} ({levels[level]}), {len(boards):,} boards: {args.games} games, "
            f"gain {np.mean(gains):,.0f} (median {np.median(gains):,.0f}), "
            f"moves {np.mean(moves):,.0f}, 32768 in {reach:.0%} "
            f"({time.perf_counter() - start:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
