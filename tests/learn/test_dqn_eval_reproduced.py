"""A DQN run's logged evaluation is reproducible: ``boardai 2048 eval`` of its saved model on
the same seed plays the same games and reports the same figures."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from boardai.cli import main
from boardai.g2048.train.dqn import EVAL_SEED

TINY = [
    "--net", "fc", "--planes", "12", "--hidden", "16", "--num-envs", "4", "--warmup", "32",
    "--batch-size", "16", "--eval-games", "5", "--eval-every", "0", "--replay-size", "2000",
]  # fmt: skip


def test_logged_evaluation_equals_eval_of_the_saved_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    assert main(["2048", "train", "dqn", "--steps", "300", "--out", str(out), *TINY]) == 0
    with open(out / "log.csv", newline="") as f:
        logged = [row for row in csv.DictReader(f) if row.get("eval_mean")][-1]
    seed = str(EVAL_SEED)
    spec = f"dqn:model={out / 'checkpoint.pt'}"
    args = ["2048", "eval", "--agent", spec, "--games", "5", "--seed", seed, "--workers", "1"]
    assert main([*args, "--json", str(tmp_path / "eval.json")]) == 0
    run = json.loads((tmp_path / "eval.json").read_text())
    scores = [g["score"] for g in run["results"]]
    assert float(logged["eval_mean"]) == round(sum(scores) / len(scores), 1)
    assert int(logged["eval_max_tile"]) == max(g["max_tile"] for g in run["results"])
    # and the trainer's own --evaluate, on the saved model, plays those same games
    capsys.readouterr()
    assert main(["2048", "train", "dqn", "--out", str(out), "--evaluate", "5", "--json"]) == 0
    evaluation = json.loads(capsys.readouterr().out)
    assert evaluation["mean"] == pytest.approx(sum(scores) / len(scores))
