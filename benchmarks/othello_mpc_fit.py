"""Fit multi-prob-cut's linear models (:mod:`boardai.othello.probcut`) on self-play positions.

Positions: seeded games of the shipped n-tuple network (its 1-ply move, a random move with
probability ``--epsilon``), taken every third disc count from 20 to 50 discs. Each is searched
by a fresh :class:`boardai.othello.search.Searcher` (no prob-cut) to 1, 2, ..., ``--depth``
plies; for each node depth ``d`` from ``probcut.MIN_DEPTH`` to ``--depth`` and its shallow
depth ``d' = probcut.shallow_depth(d)``, a least-squares line ``v_d = a * v_d' + b`` is fitted
per stage (``probcut.STAGE_ENDS``), with ``sigma`` the residuals' standard deviation. Prints
the fit quality and the ``FITS`` entry for ``probcut.py``.

    PYTHONPATH=src python benchmarks/othello_mpc_fit.py --eval ntuple --games 30 --depth 10 \\
        --json values.json
    PYTHONPATH=src python benchmarks/othello_mpc_fit.py --eval ntuple --values values.json
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
from boardai.othello.search import WIN_VALUE, Searcher

DISCS = tuple(range(20, 51, 3))


def positions(net: nt.NTupleNetwork, games: int, epsilon: float) -> list[tuple[int, int]]:
    """Positions (mover, opponent) from ``games`` seeded self-play games."""
    out = []
    rng = np.random.default_rng(2026_11_24)
    for _ in range(games):
        p, o = K.START_BLACK, K.START_WHITE
        while not K.is_terminal(p, o):
            if (int(p) | int(o)).bit_count() in DISCS and K.legal_moves(p, o):
                out.append((int(p), int(o)))
            moves = int(K.legal_moves(p, o))
            if not moves:
                a = K.PASS
            elif rng.random() < epsilon:
                squares = [s for s in range(64) if moves >> s & 1]
                a = squares[int(rng.integers(len(squares)))]
            else:
                a = int(nt.greedy_action(p, o, *net.data()))
            p, o = (np.uint64(x) for x in K.play(p, o, np.int64(a)))
    return out


def deepening_values(evaluator: Any, data: Any, p: int, o: int, depth: int) -> list[float]:
    """The exact 1..``depth``-ply values (one searcher, deepening: a table entry is reused
    only by searches as deep or shallower than the one that stored it)."""
    s = Searcher(evaluator, data, tt_bits=20)
    return [s.search(p, o, d).value for d in range(1, depth + 1)]


def fit(rows: list[dict[str, Any]], depth: int) -> list[tuple[int, int, int, float, float, float]]:
    """(stage, d, d', a, b, sigma) for each stage, node depth and shallow depth (the cheap
    try ``d' - 2`` too), printed with r and n. ``values[k]`` is the ``k``-ply value."""
    out = []
    stages = len(probcut.STAGE_ENDS) + 1
    print("stage  d  d'      a       b   sigma      r    n")
    for stage in [*range(stages), -1]:
        for d, ds in [
            (deep, ds)
            for deep in range(probcut.MIN_DEPTH, depth + 1)
            for ds in (probcut.shallow_depth(deep) - 2, probcut.shallow_depth(deep))
            if ds >= 0
        ]:
            pairs = [
                (r["values"][ds], r["values"][d])
                for r in rows
                if stage in (-1, probcut.stage_of(r["discs"]))
                and max(abs(r["values"][ds]), abs(r["values"][d])) < WIN_VALUE / 2
            ]
            x, y = np.array(pairs).T
            a, b = np.polyfit(x, y, 1)
            sigma = float(np.std(y - (a * x + b), ddof=2))
            r = float(np.corrcoef(x, y)[0, 1])
            print(f"{stage:5} {d:2} {ds:2} {a:6.3f} {b:7.2f} {sigma:7.2f} {r:6.3f} {len(x):4}")
            if stage >= 0:
                out.append((stage, d, ds, round(float(a), 3), round(float(b), 2), round(sigma, 2)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--eval", choices=("wpc", "classic", "ntuple"), default="ntuple")
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--epsilon", type=float, default=0.1)
    ap.add_argument("--depth", type=int, default=probcut.MAX_DEPTH)
    ap.add_argument("--model", default="", help="n-tuple model (default: the shipped one)")
    ap.add_argument("--json", metavar="OUT", help="write the positions' values")
    ap.add_argument("--values", metavar="IN", help="fit values written by --json (no search)")
    args = ap.parse_args()
    _, path = store.resolve_default(args.model, "othello", "othello-ntuple", "")
    net = load_network(path)
    evaluators: dict[str, tuple[Any, Any]] = {
        "wpc": (E.evaluate_wpc, E.wpc_data()),
        "classic": (E.evaluate_classic, E.CLASSIC_DATA),
        "ntuple": (evaluate_ntuple, search_data(net)),
    }
    evaluator, data = evaluators[args.eval]
    if args.values:
        with open(args.values) as f:
            rows = json.load(f)["positions"]
        depth = min(args.depth, min(len(r["values"]) for r in rows))
    else:
        pos = positions(net, args.games, args.epsilon)
        depth = args.depth
        rows = []
        t0 = time.perf_counter()
        for i, (p, o) in enumerate(pos):
            values = deepening_values(evaluator, data, p, o, depth)
            rows.append({"mover": p, "opponent": o, "discs": (p | o).bit_count(), "values": values})
            if (i + 1) % 20 == 0:
                print(f"{i + 1}/{len(pos)} positions, {time.perf_counter() - t0:.0f} s", flush=True)
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"eval": args.eval, "depth": depth, "positions": rows}, f)
    for r in rows:  # values[k]: the k-ply value, the static one first
        static = float(evaluator(np.uint64(r["mover"]), np.uint64(r["opponent"]), data))
        r["values"] = [static, *r["values"]]
    fits = fit(rows, depth)
    print(f'    "{args.eval}": (')
    for row in fits:
        print(f"        {row},")
    print("    ),")


if __name__ == "__main__":
    main()
