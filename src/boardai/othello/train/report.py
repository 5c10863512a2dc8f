"""The reports of the Othello trainers (n-tuple and DQN): their evaluation rows in a CSV file
(:class:`boardai.learn.csv_log.CsvLog`, the sweep trials' ``progress.csv`` form), and the
learning curve they draw, the score against ``wpc`` over the self-play games."""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from typing import Any

#: Lines drawn beside the score against wpc, where the rows hold them: (column, label).
EXTRA_LINES = (
    ("score_vs_wpc_trained", "vs wpc, the trained weights (before averaging)"),
    ("score_vs_random", "vs random"),
)


def eval_row(done: int, stats: dict[str, Any]) -> dict[str, Any]:
    """The CSV row of an evaluation after ``done`` self-play games (the count first)."""
    return {"done": done, **stats}


def standard_error(row: dict[str, Any]) -> float:
    """The standard error of a row's score against wpc (the n-tuple trainer calls it ``se``,
    the DQN trainer ``se_vs_wpc``); NaN if the row has none."""
    for key in ("se", "se_vs_wpc"):
        if key in row and row[key] != "":
            return float(row[key])
    return math.nan


def plot_vs_wpc(rows: Sequence[dict[str, Any]], path: str | os.PathLike[str], title: str) -> None:
    """Write the learning curve of ``rows`` (:func:`eval_row`) to ``path`` as a PNG: the score
    against wpc after each evaluation with its 95% band, and the other scores the rows hold."""
    import numpy as np

    from boardai.plotting import figure, save_png

    fig = figure(8, 4.5)
    ax = fig.subplots()
    x = np.array([float(r["done"]) for r in rows])
    y = np.array([float(r["score_vs_wpc"]) for r in rows])
    half = 1.96 * np.array([standard_error(r) for r in rows])
    ax.plot(x, y, "o-", color="#2e7d32", label="score vs wpc")
    if len(rows) and np.isfinite(half).all():
        ax.fill_between(x, y - half, y + half, color="#2e7d32", alpha=0.2, label="95% band")
    for key, label in EXTRA_LINES:  # over the rows that hold it (a resumed run may add it)
        held = [k for k, r in enumerate(rows) if r.get(key, "") != ""]
        if held:
            ax.plot(x[held], [float(rows[k][key]) for k in held], "--", label=label)
    ax.axhline(0.5, color="grey", lw=0.8, ls=":")
    ax.set_ylim(0, 1)
    ax.set_xlabel("self-play games")
    ax.set_ylabel("score (win 1, draw 0.5)")
    ax.set_title(title)
    ax.legend(loc="lower right", fontsize="small")
    save_png(fig, path)


class EvalLog:
    """A run's evaluation rows as they come (:attr:`rows`, for the plot), also appended to a
    CSV file when ``csv`` names one. Resuming (``resume``), the rows the file already holds
    come first, less those past the checkpoint the run goes on from."""

    def __init__(self, csv: str | os.PathLike[str] | None, resume: bool) -> None:
        self.csv, self.resume = csv, resume
        self.rows: list[dict[str, Any]] = []
        self._log: Any = None

    def start(self, done: int) -> None:
        """The run starts (or goes on) at ``done`` self-play games."""
        if self.csv is None:
            return
        from boardai.learn.csv_log import CsvLog, keep_rows

        going_on = self.resume and done > 0  # (--resume of a run not there yet: a new one)
        if going_on:
            keep_rows(self.csv, done)
        self._log = CsvLog(self.csv, append=going_on)
        self.rows = list(self._log.rows)

    def add(self, done: int, stats: dict[str, Any]) -> None:
        """The evaluation after ``done`` games."""
        row = eval_row(done, stats)
        self.rows.append(row)
        if self._log is not None:
            self._log.write(row)
