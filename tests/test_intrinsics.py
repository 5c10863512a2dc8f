"""Reference-free views: the same values, and the arrays' own references untouched."""

from __future__ import annotations

import sys

import numpy as np

from boardai._jit import njit
from boardai.intrinsics import borrow_all


@njit(cache=False)
def _total(data: tuple) -> float:
    """Sum of every array of ``((a, b), n, c)``, read through borrowed views, with a write
    through one of them."""
    (a, b), n, c = borrow_all(data)
    c[0] += 1.0
    return a.sum() + b.sum() + n + c.sum()


def test_borrow_all_reads_and_writes_the_same_memory():
    a, b, c = np.arange(5.0), np.ones(3), np.zeros(2)
    data = ((a, b), 7, c)
    before = [sys.getrefcount(x) for x in (a, b, c)]
    for _ in range(1000):  # a borrowed view neither holds nor drops a reference
        assert _total(data) == 10.0 + 3.0 + 7 + c[0]
    assert c[0] == 1000.0
    assert [sys.getrefcount(x) for x in (a, b, c)] == before
    assert a.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
