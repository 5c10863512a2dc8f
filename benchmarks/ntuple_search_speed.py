"""The search over an n-tuple network on consecutive positions: the time a move of a player
(``act``, caches warm, so the leaf cache carries from one move to the next as in a game) and a
hash of its moves (the same hash: the same moves), over positions FROM .. FROM + COUNT - 1 of
a ``depth=2`` game of the same network.

    python benchmarks/ntuple_search_speed.py "ntuple:model=2048-ntuple,depth=6,prob_cut=0.01"
    python benchmarks/ntuple_search_speed.py "ntuple:model=2048-ntuple,depth=3" --from 3000
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import time

from boardai.g2048 import Game
from boardai.g2048.agents import make_agent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("spec", nargs="?", default="ntuple:model=2048-ntuple,depth=6,prob_cut=0.01")
    ap.add_argument("--from", dest="start", type=int, default=3000, help="first position")
    ap.add_argument("--count", type=int, default=400, help="positions")
    ap.add_argument("--seed", type=int, default=7, help="the game's seed")
    args = ap.parse_args()
    model = args.spec.split("model=", 1)[1].split(",", 1)[0] if "model=" in args.spec else ""
    mover = make_agent(f"ntuple:model={model},depth=2" if model else "ntuple:depth=2")
    game, n, boards = Game(seed=args.seed), 0, []
    while not game.is_over() and len(boards) < args.count:
        if n >= args.start:
            boards.append(game.board)
        game.move(mover.act(game.board))
        n += 1
    player = make_agent(args.spec)
    player.act(boards[0])  # compile outside the timing
    seconds, moves = [], []
    for b in boards:
        start = time.perf_counter()
        moves.append(player.act(b))
        seconds.append(time.perf_counter() - start)
    digest = hashlib.sha256(bytes(moves)).hexdigest()[:12]
    print(
        f"{args.spec}: {len(boards)} positions, median {1000 * statistics.median(seconds):.3f} ms,"
        f" mean {1000 * statistics.mean(seconds):.3f} ms a move, moves sha {digest}"
    )


if __name__ == "__main__":
    main()
