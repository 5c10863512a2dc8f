"""``boardai othello train dqn``: a self-play DQN for Othello (PyTorch)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from boardai.cli._common import force_option, output_option
from boardai.cli._flags import deferred, preset_name
from boardai.cli.othello._train_report import eval_log, report_options, write_plot

if TYPE_CHECKING:
    from boardai.cli import App


def register(app: App) -> None:
    p = app.command(
        "othello train dqn",
        aliases=["train othello-dqn"],
        help="a self-play DQN for Othello (torch), matches against wpc and random",
        examples=(
            "boardai othello train dqn --preset fc64 --games 3000 --out runs/othello/dqn.pt\n"
            "boardai othello train dqn --preset strong --out runs/othello/dqn_strong.pt --resume\n"
            "boardai othello match --black dqn:model=runs/othello/dqn.pt --white random"
        ),
    )
    output_option(
        p,
        "--out",
        required=True,
        metavar="FILE",
        help="checkpoint file (.pt); the best one against wpc so far is kept as FILE.best.pt",
    )
    p.add_argument(
        "--preset",
        type=preset_name("boardai.othello.train.dqn"),
        choices=["fc64", "strong"],
        default=None,
        help="fc64 (one hidden layer of 64 units on the board, RMSProp, one game at a time; "
        "the default) or strong (an MLP of 2 x 512 over three input planes, 64 games at "
        "once); --resume goes on with the run's own",
    )
    deferred(p, _dqn_flags)
    p.add_argument("--resume", action="store_true", help="continue the run saved in --out")
    force_option(p, "start a new run over the one saved in --out (refused without it, or --resume)")
    report_options(p)
    p.set_defaults(func=run)


def _dqn_flags(p: argparse.ArgumentParser) -> list[str]:
    from boardai.cli._flags import add_config_flags, boolean
    from boardai.othello.train.dqn import OLDER_NAMES, DQNConfig

    group = p.add_argument_group("hyperparameters (default: the preset's value)")
    return add_config_flags(
        group,
        DQNConfig,
        exclude=("preset",),
        types={"huber": boolean},
        bools="value",
        default_label="fc64",
        older=OLDER_NAMES,
    )


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from rich.progress import TextColumn

    from boardai.cli._common import (
        console,
        progress,
        refuse_to_overwrite,
        require,
        resumed_out,
    )
    from boardai.cli._flags import given
    from boardai.errors import UsageError
    from boardai.learn.run import Progress
    from boardai.othello.train.dqn import preset_config, resumed_config, train

    require("torch")  # before the progress bar (the network is built under it)

    flags = given(args, args.config_flags)
    try:
        if args.resume and Path(args.out).exists():  # the run's own settings, the flags over them
            config = resumed_config(args.out, args.preset, **flags)
        else:
            config = preset_config(args.preset or "fc64", **flags)
    except (TypeError, ValueError) as e:
        raise UsageError(str(e)) from None
    args.preset = config.preset
    if not args.resume:  # the run, its best checkpoint beside it, and its log
        refuse_to_overwrite(args.out, "--out", force=args.force)
        best = Path(args.out).with_suffix(".best.pt")
        refuse_to_overwrite(best, "--out's best checkpoint", force=args.force)
        if args.csv:
            refuse_to_overwrite(args.csv, "--csv", force=args.force)
    out = console()
    log = eval_log(args)
    title = f"Othello DQN ({args.preset})"
    with progress(TextColumn("{task.fields[score]}")) as bar:
        task = bar.add_task("self-play", total=config.games, score="")

        def on_progress(p: Progress) -> None:
            bar.update(task, completed=p.done)
            if p.kind == "start":
                log.start(p.done)
            ev = p.stats
            if ev is not None:
                log.add(p.done, ev)
                line = (
                    f"{p.done:,} games: vs wpc {ev['score_vs_wpc']:.3f} ± {ev['se_vs_wpc']:.3f},"
                    f" wins vs random {ev['win_rate_vs_random']:.1%}"
                    f" ({ev['eval_games']} games each)"
                )
                bar.update(task, score=line.split(": ", 1)[1])
                bar.console.print(line)

        try:
            summary = train(config, args.out, resume=resumed_out(args), on_progress=on_progress)
        except KeyboardInterrupt:
            out.print(f"interrupted: saved {args.out}")
            write_plot(args, log, title, out)
            return 130
    out.print(f"saved {args.out} after {summary['done']:,} games")
    write_plot(args, log, title, out)
    return 0
