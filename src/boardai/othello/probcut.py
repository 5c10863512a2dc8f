"""Multi-prob-cut (Buro 1997) parameters for :mod:`boardai.othello.search`.

At a node to be searched ``d`` plies deep, a shallow search of ``d'`` plies predicts the deep
value as ``a * v' + b`` with an error of standard deviation ``sigma``; if the prediction passes
beta (or falls below alpha) by ``t`` standard deviations, the node is cut without the deep
search. ``a``, ``b`` and ``sigma`` come from a regression of the ``d``-ply value on the
``d'``-ply value over positions from self-play games, per evaluator and per game stage (disc
count), as Logistello does: ``benchmarks/othello_mpc_fit.py`` fits them and prints the table
below (docs/journal/benchmarks-journal.md, "multi-prob-cut").

The table is kept here, in code, and not in a model file: the fit belongs to an evaluator
and its scale, it is a few dozen numbers that a reviewer can read beside the regression's
output, and the model file format stays as it is. Two fits serve the n-tuple networks, by
their scale: ``ntuple`` (a TD network's value in (-1, 1) times 100, fitted on the shipped
``othello-ntuple``) and ``fitted`` (a network fitted to disc differences, valued in discs,
fitted on ``othello-eval``). Other networks of each kind use their kind's fit (not measured
for them; the script's ``--model`` refits for another).
"""

from __future__ import annotations

import numpy as np

#: Highest disc count of each stage but the last (stage k: discs up to ``STAGE_ENDS[k]``).
STAGE_ENDS = (29, 39)
#: Deepest node a prob-cut is tried at (the fit's deepest search).
MAX_DEPTH = 10
#: Lowest node depth with a prob-cut.
MIN_DEPTH = 3
#: Shallow searches tried at a node (see :func:`table`).
TRIES = 1

#: The players' threshold (``mpc=`` of ``alphabeta`` and ``ntuple``) unless given, by
#: evaluator; others: 0, off. None is on: at equal time per move
#: (docs/journal/benchmarks-journal.md, "multi-prob-cut") the shipped network with t = 1.5 scored
#: 0.528 ± 0.025 against itself without prob-cut at 0.2 s a move (400 games), WPC 0.480 ± 0.035
#: at 0.05 s: no gain shown; ``othello-eval`` with the ``fitted`` table at t = 1, by nodes a
#: move: 0.588 ± 0.024 at 40,000 (400 games) but 0.458 ± 0.035 at 150,000 (200), so not at the
#: strong preset's depth.
DEFAULTS: dict[str, float] = {}
#: Bounds of a threshold other than 0.
MIN_THRESHOLD, MAX_THRESHOLD = 0.5, 4.0

#: (stage, d, d', a, b, sigma) per evaluator, from ``benchmarks/othello_mpc_fit.py``.
FITS: dict[str, tuple[tuple[int, int, int, float, float, float], ...]] = {
    "classic": (
        (0, 3, 1, 0.995, -2.56, 6.92),
        (0, 4, 0, 1.007, -3.08, 10.63),
        (0, 4, 2, 1.011, -0.12, 6.01),
        (0, 5, 1, 0.995, -3.66, 8.43),
        (0, 5, 3, 1.004, -1.13, 4.0),
        (0, 6, 0, 1.024, -3.41, 11.34),
        (0, 6, 2, 1.029, -0.4, 6.78),
        (0, 7, 1, 1.034, -5.04, 10.28),
        (0, 7, 3, 1.053, -2.48, 5.24),
        (0, 8, 2, 1.067, -0.32, 8.59),
        (0, 8, 4, 1.061, -0.19, 4.68),
        (0, 9, 3, 1.073, -3.51, 6.84),
        (0, 9, 5, 1.067, -2.3, 5.57),
        (0, 10, 2, 1.108, 0.36, 9.76),
        (0, 10, 4, 1.102, 0.48, 6.13),
        (1, 3, 1, 1.037, -0.63, 6.16),
        (1, 4, 0, 1.087, 0.05, 11.05),
        (1, 4, 2, 1.063, 0.69, 7.38),
        (1, 5, 1, 1.101, -0.95, 10.18),
        (1, 5, 3, 1.066, -0.28, 6.33),
        (1, 6, 0, 1.131, -0.05, 13.52),
        (1, 6, 2, 1.105, 0.61, 10.47),
        (1, 7, 1, 1.156, -2.05, 13.66),
        (1, 7, 3, 1.123, -1.36, 9.85),
        (1, 8, 2, 1.157, 1.21, 13.62),
        (1, 8, 4, 1.095, 0.46, 9.33),
        (1, 9, 3, 1.158, -0.98, 11.9),
        (1, 9, 5, 1.089, -0.68, 8.81),
        (1, 10, 2, 1.211, 1.89, 16.51),
        (1, 10, 4, 1.149, 1.12, 12.26),
        (2, 3, 1, 1.069, 0.17, 10.22),
        (2, 4, 0, 1.148, 2.55, 17.27),
        (2, 4, 2, 1.066, 1.39, 10.84),
        (2, 5, 1, 1.147, -0.87, 14.97),
        (2, 5, 3, 1.074, -1.06, 10.0),
        (2, 6, 0, 1.202, 2.87, 22.05),
        (2, 6, 2, 1.12, 1.62, 15.96),
        (2, 7, 1, 1.197, -0.54, 21.06),
        (2, 7, 3, 1.128, -0.81, 15.66),
        (2, 8, 2, 1.17, 3.94, 21.01),
        (2, 8, 4, 1.102, 2.36, 16.13),
        (2, 9, 3, 1.205, -0.71, 20.77),
        (2, 9, 5, 1.128, 0.43, 15.59),
        (2, 10, 2, 1.233, 5.19, 28.02),
        (2, 10, 4, 1.169, 3.45, 22.71),
    ),
    "wpc": (
        (0, 3, 1, 1.105, -2.4, 11.86),
        (0, 4, 0, 1.215, 1.97, 19.69),
        (0, 4, 2, 1.092, 0.86, 12.22),
        (0, 5, 1, 1.159, -4.27, 18.02),
        (0, 5, 3, 1.059, -1.94, 9.79),
        (0, 6, 0, 1.258, 1.65, 23.84),
        (0, 6, 2, 1.134, 0.51, 17.1),
        (0, 7, 1, 1.2, -5.34, 22.68),
        (0, 7, 3, 1.105, -3.11, 13.96),
        (0, 8, 2, 1.169, 0.75, 21.03),
        (0, 8, 4, 1.089, -0.14, 10.93),
        (0, 9, 3, 1.13, -3.0, 17.96),
        (0, 9, 5, 1.077, -1.11, 11.37),
        (0, 10, 2, 1.198, 0.99, 25.16),
        (0, 10, 4, 1.123, 0.08, 15.2),
        (1, 3, 1, 1.048, -3.67, 18.19),
        (1, 4, 0, 1.122, 2.17, 31.83),
        (1, 4, 2, 1.074, 1.03, 19.09),
        (1, 5, 1, 1.107, -4.32, 30.09),
        (1, 5, 3, 1.071, -0.51, 17.56),
        (1, 6, 0, 1.132, 3.37, 43.63),
        (1, 6, 2, 1.102, 2.5, 31.11),
        (1, 7, 1, 1.128, -4.2, 42.89),
        (1, 7, 3, 1.113, -0.45, 29.12),
        (1, 8, 2, 1.132, 2.05, 38.88),
        (1, 8, 4, 1.08, 1.41, 24.94),
        (1, 9, 3, 1.148, -2.21, 36.27),
        (1, 9, 5, 1.089, -1.75, 25.11),
        (1, 10, 2, 1.16, 1.88, 50.54),
        (1, 10, 4, 1.12, 1.44, 36.93),
        (2, 3, 1, 1.023, -2.57, 29.7),
        (2, 4, 0, 1.021, 6.99, 47.8),
        (2, 4, 2, 1.041, 1.57, 26.0),
        (2, 5, 1, 1.053, -3.21, 48.04),
        (2, 5, 3, 1.052, -1.24, 24.06),
        (2, 6, 0, 1.051, 11.1, 69.46),
        (2, 6, 2, 1.092, 5.4, 48.84),
        (2, 7, 1, 1.094, -2.14, 69.85),
        (2, 7, 3, 1.115, -0.76, 46.8),
        (2, 8, 2, 1.131, 6.92, 66.33),
        (2, 8, 4, 1.121, 4.94, 47.07),
        (2, 9, 3, 1.151, -0.64, 64.71),
        (2, 9, 5, 1.126, -0.26, 45.87),
        (2, 10, 2, 1.179, 13.13, 86.14),
        (2, 10, 4, 1.182, 10.97, 67.31),
    ),
    "ntuple": (
        (0, 3, 1, 1.037, 0.14, 3.31),
        (0, 4, 0, 1.163, 2.07, 5.79),
        (0, 4, 2, 1.072, -0.17, 2.41),
        (0, 5, 1, 1.088, -0.6, 5.06),
        (0, 5, 3, 1.056, -0.77, 2.72),
        (0, 6, 0, 1.189, 2.36, 6.91),
        (0, 6, 2, 1.101, 0.07, 3.71),
        (0, 7, 1, 1.143, -0.49, 6.17),
        (0, 7, 3, 1.111, -0.67, 3.97),
        (0, 8, 2, 1.171, -0.16, 5.54),
        (0, 8, 4, 1.101, 0.03, 3.97),
        (0, 9, 3, 1.167, -0.52, 5.28),
        (0, 9, 5, 1.112, 0.31, 3.41),
        (0, 10, 2, 1.221, -0.56, 6.31),
        (0, 10, 4, 1.149, -0.36, 4.64),
        (1, 3, 1, 1.054, 1.31, 5.02),
        (1, 4, 0, 1.095, 0.95, 6.29),
        (1, 4, 2, 1.056, 0.09, 3.69),
        (1, 5, 1, 1.095, 1.48, 6.93),
        (1, 5, 3, 1.043, 0.11, 3.43),
        (1, 6, 0, 1.153, 1.79, 9.03),
        (1, 6, 2, 1.113, 0.89, 7.02),
        (1, 7, 1, 1.152, 3.03, 12.54),
        (1, 7, 3, 1.102, 1.58, 10.01),
        (1, 8, 2, 1.176, 2.6, 13.5),
        (1, 8, 4, 1.119, 2.52, 12.14),
        (1, 9, 3, 1.166, 1.91, 13.94),
        (1, 9, 5, 1.123, 1.78, 12.79),
        (1, 10, 2, 1.225, 3.1, 17.01),
        (1, 10, 4, 1.167, 3.02, 15.71),
        (2, 3, 1, 1.048, 0.1, 9.42),
        (2, 4, 0, 1.084, 4.09, 17.97),
        (2, 4, 2, 1.034, 0.77, 9.84),
        (2, 5, 1, 1.079, 1.07, 17.17),
        (2, 5, 3, 1.041, 0.86, 10.77),
        (2, 6, 0, 1.126, 5.29, 23.35),
        (2, 6, 2, 1.072, 1.84, 17.51),
        (2, 7, 1, 1.117, 2.03, 23.08),
        (2, 7, 3, 1.086, 1.75, 16.85),
        (2, 8, 2, 1.108, 3.1, 23.03),
        (2, 8, 4, 1.091, 2.19, 16.27),
        (2, 9, 3, 1.122, 1.97, 22.35),
        (2, 9, 5, 1.092, 0.91, 15.68),
        (2, 10, 2, 1.141, 3.31, 29.83),
        (2, 10, 4, 1.131, 2.35, 23.32),
    ),
    # othello_mpc_fit.py --eval ntuple --model othello-eval --games 60 --depth 10
    "fitted": (
        (0, 3, 1, 1.047, 0.14, 3.32),
        (0, 4, 0, 1.135, 0.95, 6.2),
        (0, 4, 2, 1.047, 0.19, 3.31),
        (0, 5, 1, 1.092, 0.6, 4.57),
        (0, 5, 3, 1.041, 0.46, 3.23),
        (0, 6, 0, 1.109, 1.92, 6.12),
        (0, 6, 2, 1.015, 1.16, 4.05),
        (0, 7, 1, 1.08, 1.03, 5.28),
        (0, 7, 3, 1.03, 0.89, 4.16),
        (0, 8, 2, 1.069, 1.18, 4.98),
        (0, 8, 4, 1.014, 0.97, 4.25),
        (0, 9, 3, 1.051, 0.41, 4.91),
        (0, 9, 5, 1.01, -0.06, 3.52),
        (0, 10, 2, 1.102, 1.56, 5.19),
        (0, 10, 4, 1.044, 1.33, 4.55),
        (1, 3, 1, 1.004, -0.28, 5.45),
        (1, 4, 0, 1.005, 3.6, 8.05),
        (1, 4, 2, 0.998, 0.93, 5.02),
        (1, 5, 1, 0.983, 0.02, 7.57),
        (1, 5, 3, 0.984, 0.27, 4.71),
        (1, 6, 0, 1.013, 3.46, 8.65),
        (1, 6, 2, 1.005, 0.77, 5.97),
        (1, 7, 1, 1.024, -0.17, 8.51),
        (1, 7, 3, 1.026, 0.09, 5.64),
        (1, 8, 2, 1.019, -0.03, 6.54),
        (1, 8, 4, 1.018, -0.97, 4.59),
        (1, 9, 3, 1.023, 0.66, 5.86),
        (1, 9, 5, 1.036, 0.39, 3.87),
        (1, 10, 2, 1.047, 0.1, 7.22),
        (1, 10, 4, 1.047, -0.87, 5.27),
        (2, 3, 1, 0.974, -0.0, 5.1),
        (2, 4, 0, 1.0, 1.43, 7.99),
        (2, 4, 2, 1.015, 0.07, 4.23),
        (2, 5, 1, 0.998, 0.07, 6.3),
        (2, 5, 3, 1.023, 0.07, 3.82),
        (2, 6, 0, 1.001, 2.09, 9.02),
        (2, 6, 2, 1.017, 0.72, 5.89),
        (2, 7, 1, 1.023, 0.1, 7.16),
        (2, 7, 3, 1.043, 0.13, 5.87),
        (2, 8, 2, 1.045, 1.2, 7.15),
        (2, 8, 4, 1.032, 1.13, 5.21),
        (2, 9, 3, 1.034, -0.22, 6.47),
        (2, 9, 5, 1.014, -0.31, 4.55),
        (2, 10, 2, 1.034, 1.76, 7.7),
        (2, 10, 4, 1.022, 1.69, 5.87),
    ),
}


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


def default(evaluator: str) -> float:
    """The threshold for ``evaluator`` when the player's spec gives none."""
    return DEFAULTS.get(evaluator, 0.0)


def off() -> tuple[float, np.ndarray, np.ndarray]:
    """The search's argument for no prob-cut."""
    return 0.0, np.zeros(65, np.int64), np.full((1, 1, 1, 4), -1.0)


def table(
    evaluator: str, threshold: float, tries: int = TRIES
) -> tuple[float, np.ndarray, np.ndarray]:
    """The search's ``mpc`` argument: ``(threshold, stage_of[discs], rows)`` for the fit of
    ``evaluator`` (a key of :data:`FITS`); a threshold of 0 turns prob-cut off.

    ``rows[stage, d]`` holds the tries at a node ``d`` plies deep, the shallowest first: with
    ``tries`` 2 a search of ``shallow_depth(d) - 2`` plies (the static value at 0) and then
    one of ``shallow_depth(d)``, with 1 only the second (unused rows: ``d' = -1``)."""
    if threshold <= 0:
        return off()
    if tries not in (1, 2):
        raise ValueError(f"tries must be 1 or 2, got {tries}")
    rows = np.full((len(STAGE_ENDS) + 1, MAX_DEPTH + 1, tries, 4), -1.0)
    for stage, d, ds, a, b, sigma in FITS[evaluator]:
        k = tries - 1 - (ds != shallow_depth(d))  # the deeper try last
        if k >= 0:
            rows[stage, d, k] = (ds, a, b, sigma)
    for stage in range(rows.shape[0]):  # move a lone try first
        for d in range(rows.shape[1]):
            if tries == 2 and rows[stage, d, 0, 0] < 0:
                rows[stage, d, 0], rows[stage, d, 1] = rows[stage, d, 1].copy(), -1.0
    stages = np.array([stage_of(n) for n in range(65)], np.int64)
    return float(threshold), stages, rows
