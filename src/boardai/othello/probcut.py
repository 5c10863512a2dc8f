"""Multi-prob-cut (Buro 1997) parameters for :mod:`boardai.othello.search`.

At a node to be searched ``d`` plies deep, a shallow search of ``d'`` plies predicts the deep
value as ``a * v' + b`` with an error of standard deviation ``sigma``; if the prediction passes
beta (or falls below alpha) by ``t`` standard deviations, the node is cut without the deep
search. ``a``, ``b`` and ``sigma`` come from a regression of the ``d``-ply value on the
``d'``-ply value over positions from self-play games, per evaluator and per game stage (disc
count), as Logistello does: ``benchmarks/othello_mpc_fit.py`` fits them and prints the table
below (docs/benchmarks.md, session 13: "Multi-prob-cut").

The table is kept here, in code, and not in a model file: the fit belongs to an evaluator
and its scale (the network's value times 100), the shipped network's fit is a few dozen
numbers, and a network trained another way has errors of the same size (a refit only
tightens the margins). Networks other than the shipped one use the ``ntuple`` fit.
"""

from __future__ import annotations

import numpy as np

#: Highest disc count of each stage but the last (stage k: discs up to ``STAGE_ENDS[k]``).
STAGE_ENDS = (29, 39)
#: Deepest node a prob-cut is tried at (the fit's deepest search).
MAX_DEPTH = 10
#: Lowest node depth with a prob-cut.
MIN_DEPTH = 3

#: The players' threshold (``mpc=`` of ``alphabeta`` and ``ntuple``) unless given; 0: off.
DEFAULT = 0.0
#: Bounds of a threshold other than 0.
MIN_THRESHOLD, MAX_THRESHOLD = 0.5, 4.0

#: (stage, d, d', a, b, sigma) per evaluator, from ``benchmarks/othello_mpc_fit.py``.
FITS: dict[str, tuple[tuple[int, int, int, float, float, float], ...]] = {}


def shallow_depth(depth: int) -> int:
    """The shallow search's depth for a node ``depth`` plies deep (Edax's choice: about a
    quarter of it, of the same parity, at least 1): 3 -> 1, 4 -> 2, 5 -> 3, 8 -> 4, 10 -> 4."""
    d = 2 * (depth // 4) + (depth & 1)
    return d if d > 0 else depth - 2


def stage_of(discs: int) -> int:
    """The stage of a position with ``discs`` discs."""
    return sum(discs > end for end in STAGE_ENDS)


def check_threshold(threshold: float) -> None:
    """Raise ValueError unless ``threshold`` is 0 or within the bounds."""
    if not (threshold == 0 or MIN_THRESHOLD <= threshold <= MAX_THRESHOLD):
        raise ValueError(
            f"mpc must be 0 (off) or in {MIN_THRESHOLD}..{MAX_THRESHOLD}, got {threshold}"
        )


def off() -> tuple[float, np.ndarray, np.ndarray]:
    """The search's argument for no prob-cut."""
    return 0.0, np.zeros(65, np.int64), np.full((1, 1, 1, 4), -1.0)


def table(evaluator: str, threshold: float) -> tuple[float, np.ndarray, np.ndarray]:
    """The search's ``mpc`` argument: ``(threshold, stage_of[discs], rows)`` for the fit of
    ``evaluator`` (a key of :data:`FITS`); a threshold of 0 turns prob-cut off."""
    if threshold <= 0:
        return off()
    fits = FITS[evaluator]
    rows = np.full((len(STAGE_ENDS) + 1, MAX_DEPTH + 1, 1, 4), -1.0)
    for stage, d, ds, a, b, sigma in fits:
        rows[stage, d, 0] = (ds, a, b, sigma)
    stages = np.array([stage_of(n) for n in range(65)], np.int64)
    return float(threshold), stages, rows


def fitted(evaluator: str) -> bool:
    """Whether prob-cut has a fit for ``evaluator``."""
    return evaluator in FITS
