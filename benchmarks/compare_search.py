"""Side by side: boardai's expectimax against nneonneo's C++ search on the same positions.

Run: python benchmarks/compare_search.py [--depths 3 4 5] [--repeat 3]
Builds benchmarks/search.cpp (nneonneo's 2048-ai search restated: same tables, heuristic,
cut-off, std::unordered_map table) with g++ -O2, searches the positions of
``boardai 2048 bench search`` at each depth with both (boardai's in one compiled loop,
``search_batch``, as the C++ loops in C), and prints moves evaluated per CPU second
and CPU milliseconds per searched position (medians, interleaved so both see the same machine
load), the ratios (boardai / C++ speed: above 1 is faster), and how often the two
choose the same move (they differ only by float32 vs float64 and table details).
With ``--records FILE`` it compares nneonneo's adaptive depth against
``expectimax:preset=strong`` on late positions of recorded games.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

from boardai.cli.g2048.bench_search import bench_positions
from boardai.g2048 import heuristic
from boardai.g2048.search import N_STATS, Table, search_batch
from boardai.jitref import ref


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--depths", type=int, nargs="+", default=[3, 4, 5])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--positions", type=int, default=120)
    parser.add_argument(
        "--records",
        metavar="FILE",
        help="instead: compare nneonneo's adaptive depth with expectimax:preset=strong on "
        "every 400th position (from move 500) of the 3 longest games of this records file",
    )
    args = parser.parse_args()
    if args.records:
        compare_strong(args.records, args.repeat)
        return
    boards = bench_positions(args.positions)
    packed = np.array([int(b) for b in boards], np.uint64)
    table = Table(20)
    evaluator, rows = ref(heuristic.evaluate_rows), heuristic.row_table_data()
    view = table.view(table.next_generation(2))
    search_batch(
        packed[:2], 2, evaluator, None, rows, 0.0, 1e-4, 0.1, view, np.zeros(N_STATS, np.int64)
    )
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(tmp) / "search"
        source = Path(__file__).with_name("search.cpp")
        subprocess.run(["g++", "-O2", "-o", str(exe), str(source)], check=True)
        print(f"{len(boards)} positions; moves evaluated per CPU second, medians of {args.repeat}")
        for depth in args.depths:
            # Shallow searches are too quick to time once: both sides search copies.
            copies = max(1, 4 ** (6 - depth) // 8)
            batch = np.tile(packed, copies)
            data = Path(tmp) / f"boards{depth}.bin"
            batch.tofile(data)
            cpp_rates, nb_rates, cpp_ms, nb_ms, agree = [], [], [], [], 0
            for _ in range(args.repeat):
                out = subprocess.run(
                    [str(exe), str(data), str(depth)], check=True, capture_output=True, text=True
                ).stdout.split("\n")
                total = out[-2].split()
                cpu = max(float(total[4]), 1e-9)
                cpp_rates.append(int(total[2]) / cpu)
                cpp_ms.append(1000 * cpu / len(batch))
                cpp_moves = [int(line.split()[0]) for line in out[: len(boards)]]
                stats = np.zeros(N_STATS, np.int64)
                view = table.view(table.next_generation(len(batch)))
                c0 = time.process_time()
                actions, _ = search_batch(
                    batch, depth, evaluator, None, rows, 0.0, 1e-4, 0.1, view, stats
                )
                cpu = max(time.process_time() - c0, 1e-9)
                nb_rates.append(int(stats[0]) / cpu)
                nb_ms.append(1000 * cpu / len(batch))
                agree = sum(int(a) == m for a, m in zip(actions, cpp_moves, strict=False))
            c, n = statistics.median(cpp_rates), statistics.median(nb_rates)
            cm, nm = statistics.median(cpp_ms), statistics.median(nb_ms)
            print(
                f"depth {depth}: nodes/CPU s C++ {c:,.0f} boardai {n:,.0f} (ratio {n / c:.2f}); "
                f"CPU ms/move C++ {cm:.4f} boardai {nm:.4f} (ratio {cm / nm:.2f}); "
                f"same move {agree}/{len(boards)}"
            )


def compare_strong(records: str, repeat: int) -> None:
    """Time per move of nneonneo's own setting against ``expectimax:preset=strong``."""
    from boardai.g2048.agents import make_agent
    from boardai.records import read_records, replay

    longest = sorted(read_records(records), key=lambda r: -r["n_moves"])[:3]
    boards = [f.board for r in longest for f in replay(r)[500::400] if not f.board.is_terminal()]
    agent = make_agent("expectimax:preset=strong")
    agent.act(boards[0])  # compile
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(tmp) / "search"
        data = Path(tmp) / "boards.bin"
        np.array([int(b) for b in boards], np.uint64).tofile(data)
        source = Path(__file__).with_name("search.cpp")
        subprocess.run(["g++", "-O2", "-o", str(exe), str(source)], check=True)
        cpp_ms, nb_ms = [], []
        for _ in range(repeat):
            out = subprocess.run(
                [str(exe), str(data), "0"], check=True, capture_output=True, text=True
            ).stdout.split("\n")
            cpp_ms.append(1000 * float(out[-2].split()[4]) / len(boards))
            cpp_moves = [int(line.split()[0]) for line in out[: len(boards)]]
            c0 = time.process_time()
            ours = [agent.act(b) for b in boards]
            nb_ms.append(1000 * (time.process_time() - c0) / len(boards))
        same = sum(a == m for a, m in zip(ours, cpp_moves, strict=True))
        cm, nm = statistics.median(cpp_ms), statistics.median(nb_ms)
        print(
            f"{len(boards)} positions, adaptive depth: CPU ms/move C++ {cm:.1f}, "
            f"boardai {nm:.1f} (ratio {cm / nm:.2f}); same move {same}/{len(boards)}"
        )


if __name__ == "__main__":
    main()
