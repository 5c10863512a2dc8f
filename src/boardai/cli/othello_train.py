"""``boardai train othello-ntuple`` (TD self-play) and ``boardai train othello-dqn`` (seed
002's self-play DQN)."""

from __future__ import annotations

import argparse
from typing import Any

from boardai.cli._common import nonneg_int, positive_int, probability


def register(app: Any) -> None:
    p = app.command(
        "train othello-ntuple",
        help="learn an Othello n-tuple network by TD(0) self-play, matches against wpc on the way",
        examples=(
            "boardai train othello-ntuple --episodes 200000 --out runs/othello/nt.npz\n"
            "boardai train othello-ntuple --episodes 400000 --out runs/othello/nt.npz --resume\n"
            "boardai othello match --black ntuple:model=runs/othello/nt.npz --white wpc"
        ),
    )
    p.add_argument("--out", required=True, metavar="FILE", help="model file (.npz), checkpointed")
    p.add_argument("--episodes", type=positive_int, default=200_000, help="self-play games in all")
    p.add_argument("--tuples", default="standard", help="tuple set (standard, small) or names")
    p.add_argument("--alpha", type=float, default=0.005, help="learning rate (default 0.005)")
    p.add_argument("--epsilon", type=probability, default=0.1, help="exploration (default 0.1)")
    p.add_argument("--seed", type=nonneg_int, default=0, help="seed (default 0)")
    p.add_argument("--eval-every", type=positive_int, default=20_000, help="games between evals")
    p.add_argument("--eval-games", type=positive_int, default=200, help="games per eval vs wpc")
    p.add_argument("--resume", action="store_true", help="continue the run saved in --out")
    p.set_defaults(func=run_ntuple)


def run_ntuple(args: argparse.Namespace) -> int:
    from rich.progress import TextColumn

    from boardai.cli._common import console, progress
    from boardai.errors import UsageError
    from boardai.othello.train.ntuple_trainer import NTupleConfig, train

    if not 0 < args.alpha <= 1:
        raise UsageError(f"--alpha {args.alpha} is not in (0, 1]")
    config = NTupleConfig(
        episodes=args.episodes,
        tuples=args.tuples,
        alpha=args.alpha,
        epsilon=args.epsilon,
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
                bar.console.print(f"{done:,} games: score vs wpc {score} ({ev['games']} games)")

        try:
            meta = train(config, args.out, args.resume, on_progress)
        except KeyboardInterrupt:
            out.print(f"interrupted: saved {args.out}")
            return 130
    out.print(f"saved {args.out} after {meta['episodes']:,} games")
    return 0
