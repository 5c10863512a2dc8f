"""The web app imports every module that adds to numba's typing registries before it serves
(:data:`boardai.ui.web.app.NUMBA_EXTENSIONS`): the list must name all of them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

SRC = Path(__file__).resolve().parents[2] / "src"
REGISTERS = re.compile(
    r"@overload\(|^\s*register_constant\(|typeof_impl\.register|intrinsic\(|register_model\(",
    re.M,
)


def test_every_module_that_extends_numba_is_imported_before_requests() -> None:
    from boardai.ui.web.app import NUMBA_EXTENSIONS

    found = {
        ".".join(f.relative_to(SRC).with_suffix("").parts)
        for f in (SRC / "boardai").rglob("*.py")
        if REGISTERS.search(f.read_text(encoding="utf-8"))
    }
    assert found == set(NUMBA_EXTENSIONS)
