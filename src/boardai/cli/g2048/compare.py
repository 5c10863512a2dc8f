"""``boardai 2048 compare``: several 2048 players on the same seeds, side by side."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from boardai.arena.results import RunResult
    from boardai.cli import App


def register(app: App) -> None:
    from boardai.cli._common import PLOT, json_option, output_option, tile_value
    from boardai.cli.g2048.eval import add_run_arguments

    p = app.command(
        "2048 compare",
        aliases=["compare"],
        help="play several 2048 players on the same seeds and show them side by side, "
        "paired game by game",
        examples=(
            "boardai 2048 compare --agents random greedy heuristic --games 100\n"
            "boardai 2048 compare --agents expectimax:preset=fast expectimax --games 20 "
            "--json cmp.json\n"
            "boardai 2048 compare --agents greedy heuristic --games 2000 --cluster local "
            "--resume c.jsonl\n"
            "boardai 2048 compare --from d3.json d6.json --tile 32768   # runs already played\n"
            "boardai 2048 compare --agents greedy heuristic expectimax --games 50 --plot cmp.png"
        ),
    )
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--agents", nargs="+", metavar="SPEC", help="the players")
    which.add_argument(
        "--from",
        dest="files",
        nargs="+",
        metavar="FILE",
        help="compare runs already played instead: the --json files of 2048 eval (also one "
        "under way) or 2048 compare, or their --resume journals, on the same seed",
    )
    p.add_argument(
        "--tile",
        type=tile_value,
        default=None,
        help="the tile whose reach is paired (McNemar's exact test; default: the largest "
        "tile every player reached)",
    )
    add_run_arguments(p)
    json_option(p, "write every player's games and summary as JSON")
    output_option(
        p,
        "--plot",
        metavar="FILE",
        needs=PLOT,
        help="write a PNG: each player's scores (box) and tile reach (with 95%% intervals)",
    )
    p.set_defaults(func=run)


def show(runs: list[RunResult], title: str, args: argparse.Namespace) -> None:
    """The side-by-side table, then each player paired with the first on their common games;
    the plot if ``--plot`` asks for one."""
    from boardai.arena.compare import compare_table
    from boardai.arena.paired import common_tile, paired_table
    from boardai.cli._common import console

    out = console()
    out.print(compare_table(runs, title))
    if len(runs) > 1:
        out.print(paired_table(runs, args.tile or common_tile(runs)))
    if args.plot and any(run.results for run in runs):
        from boardai.arena.plots import write_compare_plot
        from boardai.errors import UsageError

        try:
            write_compare_plot(runs, args.plot, title)
        except OSError as e:
            raise UsageError(f"{e.filename}: {e.strerror or e} (the plot is not saved)") from None


def run(args: argparse.Namespace) -> int:
    from boardai.cli._arena import open_journal, part_of
    from boardai.errors import UsageError

    if args.files:
        if args.part is not None:
            raise UsageError("--part plays part of a run; --from plays nothing: give one of them")
        return compare_files(args)
    from boardai.arena.solo import prepare
    from boardai.cli._common import default_workers, warn_if_slow, write_json
    from boardai.cli.g2048.eval import play_with_progress

    part_of(args)  # a bad --part is one line before any work
    warn_if_slow("2048", args.agents)
    for spec in args.agents:
        prepare(spec, args.workers or default_workers())
    runs = []
    identity = {"players": args.agents, "seed": args.seed, "games": args.games}
    keep = bool(args.json)  # the --json file holds every game's record, as eval's does
    header = {"command": "compare", **identity, **({"records": True} if keep else {})}
    journal = open_journal(args, header)
    try:
        for spec in args.agents:
            run_ = play_with_progress(spec, args, spec, record=keep, journal=journal)
            runs.append(run_)
            if run_.interrupted:
                break
    finally:
        if journal is not None:
            journal.close()
    stopped = any(r.interrupted for r in runs)
    asked = f"{args.games} games per player{' asked, stopped early' if stopped else ''}"
    show(runs, f"{asked}, seed {args.seed}", args)
    if args.json:
        write_json(args.json, {"seed": args.seed, "runs": [r.to_dict() for r in runs]})
    return 130 if stopped else 0


def compare_files(args: argparse.Namespace) -> int:
    """``--from``: the runs of the files, side by side and paired (nothing is played)."""
    from boardai.arena.results import read_runs
    from boardai.errors import UsageError

    runs = [run for path in args.files for run in read_runs(path)]
    if not runs:
        raise UsageError("--from: no finished games in these files")
    seeds = sorted({run.seed for run in runs})
    if len(seeds) > 1:
        raise UsageError(f"--from: the runs have different seeds ({seeds}): no games in common")
    games = ", ".join(f"{len(run.results):,}" for run in runs)
    show(runs, f"games played per player: {games}; seed {seeds[0]}", args)
    under_way = [run for run in runs if len(run.results) < run.games]
    if under_way:
        from boardai.cli._common import console

        console(stderr=True).print(
            f"{len(under_way)} of these runs not finished ({under_way[0].agent}: "
            f"{len(under_way[0].results):,} of {under_way[0].games:,} games): the long games "
            "finish last, so until the end a run's rates and average may read low"
        )
    if args.json:
        from boardai.cli._common import write_json

        write_json(args.json, {"seed": seeds[0], "runs": [r.to_dict() for r in runs]})
    return 0
