"""A command's ``--json`` file without its timings, which differ between any two runs."""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

TIMINGS = frozenset(
    {"seconds", "cpu_seconds", "moves_per_s", "cpu_ms_per_move", "moves_per_second"}
    | {f"{p}_{k}" for p in "ab" for k in ("seconds", "slowest", "seconds_a_move")}
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


def untimed_outcomes(outcomes: Sequence[Any]) -> list[Any]:
    """A match's game outcomes with the players' thinking times zeroed."""
    zero = {f"{p}_{k}": 0.0 for p in "ab" for k in ("seconds", "slowest")}
    return [replace(o, **zero) for o in outcomes]
