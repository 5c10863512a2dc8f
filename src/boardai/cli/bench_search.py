"""``boardai bench search``: expectimax speed at fixed depths on a fixed set of positions."""

from __future__ import annotations

import argparse
from typing import Any

from boardai.cli._common import positive_int


def register(app: object) -> None:
    p = app.command(  # type: ignore[attr-defined]
        "bench search",
        help="expectimax speed: nodes and moves per second at fixed depths",
        examples=(
            "boardai bench search\n"
            "boardai bench search --depths 1 2 3 4 --json search.json\n"
            "boardai bench search --prob-cut 0   # no probability cut-off"
        ),
        description=(
            "Searches a fixed set of mid-game positions (every 25th position of 4 seeded games of\n"
            "expectimax:preset=fast, so about 100+ positions) at each depth, with a fresh\n"
            "transposition table per position. nodes = moves tried at max nodes (nneonneo's\n"
            "'moves evaluated'); moves_per_s = searches (moves chosen) per second; the CPU\n"
            "figures divide by this process's CPU time (fairer on a shared machine)."
        ),
    )
    p.add_argument(
        "--depths", type=positive_int, nargs="+", default=[1, 2, 3], help="depths (default 1 2 3)"
    )
    p.add_argument(
        "--prob-cut",
        type=float,
        default=1e-4,
        help="probability cut-off (default 1e-4, nneonneo's)",
    )
    p.add_argument(
        "--positions",
        type=positive_int,
        default=120,
        help="at most this many positions (default 120)",
    )
    p.add_argument(
        "--json",
        metavar="FILE",
        nargs="?",
        const="-",
        help="write the figures as JSON (- or no FILE: stdout)",
    )
    p.set_defaults(func=run)


def bench_positions(limit: int) -> list[Any]:
    """Every 25th position of 4 games of ``expectimax:preset=fast`` (game seeds of run 0)."""
    from boardai.arena.seeding import game_seed
    from boardai.g2048 import Game
    from boardai.g2048.agents import make_agent

    agent = make_agent("expectimax:preset=fast")
    boards = []
    for i in range(4):
        game = Game(seed=game_seed(0, i))
        while not game.is_over() and len(boards) < limit:
            if game.moves % 25 == 0:
                boards.append(game.board)
            game.move(agent.act(game.board))
    return boards


def run(args: argparse.Namespace) -> int:
    import json
    import platform
    import time

    from rich.table import Table

    from boardai.cli._common import console, write_json
    from boardai.g2048.search import Table as SearchTable
    from boardai.g2048.search import search

    boards = bench_positions(args.positions)
    table = SearchTable(20)
    search(boards[0], 2, table=table)  # compile before timing
    rows = {}
    for depth in args.depths:
        nodes = leaves = 0
        t0 = time.perf_counter()
        c0 = time.process_time()
        for b in boards:
            r = search(b, depth, prob_cut=args.prob_cut, table=table)
            nodes += r.moves
            leaves += r.leaves
        elapsed = time.perf_counter() - t0
        cpu = max(time.process_time() - c0, 1e-9)
        rows[str(depth)] = {
            "positions": len(boards),
            "seconds": elapsed,
            "cpu_seconds": cpu,
            "nodes_per_cpu_s": nodes / cpu,
            "nodes": nodes,
            "leaves": leaves,
            "nodes_per_s": nodes / elapsed,
            "moves_per_s": len(boards) / elapsed,
            "ms_per_move": 1000 * elapsed / len(boards),
        }
    result = {
        "benchmark": "search",
        "prob_cut": args.prob_cut,
        "machine": platform.processor() or platform.machine(),
        "positions": [f"{int(b):#018x}" for b in boards],
        "depths": rows,
    }
    if args.json == "-":
        print(json.dumps(result, indent=1))
        return 0
    t = Table(
        title=f"expectimax search, {len(boards)} positions, prob_cut {args.prob_cut:g}",
        title_justify="left",
    )
    for col in ("depth", "nodes/s", "nodes/CPU s", "moves/s", "ms/move", "nodes/move"):
        t.add_column(col, justify="right")
    for depth, r in rows.items():
        t.add_row(
            depth,
            f"{r['nodes_per_s']:,.0f}",
            f"{r['nodes_per_cpu_s']:,.0f}",
            f"{r['moves_per_s']:,.1f}",
            f"{r['ms_per_move']:.3f}",
            f"{r['nodes'] / r['positions']:,.0f}",
        )
    console().print(t)
    if args.json:
        write_json(args.json, result)
    return 0
