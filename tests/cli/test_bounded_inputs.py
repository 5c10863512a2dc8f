"""A file a user names is read within a size bound, and JSON within a nesting bound: ``boardai
replay /dev/zero`` read until MemoryError (5 GB on), a record nested 100,000 deep ended in a
RecursionError's traceback. Each is one line and exit code 2 now."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardai.cli import main
from boardai.errors import MIB, UsageError, read_limited

#: Small limits, so that the endless /dev/zero is refused after a few bytes, not hundreds of MB.
LIMITS = [
    ("boardai.records.MAX_RECORD_BYTES", "a record file"),
    ("boardai.arena.journal.MAX_JOURNAL_BYTES", "a journal"),
    ("boardai.cli.othello._positions.MAX_POSITION_BYTES", "a position file"),
    ("boardai.train.plan.MAX_PLAN_BYTES", "a sweep file"),
]


@pytest.fixture
def small_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, _ in LIMITS:
        monkeypatch.setattr(name, 4096)


def _one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    out, err = capsys.readouterr()
    assert "Traceback" not in err and out == ""
    assert err.startswith("boardai: error: ") and err.count("\n") == 1, err
    return err.strip()


@pytest.mark.parametrize(
    ("argv", "what"),
    [
        (["replay", "/dev/zero"], "a record file"),
        (["render", "/dev/zero", "--png", "{tmp}/x.png"], "a record file"),
        (["journal", "show", "/dev/zero"], "a journal"),
        (["othello", "solve", "/dev/zero"], "a position file"),
        (["sweep", "/dev/zero", "--out", "{tmp}/sw"], "a sweep file"),
        (["2048", "eval", "--agent", "random", "--games", "1", "--resume", "/dev/zero"], "journal"),
        (["2048", "compare", "--from", "/dev/zero"], "an arena result file"),
    ],
)
def test_an_endless_file_is_one_line(
    argv: list[str],
    what: str,
    tmp_path: Path,
    small_limits: None,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if argv[0] == "render":
        pytest.importorskip("PIL")
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    assert main(argv) == 2
    line = _one_error_line(capsys)
    assert "/dev/zero: more than the 4,096 bytes boardai reads as a" in line and what in line


@pytest.mark.parametrize(
    ("argv", "name", "what"),
    [
        (["replay", "{file}"], "games.jsonl", "a record file"),
        (["journal", "show", "{file}"], "j.jsonl", "a journal"),
        (["othello", "solve", "{file}"], "p.obf", "a position file"),
        (["sweep", "{file}", "--out", "{tmp}/sw"], "s.toml", "a sweep file"),
    ],
)
def test_a_file_past_its_limit_is_refused_by_its_size(
    argv: list[str],
    name: str,
    what: str,
    tmp_path: Path,
    small_limits: None,
    capsys: pytest.CaptureFixture[str],
) -> None:
    big = tmp_path / name
    big.write_bytes(b"\n" * (3 * MIB))
    argv = [a.replace("{file}", str(big)).replace("{tmp}", str(tmp_path)) for a in argv]
    assert main(argv) == 2
    line = _one_error_line(capsys)
    assert f"{big}: 3 MiB, more than the 4,096 bytes boardai reads as {what}" in line


def test_the_real_limits_are_generous() -> None:
    from boardai.arena.journal import MAX_JOURNAL_BYTES
    from boardai.cli.othello._positions import MAX_POSITION_BYTES
    from boardai.records import MAX_RECORD_BYTES
    from boardai.train.plan import MAX_PLAN_BYTES

    assert MAX_RECORD_BYTES >= 256 * MIB and MAX_JOURNAL_BYTES >= MAX_RECORD_BYTES
    assert MAX_POSITION_BYTES >= MIB and MAX_PLAN_BYTES >= MIB


def test_read_limited_reads_up_to_its_limit(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"x" * 100)
    assert read_limited(path, 100) == b"x" * 100
    with pytest.raises(UsageError, match=r"f: 100 bytes, more than the 99 bytes boardai reads as"):
        read_limited(path, 99)
    assert read_limited("/dev/null", 10) == b""
    with pytest.raises(UsageError, match=r"^/dev/zero: more than"):
        read_limited("/dev/zero", 3 * MIB)  # more than one read's worth
    with pytest.raises(FileNotFoundError):
        read_limited(tmp_path / "missing", 10)


DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(
    ("argv", "text", "says"),
    [
        (["replay", "{file}"], DEEP, "{file}:1: not a game record (JSON nested too deep)"),
        (
            ["replay", "{file}"],
            '{"game": "2048", "x": ' + DEEP + "}\n" + DEEP,
            "{file}:1: not a game record (JSON nested too deep)",
        ),
        (["journal", "show", "{file}"], DEEP + "\n", "{file} is not a journal"),
        (["sweep", "{file}", "--out", "{tmp}/sw"], "a = " + DEEP, "nested too deep"),
    ],
)
def test_json_nested_past_reason_is_one_line(
    argv: list[str], text: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deep.json"
    path.write_text(text)
    argv = [a.replace("{file}", str(path)).replace("{tmp}", str(tmp_path)) for a in argv]
    assert main(argv) == 2
    assert says.replace("{file}", str(path)) in _one_error_line(capsys)
