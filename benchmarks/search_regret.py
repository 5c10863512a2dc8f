"""Regret of 2048 searches against a much deeper one: a cheap ranking before 300 games.

Takes positions of recorded games (an eval journal or record file), searches each with a deep
"oracle" spec, then with every spec given, and reports per spec the CPU time a position and
the mean regret: the oracle's value of its best move minus its value of the move the spec
picks (0 where they agree), in points of expected score; by empty cells too. The oracle uses
the same network, so the ranking can favour searches that look like it; it says what to spend
games on, the games decide (docs/journal/benchmarks-journal.md, session 29).

    M=ntuple:model=2048-ntuple
    python benchmarks/search_regret.py runs/d8.jsonl --oracle $M,depth=10,prob_cut=0.001 \\
        $M,depth=6,prob_cut=0.003 $M,depth=8,prob_cut=0.005
    python benchmarks/search_regret.py runs/d8.jsonl --crowded 600 \\
        --oracle $M,depth=12,prob_cut=0.001 $M,depth=3
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from boardai.g2048.agents import make_agent
from boardai.records import read_records, replay


def positions(path: str, games: int, crowded: int) -> list:
    """Stretches of 8 consecutive positions every 1,000 moves from move 500 of the first
    ``games`` games; or, with ``crowded``, that many positions spread evenly over those with
    at most 2 empty cells (and a legal move) of every game."""
    boards = []
    records = read_records(path)
    for rec in records if crowded else records[:games]:
        frames = replay(rec)
        if crowded:
            boards += [
                f.board
                for f in frames[1:]
                if len(f.board.empty_cells()) <= 2 and f.board.legal_actions()
            ]
        else:
            for start in range(500, len(frames) - 20, 1000):
                boards += [f.board for f in frames[start : start + 8]]
    if crowded:
        boards = boards[:: max(1, len(boards) // crowded)][:crowded]
    return boards


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("records", help="eval journal (--resume J) or record file of 2048 games")
    ap.add_argument("specs", nargs="+", help="the searches to rank")
    ap.add_argument("--oracle", required=True, help="the deep search")
    ap.add_argument("--games", type=int, default=8, help="games to take stretches from")
    ap.add_argument("--crowded", type=int, default=0, help="N positions of <= 2 empty cells")
    args = ap.parse_args()
    boards = positions(args.records, args.games, args.crowded)
    oracle = make_agent(args.oracle)
    oracle.act(boards[0])  # compile outside the timing
    start = time.process_time()
    values = []
    for b in boards:
        oracle.act(b)
        values.append(np.asarray(oracle.last.values, dtype=float))
    ms = 1000 * (time.process_time() - start) / len(boards)
    print(f"{len(boards)} positions; oracle {args.oracle}: {ms:.0f} ms a position", flush=True)
    for spec in args.specs:
        agent = make_agent(spec)
        agent.act(boards[0])  # compile outside the timing
        regrets: list[float] = []
        by_empty: dict[int, list[float]] = {}
        cpu = 0.0
        for b, v in zip(boards, values, strict=True):
            c0 = time.process_time()
            a = agent.act(b)
            cpu += time.process_time() - c0
            r = float(np.max(v) - v[a])
            regrets.append(r)
            by_empty.setdefault(min(len(b.empty_cells()), 4), []).append(r)
        differ = sum(r > 0 for r in regrets)
        parts = ", ".join(f"{k}: {statistics.mean(v):,.0f}" for k, v in sorted(by_empty.items()))
        print(
            f"{spec}: {1000 * cpu / len(boards):.1f} ms, regret mean "
            f"{statistics.mean(regrets):,.0f}, differs on {differ}; by empty cells (4: 4 or "
            f"more) {parts}",
            flush=True,
        )


if __name__ == "__main__":
    main()
