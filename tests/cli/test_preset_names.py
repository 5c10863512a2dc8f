"""Presets and option values are named for what they are; the source write-ups' numbers
(seed000, ...) still read as hidden aliases: accepted everywhere, listed nowhere."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardai.cli import App, build_app

DQN_2048 = ["2048", "train", "dqn"]
DQN_OTHELLO = ["othello", "train", "dqn", "--out", "run.pt"]
#: (command, old name, new name)
ALIASES = [
    (DQN_2048, "seed000", "action-cnn"),
    (DQN_2048, "seed001", "lookahead-mlp"),
    (DQN_2048, "seed003", "shaped-conv"),
    (DQN_OTHELLO, "seed002", "fc64"),
]


@pytest.fixture(scope="module")
def app() -> App:
    return build_app()


@pytest.mark.parametrize(("argv", "old", "new"), ALIASES)
def test_a_preset_parses_by_its_name_and_by_its_old_one(
    app: App, argv: list[str], old: str, new: str
) -> None:
    assert app.parser.parse_args([*argv, "--preset", new]).preset == new
    assert app.parser.parse_args([*argv, "--preset", old]).preset == new


@pytest.mark.parametrize("argv", [DQN_2048, DQN_OTHELLO])
def test_help_and_errors_list_the_new_names_only(
    app: App, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    news = [new for command, _, new in ALIASES if command == argv]
    with pytest.raises(SystemExit):
        app.parser.parse_args([*argv, "--help"])
    shown = capsys.readouterr().out
    assert all(new in shown for new in news)
    assert "seed00" not in shown and "seed 00" not in shown
    with pytest.raises(SystemExit):
        app.parser.parse_args([*argv, "--preset", "nope"])
    err = capsys.readouterr().err
    assert "'nope'" in err and all(new in err for new in news)
    assert "seed00" not in err


def test_the_2048_presets_are_the_same_configs_by_either_name() -> None:
    pytest.importorskip("torch")
    from boardai.g2048.train.dqn import PRESET_ALIASES, PRESETS, DQNConfig, preset_config
    from boardai.g2048.train.dqn_run import preset_run

    assert set(PRESET_ALIASES.values()) <= set(PRESETS)
    assert not set(PRESET_ALIASES) & set(PRESETS)
    for old, new in PRESET_ALIASES.items():
        assert preset_config(old) == preset_config(new)
        assert preset_run(old, steps=10**6) == preset_run(new, steps=10**6)
    assert preset_config("action-cnn").net == "action-cnn"
    assert preset_config("action-cnn").fit_mode == "episodes"
    old = DQNConfig(net="seed000", fit_mode="seed000")  # as a checkpoint may hold them
    assert (old.net, old.fit_mode) == ("action-cnn", "episodes")
    with pytest.raises(ValueError, match="unknown preset 'seed004'"):
        preset_config("seed004")


def test_the_othello_preset_is_the_same_config_by_either_name() -> None:
    from boardai.othello.train.dqn import DQNConfig, preset_config

    assert preset_config("seed002") == preset_config("fc64")
    assert preset_config("seed002").preset == "fc64"
    assert DQNConfig(preset="seed002").preset == "fc64"  # a checkpoint's saved config


def test_a_checkpoint_saved_under_the_old_names_loads_and_resumes(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from boardai.g2048.agents import make_agent
    from boardai.g2048.board import Board
    from boardai.g2048.qnet import load_checkpoint, load_qnet
    from boardai.g2048.qnetworks import ActionInputQNet
    from boardai.g2048.train.dqn import DQNTrainer, preset_config
    from boardai.g2048.train.dqn_run import resumed_config
    from boardai.learn import torch_file

    cfg = preset_config("action-cnn", episodes_per_fit=2, eval_games=2, warmup=50)
    path = tmp_path / "checkpoint.pt"
    DQNTrainer(cfg, tmp_path).save(path)
    state = load_checkpoint(path)
    assert state["net_name"] == "action-cnn"
    state["net_name"] = state["config"]["net"] = state["config"]["fit_mode"] = "seed000"
    with path.open("wb") as f:
        torch_file.save(state, f)
    net, _ = load_qnet(path)
    assert isinstance(net, ActionInputQNet)
    config = resumed_config(path, steps=10**6)
    assert (config.net, config.fit_mode) == ("action-cnn", "episodes")
    board = Board.from_grid([[2, 2, 0, 0], [0, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 8]])
    assert make_agent(f"dqn:model={path}").act(board) in board.legal_actions()
