"""One vocabulary for both games' DQN hyperparameters: the Othello DQN's older names
(``--batch``, ``--start``, ``--huber``, ...) still work, on the command line (unlisted) and in
saved runs, and give the very same training as today's names."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")

from boardai.cli import build_app, main  # noqa: E402
from boardai.learn import torch_file  # noqa: E402
from boardai.learn.dqn import DQNHyperparameters, write_checkpoint  # noqa: E402
from boardai.othello.train.dqn import OLDER_NAMES, preset_config, resumed_config  # noqa: E402

MODELS = Path(__file__).resolve().parents[2] / "models"
SMALL = ["--games", "4", "--parallel", "2", "--hidden", "8", "--eval-games", "2"]
#: The same settings, each spelled the older way and today's.
OLDER = ["--batch", "8", "--replay", "400", "--start", "16", "--epsilon-start", "0.5"]
OLDER += ["--epsilon-end", "0.05", "--epsilon-decay", "3", "--target-every", "5"]
OLDER += ["--huber", "true", "--symmetries", "true"]
TODAYS = ["--batch-size", "8", "--replay-size", "400", "--warmup", "16", "--eps-start", "0.5"]
TODAYS += ["--eps-end", "0.05", "--eps-decay-games", "3", "--target-period", "5"]
TODAYS += ["--loss", "huber", "--augment", "true"]


def _run(path: Path) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    """(weights, config, evaluations without their times) of a saved run."""
    data = torch_file.load(path, path)
    evals = [{k: v for k, v in e.items() if k != "seconds"} for e in data["meta"]["evals"]]
    return data["state"], data["config"], evals


def _same_weights(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


def test_both_dqns_share_their_common_hyperparameters() -> None:
    from boardai.g2048.train.dqn import DQNConfig as Config2048
    from boardai.othello.train.dqn import DQNConfig as ConfigOthello

    shared = {f.name for f in dataclasses.fields(DQNHyperparameters)}
    for cls in (Config2048, ConfigOthello):
        assert issubclass(cls, DQNHyperparameters)
        assert shared <= {f.name for f in dataclasses.fields(cls)}
    assert set(OLDER_NAMES.values()) <= shared | {"eps_decay_games"}


def test_older_spellings_train_the_same_network_and_are_not_listed(tmp_path: Path) -> None:
    older, todays = tmp_path / "older.pt", tmp_path / "todays.pt"
    assert main(["othello", "train", "dqn", "--out", str(older), *SMALL, *OLDER]) == 0
    assert main(["othello", "train", "dqn", "--out", str(todays), *SMALL, *TODAYS]) == 0
    (w1, c1, e1), (w2, c2, e2) = _run(older), _run(todays)
    assert c1 == c2 and e1 == e2 and _same_weights(w1, w2)
    picked = {k: c1[k] for k in ("batch_size", "loss", "augment", "eps_decay_games")}
    assert picked == {"batch_size": 8, "loss": "huber", "augment": True, "eps_decay_games": 3}
    assert not set(OLDER_NAMES) & set(c1)  # a new run saves today's names only
    shown = build_app().find("othello train dqn").format_help()
    flags = [f for f in OLDER if f.startswith("--")]
    assert all(f"{f} " in shown for f in TODAYS if f.startswith("--"))
    assert not [f for f in flags if f"{f} " in shown or f"{f}," in shown]


def test_the_shipped_run_under_its_older_names_reads_as_the_strong_preset() -> None:
    _, saved, _ = _run(MODELS / "othello-dqn.pt")
    assert {"batch", "start", "huber", "symmetries"} <= saved.keys()  # written before the rename
    assert resumed_config(MODELS / "othello-dqn.pt") == preset_config("strong")


def test_a_run_saved_under_older_names_goes_on_as_under_todays(tmp_path: Path) -> None:
    first = tmp_path / "todays.pt"
    assert main(["othello", "train", "dqn", "--out", str(first), *SMALL, *TODAYS]) == 0
    older = tmp_path / "older.pt"
    shutil.copy(first, older)
    data = torch_file.load(older, older)
    back = {v: k for k, v in OLDER_NAMES.items()}
    data["config"] = {back.get(k, k): v for k, v in data["config"].items()}
    data["config"]["huber"] = data["config"]["huber"] == "huber"
    write_checkpoint(older, data)
    for path in (first, older):
        assert (
            main(["othello", "train", "dqn", "--out", str(path), "--resume", "--games", "6"]) == 0
        )
    (w1, c1, e1), (w2, c2, e2) = _run(first), _run(older)
    assert c1 == c2 and e1 == e2 and _same_weights(w1, w2) and len(e1) == 2
