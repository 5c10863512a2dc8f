"""Nodes and time of the Othello midgame search to a fixed depth on a fixed set of positions.

The positions come from 4 seeded games (the shipped n-tuple network's 1-ply move, a random
move on one ply in five), taken at 20, 24, ..., 40 discs: 24 positions. Each is searched by a
fresh :class:`boardai.othello.search.Searcher` (iterative deepening 1..depth, no time limit,
no endgame solver); the figures are the sums over the positions: nodes (every position
searched, those of the ordering searches included), evaluator calls and seconds.

    PYTHONPATH=src python benchmarks/othello_midgame.py --eval ntuple --depth 8 [--json OUT]

With ``--mpc T`` the search uses multi-prob-cut at threshold ``T``; ``--exact`` compares with
the ``--json`` of a run without it (nodes, moves, values). With ``--time S`` each position is
searched for ``S`` seconds (``--depth`` the cap) and the depths reached are printed.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np

from boardai.learn import store
from boardai.othello import evaluation as E
from boardai.othello import kernels as K
from boardai.othello import ntuple as nt
from boardai.othello import probcut
from boardai.othello.ntuple_eval import evaluate_ntuple, search_data
from boardai.othello.ntuple_file import load_network
from boardai.othello.search import Searcher

DISCS = (20, 24, 28, 32, 36, 40)


def positions(net: nt.NTupleNetwork, games: int = 4) -> list[tuple[int, int]]:
    """The fixed positions (mover, opponent bitboards)."""
    out = []
    for seed in range(games):
        state = np.uint64(1000 + seed)
        p, o = K.START_BLACK, K.START_WHITE
        while not K.is_terminal(p, o):
            if (int(p) | int(o)).bit_count() in DISCS and K.legal_moves(p, o):
                out.append((int(p), int(o)))
            state, k = K.random_below(state, np.int64(5))
            state = np.uint64(state)
            if k == 0:
                state, a = K.random_action(p, o, state)
                state = np.uint64(state)
            else:
                a = nt.greedy_action(p, o, *net.data())
            p, o = (np.uint64(x) for x in K.play(p, o, np.int64(a)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--eval", choices=("wpc", "classic", "ntuple"), default="ntuple")
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--tt", type=int, default=20, help="table bits")
    ap.add_argument("--mpc", type=float, default=0.0, help="prob-cut threshold (0: off)")
    ap.add_argument("--tries", type=int, default=probcut.TRIES, help="prob-cut tries a node")
    ap.add_argument("--time", type=float, help="seconds a position (depth: the cap)")
    ap.add_argument("--exact", metavar="JSON", help="--json of a run without prob-cut: compare")
    ap.add_argument("--json", metavar="OUT")
    args = ap.parse_args()
    mpc = probcut.table(args.eval, args.mpc, args.tries)
    _, path = store.resolve_default("", "othello", "othello-ntuple", "")
    net = load_network(path)
    evaluators: dict[str, tuple[Any, Any]] = {
        "wpc": (E.evaluate_wpc, E.wpc_data()),
        "classic": (E.evaluate_classic, E.CLASSIC_DATA),
        "ntuple": (evaluate_ntuple, search_data(net)),
    }
    evaluator, data = evaluators[args.eval]
    pos = positions(net)
    Searcher(evaluator, data, tt_bits=10).search(*pos[0], 1)  # compile
    rows = []
    for p, o in pos:
        t0 = time.perf_counter()
        s = Searcher(evaluator, data, tt_bits=args.tt, mpc=mpc)
        r = s.search(p, o, args.depth, args.time)
        rows.append(
            {"action": r.action, "value": r.value, "nodes": r.nodes, "depth": r.depth,
             "evaluations": r.evaluations, "seconds": time.perf_counter() - t0}
        )  # fmt: skip
    nodes = sum(r["nodes"] for r in rows)
    evals = sum(r["evaluations"] for r in rows)
    seconds = sum(r["seconds"] for r in rows)
    if args.time:
        depths = [r["depth"] for r in rows]
        print(f"{args.time} s a position: depth reached mean {np.mean(depths):.2f}, "
              f"min {min(depths)}, max {max(depths)}")  # fmt: skip
    print(
        f"{args.eval} depth {args.depth}: {len(rows)} positions, {nodes:,} nodes, "
        f"{evals:,} evaluations, "
        f"{seconds:.2f} s, {nodes / seconds / 1e6:.2f} M nodes/s"
    )
    if args.exact:
        with open(args.exact) as f:
            exact = json.load(f)["positions"]
        errors = [abs(r["value"] - e["value"]) for r, e in zip(rows, exact, strict=True)]
        same = sum(r["action"] == e["action"] for r, e in zip(rows, exact, strict=True))
        print(
            f"against {args.exact}: {nodes / sum(e['nodes'] for e in exact):.3f} of its nodes, "
            f"same move {same}/{len(rows)}, value error mean {np.mean(errors):.2f} "
            f"max {max(errors):.2f}"
        )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(
                {"positions": rows, "nodes": nodes, "evaluations": evals, "seconds": seconds}, f
            )


if __name__ == "__main__":
    main()
