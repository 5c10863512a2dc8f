"""The shape of a training run: every learner's config builds from a plain dict (a sweep's
input) with one-line errors, and ``train(config, out)`` reports progress, stops when asked
(saving) and returns a summary of the same shape."""

from __future__ import annotations

import dataclasses
import inspect
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from boardai.learn.run import Progress, config_from_dict, field_docs

TINY = "0123,4567,0145"


@dataclass
class Demo:
    steps: int = 10
    """Steps in all."""
    rate: float = 0.5
    """Learning rate."""
    name: str = "x"
    end: float | None = None
    fast: bool = False


def test_config_from_dict_checks_keys_and_types() -> None:
    assert config_from_dict(Demo, {"steps": 3, "rate": 1, "end": 2}) == Demo(3, 1.0, end=2.0)
    assert config_from_dict(Demo, {"end": None}).end is None
    for values, says in [
        ({"stpes": 3}, "Demo has no option 'stpes' (options: steps, rate, name, end, fast)"),
        ({"steps": "3"}, "Demo option 'steps' must be int, got '3'"),
        ({"steps": 2.5}, "Demo option 'steps' must be int, got 2.5"),
        ({"steps": True}, "Demo option 'steps' must be int, got True"),
        ({"rate": "fast"}, "Demo option 'rate' must be float, got 'fast'"),
        ({"fast": 1}, "Demo option 'fast' must be bool, got 1"),
        ({"end": "x"}, "Demo option 'end' must be float or None, got 'x'"),
    ]:
        with pytest.raises(ValueError) as e:
            config_from_dict(Demo, values)
        assert str(e.value) == says


def test_field_docs_read_each_fields_docstring_and_the_base_classes() -> None:
    from boardai.g2048.train.ntuple_run import NTupleRun

    assert field_docs(Demo) == {"steps": "Steps in all.", "rate": "Learning rate."}
    docs = field_docs(NTupleRun)
    assert docs["alpha"].startswith("Learning rate")  # from TrainConfig
    assert docs["episodes"].startswith("Total episodes")  # from NTupleRun


@pytest.mark.parametrize(
    "source",
    [
        '"""A module\'s docstring, not the class."""\n',  # Python 3.13, a class made in a doctest
        'class Other:\n    rate: float = 1.0\n    """Not these."""\n',
        "def broken(:\n",
    ],
)
def test_field_docs_of_source_that_is_not_the_class_s_are_left_out(monkeypatch, source) -> None:
    @dataclass
    class Demo:
        steps: int = field(default=10, metadata={"help": "Given."})
        rate: float = 0.5

    monkeypatch.setattr(inspect, "getsource", lambda obj: source)
    assert field_docs(Demo) == {"steps": "Given."}


def _configs() -> list[tuple[type, dict[str, Any], dict[str, Any]]]:
    """(config class, a good dict, a dict with one bad value) for every learner."""
    from boardai.g2048.train.dqn_run import DQNRun
    from boardai.g2048.train.ntuple_run import NTupleRun
    from boardai.othello.train.dqn import DQNConfig
    from boardai.othello.train.ntuple_trainer import NTupleConfig

    return [
        (NTupleRun, {"patterns": TINY, "episodes": 50, "stages": "8"}, {"alpha": -1.0}),
        (DQNRun, {"net": "fc", "steps": 10_000}, {"loss": "l1"}),
        (NTupleConfig, {"tuples": "small", "episodes": 100}, {"alpha": 2.0}),
        (DQNConfig, {"net": "mlp", "games": 10}, {"optimizer": "sgd"}),
    ]


@pytest.mark.parametrize(
    ("cls", "good", "bad"), _configs(), ids=lambda x: getattr(x, "__name__", "")
)
def test_every_learners_config_builds_from_a_dict(cls: type, good: dict, bad: dict) -> None:
    config = config_from_dict(cls, good)
    for key, value in good.items():
        if key != "stages" or cls.__name__ != "NTupleRun":
            assert getattr(config, key) == value
    for values in ({**good, **bad}, {**good, "no_such_option": 1}):
        with pytest.raises(ValueError) as e:
            config_from_dict(cls, values)
        assert "\n" not in str(e.value) and str(e.value)
    # nan and inf (a TOML sweep may hold either) pass range checks written as a < x
    floats = [f.name for f in dataclasses.fields(cls) if "float" in str(f.type)]
    assert floats
    for name in floats:
        for value in (math.nan, math.inf, -math.inf):
            with pytest.raises(ValueError, match=f"'{name}' must be a finite number"):
                config_from_dict(cls, {**good, name: value})


def _events(events: list[Progress]) -> None:
    """The common event order: one start, then steps whose ``done`` never goes back."""
    assert events[0].kind == "start" and all(e.kind == "step" for e in events[1:])
    done = [e.done for e in events]
    assert done == sorted(done) and events[-1].done >= events[-1].total


def test_2048_ntuple_run_from_a_dict(tmp_path: Path) -> None:
    from boardai.g2048.train.ntuple_run import NTupleRun, train
    from boardai.g2048.train.trainer import Trainer

    config = config_from_dict(NTupleRun, {"patterns": TINY, "episodes": 300, "report_every": 100})
    events: list[Progress] = []
    summary = train(config, tmp_path / "m.npz", on_progress=events.append)
    _events(events)
    assert [e.stats["episode"] for e in events if e.stats] == [100, 200, 300]
    assert summary["unit"] == "episodes" and summary["done"] == 300
    assert not summary["interrupted"] and summary["last"]["episode"] == 300
    # the same as training the network directly
    direct = Trainer(config.learning())
    direct.train(300)
    saved = Trainer.load(tmp_path / "m.npz")
    assert np.array_equal(saved.network.weights, direct.network.weights)
    assert saved.config == config.learning()


@pytest.mark.parametrize(
    ("every", "minutes", "saves"),
    [
        (0, 0.0, False),  # only at the end
        (0, 1e-9, True),  # by time: every step, a moment later
        (50, 0.0, True),  # by count
        (0, 60.0, False),  # an hour between saves: none in a short run
    ],
)
def test_2048_ntuple_run_saves_by_time_or_count(
    tmp_path: Path, every: int, minutes: float, saves: bool
) -> None:
    from boardai.g2048.train.ntuple_run import NTupleRun, train
    from boardai.g2048.train.trainer import Trainer

    out = tmp_path / "m.npz"
    config = NTupleRun(
        patterns=TINY,
        episodes=200,
        report_every=20,
        checkpoint_every=every,
        checkpoint_minutes=minutes,
    )
    events: list[Progress] = []
    on_disk: list[int] = []

    def seen(e: Progress) -> None:
        events.append(e)
        if e.saved:
            on_disk.append(Trainer.load(out).episodes)

    train(config, out, on_progress=seen)
    saved = [e.done for e in events if e.saved]
    assert bool(saved) == saves and on_disk == saved  # the file held what the event said
    assert 200 not in saved  # the end saves once, after the last step
    if every:
        assert all(b - a >= every for a, b in zip([0, *saved], saved, strict=False))
    assert Trainer.load(out).episodes == 200


def test_2048_ntuple_run_stops_when_asked_and_saves(tmp_path: Path) -> None:
    from boardai.g2048.train.ntuple_run import NTupleRun, resumed_config, train
    from boardai.g2048.train.trainer import Trainer

    out = tmp_path / "m.npz"
    config = NTupleRun(patterns=TINY, episodes=10_000, report_every=20, checkpoint_every=0)
    events: list[Progress] = []
    summary = train(config, out, on_progress=events.append, should_stop=lambda: len(events) > 2)
    assert summary["interrupted"] and 0 < summary["done"] < 10_000
    assert Trainer.load(out).episodes == summary["done"] == events[-1].done
    # resuming takes the saved rule unless told otherwise, and changes what it is told
    again = resumed_config(out, episodes=summary["done"] + 20, alpha=0.05)
    assert again.patterns == TINY and again.alpha == 0.05
    events.clear()
    assert train(again, out, resume=out, on_progress=events.append)["done"] == again.episodes
    assert events[0].detail.changes == {"alpha": 0.05}


def test_othello_ntuple_run_stops_when_asked_and_saves(tmp_path: Path) -> None:
    from boardai.othello.ntuple_file import load_model
    from boardai.othello.train.ntuple_trainer import NTupleConfig, train

    out = tmp_path / "o.npz"
    config = config_from_dict(NTupleConfig, {"tuples": "small", "episodes": 2000, "eval_games": 2})
    events: list[Progress] = []
    summary = train(config, out, on_progress=events.append, should_stop=lambda: True)
    assert summary["interrupted"] and summary["unit"] == "games"
    assert summary["done"] == events[-1].done == 500  # one chunk
    assert load_model(out)[1]["episodes"] == 500
    summary = train(config, out, resume=out, on_progress=events.append)
    assert summary["done"] == 2000 and not summary["interrupted"]
    assert [e.done for e in events if e.stats] == [2000]  # eval_every: 40,000, so at the end


def test_othello_dqn_run_from_a_dict(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from boardai.othello.train.dqn import DQNConfig, train

    values = {"games": 6, "eval_every": 3, "eval_games": 2, "warmup": 50, "hidden": 8}
    events: list[Progress] = []
    config = config_from_dict(DQNConfig, values)
    summary = train(config, tmp_path / "d.pt", on_progress=events.append)
    _events(events)
    assert summary["done"] == 6 and summary["unit"] == "games" and not summary["interrupted"]
    assert [e.done for e in events if e.stats] == [3, 6]
    stopped = train(config, tmp_path / "s.pt", should_stop=lambda: True)
    assert stopped["interrupted"] and stopped["done"] < 6 and (tmp_path / "s.pt").exists()


def test_2048_dqn_run_from_a_dict(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from boardai.g2048.qnet import load_checkpoint
    from boardai.g2048.train.dqn_run import DQNRun, resumed_config, train

    values = {"net": "fc", "planes": 12, "hidden": 16, "num_envs": 2, "warmup": 20}
    values |= {"batch_size": 8, "eval_games": 2, "eval_every": 40, "replay_size": 500}
    events: list[Progress] = []
    summary = train(
        config_from_dict(DQNRun, {**values, "steps": 80}), tmp_path, on_progress=events.append
    )
    _events(events)
    assert summary["unit"] == "env steps" and summary["done"] >= 80
    assert any(e.stats and e.stats["eval_mean"] != "" for e in events)
    state = load_checkpoint(tmp_path / "checkpoint.pt")
    assert "steps" not in state["config"]  # checkpoints keep the hyperparameters alone
    again = resumed_config(tmp_path / "checkpoint.pt", steps=400)
    assert again.hidden == 16
    stopped = train(again, tmp_path, resume=tmp_path / "checkpoint.pt", should_stop=lambda: True)
    assert stopped["interrupted"] and stopped["done"] == summary["done"]


@pytest.fixture
def ctrl_c_raises() -> Any:
    """SIGINT as a plain Python process has it (a test runner's worker may ignore it)."""
    import signal

    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def test_stop_flag_takes_the_first_ctrl_c_and_raises_at_the_second(ctrl_c_raises: Any) -> None:
    import os
    import signal

    from boardai.learn.run import StopFlag

    said: list[bool] = []
    with StopFlag(on_stop=lambda: said.append(True)) as stop:
        os.kill(os.getpid(), signal.SIGINT)
        assert stop() and stop.signal == signal.SIGINT and said == [True]
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back
    # resend: the signal goes on, on leaving, to the handler that was there
    with pytest.raises(KeyboardInterrupt), StopFlag(resend=True) as stop:
        os.kill(os.getpid(), signal.SIGINT)
        assert stop()
    # an ignored signal stays ignored (a pool worker's Ctrl-C: its parent stops it)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with StopFlag(resend=True) as stop:
        os.kill(os.getpid(), signal.SIGINT)
        assert not stop()
    assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN


def test_stop_flag_leaves_sigterm_ignored_once_one_came() -> None:
    # as sigterm_as_ctrl_c does: timeout(1) sends a second one at the process group
    import os
    import signal

    from boardai.learn.run import StopFlag

    before = signal.signal(signal.SIGTERM, lambda *_: None)
    try:
        with StopFlag() as stop:
            os.kill(os.getpid(), signal.SIGTERM)
            os.kill(os.getpid(), signal.SIGTERM)  # the second does nothing
            assert stop.signal == signal.SIGTERM
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGTERM, before)
