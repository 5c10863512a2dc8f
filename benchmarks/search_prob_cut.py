"""What the probability cut-off buys the search over an n-tuple network: the time a move and
how often the move agrees with a deeper, fuller search, for depths and cut-offs side by side.

Plays games with ``ntuple:model=MODEL,depth=2``, keeps every ``--every``-th position, picks
each position's move with the reference player (``--reference``, default depth 6 with the
default cut-off 1e-4), then with ``ntuple:...,depth=D,prob_cut=C`` for each depth and cut-off:
the median and mean time a move (in ``act``, caches warm) and the share of positions where
the move is the reference's. A larger cut-off evaluates, rather than expands, the chance nodes
a search reaches with a lower probability: with few empty cells (the crowded boards where
games are lost) the probabilities stay high and the search still goes deep.

    python benchmarks/search_prob_cut.py --seeds 31,32 --every 150
"""

from __future__ import annotations

import argparse
import statistics
import time

from boardai.g2048 import Board, Game
from boardai.g2048.agents import make_agent


def positions(model: str, seeds: list[int], every: int) -> list[Board]:
    """Every ``every``-th position of one depth-2 game per seed."""
    boards = []
    for seed in seeds:
        game, player, n = Game(seed=seed), make_agent(f"ntuple:model={model},depth=2"), 0
        while not game.is_over():
            if n % every == 0:
                boards.append(game.board)
            game.move(player.act(game.board))
            n += 1
        print(f"seed {seed}: {n:,} moves, score {game.score:,}", flush=True)
    return boards


def timed(spec: str, boards: list[Board]) -> tuple[list[int], list[float]]:
    """Each board's move by ``spec`` and the seconds it took."""
    agent = make_agent(spec)
    agent.act(boards[0])  # compile and warm outside the timings
    moves, seconds = [], []
    for b in boards:
        start = time.perf_counter()
        moves.append(agent.act(b))
        seconds.append(time.perf_counter() - start)
    return moves, seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default="2048-ntuple")
    ap.add_argument("--seeds", default="31,32", help="games to take positions from")
    ap.add_argument("--every", type=int, default=150, help="keep every N-th position")
    ap.add_argument("--reference", default="depth=6", help="the reference player's options")
    ap.add_argument("--depths", default="3,4,5,6")
    ap.add_argument("--cuts", default="0.0001,0.001,0.003,0.01,0.03")
    args = ap.parse_args()
    boards = positions(args.model, [int(s) for s in args.seeds.split(",")], args.every)
    ref, ref_s = timed(f"ntuple:model={args.model},{args.reference}", boards)
    print(
        f"{len(boards)} positions; reference {args.reference}: median "
        f"{1000 * statistics.median(ref_s):.1f} ms, mean {1000 * statistics.mean(ref_s):.1f} ms",
        flush=True,
    )
    for depth in (int(d) for d in args.depths.split(",")):
        for cut in args.cuts.split(","):
            spec = f"ntuple:model={args.model},depth={depth},prob_cut={cut}"
            moves, seconds = timed(spec, boards)
            agree = sum(a == b for a, b in zip(moves, ref, strict=True)) / len(ref)
            print(
                f"depth {depth}, prob_cut {cut}: median "
                f"{1000 * statistics.median(seconds):.2f} ms, "
                f"mean {1000 * statistics.mean(seconds):.2f} ms, same move {agree:.1%}",
                flush=True,
            )


if __name__ == "__main__":
    main()
