"""An n-tuple network as the evaluator of :mod:`boardai.othello.search`.

The search takes an ``@njit`` evaluator and its data; for a network the data is
:func:`search_data`'s (its stage offsets and weights, its images' line groups,
:mod:`boardai.othello.ntuple_lines`, and its output kind). The value of a ``tanh`` network
(``tanh`` of the sum of its weights, in (-1, 1)) is scaled by 100, the range of the hand-made
evaluations; a ``linear`` network's is the sum itself, its predicted final disc difference,
clipped to ±64: the unit of the endgame solver's exact values. Either is the same value bit for
bit as :meth:`boardai.othello.ntuple.NTupleNetwork.value` (times 100 for tanh), its indices read
a line at a time.

What the search assumes of the scale (:mod:`boardai.othello.search`): leaves stay well inside
``±WIN_VALUE`` (1e6), true of both; the aspiration window (``Searcher(window=30)``) is 30 units,
30 of the tanh network's 100 or 30 discs for a linear one: wider than needed there (fewer
re-searches, less cut at the root) but never wrong. Multi-prob-cut's table for ``eval=ntuple``
(:mod:`boardai.othello.probcut`) was fitted to the tanh network's scale; it is off by default,
and for a linear network it should stay off until a fit for it is made
(``benchmarks/othello_mpc_fit.py --model``).
"""

# ruff: noqa: E741  (P, O: the mover's and the opponent's bitboards)
from __future__ import annotations

from typing import Any

import numpy as np

from boardai._jit import njit
from boardai.intrinsics import prefetch
from boardai.othello.ntuple import COUNT_CODE, DISC_CLIP, NTupleNetwork, count_value, stage_of
from boardai.othello.ntuple_lines import line_groups, line_index, transpose

#: Search units per unit of network value.
SCALE = 100.0


def search_data(network: NTupleNetwork) -> tuple[Any, ...]:
    """The data :func:`evaluate_ntuple` takes for ``network``: ``(offsets, weights, start,
    transposed, mask, table, scratch, linear, counts)`` (``start`` ... ``table``: its
    :class:`~boardai.othello.ntuple_lines.LineGroups`; ``scratch``: one weight index an image,
    so one searcher's, not for threads; ``linear``: the output kind is ``linear``;
    ``counts``: the codes of its counts, :func:`~boardai.othello.ntuple.count_value`, whose
    rows follow every image's). The weights are the network's own array, not a copy."""
    groups = line_groups(network.squares)
    scratch = np.empty(network.offsets.shape[1], np.int64)
    codes = network.squares[:, 0]
    counts = np.array([COUNT_CODE - c for c in codes if c <= COUNT_CODE], np.int64)
    if counts.size and (codes[-counts.size :] > COUNT_CODE).any():
        raise ValueError("a network's counts must follow its images")
    return (network.offsets, network.weights, *groups, scratch, bool(network.linear), counts)


def own_scratch(data: tuple[Any, ...]) -> tuple[Any, ...]:
    """``data`` from :func:`search_data` with a scratch array of its own, for another
    searcher (the tables are shared, read only; building them again takes tens of ms)."""
    return (*data[:6], np.empty_like(data[6]), *data[7:])


@njit
def lines_raw_value(P: np.uint64, O: np.uint64, data: Any) -> float:
    """:func:`boardai.othello.ntuple.raw_value` (the same sum, in the same order), each
    image's index read a line at a time, then each count's; every index is written, its
    weight's load started, before the sum reads any (1.5x faster than loading as it sums)."""
    offsets, weights, start, transposed, mask, table, scratch, _, counts = data
    st = stage_of(P, O, offsets.shape[0])
    PT = transpose(P)
    OT = transpose(O)
    n = offsets.shape[1]
    for i in range(n):  # a count's row has no line groups: its index here is its table's start
        k = offsets[st, i] + line_index(P, O, PT, OT, i, start, transposed, mask, table)
        scratch[i] = k
        prefetch(weights, k)
    first = n - counts.shape[0]  # the counts' rows follow the images'
    for j in range(counts.shape[0]):
        k = scratch[first + j] + count_value(P, O, counts[j])
        scratch[first + j] = k
        prefetch(weights, k)
    v = 0.0
    for i in range(n):
        v += weights[scratch[i]]
    return v


@njit
def evaluate_ntuple(P: np.uint64, O: np.uint64, data: Any) -> float:
    """Search evaluator: ``SCALE`` times a tanh network's value for the mover, a linear
    network's predicted disc difference (within ±``DISC_CLIP``)."""
    v = lines_raw_value(P, O, data)
    if data[7]:
        return min(max(v, -DISC_CLIP), DISC_CLIP)
    return SCALE * np.tanh(v)
