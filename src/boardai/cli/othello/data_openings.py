"""``boardai othello data openings``: every position of the first plies, once up to symmetry
(:mod:`boardai.othello.train.openings`), labelled by a player's search, as a positions file for
``othello train fit``: the opening phases that training games, random at their start, lack."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardai.cli._common import int_in, json_option, output_option, workers_option
from boardai.cli.othello.data_label import resume_option

if TYPE_CHECKING:
    from argparse import Namespace

    from boardai.cli import App

#: Positions within the first 9 plies: 80,068 (434,021 more at ply 9).
MAX_PLIES = 9


def register(app: App) -> None:
    p = app.command(
        "othello data openings",
        help="every position of the first plies, labelled by a player's search (in discs)",
        description=(
            "Enumerate every position reached from the start in at most --plies plies (a pass\n"
            "is a ply), each once up to the board's 8 symmetries (1, 1, 3, 14, 60, 322, 1,773,\n"
            "10,649, 67,245 and 434,021 new ones at plies 0-9), and label each by AGENT's\n"
            "search value for the side to move. Training games start with random plies that\n"
            "are left out of their data, so these are the positions a fitted evaluation's\n"
            "first phases lack: give the file to boardai othello train fit beside the games'.\n"
            "The labels of the positions done are kept in OUT's .partial.npz file every few\n"
            "minutes and on Ctrl-C; the same command with --resume goes on from them."
        ),
        examples=(
            "boardai othello data openings --plies 8 --agent "
            "alphabeta:eval=ntuple,model=othello-fit,depth=8,endgame=0 --out openings.npz\n"
            "boardai othello train fit labelled.npz openings.npz --stages 8 --out fit2.npz"
        ),
    )
    p.add_argument(
        "--plies",
        type=int_in(0, MAX_PLIES),
        default=8,
        help=f"plies from the start, 0..{MAX_PLIES} (default 8: 80,068 positions)",
    )
    p.add_argument(
        "--agent", required=True, metavar="SPEC", help="the player whose search labels them"
    )
    output_option(p, "--out", required=True, metavar="FILE", help="positions file (.npz)")
    workers_option(p, "worker processes (default: all cores); the labels do not depend on it")
    json_option(p, "write a summary as JSON")
    resume_option(p)
    p.set_defaults(func=run)


def run(args: Namespace) -> int:
    import numpy as np

    from boardai.cli._common import console, write_json
    from boardai.cli.othello.data_label import labelled
    from boardai.othello.train.fit import Labelled, empties_of
    from boardai.othello.train.openings import openings

    mover, opponent = openings(args.plies)
    empties = empties_of(mover, opponent)
    n = len(mover)
    positions = Labelled(mover, opponent, np.zeros(n, np.float32), empties, np.arange(n))
    _, summary = labelled(args, positions, (0, 60), 1.0)
    summary.pop("mean_abs_change")  # from no label: the positions had none
    summary = {"agent": args.agent, "plies": args.plies, **summary}
    console().print(
        f"{args.out}: {n:,} positions within {args.plies} plies of the start, labelled by "
        f"{args.agent} in {summary['seconds']:.0f} s"
    )
    if args.json:
        write_json(args.json, summary)
    return 0
