"""numba's cache of a boardai kernel is stamped with its module's callees too
(:mod:`boardai._jit_cache`), so a change to any of them recompiles it."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest

from boardai import _jit_cache as jc


def _file(name: str) -> Path:
    return (jc.ROOT / name).resolve()


def test_a_modules_dependencies_are_the_boardai_modules_it_imports_at_any_depth() -> None:
    deps = jc.dependencies(_file("othello/search.py"))
    assert _file("othello/endgame.py") in deps  # imported by search.py itself
    assert _file("othello/kernels.py") in deps  # also through endgame.py
    assert _file("_jit.py") in deps
    assert _file("g2048/kernels.py") not in deps  # nothing of the other game
    assert _file("othello/search.py") not in jc.dependencies(_file("othello/endgame.py"))


def test_the_stamp_changes_with_a_callee_and_only_for_its_callers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    search, endgame, other = (_file(f) for f in ("othello/search.py", "othello/endgame.py",
                                                 "g2048/search.py"))  # fmt: skip
    before = {p: jc.stamp(p) for p in (search, endgame, other)}
    real = jc._content

    def edited(path: Path) -> bytes:  # endgame.py as if it had changed
        return hashlib.sha256(b"edited").digest() if path == endgame else real(path)

    monkeypatch.setattr(jc, "_content", edited)
    assert jc.stamp(search) != before[search]
    assert jc.stamp(endgame) != before[endgame]
    assert jc.stamp(other) == before[other]


def test_boardai_kernels_are_cached_under_the_dependency_stamp() -> None:
    from boardai.othello.kernels import START_BLACK, START_WHITE
    from boardai.othello.search import solve

    solve(START_BLACK, START_WHITE, np.array([0, 1000, 0], np.int64))
    locator = solve._cache._impl._locator
    assert type(locator).__name__.startswith("Boardai")
    assert locator.get_source_stamp() == jc.stamp(_file("othello/search.py"))
    # a file outside the package keeps numba's own locators
    assert all(loc.from_function(test_boardai_kernels_are_cached_under_the_dependency_stamp,
                                 __file__) is None for loc in jc.LOCATORS)  # fmt: skip
