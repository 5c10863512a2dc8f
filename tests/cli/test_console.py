"""The commands' console when the output is not a terminal (a pipe, a log file)."""

from __future__ import annotations

import pytest

from boardai.cli._common import console


def test_long_lines_stay_whole_in_a_log(capsys: pytest.CaptureFixture[str]) -> None:
    """Rich would break a line at 80 columns; in a log it stays one line, grep finds it."""
    line = "  ".join(f"field{i} = {i:,}" for i in range(40))
    assert len(line) > 200
    out = console()
    assert not out.is_terminal
    out.print(line)
    assert capsys.readouterr().out == line + "\n"


def test_a_terminal_still_wraps_at_its_width(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")  # rich: as if writing to a terminal
    monkeypatch.setenv("COLUMNS", "40")
    out = console()
    assert out.is_terminal
    with out.capture() as cap:
        out.print("word " * 20)
    lines = cap.get().splitlines()
    assert len(lines) == 3 and max(len(x) for x in lines) <= 40
