"""What a time budget a move buys the search over an n-tuple network: depths reached, and the
time of each fixed depth, on positions of one 1-ply game.

Plays one game with ``ntuple:model=MODEL`` (1-ply), keeps every ``--every``-th position, then
searches each with ``ntuple:...,depth=6,time_ms=T`` for each budget (the depth it stopped at and
the time it took) and with fixed depths 2..5 (the time a move). Issue 25's 100 ms target: the
depth it reaches says which fixed-depth strength a 100 ms player has, and what 300 games of it
would cost.

    python benchmarks/search_budget_depths.py --model 2048-ntuple --seed 31 --every 75
"""

from __future__ import annotations

import argparse
import collections
import statistics

from boardai.g2048 import Game
from boardai.g2048.agents import make_agent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default="2048-ntuple")
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--every", type=int, default=75, help="keep every N-th position")
    ap.add_argument("--budgets", default="10,100", help="time_ms values, comma-separated")
    ap.add_argument("--depths", default="2,3,4,5", help="fixed depths to time")
    args = ap.parse_args()
    boards = []
    game, player, n = Game(seed=args.seed), make_agent(f"ntuple:model={args.model}"), 0
    while not game.is_over():
        if n % args.every == 0:
            boards.append(game.board)
        game.move(player.act(game.board))
        n += 1
    print(f"{len(boards)} positions of one 1-ply game ({n} moves, score {game.score:,})")
    for ms in (float(x) for x in args.budgets.split(",")):
        agent = make_agent(f"ntuple:model={args.model},depth=6,time_ms={ms:g}")
        agent.act(boards[0])  # compile and fill the caches outside the timings
        depths: collections.Counter[int] = collections.Counter()
        seconds = []
        for b in boards:
            agent.act(b)
            depths[agent.last.depth] += 1
            seconds.append(agent.last.seconds)
        print(
            f"time_ms={ms:g}: depth reached {dict(sorted(depths.items()))}, "
            f"median {1000 * statistics.median(seconds):.1f} ms, max {1000 * max(seconds):.1f} ms"
        )
    for d in (int(x) for x in args.depths.split(",")):
        agent = make_agent(f"ntuple:model={args.model},depth={d}")
        agent.act(boards[0])
        seconds = []
        for b in boards:
            agent.act(b)
            seconds.append(agent.last.seconds)
        print(
            f"depth {d}: median {1000 * statistics.median(seconds):.2f} ms, mean "
            f"{1000 * statistics.mean(seconds):.2f} ms, max {1000 * max(seconds):.1f} ms"
        )


if __name__ == "__main__":
    main()
