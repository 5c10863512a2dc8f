"""A command's ``--json`` file without its timings, which differ between any two runs."""

from __future__ import annotations

import json
from collections.abc import Collection
from pathlib import Path
from typing import Any

TIMINGS = frozenset(
    {"seconds", "cpu_seconds", "moves_per_s", "cpu_ms_per_move", "moves_per_second"}
)
#: What also differs between a run on Ray and a local one.
RAY_TIMINGS = TIMINGS | {"workers"}


def untimed(path: Path, timings: Collection[str] = TIMINGS) -> Any:
    """The JSON at ``path`` with every key in ``timings`` dropped, at any depth."""

    def strip(x: Any) -> Any:
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k not in timings}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x

    return strip(json.loads(path.read_text()))
