"""``boardai 2048 eval``: play N games of a 2048 player and report how it did."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from boardai.cli._common import (
    PLOT,
    default_workers,
    json_option,
    nonneg_int,
    output_option,
    positive_int,
    workers_option,
)

if TYPE_CHECKING:
    from boardai.arena.journal import Journal
    from boardai.arena.results import GameResult, RunResult
    from boardai.arena.solo import OnResult
    from boardai.cli import App

#: Long runs rewrite their output files at most this often (seconds), so a crash loses little.
SAVE_EVERY = 30.0


def register(app: App) -> None:
    p = app.command(
        "2048 eval",
        aliases=["eval"],
        help="play N games of a 2048 player over worker processes and report the results",
        examples=(
            "boardai 2048 eval --agent heuristic --games 100\n"
            "boardai 2048 eval --agent expectimax --games 100 --seed 1 --json ex.json "
            "--plot ex.png\n"
            "boardai 2048 eval --agent expectimax:preset=strong --games 20 --workers 1 "
            "--json s.json\n"
            "boardai 2048 eval --agent random --games 1000 --buckets 500 --csv random.csv\n"
            "boardai 2048 eval --agent expectimax --games 1000 --resume ex.jsonl --json ex.json\n"
            "boardai 2048 eval --agent expectimax --games 5000 --cluster auto --resume big.jsonl"
        ),
    )
    add_run_arguments(p)
    p.add_argument(
        "--agent", required=True, metavar="SPEC", help="the player, name[:key=value,...]"
    )
    json_option(p, "write every game (with its replay record) and the summary as JSON")
    output_option(p, "--csv", metavar="FILE", help="write one CSV row per game")
    output_option(
        p, "--plot", metavar="FILE", needs=PLOT, help="write a PNG: score histogram and tile reach"
    )
    output_option(
        p, "--record", metavar="FILE", help="write every game's replay record (JSON lines)"
    )
    p.add_argument(
        "--buckets",
        type=positive_int,
        default=None,
        help="score band width (default: from the data)",
    )
    p.set_defaults(func=run)


def add_run_arguments(p: argparse.ArgumentParser) -> None:
    """--games, --seed, --workers, --cluster and --resume (shared with ``boardai 2048 compare``)."""
    from boardai.cli._arena import add_arena_options

    p.add_argument("--games", type=positive_int, default=100, help="games to play (default 100)")
    p.add_argument("--seed", type=nonneg_int, default=0, help="seed of the run (default 0)")
    workers_option(p, "worker processes (default: all cores)")
    add_arena_options(p, partial=True)


def play_with_progress(
    spec: str,
    args: argparse.Namespace,
    label: str,
    on_extra: OnResult | None = None,
    record: bool = False,
    journal: Journal | None = None,
) -> RunResult:
    """Play ``args.games`` games of ``spec`` with a progress bar (on ``args.cluster`` if given);
    returns the RunResult.

    ``record`` (or an ``args.record`` file) keeps every game's replay record; ``journal`` keeps
    every game as it finishes (under ``spec``) and gives back those already played.
    """
    import time

    from rich.progress import TextColumn

    from boardai.arena import play_games
    from boardai.arena.results import PLAYED
    from boardai.cli._arena import games_to_show, part_of, where_to_play
    from boardai.cli._common import progress

    backend, workers = where_to_play(args)
    part = part_of(args)
    played = journal.part(spec, PLAYED) if journal is not None else None
    totals = {"score": 0, "moves": 0, "done": 0}
    start = time.perf_counter()
    with progress(
        TextColumn("avg {task.fields[avg]:,.0f}"), TextColumn("{task.fields[rate]:,.0f} moves/s")
    ) as bar:
        shown = games_to_show(args.games, part, played.done if played is not None else ())
        task = bar.add_task(label, total=shown, avg=0.0, rate=0.0)

        def on_result(result: GameResult, record: dict[str, Any] | None) -> None:
            totals["score"] += result.score
            totals["moves"] += result.moves
            totals["done"] += 1
            elapsed = max(time.perf_counter() - start, 1e-9)
            bar.update(
                task,
                advance=1,
                avg=totals["score"] / totals["done"],
                rate=totals["moves"] / elapsed,
            )
            if on_extra is not None:
                on_extra(result, record)

        run = play_games(
            spec,
            args.games,
            args.seed,
            workers,
            record=record or bool(getattr(args, "record", None)),
            on_result=on_result,
            backend=backend,
            journal=played,
            part=part,
        )
    if run.interrupted:
        from boardai.cli._common import console, plural

        console(stderr=True).print(
            f"interrupted: reporting the {len(run.results)} {plural(len(run.results), 'game')} "
            "finished"
        )
    return run


def run(args: argparse.Namespace) -> int:
    import contextlib
    import math
    import time

    from boardai.arena.results import RunResult, wilson_interval
    from boardai.arena.solo import prepare
    from boardai.cli._arena import open_journal, part_of
    from boardai.cli._common import console, plural, warn_if_slow, write_json
    from boardai.errors import UsageError
    from boardai.g2048.tables import bucket_table, reach_table
    from boardai.records import write_records
    from boardai.report import summary_table

    part_of(args)  # a bad --part is one line before any work
    warn_if_slow("2048", [args.agent])
    prepare(args.agent, args.workers or default_workers())
    records: list[dict[str, Any]] = []
    partial = RunResult(args.agent, args.seed, args.games, args.workers or default_workers())
    started = time.perf_counter()
    last_save = [started]

    def save(run: RunResult, final: bool = True) -> None:
        if args.json == "-":  # stdout: the finished run's document, once
            if final:
                write_json("-", run.to_dict())
        elif args.json:
            run.write_json(args.json)
        if args.record:
            write_records(args.record, sorted(records, key=lambda r: r["index"]))

    def on_extra(result: GameResult, record: dict[str, Any] | None) -> None:
        partial.results.append(result)
        if record is not None:
            records.append(record)
            partial.records[result.index] = record
        if time.perf_counter() - last_save[0] > SAVE_EVERY:
            partial.results.sort(key=lambda r: r.index)
            partial.interrupted = True  # not finished yet
            partial.seconds = time.perf_counter() - started
            with contextlib.suppress(OSError):  # the games go on; the last save reports it
                save(partial, final=False)
            last_save[0] = time.perf_counter()

    keep = bool(args.json or args.record)
    identity = {"command": "eval", "players": [args.agent], "seed": args.seed, "games": args.games}
    journal = open_journal(args, {**identity, "records": keep})
    try:
        run = play_with_progress(args.agent, args, args.agent, on_extra, bool(args.json), journal)
    finally:
        if journal is not None:
            journal.close()
    if not run.results:
        return 130
    summary = run.summary()
    cpu = run.cpu_ms_per_move()
    extra = {
        "moves per second": f"{run.moves_per_second():,.1f} (per worker)",
        "CPU time per move": f"{cpu:,.3f} ms" if math.isfinite(cpu) else "-",
        "time": f"{run.seconds:,.1f} s on {run.workers} worker(s)",
    }
    for tile in (2048, 16384, 32768):
        if run.max_tiles.max() >= tile // 4:
            hits = int((run.max_tiles >= tile).sum())
            lo, hi = wilson_interval(hits, len(run.results))
            extra[f"reached {tile} (95% CI)"] = (
                f"{100 * hits / len(run.results):.1f}% ({100 * lo:.1f}-{100 * hi:.1f})"
            )
    out = console()
    title = (
        f"{args.agent}, {len(run.results):,} {plural(len(run.results), 'game')}, seed {args.seed}"
    )
    out.print(summary_table(summary, title, extra))
    out.print(reach_table(run.max_tiles))
    out.print(bucket_table(run.scores, args.buckets))
    try:
        save(run)
        if args.csv:
            run.write_csv(args.csv)
        if args.plot:
            from boardai.arena.plots import write_plot

            write_plot(run, args.plot)
    except OSError as e:
        raise UsageError(
            f"{e.filename}: {e.strerror or e} (the results above are not saved there)"
        ) from None
    return 130 if run.interrupted else 0
