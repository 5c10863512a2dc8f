"""``boardai othello data label``: positions labelled by a player's search instead of their
game's result (:mod:`boardai.othello.train.label`), as a positions file for ``othello train
fit``."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boardai.cli._common import (
    force_option,
    int_band,
    json_option,
    output_option,
    probability,
    workers_option,
)

if TYPE_CHECKING:
    from boardai.cli import App
    from boardai.othello.train.fit import Labelled


def empties_range(text: str) -> tuple[int, int]:
    """argparse type: ``LO-HI`` (or ``K``), empty squares, 0 <= LO <= HI <= 60.

    >>> empties_range("17-60"), empties_range("20")
    ((17, 60), (20, 20))
    """
    return int_band(text, 60)


def partial_path(out: str | Path) -> Path:
    """Where a labelling into ``out`` keeps the labels of the games done until it ends.

    >>> str(partial_path("runs/r6.npz")), str(partial_path("r6"))
    ('runs/r6.partial.npz', 'r6.partial.npz')
    """
    p = Path(out)
    return p.with_name(p.stem + ".partial.npz") if p.suffix == ".npz" else Path(f"{p}.partial.npz")


def resume_option(p: argparse.ArgumentParser) -> None:
    """``--resume`` and ``--force`` of a command whose labels :func:`labelled` keeps."""
    p.add_argument(
        "--resume",
        action="store_true",
        help="go on from the labels a stopped run kept (OUT's .partial.npz file)",
    )
    force_option(p, "replace what --out holds already, and start over (refused without it)")


def labelled(
    args: argparse.Namespace, data: Any, empties: tuple[int, int], mix: float
) -> tuple[Labelled, dict[str, Any]]:
    """:func:`boardai.othello.train.label.label` of ``data`` by ``args.agent`` with a progress
    bar, its labels kept in ``args.out``'s partial file until they are written to ``args.out``
    (``args.resume`` goes on from them; ``args.force`` starts over)."""
    from boardai.cli._common import console, default_workers, progress, refuse_to_overwrite
    from boardai.errors import UsageError
    from boardai.othello.train import label as L
    from boardai.othello.train.fit import write_positions

    partial = partial_path(args.out)
    if args.resume and args.force:
        raise UsageError("--resume goes on with a stopped run, --force starts over: not both")
    if args.resume and not partial.exists():
        raise UsageError(f"--resume: nothing to go on from ({partial} does not exist)")
    if not args.resume:
        refuse_to_overwrite(args.out, "--out", force=args.force, resume=None)
        if partial.exists() and not args.force:
            raise UsageError(
                f"{partial} holds the labels of a stopped run: --resume goes on with them, "
                "--force starts over"
            )
        partial.unlink(missing_ok=True)
    workers = args.workers or default_workers()
    counts = [0, 0]
    with progress() as bar:
        task = bar.add_task("labelling", total=None)

        def on_progress(done: int, total: int) -> None:
            counts[:] = done, total
            bar.update(task, completed=done, total=total)

        try:
            got = L.label(data, args.agent, empties, mix, workers, on_progress, partial)
        except ValueError as e:
            raise UsageError(str(e)) from None
        except KeyboardInterrupt:
            if partial.exists():
                console(stderr=True).print(
                    f"{counts[0]:,} of {counts[1]:,} positions labelled, kept in {partial}; "
                    "the same command with --resume goes on"
                )
            raise
    write_positions(args.out, got[0].mover, got[0].opponent, got[0].label, got[0].game)
    partial.unlink(missing_ok=True)
    return got


def register(app: App) -> None:
    p = app.command(
        "othello data label",
        help="label positions by a player's search (in discs) instead of their game's result",
        description=(
            "Read the positions of DATA (games files, record files: the positions after each\n"
            "game's random opening) and give each one with a number of empty squares in\n"
            "--empties the value of AGENT's search for the side to move, mixed with the game's\n"
            "final disc difference by --mix (1: the search's value alone). Positions outside\n"
            "the band keep their game's result. The player's values must be in discs: an\n"
            "alphabeta over a fitted evaluation (eval=ntuple,model=FIT.npz), whose endgame\n"
            "solver gives exact values. Writes a positions file for boardai othello train fit.\n"
            "A game's positions are searched together on one worker: the labels do not depend\n"
            "on --workers. The labels of the games done are kept in OUT's .partial.npz file\n"
            "every few minutes and on Ctrl-C; the same command with --resume goes on from them\n"
            "(the labels are the same as a run's that never stopped)."
        ),
        examples=(
            "boardai othello data label data/othello/games-d6-e16.npz --agent "
            "alphabeta:eval=ntuple,model=fit.npz,depth=4,endgame=14 --out labelled.npz\n"
            "boardai othello data label data/othello/games-d6-e16.npz --agent "
            "alphabeta:eval=ntuple,model=fit.npz,depth=4,endgame=14 --out labelled.npz --resume\n"
            "boardai othello train fit labelled.npz --stages 8 --out fit2.npz"
        ),
    )
    p.add_argument("data", nargs="+", metavar="DATA", help="games or record files")
    p.add_argument(
        "--agent", required=True, metavar="SPEC", help="the player whose search labels them"
    )
    output_option(p, "--out", required=True, metavar="FILE", help="positions file (.npz)")
    p.add_argument(
        "--empties",
        type=empties_range,
        default=(17, 60),
        metavar="LO-HI",
        help="label positions with LO..HI empty squares (default 17-60)",
    )
    p.add_argument(
        "--mix",
        type=probability,
        default=1.0,
        help="weight of the search's value against the game's result (default 1)",
    )
    workers_option(p, "worker processes (default: all cores); the labels do not depend on it")
    json_option(p, "write a summary as JSON")
    resume_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from boardai.cli._common import console, write_json

    _, summary = labelled(args, args.data, args.empties, args.mix)
    summary = {"agent": args.agent, "empties": list(args.empties), "mix": args.mix, **summary}
    console().print(
        f"{args.out}: {summary['positions']:,} positions, {summary['labelled']:,} labelled by "
        f"{args.agent} in {summary['seconds']:.0f} s; mean change of label "
        f"{summary['mean_abs_change']:.2f} discs"
    )
    if args.json:
        write_json(args.json, summary)
    return 0
