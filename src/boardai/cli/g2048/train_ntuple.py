"""``boardai 2048 train ntuple``: TD learning of an n-tuple network for 2048."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from boardai.cli._common import (
    PLOT,
    force_option,
    nonneg_int,
    output_option,
    positive_int,
    probability,
)
from boardai.cli._flags import deferred

if TYPE_CHECKING:
    from boardai.cli import App

EXAMPLES = (
    "boardai 2048 train ntuple --patterns 4x6 --episodes 100000 --out model.npz\n"
    "boardai 2048 train ntuple --patterns 4x6-columns --episodes 69000 --out columns.npz"
    " --csv columns.csv --plot columns.png\n"
    "boardai 2048 train ntuple --patterns 0123,4567 --episodes 2000 --out tiny.npz"
    " --report-every 500\n"
    "boardai 2048 train ntuple --resume model.npz --episodes 200000 --out model.npz\n"
    "boardai 2048 train ntuple --resume 2048-ntuple --alpha 0.01 --episodes 3000000"
    " --out more.npz\n"
    "boardai 2048 train ntuple --patterns 4x6 --tc --alpha 1.0 --stages 14"
    " --restart 0.5 --out tc.npz\n"
    "boardai 2048 train ntuple --patterns 4x6 --stages 14,14+13 --out staged.npz\n"
    "boardai 2048 train ntuple --resume m.npz --stages 14,14+13 --restart 0.8"
    " --restart-at 14 --out late.npz\n"
    "boardai 2048 train ntuple --resume m.npz --downgrade 16384 --restart 0.8"
    " --restart-at 14 --out dg.npz\n"
)


def register(app: App) -> None:
    p = app.command(
        "2048 train ntuple",
        aliases=["train ntuple"],
        help="train an n-tuple network for 2048 by TD learning on afterstates",
        examples=EXAMPLES,
        description=(
            "Train an n-tuple network by TD learning on afterstates: greedy play by\n"
            "r + V(afterstate), updates from the end of each episode backwards, or online.\n"
            "Every --report-every episodes it prints a report (average\n"
            "and max score, moves/s, tile reach table) and appends a CSV row; every\n"
            "--checkpoint-minutes of training (and every --checkpoint-every episodes, if given),\n"
            "at the end, and at Ctrl-C or SIGTERM (exit code 130) it saves --out."
        ),
    )
    output_option(p, "--out", required=True, help="model file to write (.npz)")
    p.add_argument(
        "--resume",
        metavar="MODEL",
        help="continue a saved run, or a shipped model by name (boardai models); its patterns, "
        "stages and seed stay (--stages splits a one-stage network, every stage starting from "
        "its weights), and options of the learning rule given here (alpha, schedule, method, "
        "lambda, tc, restarts) override. A compact model resumes with the training state it "
        "kept (boardai models compact --keep-training: TC accumulators, restart pools); one "
        "without it starts those afresh, TC's measured first (--tc-warmup)",
    )
    force_option(p, "write over an --out model from another run (refused without it)")
    output_option(p, "--csv", help="write the report rows to this CSV file")
    output_option(p, "--plot", needs=PLOT, help="write the learning curve to this PNG file")
    p.add_argument("--quiet", action="store_true", help="no reach tables, just one line per report")
    deferred(p, _config_flags)
    p.set_defaults(func=run)


def _config_flags(p: argparse.ArgumentParser) -> list[str]:
    """The flags of :class:`~boardai.g2048.train.ntuple_run.NTupleRun`'s fields."""
    from boardai.cli._flags import add_config_flags
    from boardai.g2048.train.ntuple_run import NTupleRun

    return add_config_flags(
        p,
        NTupleRun,
        exclude=("pool_size", "extra"),
        spelling={"lam": "--lambda"},
        types={
            "episodes": positive_int,
            "alpha_every": positive_int,
            "lam": probability,
            "horizon": positive_int,
            "p4": probability,
            "seed": nonneg_int,
            "threads": positive_int,
            "report_every": positive_int,
            "checkpoint_every": nonneg_int,
            "tc_warmup": nonneg_int,
        },
        metavars={
            "optimistic": "V",
            "stages": "LIST",
            "restart": "P",
            "restart_at": "LIST",
            "downgrade": "TILE",
            "add_patterns": "LIST",
            "checkpoint_minutes": "M",
            "checkpoint_every": "N",
            "tc_warmup": "N",
        },
    )


def _values(args: argparse.Namespace) -> dict[str, Any]:
    """The config fields the command line gives, thresholds parsed (a bad one: one line
    naming its flag)."""
    from boardai.cli._flags import flag_name, given
    from boardai.errors import UsageError
    from boardai.g2048.ntuple import parse_stages

    values = given(args, args.config_flags)
    for name in ("stages", "restart_at"):
        if name in values:
            try:
                values[name] = parse_stages(values[name])
            except UsageError as e:
                raise UsageError(f"{flag_name(name)}: {e}") from None
    return values


def run(args: argparse.Namespace) -> int:
    from rich.progress import TextColumn

    from boardai.cli._common import console, progress, refuse_to_overwrite
    from boardai.cli._flags import config
    from boardai.errors import UsageError
    from boardai.g2048.train.ntuple_run import NTupleRun, Opened, resumed_config, train
    from boardai.g2048.train.report import plot_curve, report_view
    from boardai.learn.csv_log import CsvLog, keep_rows
    from boardai.learn.run import STOPPING, Progress, StopFlag

    out = console()
    values = _values(args)
    if "split_tc" in values and not (args.resume and values.get("stages")):
        raise UsageError("--split-tc says how a split goes on: give --resume MODEL --stages LIST")
    if args.resume:
        try:
            run_config = resumed_config(args.resume, **values)
        except UsageError:
            raise
        except (TypeError, ValueError) as e:
            raise UsageError(f"--resume {args.resume}: {e}") from None
    else:
        if args.add_patterns:
            raise UsageError("--add-patterns grows a saved network: give --resume MODEL too")
        run_config = config(NTupleRun, values)
    from boardai.g2048.patterns import parse_patterns

    parse_patterns(run_config.patterns)  # a bad one says so before the progress bar shows
    if run_config.add_patterns:
        parse_patterns(run_config.add_patterns, "--add-patterns")
    if not _goes_on_in_place(args):  # a model of another run, or a new run's, is not replaced
        refuse_to_overwrite(args.out, "--out", force=args.force, resume=f"--resume {args.out}")
    if args.csv and not args.resume:  # a new run's log would replace another run's
        refuse_to_overwrite(args.csv, "--csv", force=args.force)
    log: CsvLog | None = None
    rows: list[dict[str, Any]] = []
    stop = StopFlag(on_stop=lambda: print(f"\n{STOPPING}", flush=True))
    with stop, progress(TextColumn("{task.fields[info]}")) as bar:
        task = bar.add_task("training", total=run_config.episodes, info="")

        def on_progress(ev: Progress) -> None:
            nonlocal log, rows
            if ev.kind == "start":
                opened: Opened = ev.detail
                _describe(opened, args, out)
                if args.csv and args.resume:  # rows past the checkpoint are played again
                    keep_rows(args.csv, ev.done)
                log = CsvLog(args.csv, append=bool(args.resume)) if args.csv else None
                rows = log.rows if log else []
                bar.update(task, completed=ev.done)
                return
            if ev.stats is not None:
                row = dict(ev.stats)
                out.print(report_view(row, ev.detail, quiet=args.quiet))
                rows.append(row)
                if log:
                    log.write(row)
            bar.update(task, completed=ev.done, info=f"{ev.detail.moves_per_second:,.0f} moves/s")

        summary = train(
            run_config,
            args.out,
            resume=args.resume,
            on_progress=on_progress,
            should_stop=stop,
        )
    if summary["interrupted"]:
        out.print(f"interrupted: saved {summary['done']:,} episodes to {args.out}")
    else:
        out.print(
            f"saved {args.out}: {summary['done']:,} episodes, "
            f"{summary['seconds']:,.0f} s of training"
        )
    if args.plot and not rows:
        out.print(f"no report yet (--report-every): {args.plot} not written")
    elif args.plot:  # a stopped run's too: the reports so far
        plot_curve(rows, args.plot, title=f"n-tuple TD, {run_config.patterns}")
        out.print(f"wrote {args.plot}")
    return 130 if summary["interrupted"] else 0


def _goes_on_in_place(args: argparse.Namespace) -> bool:
    """Whether the run resumes the very file it writes (``--resume m.npz --out m.npz``)."""
    from pathlib import Path

    if not args.resume or not Path(args.resume).is_file():
        return False
    return Path(args.resume).resolve() == Path(args.out).resolve()


def _describe(opened: Any, args: argparse.Namespace, out: Any) -> None:
    """The lines that open a run: what a resume changed, the network."""
    from boardai.g2048.ntuple import format_stages

    trainer = opened.trainer
    if args.resume:
        if opened.compact:
            out.print(
                f"{args.resume} is a compact model: weights, episodes and options resume; its "
                "TC accumulators and restart pools (not kept) start afresh"
            )
        what = f", now with {opened.changes}" if opened.changes else ""
        out.print(f"resuming {args.resume}: {trainer.episodes:,} episodes done{what}")
        if opened.tc_warmup:
            out.print(
                f"measuring TC's state afresh: the next {trainer.tc_warmup_left:,} episodes "
                "play with the weights held (--tc-warmup)"
            )
    c = trainer.config
    mb = trainer.network.weights.nbytes * (3 if c.tc else 1) / 2**20
    out.print(
        f"n-tuple TD: patterns {c.patterns}, {trainer.network.n_lookups} lookups, "
        f"stages {format_stages(c.stages) or 'none'}, {mb:,.0f} MiB of weights, method {c.method}, "
        f"alpha {c.alpha}, seed {c.seed}"
    )
