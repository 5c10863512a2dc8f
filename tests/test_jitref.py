"""Compiled functions passed as references: the same calls as the functions themselves, and
code compiled for them that numba's cache keeps from one process to the next."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardai._jit import njit
from boardai.jitref import Ref, call, ref


@njit
def _scaled(x: float, data: tuple) -> float:
    return x * data[0][0] + data[1]


@njit
def _twice(f, x: float, data: tuple) -> float:  # type: ignore[no-untyped-def]
    return call(f, x, data) + call(f, 2.0 * x, data)


@njit
def _apply(f, x: float, data: tuple):  # type: ignore[no-untyped-def]
    return call(f, x, data) if f is not None else -1.0


@njit
def _one(f, x: float) -> float:  # type: ignore[no-untyped-def]
    return call(f, x)


@given(st.floats(-1e6, 1e6), st.floats(-10, 10), st.floats(-10, 10))
@settings(max_examples=30, deadline=None)
def test_a_call_through_a_reference_is_the_call(x, a, b):
    data = (np.array([a]), b)
    assert _twice(ref(_scaled), x, data) == _scaled(x, data) + _scaled(2.0 * x, data)
    assert ref(_scaled)(x, data) == _scaled(x, data)


def test_none_types_apart():
    data = (np.array([3.0]), 1.0)
    assert _apply(ref(_scaled), 2.0, data) == 7.0
    assert _apply(ref(None), 2.0, data) == -1.0


def test_one_reference_a_function():
    r = ref(_scaled)
    assert isinstance(r, Ref)
    assert ref(_scaled) is r and ref(r) is r
    assert ref(None) is None
    assert numba.typeof(r) is numba.typeof(ref(_scaled))
    assert numba.typeof(r) != numba.typeof(ref(_twice))
    assert "tests.test_jitref._scaled@" in repr(r)


def test_a_reference_pickles_by_name():
    r = ref(_scaled)
    assert pickle.loads(pickle.dumps(r)) is r


def test_what_cannot_be_referred_to():
    with pytest.raises(TypeError, match="@njit"):
        ref(lambda x: x)

    @njit
    def nested(x: float, data: tuple) -> float:
        return x

    with pytest.raises(ValueError, match="module-level"):
        ref(nested)


def test_a_bare_function_is_refused_in_compiled_code():
    with pytest.raises(numba.core.errors.TypingError, match=r"wrap the function with ref\(\)"):
        _twice(_scaled, 1.0, (np.array([1.0]), 0.0))


def test_call_is_for_compiled_code():
    with pytest.raises(NotImplementedError):
        call(ref(_scaled), 1.0, (np.array([1.0]), 0.0))


_KERNEL = """
from boardai._jit import njit
from boardai.jitref import call

@njit
def kernel(f, x):
    return call(f, x) + 1.0
"""

_RUN = """
import sys
import kernel, leaf
from boardai.jitref import ref
print(kernel.kernel(ref(leaf.value), 2.0), sum(kernel.kernel.stats.cache_hits.values()),
      sum(kernel.kernel.stats.cache_misses.values()))
"""


def _run(where: Path) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(where)}
    out = subprocess.run(
        [sys.executable, "-c", _RUN], cwd=where, env=env, capture_output=True, text=True,
        timeout=300, check=True,
    )  # fmt: skip
    return out.stdout.split()


def test_code_compiled_for_a_reference_is_cached_and_follows_its_source(tmp_path):
    """A second process loads the kernel compiled for the reference; a changed evaluator is a
    new reference, compiled afresh (not the stale cached code)."""
    (tmp_path / "kernel.py").write_text(textwrap.dedent(_KERNEL))
    leaf = "from boardai._jit import njit\n\n@njit\ndef value(x):\n    return x * {}\n"
    (tmp_path / "leaf.py").write_text(leaf.format(10.0))
    assert _run(tmp_path) == ["21.0", "0", "1"]
    assert _run(tmp_path) == ["21.0", "1", "0"]
    (tmp_path / "leaf.py").write_text(leaf.format(100.0))
    assert _run(tmp_path) == ["201.0", "0", "1"]


_SEARCHES = """
from boardai.g2048 import Game
from boardai.g2048.agents import REGISTRY
from boardai.g2048 import search as s2048
from boardai.othello import Board
from boardai.othello import search as sothello
from boardai.othello.agents import REGISTRY as OTHELLO

REGISTRY.make("expectimax:depth=2", seed=0).act(Game(seed=0).board)
OTHELLO.make("alphabeta:depth=3", seed=0).act(Board.initial())
for kernel in (s2048.search_root, sothello.search_root):
    print(sum(kernel.stats.cache_hits.values()), sum(kernel.stats.cache_misses.values()))
"""


def test_the_searches_load_from_the_cache():
    """Both games' searches compile once, then load in every later process (the Othello
    search has no mutual recursion: numba's cached code for that crashes when loaded)."""
    for _ in range(2):  # the first may compile, if no test did before
        out = subprocess.run(
            [sys.executable, "-c", _SEARCHES], capture_output=True, text=True, timeout=600
        )
        assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["1", "0", "1", "0"]


def _fileless(source: str) -> types.ModuleType:
    """A module with no source file (as in a REPL or notebook), holding ``source``."""
    module = types.ModuleType("fileless_evaluators")
    sys.modules[module.__name__] = module
    exec(compile(source, "<stdin>", "exec"), module.__dict__)
    return module


def test_a_function_without_a_file_is_named_by_its_code():
    """Typed into a notebook twice, the same code is the same reference (cached once); other
    code, or a changed helper it calls, is another (no stale code loaded)."""
    head = "from numba import njit\n"
    helper = "@njit\ndef helper(x):\n    return x * {}\n"
    leaf = "@njit\ndef value(x):\n    return helper(x) + 1.0\n"
    try:
        targets = []
        for factor in (2.0, 2.0, 3.0):
            module = _fileless(head + helper.format(factor) + leaf)
            r = ref(module.value)
            assert _one(r, 5.0) == 5.0 * factor + 1.0
            targets.append(r.numba_type.target)
        assert all(t.startswith("fileless_evaluators.value@code-") for t in targets)
        assert targets[0] == targets[1] != targets[2]
    finally:
        del sys.modules["fileless_evaluators"]
