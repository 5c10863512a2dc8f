"""``boardai sweep``: train many configurations of a learner (a TOML file), here or on a Ray
cluster, and rank them by the strength of what they learned."""

from __future__ import annotations

import argparse
from typing import Any

from boardai.cli._common import json_option, output_option, workers_option
from boardai.train import MANY_TRIALS

EXAMPLES = """
boardai sweep examples/sweep-2048-ntuple.toml --out runs/sweep --workers 2
boardai sweep examples/sweep-2048-ntuple.toml --out runs/sweep --resume --json sweep.json
boardai sweep examples/sweep-othello-ntuple.toml --out runs/othello-sweep --cluster auto
boardai sweep big.toml --out /shared/sweeps/big --cluster HEAD_HOST:6379 --resume
"""

DESCRIPTION = """\
Train every trial of a sweep file and rank them. The file (TOML) names the learner
(trainer = "2048-ntuple" or "othello-ntuple"), the options all trials share ([base]), what
varies ([grid]: lists of values, every combination; or [[trial]] tables) and how each model
is measured ([eval]: games and seed). Each trial writes DIR/NAME/: model.npz, progress.csv
and result.json; NAME comes from the values that vary (alpha-0.1_seed-2). A mistake in the
file is one line, before anything trains. Ctrl-C stops (exit 130) keeping the finished
trials, and the running ones save where they are; --resume then trains only the others, each
from where it stopped."""


def register(app: Any) -> None:
    p = app.command(
        "sweep",
        help="train many configurations (a TOML grid or list), here or on Ray, and rank them",
        examples=EXAMPLES,
        description=DESCRIPTION,
    )
    p.add_argument("file", metavar="FILE", help="the sweep file (.toml)")
    output_option(
        p,
        "--out",
        metavar="DIR",
        folder=True,
        help="folder of the trials (default: FILE without .toml)",
    )
    p.add_argument(
        "--cluster",
        metavar="ADDRESS",
        default=None,
        help="train on Ray, a trial per task: 'local' starts Ray here (--workers CPUs), 'auto' "
        "joins the cluster of `ray start`, else the head's HOST:PORT (needs boardai[ray]); "
        "DIR should be a folder every node sees",
    )
    workers_option(
        p,
        "trials at a time, one process each (default: all cores; with --cluster: all the "
        "cluster's CPUs)",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="skip the trials DIR already has results of, and go on from the checkpoints of "
        "the others",
    )
    json_option(p, "write every trial's result, ranked, as JSON")
    p.add_argument(
        "--force",
        action="store_true",
        help=f"train anyway: a sweep of more than {MANY_TRIALS:,} trials, or into a DIR that "
        "holds trials already, training them all again (each refused without it)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from rich.progress import TextColumn

    from boardai.cli._arena import where_to_play
    from boardai.cli._common import (
        check_output,
        console,
        plural,
        progress,
        refuse_to_overwrite,
        write_json,
    )
    from boardai.learn.run import Progress
    from boardai.train.plan import read_plan
    from boardai.train.sweep import finished_trials, run_sweep, sweep_table

    plan = read_plan(args.file, most_trials=None if args.force else MANY_TRIALS)
    out_dir = args.out or str(Path(args.file).with_suffix(""))
    if not args.out:
        check_output(out_dir, "--out", folder=True)
    if not args.resume:  # a new sweep trains every trial again, over what DIR holds
        refuse_to_overwrite(out_dir, "--out", force=args.force)
    earlier = len(finished_trials(plan, out_dir)) if args.resume else 0  # checked first
    backend, workers = where_to_play(args)
    out = console()
    where = f"on Ray ({args.cluster})" if args.cluster else f"{workers} at a time"
    out.print(
        f"sweep {args.file}: {len(plan.trials)} {plan.trainer} "
        f"{plural(len(plan.trials), 'trial')} into {out_dir}, {where}",
        soft_wrap=True,
    )
    if earlier:
        out.print(
            f"{earlier} {plural(earlier, 'trial')} finished earlier (their result.json): "
            "not trained again"
        )
    with progress(TextColumn("{task.fields[info]}")) as bar:
        overall = bar.add_task("trials", total=len(plan.trials), completed=earlier, info="")
        running: dict[str, Any] = {}

        def hook(name: str, event: Progress) -> None:
            if name not in running:
                running[name] = bar.add_task(f"  {name}", total=event.total, info=event.unit)
            bar.update(running[name], completed=event.done)

        def on_result(result: dict[str, Any]) -> None:
            if result["name"] in running:
                bar.remove_task(running.pop(result["name"]))
            bar.advance(overall)
            bar.console.print(f"{result['name']}: {_strength(result)}, {_trained(result)}")

        done = run_sweep(
            plan,
            out_dir,
            workers=workers,
            backend=backend,
            resume=args.resume,
            on_result=on_result,
            hook=hook,
        )
    if done.results:
        out.print(sweep_table(done))
        _best(done.ranked()[0], out_dir, plan.trainer, out)
    if args.json:
        write_json(args.json, done.to_dict())
    if done.interrupted:
        left = len(plan.trials) - len(done.results)
        out.print(
            f"interrupted: {left} {plural(left, 'trial')} left; "
            "run again with --resume to train them"
        )
        return 130
    return 0


def _strength(result: dict[str, Any]) -> str:
    s = result["strength"]
    digits = 0 if abs(s["value"]) >= 100 else 3
    return f"{s['value']:,.{digits}f} ± {s['se']:,.{digits}f}"


def _trained(result: dict[str, Any]) -> str:
    return f"{result['done']:,} {result['unit']} in {result['seconds'] / 60:,.1f} min"


def _best(result: dict[str, Any], out_dir: str, trainer: str, out: Any) -> None:
    """Where the strongest trial's model is, and how it goes into the model store."""
    import socket
    from pathlib import Path

    from boardai.train.learners import learner

    model = Path(out_dir, result["name"], result["files"]["model"])
    there = "" if result["host"] == socket.gethostname() else f" (on {result['host']})"
    out.print(f"best: {result['name']}, {_strength(result)}: {model}{there}", soft_wrap=True)
    out.print("into the model store (docs/tour/models.md, 'Adding a model'):")
    out.print(f"  {learner(trainer).ship.format(model=model)}", soft_wrap=True)
