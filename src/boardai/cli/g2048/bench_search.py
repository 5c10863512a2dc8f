"""``boardai 2048 bench search``: expectimax speed at fixed depths on a fixed set of positions."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from boardai.cli._common import int_in, json_option, positive_int, probability

if TYPE_CHECKING:
    from boardai.cli import App
    from boardai.g2048.board import Board


def register(app: App) -> None:
    p = app.command(
        "2048 bench search",
        aliases=["bench search"],
        help="expectimax speed: nodes and moves per second at fixed depths",
        examples=(
            "boardai 2048 bench search\n"
            "boardai 2048 bench search --depths 1 2 3 4 --json search.json\n"
            "boardai 2048 bench search --prob-cut 0   # no probability cut-off"
        ),
        description=(
            "Searches a fixed set of mid-game positions (every 25th position of 4 seeded games\n"
            "of expectimax:preset=fast, at most --positions) at each depth, with a fresh\n"
            "transposition table generation per position, in one compiled loop (search_batch;\n"
            "depths below 5 search the positions several times over, to be measurable).\n"
            "nodes = moves tried at max nodes (nneonneo's 'moves evaluated'); moves/s =\n"
            "searches (moves chosen) per second; nodes/cpu-s divides by this process's CPU\n"
            "time (fairer on a shared machine); api moves/s calls the Python search() once per\n"
            "position, as a player does (about 10 us more per call). Medians of --repeat runs."
        ),
    )
    p.add_argument(
        "--depths",
        type=search_depth,
        nargs="+",
        default=[1, 2, 3],
        help="depths, as a player's depth= takes them (default 1 2 3)",
    )
    p.add_argument(
        "--prob-cut",
        type=probability,
        default=1e-4,
        help="probability cut-off (default 1e-4, nneonneo's)",
    )
    p.add_argument(
        "--repeat", type=positive_int, default=3, help="runs per depth; medians (default 3)"
    )
    p.add_argument(
        "--positions",
        type=positive_int,
        default=120,
        help="at most this many positions (default 120)",
    )
    json_option(p, "write the figures as JSON")
    p.set_defaults(func=run)


def bench_positions(limit: int) -> list[Board]:
    """Every 25th position of games 0-3 of seed 0 played by ``expectimax:preset=fast``."""
    from boardai.arena.play import board_of, play
    from boardai.g2048 import Game
    from boardai.g2048.agents import make_agent
    from boardai.g2048.contract_game import State2048

    agent = make_agent("expectimax:preset=fast")
    boards: list[Board] = []
    for i in range(4):
        game = Game(seed=0, index=i)
        moves = play(State2048(game), [agent], observe=board_of)
        while not game.is_over() and len(boards) < limit:
            if game.moves % 25 == 0:
                boards.append(game.board)
            next(moves)
    return boards


def search_depth(text: str) -> int:
    """argparse type: a depth a 2048 player takes (1..MAX_SEARCH_DEPTH, read when a value is
    parsed: the players' package loads numba, which ``--help`` does not need)."""
    from boardai.g2048.agents import MAX_SEARCH_DEPTH

    return int_in(1, MAX_SEARCH_DEPTH)(text)


def run(args: argparse.Namespace) -> int:
    import platform
    import statistics
    import time
    from functools import partial

    import numpy as np
    from rich.table import Table

    from boardai.cli._common import console, interruptible, write_json
    from boardai.g2048 import heuristic
    from boardai.g2048.search import N_STATS, search, search_batch
    from boardai.g2048.search import Table as SearchTable
    from boardai.jitref import ref

    boards = bench_positions(args.positions)
    packed = np.array([int(b) for b in boards], np.uint64)
    table = SearchTable(20)
    evaluator, data = ref(heuristic.evaluate_rows), heuristic.row_table_data()

    def batch(depth: int) -> tuple[np.ndarray, int]:
        # Shallow searches are too quick to time once: search copies of the positions.
        copies = max(1, 4 ** (6 - depth) // 8)
        boards = np.tile(packed, copies)
        stats = np.zeros(N_STATS, np.int64)
        view = table.view(table.next_generation(len(boards)))
        search_batch(boards, depth, evaluator, None, data, 0.0, args.prob_cut, 0.1, view, stats)
        return stats, copies

    def api_calls(depth: int) -> float:
        """Seconds to search every position once through the Python API, as a player does."""
        t0 = time.perf_counter()
        for b in boards:
            search(b, depth, prob_cut=args.prob_cut, table=table)
        return time.perf_counter() - t0

    batch(2)  # compile before timing
    search(boards[0], 2, table=table)
    rows = {}
    for depth in args.depths:
        walls, cpus, apis = [], [], []
        for _ in range(args.repeat):
            # in a thread of their own: Ctrl-C stops a deep depth's minutes at once
            t0, c0 = time.perf_counter(), time.process_time()
            stats, copies = interruptible(partial(batch, depth))
            walls.append(time.perf_counter() - t0)
            cpus.append(max(time.process_time() - c0, 1e-9))
            apis.append(interruptible(partial(api_calls, depth)))
        elapsed, cpu, api = (statistics.median(x) for x in (walls, cpus, apis))
        nodes, leaves = int(stats[0]), int(stats[1])
        rows[str(depth)] = {
            "positions": len(boards),
            "seconds": elapsed,
            "cpu_seconds": cpu,
            "copies": copies,
            "nodes": nodes,
            "leaves": leaves,
            "nodes_per_s": nodes / elapsed,
            "nodes_per_cpu_s": nodes / cpu,
            "moves_per_s": copies * len(boards) / elapsed,
            "ms_per_move": 1000 * elapsed / (copies * len(boards)),
            "api_moves_per_s": len(boards) / api,
            "api_ms_per_move": 1000 * api / len(boards),
        }
    result = {
        "benchmark": "search",
        "prob_cut": args.prob_cut,
        "repeat": args.repeat,
        "machine": platform.processor() or platform.machine(),
        "positions": [f"{int(b):#018x}" for b in boards],
        "depths": rows,
    }
    if args.json == "-":  # the figures alone
        write_json("-", result)
        return 0
    title = f"expectimax search, {len(boards)} positions, prob_cut {args.prob_cut:g}"
    t = Table(title=title, title_justify="left")
    columns = ("depth", "M nodes/s", "M nodes/cpu-s", "moves/s", "ms/move", "api moves/s")
    for col in columns:
        t.add_column(col, justify="right")
    for depth, r in rows.items():
        t.add_row(
            depth,
            f"{r['nodes_per_s'] / 1e6:.1f}",
            f"{r['nodes_per_cpu_s'] / 1e6:.1f}",
            f"{r['moves_per_s']:,.0f}",
            f"{r['ms_per_move']:.4f}",
            f"{r['api_moves_per_s']:,.0f}",
        )
    from boardai.report import folding

    console().print(folding(t))
    if args.json:
        write_json(args.json, result)
    return 0
