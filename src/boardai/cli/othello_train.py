"""``boardai train othello-ntuple`` (TD self-play) and ``boardai train othello-dqn`` (seed
002's self-play DQN)."""

from __future__ import annotations

import argparse
from typing import Any

from boardai.cli._common import nonneg_int, output_option, positive_int, probability
from boardai.cli._flags import deferred


def register(app: Any) -> None:
    p = app.command(
        "train othello-ntuple",
        help="learn an Othello n-tuple network by TD(0) self-play, matches against wpc on the way",
        examples=(
            "boardai train othello-ntuple --seed 4 --out runs/othello/nt.npz   # 0.92 vs wpc\n"
            "boardai train othello-ntuple --stages 1 --episodes 200000 --out runs/othello/nt1.npz\n"
            "boardai train othello-ntuple --episodes 400000 --out runs/othello/nt.npz --resume\n"
            "boardai othello match --black ntuple:model=runs/othello/nt.npz --white wpc"
        ),
    )
    output_option(p, "--out", required=True, metavar="FILE", help="model file (.npz), checkpointed")
    deferred(p, _ntuple_flags)
    p.add_argument("--resume", action="store_true", help="continue the run saved in --out")
    p.set_defaults(func=run_ntuple)

    d = app.command(
        "train othello-dqn",
        help="seed 002's self-play DQN for Othello (torch), matches against wpc and random",
        examples=(
            "boardai train othello-dqn --preset seed002 --games 3000 --out runs/othello/dqn.pt\n"
            "boardai train othello-dqn --preset strong --out runs/othello/dqn_strong.pt --resume\n"
            "boardai othello match --black dqn:model=runs/othello/dqn.pt --white random"
        ),
    )
    output_option(
        d,
        "--out",
        required=True,
        metavar="FILE",
        help="checkpoint file (.pt); the best one against wpc so far is kept as FILE.best.pt",
    )
    d.add_argument("--preset", choices=["seed002", "strong"], default="seed002", help="preset")
    deferred(d, _dqn_flags)
    d.add_argument("--resume", action="store_true", help="continue the run saved in --out")
    d.set_defaults(func=run_dqn)


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


def _dqn_flags(p: argparse.ArgumentParser) -> list[str]:
    from boardai.cli._flags import add_config_flags
    from boardai.othello.train.dqn import DQNConfig

    group = p.add_argument_group("hyperparameters (default: the preset's value)")
    return add_config_flags(
        group,
        DQNConfig,
        exclude=("preset",),
        types={
            "games": positive_int,
            "seed": nonneg_int,
            "eval_every": positive_int,
            "eval_games": positive_int,
        },
        bools="value",
        default_label="seed002",
    )


def _resume(args: argparse.Namespace) -> str | None:
    """The run to go on from: --out, with --resume, when it is there (else a new run)."""
    from pathlib import Path

    return args.out if args.resume and Path(args.out).exists() else None


def run_dqn(args: argparse.Namespace) -> int:
    from rich.progress import TextColumn

    from boardai.cli._common import console, progress
    from boardai.cli._flags import given
    from boardai.errors import UsageError
    from boardai.learn.run import Progress
    from boardai.othello.train.dqn import preset_config, train

    try:
        config = preset_config(args.preset, **given(args, args.config_flags))
    except ValueError as e:
        raise UsageError(str(e)) from None
    out = console()
    with progress(TextColumn("{task.fields[score]}")) as bar:
        task = bar.add_task("self-play", total=config.games, score="")

        def on_progress(p: Progress) -> None:
            bar.update(task, completed=p.done)
            ev = p.stats
            if ev is not None:
                line = (
                    f"{p.done:,} games: vs wpc {ev['score_vs_wpc']:.3f} ± {ev['se_vs_wpc']:.3f},"
                    f" wins vs random {ev['win_rate_vs_random']:.1%}"
                    f" ({ev['eval_games']} games each)"
                )
                bar.update(task, score=line.split(": ", 1)[1])
                bar.console.print(line)

        try:
            summary = train(config, args.out, resume=_resume(args), on_progress=on_progress)
        except KeyboardInterrupt:
            out.print(f"interrupted: saved {args.out}")
            return 130
    out.print(f"saved {args.out} after {summary['done']:,} games")
    return 0


def run_ntuple(args: argparse.Namespace) -> int:
    from rich.progress import TextColumn

    from boardai.cli._common import console, progress
    from boardai.cli._flags import config, given
    from boardai.learn.run import Progress
    from boardai.othello.train.ntuple_trainer import NTupleConfig, train

    run_config = config(NTupleConfig, given(args, args.config_flags))
    out = console()
    with progress(TextColumn("vs wpc {task.fields[score]}")) as bar:
        task = bar.add_task("self-play", total=run_config.episodes, score="-")

        def on_progress(p: Progress) -> None:
            bar.update(task, completed=p.done)
            ev = p.stats
            if ev is not None:
                score = f"{ev['score_vs_wpc']:.3f} ± {ev['se']:.3f}"
                bar.update(task, score=score)
                trained = ev.get("score_vs_wpc_trained")
                extra = "" if trained is None else f", trained weights {trained:.3f}"
                bar.console.print(
                    f"{p.done:,} games: score vs wpc {score} ({ev['games']} games{extra})"
                )

        try:
            summary = train(run_config, args.out, resume=_resume(args), on_progress=on_progress)
        except KeyboardInterrupt:
            out.print(f"interrupted: saved {args.out}")
            return 130
    out.print(f"saved {args.out} after {summary['done']:,} games")
    return 0
