"""Package-level promises: a cheap import, one place for numba options, typed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import boardai


def test_import_is_light() -> None:
    code = "import sys, boardai; print(sorted(m for m in ('torch', 'numba') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_numba_options_live_in_one_module() -> None:
    src = Path(boardai.__file__).parent
    offenders = [
        p.relative_to(src).as_posix()
        for p in src.rglob("*.py")
        if p.name != "_jit.py" and ("numba.njit" in p.read_text() or "@jit(" in p.read_text())
    ]
    assert offenders == []


def test_typed_marker() -> None:
    assert (Path(boardai.__file__).parent / "py.typed").exists()
