"""``boardai othello train ntuple``: an Othello n-tuple network learned by TD(0) self-play."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from boardai.cli._common import force_option, nonneg_int, output_option, positive_int, probability
from boardai.cli._flags import deferred
from boardai.cli.othello._train_report import eval_log, report_options, write_plot

if TYPE_CHECKING:
    from boardai.cli import App


def register(app: App) -> None:
    p = app.command(
        "othello train ntuple",
        aliases=["train othello-ntuple"],
        help="learn an Othello n-tuple network by TD(0) self-play, matches against wpc on the way",
        examples=(
            "boardai othello train ntuple --seed 4 --out runs/othello/nt.npz   # 0.92 vs wpc\n"
            "boardai othello train ntuple --stages 6 --episodes 3000000 --alpha-end 0.0001 "
            "--seed 7 --out runs/othello/nt6.npz   # the shipped network (25 min)\n"
            "boardai othello train ntuple --stages 1 --episodes 200000 --out runs/othello/nt1.npz\n"
            "boardai othello train ntuple --episodes 400000 --out runs/othello/nt.npz --resume\n"
            "boardai othello match --black ntuple:model=runs/othello/nt.npz --white wpc"
        ),
    )
    output_option(p, "--out", required=True, metavar="FILE", help="model file (.npz), checkpointed")
    deferred(p, _ntuple_flags)
    p.add_argument("--resume", action="store_true", help="continue the run saved in --out")
    force_option(p, "start a new run over the one saved in --out (refused without it, or --resume)")
    report_options(p)
    p.set_defaults(func=run)


def _ntuple_flags(p: argparse.ArgumentParser) -> list[str]:
    from boardai.cli._flags import add_config_flags
    from boardai.othello.train.ntuple_trainer import NTupleConfig

    return add_config_flags(
        p,
        NTupleConfig,
        types={
            "episodes": positive_int,
            "stages": positive_int,
            "average": nonneg_int,
            "epsilon": probability,
            "seed": nonneg_int,
            "eval_every": positive_int,
            "eval_games": positive_int,
        },
        metavars={"average": "GAMES"},
    )


def run(args: argparse.Namespace) -> int:
    from rich.progress import TextColumn

    from boardai.cli._common import console, progress, refuse_to_overwrite, resumed_out
    from boardai.cli._flags import config, given
    from boardai.learn.run import STOPPING, Progress, StopFlag
    from boardai.othello.ntuple import parse_tuples
    from boardai.othello.train.ntuple_trainer import NTupleConfig, train

    run_config = config(NTupleConfig, given(args, args.config_flags))
    parse_tuples(run_config.tuples)  # a bad one says so before the progress bar shows
    if not args.resume:
        refuse_to_overwrite(args.out, "--out", force=args.force)
        if args.csv:  # a new run's log would replace another run's
            refuse_to_overwrite(args.csv, "--csv", force=args.force)
    out = console()
    log = eval_log(args)
    with progress(TextColumn("vs wpc {task.fields[score]}")) as bar:
        task = bar.add_task("self-play", total=run_config.episodes, score="-")

        def on_progress(p: Progress) -> None:
            bar.update(task, completed=p.done)
            if p.kind == "start":
                log.start(p.done)
            ev = p.stats
            if ev is not None:
                log.add(p.done, ev)
                score = f"{ev['score_vs_wpc']:.3f} ± {ev['se']:.3f}"
                bar.update(task, score=score)
                trained = ev.get("score_vs_wpc_trained")
                extra = "" if trained is None else f", trained weights {trained:.3f}"
                bar.console.print(
                    f"{p.done:,} games: score vs wpc {score} ({ev['games']} games{extra})"
                )

        try:
            with StopFlag(on_stop=lambda: bar.console.print(STOPPING)) as stop:
                summary = train(
                    run_config,
                    args.out,
                    resume=resumed_out(args),
                    on_progress=on_progress,
                    should_stop=stop,
                )
        except KeyboardInterrupt:  # Ctrl-C twice (the run saved what it had, where it could)
            out.print(f"interrupted: saved {args.out}")
            return 130
    title = f"Othello n-tuple TD, {run_config.tuples}, {run_config.stages} stages"
    if summary["interrupted"]:
        out.print(f"interrupted: saved {summary['done']:,} games to {args.out}")
        write_plot(args, log, title, out)
        return 130
    out.print(f"saved {args.out} after {summary['done']:,} games")
    write_plot(args, log, title, out)
    return 0
