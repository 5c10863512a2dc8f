"""An n-tuple network as the evaluator of :mod:`boardai.othello.search`.

The search takes an ``@njit`` evaluator and its data; for a network the data is
:func:`search_data`'s (its stage offsets and weights, and its images' line groups,
:mod:`boardai.othello.ntuple_lines`), and the value is the network's (``tanh`` of the sum of its
weights, in (-1, 1)) scaled by 100, the range of the hand-made evaluations: the same value bit
for bit as :meth:`boardai.othello.ntuple.NTupleNetwork.value`, its indices read a line at a
time.
"""

# ruff: noqa: E741  (P, O: the mover's and the opponent's bitboards)
from __future__ import annotations

from typing import Any

import numpy as np

from boardai._jit import njit
from boardai.intrinsics import prefetch
from boardai.othello.ntuple import NTupleNetwork, stage_of
from boardai.othello.ntuple_lines import line_groups, line_index, transpose

#: Search units per unit of network value.
SCALE = 100.0


def search_data(network: NTupleNetwork) -> tuple[Any, ...]:
    """The data :func:`evaluate_ntuple` takes for ``network``: ``(offsets, weights, start,
    transposed, mask, table, scratch)`` (``start`` ... ``table``: its
    :class:`~boardai.othello.ntuple_lines.LineGroups`; ``scratch``: one weight index an image,
    so one searcher's, not for threads). The weights are the network's own array, not a
    copy."""
    groups = line_groups(network.squares)
    scratch = np.empty(network.offsets.shape[1], np.int64)
    return (network.offsets, network.weights, *groups, scratch)


@njit
def lines_raw_value(P: np.uint64, O: np.uint64, data: Any) -> float:
    """:func:`boardai.othello.ntuple.raw_value` (the same sum, in the same order), each
    image's index read a line at a time; every index is written, its weight's load started,
    before the sum reads any (1.5x faster than loading as it sums)."""
    offsets, weights, start, transposed, mask, table, scratch = data
    st = stage_of(P, O, offsets.shape[0])
    PT = transpose(P)
    OT = transpose(O)
    n = offsets.shape[1]
    for i in range(n):
        k = offsets[st, i] + line_index(P, O, PT, OT, i, start, transposed, mask, table)
        scratch[i] = k
        prefetch(weights, k)
    v = 0.0
    for i in range(n):
        v += weights[scratch[i]]
    return v


@njit
def evaluate_ntuple(P: np.uint64, O: np.uint64, data: Any) -> float:
    """Search evaluator: ``SCALE`` times the network's value for the mover."""
    return SCALE * np.tanh(lines_raw_value(P, O, data))
