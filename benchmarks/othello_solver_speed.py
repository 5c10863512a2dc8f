"""Side-by-side speed of Othello endgame solvers: nodes, seconds and nodes a second.

Each variant is a copy of ``boardai/othello/endgame.py`` (the current one by default; an older
one from git, say). The variants solve the same positions in turns, A B A B ..., in one process,
so that a loaded machine slows them alike; the report gives each position's median CPU seconds
per variant, its nodes, and the ratio to the first variant. Every score must equal the obf
file's first listed score when the line has one. To compare with the last commit:

    git show HEAD:src/boardai/othello/endgame.py > /tmp/endgame_old.py
    python benchmarks/othello_solver_speed.py ../shared/anchors/edax/problem/fforum-40-59.obf \
        --lines 1-2 --variant /tmp/endgame_old.py --variant src/boardai/othello/endgame.py \
        --rounds 3

``--order othello-fit`` gives each variant the fitted network's move-ordering evaluation, as
``boardai othello solve`` does by default (a variant from before the order takes none).
"""

# ruff: noqa: E741  (P, O: the mover's and the opponent's bitboards)
from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from types import ModuleType

import numpy as np
from variant_module import import_source

from boardai.cli.othello._positions import read_positions


def load_variant(path: str, index: int) -> ModuleType:
    """Import the solver file ``path`` as a module of its own (:mod:`variant_module`)."""
    name = f"_solver_variant_{index}_{Path(path).stem}"
    return import_source(Path(path).read_text(encoding="utf-8"), name)


def solve(
    module: ModuleType,
    mover: int,
    opponent: int,
    table_bits: int | None = None,
    order: tuple[object, object] | None = None,
) -> tuple[int, int, float]:
    """(score, nodes, CPU seconds) of one exact solve with a table sized as ``solve_window``
    does. CPU time, not wall time: on a shared machine it leaves out the waits for a core."""
    P, O = np.uint64(mover), np.uint64(opponent)
    empties = 64 - (mover | opponent).bit_count()
    bits = min(max(empties, 12), 21) if table_bits is None else table_bits
    tt = np.zeros((1 << bits, 3), np.uint64)
    stats = np.array([0, 1 << 62, 0], np.int64)
    start = time.thread_time()
    extra = () if order is None else order  # a variant from before the order takes none
    _, score = module.solve_endgame(P, O, np.int64(-64), np.int64(64), stats, tt, *extra)
    return int(score), int(stats[0]), time.thread_time() - start


def known_score(path: str, line: int) -> int | None:
    """The first score listed after the mover on an obf line (``A2:+38``), if any."""
    text = Path(path).read_text(encoding="utf-8").splitlines()[line - 1]
    parts = text.split(";")
    if len(parts) < 2 or ":" not in parts[1]:
        return None
    return int(parts[1].split(":")[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", help="positions, one a line (obf)")
    parser.add_argument("--lines", default="1-1", help="range LO-HI of the file's positions")
    parser.add_argument(
        "--variant", action="append", help="a solver file (repeat); default: the installed one"
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--table-bits", type=int, help="2**B table entries (default: as solve_window sizes it)"
    )
    parser.add_argument(
        "--order",
        metavar="MODEL",
        help="order the moves with this fitted network too (othello-fit, a file; default: none)",
    )
    args = parser.parse_args()
    order = None
    if args.order:
        from boardai.othello.agents.alphabeta import solver_order

        order = solver_order(model=args.order)
    lo, hi = (int(x) for x in args.lines.split("-"))
    positions = read_positions(args.file)[lo - 1 : hi]
    paths = args.variant or [str(Path(__file__).parents[1] / "src/boardai/othello/endgame.py")]
    modules = [load_variant(p, i) for i, p in enumerate(paths)]
    for m in modules:  # compile or load from the cache before timing
        m.solve_endgame(
            np.uint64(1),
            np.uint64(2),
            np.int64(-64),
            np.int64(64),
            np.zeros(3, np.int64),
            np.zeros((16, 3), np.uint64),
            *(() if order is None else order),
        )
    seconds: dict[tuple[int, int], list[float]] = {}
    nodes: dict[tuple[int, int], int] = {}
    for r in range(args.rounds):
        for k, pos in enumerate(positions):
            for v, m in enumerate(modules):
                score, n, s = solve(m, pos.mover, pos.opponent, args.table_bits, order)
                want = known_score(args.file, pos.line)
                if want is not None and score != want:
                    raise SystemExit(f"{paths[v]}: line {pos.line}: score {score}, not {want}")
                seconds.setdefault((k, v), []).append(s)
                nodes[(k, v)] = n
                print(
                    f"round {r} line {pos.line} variant {v}: {score:+d} {n:,} nodes {s:.3f} s",
                    flush=True,
                )
    print("\nline empties variant nodes median_s M_nodes/s time_vs_first nps_vs_first")
    total_nodes = [0] * len(modules)
    total_seconds = [0.0] * len(modules)
    for k, pos in enumerate(positions):
        base_s = statistics.median(seconds[(k, 0)])
        base_nps = nodes[(k, 0)] / base_s
        for v in range(len(modules)):
            s = statistics.median(seconds[(k, v)])
            n = nodes[(k, v)]
            total_nodes[v] += n
            total_seconds[v] += s
            print(
                f"{pos.line:4d} {pos.empties:7d} {v:7d} {n:>13,} {s:8.3f} {n / s / 1e6:9.2f}"
                f" {s / base_s:13.3f} {n / s / base_nps:12.3f}"
            )
    for v, (n, s) in enumerate(zip(total_nodes, total_seconds, strict=True)):
        print(
            f"total variant {v} ({paths[v]}): {n:,} nodes {s:.3f} s {n / s / 1e6:.2f} M/s"
            f"  time {s / total_seconds[0]:.3f}x the first"
        )


if __name__ == "__main__":
    main()
