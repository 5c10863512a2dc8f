"""The report options both Othello trainers take: ``--csv`` (the evaluation rows) and
``--plot`` (the learning curve against wpc)."""

from __future__ import annotations

import argparse
from typing import Any

from boardai.cli._common import PLOT, output_option


def report_options(p: argparse.ArgumentParser) -> None:
    output_option(
        p,
        "--csv",
        metavar="FILE",
        help="write a row per evaluation (games so far, score vs wpc, ...) to this CSV file "
        "(with --resume: appended)",
    )
    output_option(
        p,
        "--plot",
        metavar="FILE",
        needs=PLOT,
        help="write the learning curve (score vs wpc over the games) to this PNG file",
    )


def eval_log(args: argparse.Namespace) -> Any:
    """The :class:`~boardai.othello.train.report.EvalLog` of ``args``' ``--csv``."""
    from boardai.othello.train.report import EvalLog

    return EvalLog(args.csv, bool(args.resume))


def write_plot(args: argparse.Namespace, log: Any, title: str, out: Any) -> None:
    """Draw ``--plot`` from the run's rows (also of a stopped run: its evaluations so far)."""
    if not args.plot:
        return
    if not log.rows:
        out.print(f"no evaluation yet: {args.plot} not written")
        return
    from boardai.othello.train.report import plot_vs_wpc

    plot_vs_wpc(log.rows, args.plot, title)
    out.print(f"wrote {args.plot}")
