"""``boardai 2048 train dqn``: deep Q-learning on 2048 (presets strong, dueling, action-cnn,
lookahead-mlp, shaped-conv)."""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
from typing import TYPE_CHECKING, Any

from boardai.cli._common import force_option, json_option
from boardai.cli._flags import deferred, preset_name

if TYPE_CHECKING:
    from boardai.cli import App

EXAMPLES = """
boardai 2048 train dqn --steps 2000000 --out runs/dqn-strong
boardai 2048 train dqn --preset action-cnn --fit-epochs 4 --minutes 60 --out runs/dqn-action-cnn
boardai 2048 train dqn --preset lookahead-mlp --steps 200000 --out runs/dqn-lookahead
boardai 2048 train dqn --preset shaped-conv --exploration lai_robbins --out runs/dqn-shaped-conv
boardai 2048 train dqn --out runs/dqn-strong --resume --steps 4000000
boardai 2048 train dqn --steps 100000 --tensorboard runs/tb --device auto --json
boardai 2048 train dqn --out runs/dqn-strong --evaluate 1000
boardai 2048 train dqn --out runs/dqn-strong --evaluate 1000 --evaluate-seed 7
"""


def register(app: App) -> None:
    p = app.command(
        "2048 train dqn",
        aliases=["train dqn"],
        help="train a deep Q-network to play 2048 (PyTorch)",
        examples=EXAMPLES,
        description=(
            "Train a DQN on boardai/2048-v0. --preset picks a starting configuration: strong\n"
            "(the default: an afterstate value net, Double DQN, 3-step returns), dueling,\n"
            "action-cnn (a CNN Q(s,a) with the action as an input, fitted on batches of whole\n"
            "episodes), lookahead-mlp (dense layers over the boards two moves ahead) or\n"
            "shaped-conv (a convolutional Q net with a shaped reward), the setups of the\n"
            "write-ups boardai grew from (docs/tour/env-dqn.md). Any hyperparameter below\n"
            "overrides the preset. Writes checkpoint.pt, best.pt, log.csv and curve.png to\n"
            "--out; watch the result play with\n"
            "'boardai 2048 watch --agent dqn:model=OUT/best.pt' (or ...,lookahead=1)."
        ),
    )
    p.add_argument(
        "--preset",
        type=preset_name("boardai.g2048.train.dqn"),
        choices=["strong", "dueling", "action-cnn", "lookahead-mlp", "shaped-conv"],
        default="strong",
        help="starting configuration (default: strong)",
    )
    p.add_argument("--out", default="runs/dqn", help="run folder (default: runs/dqn)")
    p.add_argument("--resume", action="store_true", help="continue from OUT/checkpoint.pt")
    force_option(p, "start a new run in OUT though it holds one (refused without it, or --resume)")
    p.add_argument(
        "--evaluate",
        type=int,
        metavar="GAMES",
        default=None,
        help="train nothing: play GAMES (>= 1) greedy games with OUT/best.pt (batched) and report",
    )
    p.add_argument(
        "--evaluate-seed",
        type=int,
        metavar="S",
        default=1_000_000,
        help="with --evaluate: the games' seed (default 1000000, the games the training "
        "evaluates on and picks best.pt by; another seed gives games it never saw)",
    )
    json_option(p, "write the final summary (or --evaluate's) as JSON")
    deferred(p, _flags)
    p.set_defaults(func=run)


def _flags(p: argparse.ArgumentParser) -> list[str]:
    """--steps, --minutes, --tensorboard (what a run adds to the hyperparameters), then a
    flag for every hyperparameter, its default the preset's."""
    from boardai.cli._flags import add_config_flags
    from boardai.g2048.train.dqn import DQNConfig
    from boardai.g2048.train.dqn_run import DQNRun

    hyper = [f.name for f in dataclasses.fields(DQNConfig)]
    names = add_config_flags(p, DQNRun, exclude=hyper, metavars={"tensorboard": "DIR"})
    group = p.add_argument_group("hyperparameters (default: the preset's value)")
    return names + add_config_flags(group, DQNConfig, bools="value", default_label="strong")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from boardai.cli._common import (
        check_output,
        console,
        progress,
        refuse_to_overwrite,
        write_json,
    )
    from boardai.cli._flags import given
    from boardai.errors import UsageError
    from boardai.g2048.train.dqn_run import preset_run, resumed_config, train
    from boardai.hardware import resolve_device
    from boardai.learn.run import Progress

    values = given(args, args.config_flags)
    out = Path(args.out)
    if args.evaluate is not None and args.evaluate < 1:  # not a silent full training run
        raise UsageError(f"--evaluate must be >= 1 games, got {args.evaluate}")
    if args.evaluate is not None:
        if not 0 <= args.evaluate_seed < 2**32:
            raise UsageError(f"--evaluate-seed must be in 0..2^32-1, got {args.evaluate_seed}")
        return _evaluate(
            out / "best.pt", args.evaluate, args.evaluate_seed, args.json, values.get("device")
        )
    if not args.resume:  # a new run replaces checkpoint.pt and best.pt, and adds to log.csv
        refuse_to_overwrite(out, "--out", force=args.force)
    checkpoint = out / "checkpoint.pt" if args.resume else None
    try:
        if checkpoint is not None:
            config = resumed_config(checkpoint, **values)
        else:
            config = preset_run(args.preset, **values)
        resolve_device(config.device)  # a missing GPU: one line now, not a traceback later
    except UsageError:
        raise
    except (ValueError, TypeError) as e:
        raise UsageError(str(e)) from None
    check_output(out, "--out", folder=True)
    if config.tensorboard:
        if importlib.util.find_spec("tensorboard") is None:
            raise UsageError("--tensorboard needs the tensorboard package: pip install tensorboard")
        check_output(config.tensorboard, "--tensorboard", folder=True)
    if checkpoint is None:  # a new run (--force over an old one): its own log, not appended
        (out / "log.csv").unlink(missing_ok=True)
    with progress() as bar:
        task = bar.add_task("training DQN", total=config.steps)

        def on_progress(p: Progress) -> None:
            bar.update(task, completed=p.done)

        summary = train(config, out, resume=checkpoint, on_progress=on_progress)
    shown = {k: v for k, v in summary.items() if k not in ("unit", "done", "total", "out")}
    if args.json == "-":  # the summary alone
        write_json("-", shown)
    else:
        ev = summary["eval"]
        console().print(
            f"{summary['env_steps']:,} env steps, {summary['updates']:,} updates, "
            f"{summary['wall_s']:.0f} s ({summary['env_steps_per_s']:.0f} steps/s, "
            f"{summary['updates_per_s']:.1f} updates/s)\n"
            f"greedy over {ev['games']} games: mean {ev['mean']:.0f}, max tile {ev['max_tile']}, "
            f"2048 reached {100 * ev['reach_2048']:.1f}%\n"
            f"wrote checkpoint.pt, best.pt, log.csv and curve.png to {out}"
        )
        if args.json:
            write_json(args.json, shown)
    return 130 if summary["interrupted"] else 0


def _evaluate(path: Any, games: int, seed: int, json_out: str | None, device: str | None) -> int:
    """Greedy games of ``path`` on ``device`` (--device), else on the device it trained on,
    or on the CPU where that one is not here (a run trained on a GPU box, evaluated at home)."""
    from boardai.cli._common import console, write_json
    from boardai.errors import UsageError
    from boardai.g2048.qnet import load_checkpoint
    from boardai.g2048.train.dqn import DQNConfig, DQNTrainer
    from boardai.g2048.train.dqn_run import fit_here
    from boardai.hardware import resolve_device

    state = load_checkpoint(path)
    config = fit_here(state["config"])
    try:
        if device is not None:
            config["device"] = resolve_device(device)
        else:
            try:
                resolve_device(config.get("device", "cpu"))
            except ValueError:
                config["device"] = "cpu"
        cfg = DQNConfig(**config)
    except ValueError as e:
        raise UsageError(str(e)) from None
    trainer = DQNTrainer(cfg, path.parent)
    trainer.load(path)
    ev = trainer.evaluate(games, seed=seed)
    summary = {k: v for k, v in ev.items() if k not in ("scores", "tiles")}
    summary["tile_counts"] = {str(t): ev["tiles"].count(t) for t in sorted(set(ev["tiles"]))}
    summary["checkpoint"] = str(path)
    summary["seed"] = seed
    summary["counters"] = state["counters"]
    if json_out == "-":  # the summary alone
        write_json("-", summary)
    else:
        console().print(
            f"{path}: {ev['games']} greedy games, mean {ev['mean']:.0f} ± {ev['sem']:.0f}, "
            f"median {ev['median']:.0f}, "
            f"max {ev['max']}; 1024 reached {100 * ev['reach_1024']:.1f}%, "
            f"2048 reached {100 * ev['reach_2048']:.1f}%; tiles {summary['tile_counts']}"
        )
        if json_out:
            write_json(json_out, summary)
    return 0
