"""A training run's CSV rows: appended across resumes, trimmed back to the checkpoint a resumed
run goes on from, and a file of another program's cells read without a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardai.learn.csv_log import CsvLog, keep_rows


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 10**6), max_size=12), st.integers(0, 10**6))
def test_keep_rows_drops_exactly_the_rows_past_the_count(
    tmp_path_factory: pytest.TempPathFactory, counts: list[int], done: int
) -> None:
    path = tmp_path_factory.mktemp("csv") / "log.csv"
    log = CsvLog(path)
    for k, c in enumerate(counts):
        log.write({"done": c, "score": k / 2})
    keep_rows(path, done)
    again = CsvLog(path, append=True)
    assert [r["done"] for r in again.rows] == [float(c) for c in counts if c <= done]


def test_cells_that_are_not_numbers_stay_as_they_are(tmp_path: Path) -> None:
    path = tmp_path / "other.csv"
    path.write_text("when,score\nmonday,1\n300,2\n,3\n")
    keep_rows(path, 100)  # the rows without a count are kept; 300 is past 100
    assert path.read_text() == "when,score\nmonday,1\n,3\n"
    log = CsvLog(path, append=True)
    assert log.rows == [{"when": "monday", "score": 1.0}, {"when": "", "score": 3.0}]
