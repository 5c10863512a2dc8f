"""The Othello trainers' reports: an evaluation row per match against wpc in a CSV file that a
resumed run goes on appending to, and the learning curve drawn from those rows."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import pytest

from boardai.cli import main
from boardai.othello.train.report import EvalLog, standard_error

TRAIN = ["othello", "train", "ntuple", "--tuples", "small", "--eval-games", "20"]


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_the_standard_error_is_read_under_either_trainers_name() -> None:
    assert standard_error({"se": 0.02}) == 0.02
    assert standard_error({"se_vs_wpc": 0.03}) == 0.03
    assert math.isnan(standard_error({"score_vs_wpc": 0.5}))


def test_a_resumed_log_drops_the_rows_past_its_checkpoint(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    first = EvalLog(path, resume=False)
    first.start(0)
    for done in (100, 200, 300):  # the run's file was saved at 200, then it stopped
        first.add(done, {"score_vs_wpc": done / 1000, "se": 0.01})
    again = EvalLog(path, resume=True)
    again.start(200)
    again.add(300, {"score_vs_wpc": 0.9, "se": 0.01})
    assert [r["done"] for r in again.rows] == [100.0, 200.0, 300]
    assert [(r["done"], r["score_vs_wpc"]) for r in _rows(path)] == [
        ("100", "0.1"),
        ("200", "0.2"),
        ("300", "0.9"),
    ]
    fresh = EvalLog(path, resume=True)  # --resume of a run not there yet: a new file
    fresh.start(0)
    assert fresh.rows == [] and not path.exists()
    nothing = EvalLog(None, resume=True)  # no --csv: the rows of this run only
    nothing.start(300)
    nothing.add(400, {"score_vs_wpc": 0.5})
    assert nothing.rows == [{"done": 400, "score_vs_wpc": 0.5}]


def test_train_ntuple_writes_its_evaluations_and_curve(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    from PIL import Image

    out, table, png = tmp_path / "o.npz", tmp_path / "o.csv", tmp_path / "o.png"
    files = ["--out", str(out), "--csv", str(table), "--plot", str(png)]
    assert main([*TRAIN, "--episodes", "400", "--eval-every", "200", *files]) == 0
    assert [r["done"] for r in _rows(table)] == ["200", "400"]
    assert main([*TRAIN, "--episodes", "600", "--eval-every", "200", *files, "--resume"]) == 0
    rows = _rows(table)
    assert [r["done"] for r in rows] == ["200", "400", "600"]
    assert all(0 <= float(r["score_vs_wpc"]) <= 1 and float(r["games"]) == 20 for r in rows)
    with Image.open(png) as image:
        assert image.format == "PNG" and image.size == (800, 450)
    assert f"wrote {png}" in " ".join(capsys.readouterr().out.split())


def test_train_dqn_writes_its_evaluations(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    table = tmp_path / "d.csv"
    argv = ["othello", "train", "dqn", "--out", str(tmp_path / "d.pt"), "--games", "20"]
    assert main([*argv, "--eval-every", "10", "--eval-games", "4", "--csv", str(table)]) == 0
    rows = _rows(table)
    assert [r["done"] for r in rows] == ["10", "20"]
    assert all(float(r["se_vs_wpc"]) >= 0 and "win_rate_vs_random" in r for r in rows)
