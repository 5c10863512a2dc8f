"""The game-free n-tuple helpers of boardai.learn.ntuple against plain Python."""

from __future__ import annotations

import resource

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from boardai._jit import njit
from boardai.learn.ntuple import PAGE_BYTES, map_pages, sum_at_pair


@njit
def _pair(weights: np.ndarray, a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    return sum_at_pair(weights, a, b)


def _sum(weights: np.ndarray, idx: np.ndarray) -> float:
    """The reference: one entry after the other, from 0.0, in float64."""
    v = 0.0
    for i in idx:
        v += float(weights[i])
    return v


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 40), st.integers(1, 300))
def test_sum_at_pair_is_two_sums_bit_for_bit(seed: int, n: int, size: int) -> None:
    rng = np.random.default_rng(seed)
    weights = (rng.standard_normal(size) * 10.0 ** rng.integers(-6, 6, size)).astype(np.float32)
    a = rng.integers(0, size, n).astype(np.int64)
    b = rng.integers(0, size, n).astype(np.int64)
    va, vb = _pair(weights, a, b)
    assert va == _sum(weights, a)  # the same order, so exactly equal
    assert vb == _sum(weights, b)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 5 * PAGE_BYTES), st.sampled_from(["f4", "f8", "u1"]))
def test_map_pages_keeps_values(seed: int, n: int, dtype: str) -> None:
    rng = np.random.default_rng(seed)
    a = (rng.random(n) * 200).astype(dtype)
    before = a.copy()
    assert map_pages(a) is a
    np.testing.assert_array_equal(a, before)


def _faults() -> int:
    """Minor page faults of this thread (other threads of the test process fault too)."""
    return resource.getrusage(getattr(resource, "RUSAGE_THREAD", resource.RUSAGE_SELF)).ru_minflt


def test_map_pages_leaves_no_page_to_map() -> None:
    # Whether np.zeros' pages are mapped before their first write is the OS's choice (a
    # CI sandbox mapped them at once, so counting map_pages' own faults failed there); what
    # training relies on is that none is left to map after map_pages.
    a = np.zeros(64 * 2**20 // 4, np.float32)  # 64 MiB (malloc maps it afresh), not written
    map_pages(a)
    before = _faults()
    a[:: PAGE_BYTES // 4] = 1.0  # a write to every page: (next to) no faults
    assert _faults() - before < 8
