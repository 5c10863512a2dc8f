"""Evaluations per second of the search's n-tuple evaluator (``evaluate_ntuple``), per model,
measured side by side: rounds alternate over the models, the median round is reported.

    python benchmarks/othello_ntuple_eval_speed.py plain.npz mob.npz \
        --positions runs/61/oth/r4.npz --old HEAD~1
    python benchmarks/othello_ntuple_eval_speed.py plain.npz mob.npz \
        --positions runs/61/oth/r4.npz --depth 6 --count 40

Each round evaluates the same positions (the first ``--count`` of a positions file, whose
positions follow each other in their games as a search's leaves resemble each other, or from
seeded random games without one) once per model, in one compiled loop. ``--old REV`` also
times the evaluator as git revision ``REV`` wrote it on the models it can read (those without
counts), and the working tree's, both compiled in the process (:func:`_evaluators`): the cost
of the change for them. With ``--depth D`` a round is instead an alpha-beta search
(:class:`boardai.othello.search.Searcher`, no endgame solver) of every ``--count``-th position
with 20 to 40 discs, and the rate is the evaluator's calls over the search's time (different
networks search different trees; the time an evaluation, search included, compares).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

import numpy as np
from variant_module import import_source

from boardai._jit import njit
from boardai.othello import kernels as K
from boardai.othello import ntuple_eval
from boardai.othello.ntuple_eval import evaluate_ntuple, search_data
from boardai.othello.ntuple_file import load_network


# Not cached, unlike the package's kernels: its evaluator argument may come from a temporary
# module (--old), which a cache index would name and fail to import in a later run.
@njit(cache=False)
def _loop(evaluate: Any, data: Any, mover: np.ndarray, opponent: np.ndarray) -> float:
    total = 0.0
    for i in range(mover.shape[0]):
        total += evaluate(mover[i], opponent[i], data)
    return total


def _positions(path: str | None, count: int) -> tuple[np.ndarray, np.ndarray]:
    if path:
        with np.load(path) as z:
            mover, opponent = z["mover"], z["opponent"]
        return (
            np.ascontiguousarray(mover[:count], np.uint64),
            np.ascontiguousarray(opponent[:count], np.uint64),
        )
    positions = K.random_positions(np.int64(count), np.uint64(1))
    return np.ascontiguousarray(positions[:, 0]), np.ascontiguousarray(positions[:, 1])


def _evaluators(rev: str) -> list[tuple[str, Any]]:
    """(label, module): ``ntuple_eval.py`` as revision ``rev`` and as the working tree have
    it, both compiled here: machine code loaded from numba's cache can run a few percent
    slower or faster than the same code compiled in the process, so the two compare alike."""
    old = subprocess.run(
        ["git", "show", f"{rev}:src/boardai/othello/ntuple_eval.py"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    new = Path(ntuple_eval.__file__).read_text()
    return [
        (rev, import_source(old, "_rev_ntuple_eval")),
        ("working tree", import_source(new, "_work_ntuple_eval")),
    ]


def _searches(args: argparse.Namespace) -> None:
    from boardai.othello.search import Searcher

    mover, opponent = _positions(args.positions, 100 * args.count * args.count)
    discs = np.array([(int(p) | int(o)).bit_count() for p, o in zip(mover, opponent, strict=True)])
    rows = np.flatnonzero((discs >= 20) & (discs <= 40))[:: args.count][: args.count]
    nets = [(m, search_data(load_network(m))) for m in args.models]
    for _, data in nets:  # compile outside the timing
        Searcher(evaluate_ntuple, data, tt_bits=10).search(int(mover[0]), int(opponent[0]), 2)
    rates: dict[str, list[float]] = {m: [] for m, _ in nets}
    nodes: dict[str, int] = {}
    for k in range(args.rounds):
        # models take turns a position at a time, each round from the next one: whatever
        # runs first (or after another) is not always the same model
        order = nets[k % len(nets) :] + nets[: k % len(nets)]
        evals = dict.fromkeys(rates, 0)
        seconds = dict.fromkeys(rates, 0.0)
        nodes = dict.fromkeys(rates, 0)
        for i in rows:
            for m, data in order:
                searcher = Searcher(evaluate_ntuple, data, tt_bits=20)
                t0 = time.perf_counter()
                r = searcher.search(int(mover[i]), int(opponent[i]), args.depth)
                seconds[m] += time.perf_counter() - t0
                evals[m] += r.evaluations
                nodes[m] += r.nodes
        for m in rates:
            rates[m].append(evals[m] / seconds[m])
    base = statistics.median(rates[nets[0][0]])
    print(f"{len(rows)} positions, depth {args.depth}, {args.rounds} rounds, median round:")
    for m, _ in nets:
        rate = statistics.median(rates[m])
        print(
            f"  {m}: {rate / 1e6:.3f} M evaluations/s in the search, {base / rate:.3f}x the"
            f" first's time an evaluation; {nodes[m]:,} nodes"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("models", nargs="+")
    ap.add_argument("--positions", help="positions file (.npz of mover, opponent)")
    ap.add_argument("--count", type=int, default=200_000)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--old", metavar="REV", help="also time REV's evaluator")
    ap.add_argument("--depth", type=int, help="time searches to this depth instead")
    args = ap.parse_args()
    if args.depth:
        _searches(args)
        return
    mover, opponent = _positions(args.positions, args.count)
    runs: list[tuple[str, Any, Any]] = []
    compiled_here = _evaluators(args.old) if args.old else []
    for m in args.models:
        net = load_network(m)
        runs.append((m, evaluate_ntuple, search_data(net)))
        for label, module in compiled_here:
            if label == "working tree" or not net.features:
                runs.append((f"{m} ({label})", module.evaluate_ntuple, module.search_data(net)))
    sums = {}
    for name, evaluate, data in runs:  # compile outside the timing
        sums[name] = _loop(evaluate, data, mover[:10], opponent[:10])
    times: dict[str, list[float]] = {name: [] for name, _, _ in runs}
    for k in range(args.rounds):
        for name, evaluate, data in runs[k % len(runs) :] + runs[: k % len(runs)]:
            t0 = time.perf_counter()
            sums[name] = _loop(evaluate, data, mover, opponent)
            times[name].append(time.perf_counter() - t0)
    n = len(mover)
    base = statistics.median(times[runs[0][0]])
    print(f"{n:,} positions, {args.rounds} rounds, median round:")
    for name, _, _ in runs:
        t = statistics.median(times[name])
        print(
            f"  {name}: {1e9 * t / n:.1f} ns an evaluation, {n / t / 1e6:.2f} M/s,"
            f" {t / base:.3f}x the first; sum of values {sums[name]:.6g}"
        )


if __name__ == "__main__":
    main()
