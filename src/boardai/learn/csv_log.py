"""A training run's report rows in a CSV file, for both games' trainers and the sweep's trials.

The first column counts the run's progress (episodes, games, steps: whatever the trainer
counts), so a resumed run can drop the rows written past the checkpoint it goes on from
(:func:`keep_rows`) and append its own.
"""

from __future__ import annotations

import csv
import os
from pathlib import Path
from typing import Any

from boardai.atomic import atomic_write


class CsvLog:
    """Report rows appended to a CSV file (header once); ``rows`` holds those already there."""

    def __init__(self, path: str | os.PathLike[str], append: bool = False) -> None:
        self.path = Path(path)
        self.rows: list[dict[str, Any]] = []
        self.fields: list[str] = []
        if append and self.path.is_file():
            with self.path.open(newline="", encoding="utf-8") as f:
                reader = csv.DictReader(f)
                self.rows = [{k: _number(v) for k, v in r.items()} for r in reader]
                self.fields = list(reader.fieldnames or [])
        elif self.path.exists():
            self.path.unlink()

    def write(self, row: dict[str, Any]) -> None:
        """Append one row (and the header first if the file is new; a file written by an
        older version keeps its columns)."""
        new = not self.path.is_file()
        if new or not self.fields:
            self.fields = list(row)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, fieldnames=self.fields, extrasaction="ignore")
            if new:
                w.writeheader()
            w.writerow(row)


def _number(text: str | None) -> float | str | None:
    """A CSV cell as a number, or as it is where it is not one (a file of another program)."""
    try:
        return float(text) if text is not None else None
    except ValueError:
        return text


def _past(line: str, done: float) -> bool:
    """Whether a CSV line counts past ``done`` (a line that does not start with a count is
    kept)."""
    first = next(csv.reader([line]), [""])
    count = _number(first[0]) if first else None
    return isinstance(count, float) and count > done


def keep_rows(path: str | os.PathLike[str], done: float) -> None:
    """Drop the rows of the CSV at ``path`` past ``done`` (its first column), keeping the
    others as they are written."""
    p = Path(path)
    try:
        lines = p.read_text(encoding="utf-8").splitlines(keepends=True)
    except FileNotFoundError:
        return
    kept = lines[:1] + [ln for ln in lines[1:] if not _past(ln, done)]
    if len(kept) < len(lines):
        with atomic_write(p, "w", encoding="utf-8", newline="") as f:
            f.write("".join(kept))
