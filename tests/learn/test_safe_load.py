"""Model files hold data, never code: a crafted torch file runs nothing and is one clear error."""

from __future__ import annotations

import io
import os
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from boardai.cli import main  # noqa: E402
from boardai.errors import ModelFileError  # noqa: E402
from boardai.learn import torch_file  # noqa: E402


class _Payload:
    """Unpickling this makes a directory: the proof that loading ran code."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (os.mkdir, (str(self.marker),))


def _evil_checkpoint(path: Path, marker: Path, fmt: str) -> Path:
    """A torch file that looks like a boardai checkpoint and runs code when unpickled."""
    torch.save({"format": fmt, "version": 1, "payload": _Payload(marker)}, path)
    return path


@pytest.mark.parametrize("fmt", ["boardai-dqn-2048", "nothing"])
def test_the_2048_player_and_trainer_run_no_code(tmp_path: Path, fmt: str) -> None:
    from boardai.g2048.agents import make_agent
    from boardai.g2048.qnet import load_checkpoint

    marker = tmp_path / "ran"
    evil = _evil_checkpoint(tmp_path / "evil.pt", marker, fmt)
    with pytest.raises(ModelFileError, match=r"evil\.pt: holds more than plain data") as e:
        make_agent(f"dqn:model={evil}")
    assert "\n" not in str(e.value) and "mkdir" in str(e.value)
    with pytest.raises(ModelFileError, match=r"evil\.pt"):
        load_checkpoint(evil)
    assert not marker.exists()


def test_the_othello_player_runs_no_code(tmp_path: Path) -> None:
    from boardai.othello.agents import make_agent

    marker = tmp_path / "ran"
    evil = _evil_checkpoint(tmp_path / "evil.pt", marker, "boardai-othello-dqn")
    with pytest.raises(ModelFileError, match=r"evil\.pt: holds more than plain data"):
        make_agent(f"dqn:model={evil}")
    assert not marker.exists()


@pytest.mark.parametrize(
    "argv",
    [
        ["2048", "eval", "--agent", "dqn:model={}", "--games", "1", "--workers", "1"],
        ["2048", "eval", "--agent", "dqn:model={}", "--games", "2", "--workers", "2"],
        ["othello", "match", "--black", "dqn:model={}", "--white", "random", "--workers", "2"],
        ["2048", "train", "dqn", "--evaluate", "1", "--out", "{dir}"],
        ["2048", "train", "dqn", "--resume", "--steps", "1", "--out", "{dir}"],
    ],
)
def test_the_command_line_runs_no_code_and_says_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    marker = tmp_path / "ran"
    evil = _evil_checkpoint(tmp_path / "evil.pt", marker, "boardai-dqn-2048")
    for name in ("best.pt", "checkpoint.pt"):  # what train dqn reads from its --out folder
        _evil_checkpoint(tmp_path / name, marker, "boardai-dqn-2048")
    assert main([a.format(evil, dir=tmp_path) for a in argv]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("boardai: error: ") and "holds more than plain data" in err
    assert len(err.splitlines()) == 1
    assert not marker.exists()


def test_plain_data_round_trips_and_needs_no_allow_list() -> None:
    data = {
        "boards": np.arange(6, dtype=np.uint64).reshape(3, 2),
        "mask": np.array([True, False]),
        "counts": np.zeros(4, np.int64),
        "best": np.float64(1.5),
        "rows": [{"n": np.int64(3)}],
        "pair": (1, "a"),
    }
    buf = io.BytesIO()
    torch_file.save(data, buf)
    buf.seek(0)
    back = torch.load(buf, map_location="cpu", weights_only=True)  # no allow-list at all
    assert np.asarray(back["boards"]).dtype == np.uint64
    assert np.array_equal(np.asarray(back["boards"]), data["boards"])
    assert np.asarray(back["mask"]).tolist() == [True, False]
    assert back["best"] == 1.5 and type(back["best"]) is float
    assert back["rows"] == [{"n": 3}] and back["pair"] == (1, "a")


def test_files_of_older_versions_with_numpy_arrays_still_load() -> None:
    buf = io.BytesIO()
    torch.save({"counts": np.arange(4, dtype=np.int64), "x": np.float32(2.0)}, buf)
    buf.seek(0)
    back = torch_file.load(buf, "old.pt")
    assert back["counts"].tolist() == [0, 1, 2, 3] and back["x"] == 2.0


def test_a_damaged_file_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pt"
    bad.write_bytes(b"\x80\x04not really")
    with pytest.raises(ModelFileError, match=r"bad\.pt: not a readable torch file"):
        torch_file.load(bad, bad)
