"""``boardai train othello-ntuple`` (TD self-play) and ``boardai train othello-dqn`` (seed
002's self-play DQN)."""

from __future__ import annotations

import argparse
from typing import Any

from boardai.cli._common import nonneg_int, output_option, positive_int, probability


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
    p.add_argument("--episodes", type=positive_int, default=960_000, help="self-play games in all")
    p.add_argument(
        "--tuples",
        default="standard",
        help="tuple sets (standard, small; systematic: all2x2, all2x3, all3x3, all2, all3, all4)"
        " or tuple names, joined by commas",
    )
    p.add_argument(
        "--stages",
        type=positive_int,
        default=3,
        help="phases of the game with their own weights: the disc count cut into this many"
        " equal bands (default 3)",
    )
    p.add_argument("--alpha", type=float, default=0.001, help="learning rate (default 0.001)")
    p.add_argument(
        "--alpha-end",
        type=float,
        default=0.0002,
        help="learning rate at the last game, reached by --alpha-schedule (default 0.0002;"
        " the same as --alpha for a constant rate)",
    )
    p.add_argument(
        "--alpha-schedule",
        choices=["linear", "exp"],
        default="exp",
        help="decay from --alpha to --alpha-end over --episodes (default exp)",
    )
    p.add_argument(
        "--tc",
        action="store_true",
        help="temporal coherence: per-weight rates |E|/A times the scheduled alpha",
    )
    p.add_argument(
        "--average",
        type=nonneg_int,
        default=0,
        metavar="GAMES",
        help="play and save a moving average of the weights over about GAMES games (0: off)",
    )
    p.add_argument(
        "--keep-checkpoints",
        action="store_true",
        help="also keep the network of every eval as FILE.atGAMES.npz (choose later on new games)",
    )
    p.add_argument(
        "--epsilon",
        type=probability,
        default=0.5,
        help="probability of a random self-play move (default 0.5)",
    )
    p.add_argument(
        "--no-learn-random",
        dest="learn_random",
        action="store_false",
        help="learn only after greedy moves (default: after random exploring moves too)",
    )
    p.add_argument("--seed", type=nonneg_int, default=0, help="seed (default 0)")
    p.add_argument("--eval-every", type=positive_int, default=40_000, help="games between evals")
    p.add_argument("--eval-games", type=positive_int, default=400, help="games per eval vs wpc")
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
    d.add_argument("--games", type=positive_int, default=None, help="self-play games in all")
    d.add_argument("--lr", type=float, default=None, help="learning rate (default: the preset's)")
    d.add_argument("--seed", type=nonneg_int, default=0, help="seed (default 0)")
    d.add_argument("--eval-every", type=positive_int, default=None, help="games between evals")
    d.add_argument("--eval-games", type=positive_int, default=None, help="games per eval match")
    d.add_argument("--resume", action="store_true", help="continue the run saved in --out")
    d.set_defaults(func=run_dqn)


def run_dqn(args: argparse.Namespace) -> int:
    from rich.progress import TextColumn

    from boardai.cli._common import console, progress
    from boardai.othello.train.dqn import preset_config, train

    config = preset_config(
        args.preset,
        games=args.games,
        lr=args.lr,
        seed=args.seed,
        eval_every=args.eval_every,
        eval_games=args.eval_games,
    )
    out = console()
    with progress(TextColumn("{task.fields[score]}")) as bar:
        task = bar.add_task("self-play", total=config.games, score="")

        def on_progress(done: int, ev: dict[str, Any] | None) -> None:
            bar.update(task, completed=done)
            if ev is not None:
                line = (
                    f"{done:,} games: vs wpc {ev['score_vs_wpc']:.3f} ± {ev['se_vs_wpc']:.3f},"
                    f" wins vs random {ev['win_rate_vs_random']:.1%}"
                    f" ({ev['eval_games']} games each)"
                )
                bar.update(task, score=line.split(": ", 1)[1])
                bar.console.print(line)

        try:
            meta = train(config, args.out, args.resume, on_progress)
        except KeyboardInterrupt:
            out.print(f"interrupted: saved {args.out}")
            return 130
    out.print(f"saved {args.out} after {meta['games']:,} games")
    return 0


def run_ntuple(args: argparse.Namespace) -> int:
    from rich.progress import TextColumn

    from boardai.cli._common import console, progress
    from boardai.errors import UsageError
    from boardai.othello.ntuple import MAX_STAGES
    from boardai.othello.train.ntuple_trainer import NTupleConfig, train

    if not 0 < args.alpha <= 1:
        raise UsageError(f"--alpha {args.alpha} is not in (0, 1]")
    if not 1 <= args.stages <= MAX_STAGES:
        raise UsageError(f"--stages {args.stages} is not in 1..{MAX_STAGES}")
    if args.alpha_end is not None and not 0 < args.alpha_end <= 1:
        raise UsageError(f"--alpha-end {args.alpha_end} is not in (0, 1]")
    config = NTupleConfig(
        episodes=args.episodes,
        tuples=args.tuples,
        stages=args.stages,
        alpha=args.alpha,
        alpha_end=args.alpha_end,
        alpha_schedule=args.alpha_schedule,
        tc=args.tc,
        average=args.average,
        keep_checkpoints=args.keep_checkpoints,
        epsilon=args.epsilon,
        learn_random=args.learn_random,
        seed=args.seed,
        eval_every=args.eval_every,
        eval_games=args.eval_games,
    )
    out = console()
    with progress(TextColumn("vs wpc {task.fields[score]}")) as bar:
        task = bar.add_task("self-play", total=args.episodes, score="-")

        def on_progress(done: int, ev: dict[str, Any] | None) -> None:
            bar.update(task, completed=done)
            if ev is not None:
                score = f"{ev['score_vs_wpc']:.3f} ± {ev['se']:.3f}"
                bar.update(task, score=score)
                trained = ev.get("score_vs_wpc_trained")
                extra = "" if trained is None else f", trained weights {trained:.3f}"
                bar.console.print(
                    f"{done:,} games: score vs wpc {score} ({ev['games']} games{extra})"
                )

        try:
            meta = train(config, args.out, args.resume, on_progress)
        except KeyboardInterrupt:
            out.print(f"interrupted: saved {args.out}")
            return 130
    out.print(f"saved {args.out} after {meta['episodes']:,} games")
    return 0
