"""Flags made from config dataclasses: every field is a flag with its default and help from
the dataclass (the command holds no second copy), and a bad value is one line, exit 2."""

from __future__ import annotations

import argparse
import dataclasses
from dataclasses import dataclass, field

import pytest

from boardai.cli import build_app, main
from boardai.cli._common import finite_float
from boardai.cli._flags import add_config_flags, config, flag_name, given
from boardai.errors import UsageError
from boardai.learn.run import field_default, field_docs


@dataclass
class Demo:
    steps: int = 10
    """Steps in all."""
    rate: float = 0.5
    """Learning rate, 100% at the start."""
    kind: str = field(default="a", metadata={"choices": ("a", "b")})
    """``a`` or ``b``."""
    fast: bool = False
    """Go fast."""
    learn: bool = True
    """Learn as it goes."""
    end: float | None = None
    """Last rate."""

    def __post_init__(self) -> None:
        if self.steps < 1:
            raise ValueError(f"steps must be >= 1, got {self.steps}")


def _actions(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    return {a.dest: a for a in parser._actions}


def test_every_field_becomes_a_flag_with_its_default_and_help() -> None:
    p = argparse.ArgumentParser()
    names = add_config_flags(p, Demo)
    assert names == [f.name for f in dataclasses.fields(Demo)]
    actions = _actions(p)
    assert actions["steps"].option_strings == ["--steps"] and actions["steps"].type is int
    assert actions["steps"].help == "steps in all (default: 10)"
    assert actions["rate"].help == "learning rate, 100%% at the start (default: 0.5)"
    assert actions["kind"].choices == ["a", "b"] and actions["kind"].help == "a or b (default: a)"
    assert actions["fast"].option_strings == ["--fast"]
    assert actions["learn"].option_strings == ["--no-learn"]
    assert actions["learn"].help == "turns this off (it is on by default): learn as it goes"
    assert actions["end"].type is finite_float and actions["end"].help == "last rate"
    assert all(actions[n].default is None for n in names)  # left out: the dataclass decides
    p.format_help()  # every help formats (a bare % would raise)
    assert given(p.parse_args([]), names) == {}
    args = p.parse_args(["--steps", "3", "--kind", "b", "--fast", "--no-learn", "--end", "1"])
    assert config(Demo, given(args, names)) == Demo(3, 0.5, "b", True, False, 1.0)
    assert config(Demo, given(p.parse_args(["--steps", "3"]), names)) == Demo(steps=3)


def test_value_style_bools_and_labels() -> None:
    p = argparse.ArgumentParser()
    names = add_config_flags(p, Demo, bools="value", default_label="fast", exclude=("end",))
    assert "end" not in names
    actions = _actions(p)
    assert actions["fast"].metavar == "BOOL" and actions["steps"].help.endswith("(fast: 10)")
    args = p.parse_args(["--fast", "yes", "--learn", "off"])
    assert given(args, names) == {"fast": True, "learn": False}
    with pytest.raises(SystemExit) as e:
        p.parse_args(["--fast", "maybe"])
    assert e.value.code == 2


def test_a_bad_value_is_one_usage_error() -> None:
    with pytest.raises(UsageError, match=r"^steps must be >= 1, got 0$"):
        config(Demo, {"steps": 0})
    with pytest.raises(UsageError, match=r"^Demo has no option 'bogus'"):
        config(Demo, {"bogus": 0})


COMMANDS = {
    "2048 train ntuple": ("boardai.g2048.train.ntuple_run", "NTupleRun", {"pool_size", "extra"}),
    "othello train ntuple": ("boardai.othello.train.ntuple_trainer", "NTupleConfig", set()),
    "othello train dqn": ("boardai.othello.train.dqn", "DQNConfig", set()),
    "2048 train dqn": ("boardai.g2048.train.dqn_run", "DQNRun", set()),
}


@pytest.mark.parametrize("command", COMMANDS)
def test_training_commands_take_their_flags_from_the_config(command: str) -> None:
    import importlib

    module, name, left_out = COMMANDS[command]
    cls = getattr(importlib.import_module(module), name)
    parser = build_app().find(command)
    parser.format_help()  # the flags are added when the command is first used
    actions = _actions(parser)
    docs = field_docs(cls)
    for f in dataclasses.fields(cls):
        if f.name in left_out:
            continue
        assert f.name in actions, f"{command}: no flag for {f.name}"
        a = actions[f.name]
        if f.name == "preset":  # a choice of its own, its default the config's
            if a.default is None:  # left out: the config's for a new run, a resumed run's own
                assert f"{field_default(f)}" in (a.help or "") and "the default" in a.help
            else:
                assert a.default == field_default(f)
            continue
        assert a.default is None  # no second copy of the default
        words = docs[f.name].removesuffix(".").split()[1:4]  # the text, first word aside
        assert " ".join(words) in " ".join((a.help or "").split()), (command, f.name)
        default = field_default(f)
        if default not in (None, "", (), False, True):
            assert f": {default})" in (a.help or ""), (command, f.name)
        spelled = [flag_name(f.name), "--no-" + f.name.replace("_", "-"), "--lambda"]
        assert set(a.option_strings) & set(spelled)


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["2048", "train", "ntuple", "--alpha", "-1"], "alpha must be a finite number > 0"),
        (
            ["2048", "train", "ntuple", "--checkpoint-minutes", "-1"],
            "checkpoint_minutes must be >= 0",
        ),
        (
            ["2048", "train", "ntuple", "--restart-at", "8"],
            "restart thresholds need a restart probability",
        ),
        (["othello", "train", "ntuple", "--alpha", "2"], "alpha must be in (0, 1], got 2.0"),
        (["othello", "train", "ntuple", "--stages", "99"], "stages must be in 1..30, got 99"),
        (["othello", "train", "dqn", "--gamma", "2"], "gamma must be in [0, 1]"),
        (["2048", "train", "dqn", "--loss", "l1"], "loss must be huber or mse"),
        (["2048", "train", "dqn", "--steps", "0"], "steps must be >= 1, got 0"),
    ],
)
def test_a_bad_value_on_the_command_line_is_one_line_and_exit_2(
    argv: list[str], says: str, tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / ("run" if argv[:3] == ["2048", "train", "dqn"] else "m.npz")
    assert main([*argv, "--out", str(out)]) == 2
    captured = capsys.readouterr()
    assert captured.err.strip() == f"boardai: error: {says}" or (
        captured.err.startswith("boardai: error: ") and says in captured.err
    )
    assert len(captured.err.strip().splitlines()) == 1 and captured.out == ""
    assert not out.exists()


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["othello", "train", "ntuple", "--alpha", "fast"], "--alpha: 'fast' is not a number"),
        # nan and inf pass every range check (nan > 0 is False, and so is nan <= 0)
        (["othello", "train", "ntuple", "--alpha", "nan"], "--alpha: 'nan' is not a finite"),
        (["2048", "train", "ntuple", "--optimistic", "nan"], "--optimistic: 'nan' is not a"),
        (["2048", "train", "ntuple", "--alpha", "inf"], "--alpha: 'inf' is not a finite"),
        (["2048", "train", "dqn", "--lr", "nan"], "--lr: 'nan' is not a finite number"),
        (["2048", "watch", "--delay", "nan"], "--delay: 'nan' is not a finite number"),
        (["2048", "watch", "--delay", "-1"], "--delay: -1.0 is not >= 0"),
        (["replay", "--delay", "inf", "x.jsonl"], "--delay: 'inf' is not a finite number"),
        (["othello", "solve", "--time", "nan", "x.obf"], "--time: 'nan' is not a finite"),
        (["othello", "solve", "--time", "0", "x.obf"], "--time: 0.0 is not > 0"),
        (["models", "fetch", "2048-dqn", "--timeout", "nan"], "--timeout: 'nan' is not a"),
        (["2048", "bench", "search", "--prob-cut", "nan"], "--prob-cut: nan is not in [0, 1]"),
        (["2048", "bench", "ntuple", "--prob-cut", "nan"], "--prob-cut: nan is not in [0, 1]"),
    ],
)
def test_a_value_of_the_wrong_type_is_argparses_exit_2(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    if "train" in argv:
        argv = [*argv, "--out", "x.npz"]
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and f"argument {says}" in err.splitlines()[-1]


def test_building_the_command_tree_imports_no_trainer() -> None:
    """The config flags are added when a command is used, so ``boardai --help`` loads
    neither a trainer nor the Othello engine."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = (  # (boardai.train itself holds only the sweep's trial limit, for --help)
        "import sys; from boardai.cli import build_app; build_app(); "
        "print(sorted(m for m in sys.modules if '.train' in m and 'cli' not in m "
        "and m != 'boardai.train' or m == 'boardai.othello'))"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2] / "src")}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert out.stdout.strip() == "[]"
