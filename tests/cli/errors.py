"""What the command-line tests read off stderr."""

from __future__ import annotations

import pytest


def one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    """The one ``boardai: error: ...`` line a command printed (no traceback)."""
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.startswith("boardai: error: ")]
    assert len(lines) == 1, err
    return lines[0]
