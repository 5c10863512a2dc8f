"""``boardai othello train fit``: an Othello n-tuple evaluation fitted to final disc
differences by regression (:mod:`boardai.othello.train.fit`)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from boardai.cli._common import (
    finite_float,
    force_option,
    json_option,
    nonneg_float,
    output_option,
    positive_float,
    positive_int,
)

if TYPE_CHECKING:
    from boardai.cli import App

# The fitter's defaults, written here too so that --help needs no numba import; a test checks
# they agree with boardai.othello.train.fit.DEFAULTS.
DEFAULTS: dict[str, Any] = {
    "tuples": "standard",
    "stages": 30,
    "epochs": 20,
    "loss": "mse",
    "l2": 5.0,
    "smooth": 20.0,
    "holdout": 0.1,
    "seed": 0,
    "batch": 1024,
    "lr": 0.05,
    "features": "",
}


def _holdout(text: str) -> float:
    x = finite_float(text)
    if not 0 <= x < 1:
        raise argparse.ArgumentTypeError(f"must be in [0, 1), got {text}")
    return x


def register(app: App) -> None:
    p = app.command(
        "othello train fit",
        help="fit an n-tuple evaluation to final disc differences by regression (linear, discs)",
        examples=(
            "boardai othello train fit games.npz --out runs/othello/fit.npz\n"
            "boardai othello train fit games.npz --stages 10 --epochs 5 --loss mae "
            "--out runs/othello/fit10.npz --json fit10.json\n"
            "boardai othello train fit games.npz --stages 8 --features mobility "
            "--out runs/othello/fit-mob.npz\n"
            "boardai othello match --black alphabeta:eval=ntuple,model=runs/othello/fit.npz "
            "--white wpc"
        ),
        description=(
            "Fit the weights of an n-tuple network (a table per tuple and stage, shared by the 8\n"
            "symmetric images) so that their sum is each position's final disc difference for\n"
            "the mover: minibatch Adam on the squared (mse) or absolute (mae) error, with an L2\n"
            "penalty and a smoothing penalty between adjacent stages. A share of the games\n"
            "(else of the positions) is held out: the epoch with the lowest held-out mean\n"
            "absolute error is kept, and that error is printed per band of empty squares.\n"
            "--features adds counts to the tuples, a table per stage indexed by the count:\n"
            "mobility (each side's legal moves), potential (empty squares next to each side's\n"
            "discs), empties (the empty squares: a weight a ply); the model file records them.\n"
            "Ctrl-C stops after the current steps and saves the best network so far.\n\n"
            "DATA: games files (boardai othello data pack) or record files (--record), their\n"
            "positions after the random opening labelled with the game's result; or positions\n"
            "files (.npz of mover, opponent: uint64 bitboards, label: final disc difference for\n"
            "the mover, optional game: int64 ids; boardai.othello.train.fit.write_positions).\n"
            "The model plays as ntuple:model=FILE or alphabeta:eval=ntuple,model=FILE, its\n"
            "values in discs."
        ),
    )
    p.add_argument("data", nargs="+", metavar="DATA", help="games, record or positions files")
    output_option(p, "--out", required=True, metavar="FILE", help="model file (.npz) to write")
    d = DEFAULTS
    p.add_argument(
        "--tuples", default=d["tuples"], help="n-tuple set or names (default: %(default)s)"
    )
    p.add_argument(
        "--features",
        default=d["features"],
        metavar="NAMES",
        help="counts besides the tuples, comma-separated: mobility (legal moves of each side),"
        " potential (empty squares next to each side's discs), empties (empty squares);"
        " default: none",
    )
    p.add_argument(
        "--stages", type=positive_int, default=d["stages"], help="game phases by disc count, 1..30"
    )
    p.add_argument("--epochs", type=positive_int, default=d["epochs"], help="passes over the data")
    p.add_argument("--loss", choices=("mse", "mae"), default=d["loss"], help="error to minimise")
    p.add_argument("--l2", type=nonneg_float, default=d["l2"], help="L2 penalty on the weights")
    p.add_argument(
        "--smooth",
        type=nonneg_float,
        default=d["smooth"],
        help="penalty on a weight's change between adjacent stages",
    )
    p.add_argument(
        "--holdout", type=_holdout, default=d["holdout"], help="share held out (0: none)"
    )
    p.add_argument("--seed", type=int, default=d["seed"], help="the split and the batch order")
    p.add_argument("--batch", type=positive_int, default=d["batch"], help="positions a step")
    p.add_argument("--lr", type=positive_float, default=d["lr"], help="Adam's step size")
    force_option(p, "replace an existing --out (refused without it)")
    json_option(p, "the fit's report (per-phase held-out error, per-epoch history)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from rich.table import Table

    from boardai.cli._common import console, progress, refuse_to_overwrite, write_json
    from boardai.errors import UsageError
    from boardai.learn.run import STOPPING, StopFlag
    from boardai.othello.ntuple import MAX_STAGES, parse_features, parse_tuples
    from boardai.othello.ntuple_file import save_network
    from boardai.othello.train.fit import fit, read_positions

    parse_tuples(args.tuples)  # a bad one says so before any data is read
    parse_features(args.features)
    if not 1 <= args.stages <= MAX_STAGES:
        raise UsageError(f"--stages must be in 1..{MAX_STAGES}, got {args.stages}")
    refuse_to_overwrite(args.out, "--out", force=args.force, resume=None)
    if args.json and args.json != "-":
        refuse_to_overwrite(args.json, "--json", force=args.force, resume=None)
    out = console(stderr=args.json == "-")
    data, read = read_positions(args.data)
    out.print(
        f"{len(data.label):,} positions from {len(args.data)} file(s)"
        + (f"; {sum(read['skipped'].values()):,} records skipped" if read["skipped"] else "")
    )
    with progress() as bar:
        task = bar.add_task("fit", total=args.epochs)

        def on_epoch(r: dict[str, Any]) -> None:
            bar.update(task, completed=r["epoch"])
            held = "-" if r["holdout_mae"] is None else f"{r['holdout_mae']:.3f}"
            bar.console.print(
                f"epoch {r['epoch']}: train loss {r['train_loss']:.3f}, held-out MAE {held}"
            )

        with StopFlag(on_stop=lambda: bar.console.print(STOPPING)) as stop:
            net, report = fit(
                data.mover,
                data.opponent,
                data.label,
                data.empties,
                args.tuples,
                args.stages,
                game=data.game,
                epochs=args.epochs,
                loss=args.loss,
                l2=args.l2,
                smooth=args.smooth,
                holdout=args.holdout,
                seed=args.seed,
                batch=args.batch,
                lr=args.lr,
                features=args.features,
                on_epoch=on_epoch,
                should_stop=stop,
            )
    report["data"] = read
    meta = {"fit": {k: v for k, v in report.items() if k not in ("history", "data")}}
    meta["fit"]["data"] = [f["path"] for f in read["files"]]
    save_network(args.out, net, meta)  # atomic: a crash leaves no half file
    table = Table(title=f"held-out mean absolute error (discs), {report['split']} split")
    for col in ("empties", "positions", "MAE"):
        table.add_column(col, justify="right")
    for b in report["bands"]:
        table.add_row(
            b["empties"], f"{b['positions']:,}", "-" if b["mae"] is None else f"{b['mae']:.2f}"
        )
    overall = report["holdout_mae"]
    table.add_row("all", f"{report['holdout']:,}", "-" if overall is None else f"{overall:.2f}")
    out.print(table)
    out.print(f"train MAE {report['train_mae']:.2f}; best epoch {report['best_epoch']}")
    if args.json:
        write_json(args.json, report)
    if report["interrupted"]:
        out.print(
            f"interrupted: saved the best so far (epoch {report['best_epoch']}) to {args.out}"
        )
        return 130
    out.print(f"saved {args.out}")
    return 0
