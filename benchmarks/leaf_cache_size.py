"""CPU time a move of the depth-8 n-tuple player against the size of its leaf cache.

The positions are those of the depth-8 run's part-way games (its journal's ``.partial``
files), played on for MOVES moves each with every size in turn, ROUNDS times; the moves must
be the same at every size (the cache holds exact values), and the script says so. Stop other
work on the machine first (the run's workers: ``kill -STOP``).

    python benchmarks/leaf_cache_size.py --games 288 289 290 --moves 150 --bits 16 18 20
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import boardai.g2048.agents.ntuple as ntuple_agent
from boardai.g2048 import Game
from boardai.g2048.agents import make_agent

PARTIAL = Path(__file__).parent / "journals" / "2048-ntuple-depth8-seed2028.jsonl.partial"
SPEC = "ntuple:model=2048-ntuple,depth=8,prob_cut=0.005"


def one(bits: int, games: list[int], moves: int) -> tuple[float, int, tuple[int, ...]]:
    """CPU-ms a move, moves played, and the moves, with a cache of 2**bits leaves."""
    ntuple_agent.DEEP_LEAF_BITS = bits
    agent = make_agent(SPEC, seed=1)
    cpu, played, actions = 0.0, 0, []
    for index in games:
        (path,) = PARTIAL.glob(f"*-{index}.json")
        game = Game.from_record(json.loads(path.read_text())["record"])
        agent.reset()
        for _ in range(moves):
            if game.is_over():
                break
            t0 = time.process_time()
            action = agent.act(game.board)
            cpu += time.process_time() - t0
            game.move(action)
            actions.append(action)
            played += 1
    return 1000 * cpu / max(played, 1), played, tuple(actions)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, nargs="+", default=[288, 289, 290, 291, 292])
    p.add_argument("--moves", type=int, default=100)
    p.add_argument("--bits", type=int, nargs="+", default=[16, 20])
    p.add_argument("--rounds", type=int, default=2)
    args = p.parse_args()
    first = None
    for round_ in range(args.rounds):
        for bits in args.bits:
            ms, played, actions = one(bits, args.games, args.moves)
            first = first or actions
            same = "same moves" if actions == first else "OTHER MOVES"
            print(f"round {round_} bits {bits}: {ms:.2f} CPU-ms a move over {played}, {same}")


if __name__ == "__main__":
    main()
