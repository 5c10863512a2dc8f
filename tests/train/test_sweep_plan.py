"""The sweep file: trials from a grid or a list, their names, and every mistake in one line
before anything trains."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from boardai.cli import main
from boardai.errors import UsageError
from boardai.train.plan import plan_from_dict, read_plan, trial_name

BASE = {"patterns": "0123,4567", "episodes": 100}


def _plan(most_trials: int | None = 1000, **tables: Any) -> Any:
    return plan_from_dict({"trainer": "2048-ntuple", "base": BASE, **tables}, "sweep", most_trials)


def test_a_grid_is_every_combination_named_after_what_varies() -> None:
    plan = _plan(grid={"alpha": [0.1, 0.05], "tc": [False, True], "seed": [7]})
    assert plan.varied == ("alpha", "tc")
    assert [t.name for t in plan.trials] == [
        "alpha-0.1_tc-false",
        "alpha-0.1_tc-true",
        "alpha-0.05_tc-false",
        "alpha-0.05_tc-true",
    ]
    last = plan.trials[-1]
    assert (last.config.alpha, last.config.tc, last.config.seed) == (0.05, True, 7)
    assert last.config.patterns == "0123,4567" and last.values == {"alpha": 0.05, "tc": True}
    again = _plan(grid={"alpha": [0.1, 0.05], "tc": [False, True], "seed": [7]})
    assert [t.name for t in again.trials] == [t.name for t in plan.trials]


def test_listed_trials_are_named_after_what_they_change_or_their_own_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "my patterns").mkdir()
    (tmp_path / "my patterns" / "set,1.txt").write_text("0123\n4567\n")
    monkeypatch.chdir(tmp_path)
    plan = _plan(
        trial=[
            {"alpha": 0.1},
            {"alpha": 0.1, "patterns": "@my patterns/set,1.txt"},
            {"name": "tc", "alpha": 1.0, "tc": True},
            {"alpha": 0.1, "stages": "14,14+13"},
        ]
    )
    names = [t.name for t in plan.trials]
    assert names == [
        "alpha-0.1",
        "alpha-0.1_patterns-my.patterns.set.1.txt",
        "tc",
        "alpha-0.1_stages-14.14+13",
    ]
    assert plan.varied == ("alpha", "patterns", "tc", "stages")
    assert plan.trials[3].config.stages == ((14,), (14, 13))


def test_names_are_safe_in_a_path_and_an_agent_spec_and_bounded() -> None:
    name = trial_name({"patterns": "0123,4567 89ab", "alpha": 1e-05, "x": [1, [2, 3]]})
    assert name == "patterns-0123.4567.89ab_alpha-1e-05_x-1.2.3"
    long = trial_name({f"option{i}": "v" * 20 for i in range(10)})
    assert len(long) == 100 and long != trial_name({f"option{i}": "w" * 20 for i in range(10)})
    assert not set(",=/: ") & set(name + long)
    assert _plan().trials[0].name == "base"  # nothing varies: one trial


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('trainer = "2048-ntuple"\n[base]\nalpah = 0.1\n', "[base]: NTupleRun has no option"),
        ('trainer = "2048-ntuple"\n[grid]\nalpha = [0.1, -1.0]\n', "trial alpha--1.0: alpha must"),
        ('trainer = "2048-ntuple"\n[grid]\nalpha = 0.1\n', "[grid] alpha is a list of values"),
        ('trainer = "2048-ntuple"\n[base]\npatterns = "xyz"\n', "unknown pattern set 'xyz'"),
        ('trainer = "2048-ntuple"\n[base]\nalpha = "big"\n', "'alpha' must be float"),
        ('trainer = "2048-ntuple"\n[eval]\ngames = 0\n', "[eval]: games must be in 1..1,000,000"),
        # found only after a trial's training, as a MemoryError, before this check
        ('trainer = "2048-ntuple"\n[eval]\ngames = 10_000_000_000\n', "got 10,000,000,000"),
        ('trainer = "2048-ntuple"\n[eval]\ngamez = 9\n', "[eval]: Evaluation has no option"),
        ('trainer = "go"\n', "unknown trainer 'go' (trainers: 2048-ntuple, othello-ntuple)"),
        (
            'trainer = "othello-ntuple"\n[[trial]]\ntuples = "small"\n[[trial]]\ntuples = "nope"\n',
            "trial tuples-nope: unknown n-tuple 'nope'",
        ),
        ('trainer = "2048-ntuple"\n[grid]\nseed = [1]\n[[trial]]\nseed = 2\n', "not both"),
        ('trainer = "2048-ntuple"\n[[trial]]\nname = "a b"\n', "is not a folder name"),
        ('trainer = "2048-ntuple"\n[[trial]]\nname = "a"\n[[trial]]\nname = "a"\n', "both called"),
        ('trainer = "2048-ntuple"\n[sweep]\n', "unknown key 'sweep'"),
        ("[base]\nalpha = 0.1\n", "name the learner"),
        ('trainer = "2048-ntuple\n', "not TOML"),
        # the same run twice, under two names
        ('trainer = "2048-ntuple"\n[grid]\nalpha = [1, 1.0]\n', "same configuration"),
        (
            'trainer = "2048-ntuple"\n[[trial]]\nname = "a"\n[[trial]]\nname = "b"\n',
            "trials a and b are the same configuration",
        ),
        ('trainer = "2048-ntuple"\n[[trial]]\n[[trial]]\nalpha = 0.1\n', "same configuration"),
        ('trainer = "2048-ntuple"\n[grid]\nname = ["a", "b"]\n', "[grid] name: a trial's name"),
        # more trials than anyone trains by mistake: counted, not built (10^12 here)
        pytest.param(
            'trainer = "2048-ntuple"\n[grid]\n'
            + "".join(f"{k} = {list(range(1, 1001))}\n" for k in ("seed", "episodes", "threads"))
            + f"alpha = {[i / 1000 for i in range(1, 1001)]}\n",
            "1,000,000,000,000 [grid] combinations, more than 1,000 trials",
            id="huge-grid",
        ),
        pytest.param(
            'trainer = "2048-ntuple"\n' + "[[trial]]\n" * 1001,
            "1,001 [[trial]] tables, more than 1,000 trials",
            id="huge-list",
        ),
    ],
)
def test_a_mistake_in_the_file_is_one_line_before_anything_runs(
    text: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sweep = tmp_path / "s.toml"
    sweep.write_text(text)
    assert main(["sweep", str(sweep), "--out", str(tmp_path / "out"), "--workers", "1"]) == 2
    out, err = capsys.readouterr()
    assert err.startswith("boardai: error: ") and err.count("\n") == 1, err
    assert says in err and str(sweep) in err
    assert out == ""  # no trial started
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_a_missing_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"no-such\.toml"):
        read_plan("no-such.toml")
    binary = tmp_path / "b.toml"
    binary.write_bytes(b"\x00\xff\xfe")
    with pytest.raises(UsageError, match=r"b\.toml: not TOML \(not UTF-8 text\)"):
        read_plan(binary)


@pytest.mark.parametrize("path", sorted(Path(__file__).parents[2].glob("examples/sweep-*.toml")))
def test_the_example_sweeps_read(path: Path) -> None:
    plan = read_plan(path)
    assert len(plan.trials) >= 3 and plan.varied


def test_force_trains_a_sweep_of_many_trials() -> None:
    from boardai.train import MANY_TRIALS

    grid = {"seed": list(range(MANY_TRIALS + 1))}
    with pytest.raises(UsageError, match="more than 1,000 trials"):
        _plan(grid=grid)
    assert len(_plan(grid=grid, most_trials=None).trials) == MANY_TRIALS + 1
