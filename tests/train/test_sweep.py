"""``boardai sweep``: tiny sweeps train, measure and rank their trials the same in this process and
over a process pool; a stopped sweep resumes, training only what it lacks, from checkpoints, to
the results of a sweep never stopped."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from boardai.cli import main
from boardai.learn.run import Progress
from boardai.train.plan import plan_from_dict
from boardai.train.sweep import TIMINGS, run_sweep

TINY = """\
trainer = "2048-ntuple"

[base]
patterns = "0123,4567"
episodes = 300
report_every = 100
checkpoint_every = 200

[grid]
alpha = [0.1, 0.025, 0.005]

[eval]
games = 30
seed = 11
"""
#: Columns of progress.csv that time the run.
CSV_TIMINGS = {"moves_per_s", "seconds"}


def untimed(x: Any) -> Any:
    """Results without what differs between two runs of the same trials (timings, host)."""
    if isinstance(x, dict):
        return {k: untimed(v) for k, v in x.items() if k not in TIMINGS}
    if isinstance(x, list):
        return [untimed(v) for v in x]
    return x


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as f:
        return [{k: v for k, v in r.items() if k not in CSV_TIMINGS} for r in csv.DictReader(f)]


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The tiny sweep run once in this process: its folder and --json."""
    folder = tmp_path_factory.mktemp("sweep")
    (folder / "tiny.toml").write_text(TINY)
    argv = ["sweep", str(folder / "tiny.toml"), "--workers", "1", "--json", str(folder / "s.json")]
    assert main(argv) == 0
    return folder / "tiny", json.loads((folder / "s.json").read_text())


def test_a_sweep_trains_measures_and_ranks_its_trials(
    reference: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    from boardai.g2048.train.ntuple_run import NTupleRun, train
    from boardai.g2048.train.trainer import Trainer

    out, data = reference
    results = data["results"]
    assert {r["name"] for r in results} == {"alpha-0.1", "alpha-0.025", "alpha-0.005"}
    values = [r["strength"]["value"] for r in results]
    assert values == sorted(values, reverse=True) and len(set(values)) == 3
    assert data["finished"] == data["trials"] == 3 and data["varied"] == ["alpha"]
    for r in results:
        folder = out / r["name"]
        assert json.loads((folder / "result.json").read_text()) == r
        assert [row["done"] for row in rows(folder / "progress.csv")] == ["100", "200", "300"]
        assert r["done"] == 300 and r["config"]["alpha"] == r["values"]["alpha"]
    # the model is what `train ntuple` learns with those options, its strength what
    # `bench ntuple --episodes 0` measures on the same games
    best = results[0]
    alone = tmp_path / "alone.npz"
    train(NTupleRun(patterns="0123,4567", episodes=300, alpha=best["values"]["alpha"]), alone)
    swept = Trainer.load(out / best["name"] / "model.npz").network.weights
    assert np.array_equal(swept, Trainer.load(alone).network.weights)
    bench = ["bench", "ntuple", "--model", str(alone), "--episodes", "0", "--games", "30"]
    assert main([*bench, "--seed", "11", "--json", str(tmp_path / "b.json")]) == 0
    measured = json.loads((tmp_path / "b.json").read_text())["games"]
    strength = best["strength"]
    assert (measured["mean"], measured["sem"]) == (strength["value"], strength["se"])


def test_a_process_pool_gives_the_same_results(
    reference: tuple[Path, dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sweep = tmp_path / "tiny.toml"
    sweep.write_text(TINY)
    argv = ["sweep", str(sweep), "--out", str(tmp_path / "o"), "--workers", "2"]
    assert main([*argv, "--json", str(tmp_path / "s.json")]) == 0
    assert untimed(json.loads((tmp_path / "s.json").read_text())) == untimed(reference[1])
    out = capsys.readouterr().out
    assert "best: alpha-" in out and "boardai models compact" in out and "models.md" in out


def test_resume_trains_only_the_trials_without_a_result(
    reference: tuple[Path, dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import shutil

    out = tmp_path / "tiny"
    shutil.copytree(reference[0], out)
    (tmp_path / "tiny.toml").write_text(TINY)
    (out / "alpha-0.025" / "result.json").unlink()
    kept = {p: p.stat().st_mtime_ns for p in out.glob("*/model.npz")}
    argv = ["sweep", str(tmp_path / "tiny.toml"), "--workers", "1", "--resume"]
    assert main([*argv, "--json", str(tmp_path / "s.json")]) == 0
    changed = [p.parent.name for p, t in kept.items() if p.stat().st_mtime_ns != t]
    assert changed == ["alpha-0.025"]
    assert untimed(json.loads((tmp_path / "s.json").read_text())) == untimed(reference[1])
    assert "2 trials finished earlier" in capsys.readouterr().out
    # a result of other options is not taken for this trial's
    (tmp_path / "tiny.toml").write_text(TINY.replace("episodes = 300", "episodes = 400"))
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("boardai: error: ") and "\n" not in err
    assert "result of another config (episodes: 300 there, 400 now)" in err


def test_a_stopped_sweep_goes_on_from_checkpoints_to_the_same_results(
    reference: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    import tomllib

    plan = plan_from_dict(tomllib.loads(TINY))

    def stop_in_the_second_trial(name: str, event: Progress) -> None:
        if name == "alpha-0.025" and event.done == 300:  # checkpointed at 200 only
            raise KeyboardInterrupt

    stopped = run_sweep(plan, tmp_path, hook=stop_in_the_second_trial)
    assert stopped.interrupted and [r["name"] for r in stopped.results] == ["alpha-0.1"]
    assert [r["done"] for r in rows(tmp_path / "alpha-0.025" / "progress.csv")] == [
        "100",
        "200",
        "300",
    ]
    # a new run without resume starts a stopped trial over (no other run's checkpoint)
    again = run_sweep(plan, tmp_path, hook=stop_in_the_second_trial)
    assert again.interrupted and [r["name"] for r in again.results] == ["alpha-0.1"]
    seen: list[tuple[str, int]] = []
    done = run_sweep(plan, tmp_path, resume=True, hook=lambda n, e: seen.append((n, e.done)))
    assert not done.interrupted and done.skipped == 1
    assert ("alpha-0.025", 200) in seen and ("alpha-0.025", 100) not in seen  # went on
    assert untimed(done.to_dict()) == untimed(reference[1])
    for name in ("alpha-0.025", "alpha-0.005"):
        assert rows(tmp_path / name / "progress.csv") == rows(reference[0] / name / "progress.csv")


def test_ctrl_c_saves_the_running_trial_where_it_stopped(
    reference: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    """A real Ctrl-C (not an exception thrown in): the trial's chunk ends, the run saves past
    its last checkpoint, the sweep stops; resumed, it goes on from there to the same results."""
    import os
    import signal
    import tomllib

    plan = plan_from_dict(tomllib.loads(TINY))

    def ctrl_c_in_the_second_trial(name: str, event: Progress) -> None:
        if name == "alpha-0.025" and event.done == 100:  # no checkpoint before 200
            os.kill(os.getpid(), signal.SIGINT)

    before = signal.signal(signal.SIGINT, signal.default_int_handler)  # as a command has it
    try:
        stopped = run_sweep(plan, tmp_path, hook=ctrl_c_in_the_second_trial)
    finally:
        signal.signal(signal.SIGINT, before)
    assert stopped.interrupted and [r["name"] for r in stopped.results] == ["alpha-0.1"]
    seen: list[tuple[str, int]] = []
    done = run_sweep(plan, tmp_path, resume=True, hook=lambda n, e: seen.append((n, e.done)))
    assert ("alpha-0.025", 100) in seen and ("alpha-0.025", 0) not in seen  # went on from 100
    assert untimed(done.to_dict()) == untimed(reference[1])


def test_a_retried_trial_goes_on_from_the_checkpoint_of_its_own_run(tmp_path: Path) -> None:
    """What a Ray retry does: the trial again, in the same sweep run, after its worker died."""
    import tomllib

    from boardai.train.trial import run_trial

    plan = plan_from_dict(tomllib.loads(TINY))
    trial, folder = plan.trials[0], tmp_path / "t"
    events: list[int] = []

    def die_at_300(name: str, event: Progress) -> None:
        events.append(event.done)
        if event.done == 300:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_trial(plan, trial, folder, "run-1", hook=die_at_300)
    events.clear()
    retried = run_trial(plan, trial, folder, "run-1", hook=lambda n, e: events.append(e.done))
    assert events[0] == 200  # the start event: from the checkpoint
    fresh = run_trial(plan, trial, tmp_path / "fresh", "run-2")
    assert untimed(retried) == untimed(fresh)
    events.clear()
    run_trial(plan, trial, folder, "run-3", hook=lambda n, e: events.append(e.done))
    assert events[0] == 0  # another run, without resume: from the start


def test_an_othello_sweep_measures_as_the_runs_own_checks(tmp_path: Path) -> None:
    sweep = tmp_path / "othello.toml"
    sweep.write_text(
        'trainer = "othello-ntuple"\n'
        "[base]\n"
        'tuples = "small"\nstages = 1\nepisodes = 200\neval_every = 100\neval_games = 6\n'
        "[[trial]]\nepsilon = 0.5\n[[trial]]\nepsilon = 0.2\n"
        "[eval]\ngames = 6\nseed = 200\n"  # the run's own check at game 200: seed 200
    )
    assert main(["sweep", str(sweep), "--workers", "1", "--json", str(tmp_path / "s.json")]) == 0
    results = json.loads((tmp_path / "s.json").read_text())["results"]
    assert {r["name"] for r in results} == {"epsilon-0.5", "epsilon-0.2"}
    for r in results:
        last = rows(tmp_path / "othello" / r["name"] / "progress.csv")[-1]
        assert last["done"] == "200" and r["done"] == 200 and r["unit"] == "games"
        assert (float(last["score_vs_wpc"]), float(last["se"])) == (
            r["strength"]["value"],
            r["strength"]["se"],
        )


def test_resume_refuses_results_measured_on_other_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Strengths of other games do not rank with this sweep's: the [eval] changed, a result
    measured before is refused; removed, its model is measured again, not trained again."""
    sweep = tmp_path / "s.toml"
    text = (
        'trainer = "2048-ntuple"\n[base]\npatterns = "0123"\nepisodes = 20\nreport_every = 10\n'
        "[eval]\ngames = 3\nseed = 1\n"
    )
    sweep.write_text(text)
    argv = ["sweep", str(sweep), "--workers", "1", "--json", str(tmp_path / "s.json")]
    assert main(argv) == 0
    sweep.write_text(text.replace("games = 3", "games = 4"))
    capsys.readouterr()
    assert main([*argv, "--resume"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("boardai: error: ") and err.count("\n") == 1
    assert "result.json was measured on 3 games from seed 1, [eval] now asks for 4" in err
    (tmp_path / "s" / "base" / "result.json").unlink()
    assert main([*argv, "--resume"]) == 0
    (result,) = json.loads((tmp_path / "s.json").read_text())["results"]
    assert result["strength"]["games"] == 4 and result["done"] == 20
    assert [r["done"] for r in rows(tmp_path / "s" / "base" / "progress.csv")] == ["10", "20"]


def test_a_trial_the_sweep_asks_to_stop_saves_where_it_stopped(
    reference: tuple[Path, dict[str, Any]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """How a stopped sweep on Ray stops trials that no Ctrl-C reaches: it asks through a file
    in its folder; the trial's chunk ends, it saves past its last checkpoint and raises; a
    trial still queued does not start; resumed, the sweep goes on to the same results."""
    import tomllib

    from boardai import stop_request
    from boardai.train.sweep import Trials
    from boardai.train.trial import STOP, TrialStoppedError

    monkeypatch.setattr(stop_request, "LOOK_EVERY", 0.0)  # look before every chunk
    plan = plan_from_dict(tomllib.loads(TINY))
    asked: list[Trials] = []

    def ask_at_100(name: str, event: Progress) -> None:
        if event.done == 100:  # no checkpoint before 200
            asked[0].stop()

    contest = Trials(plan, str(tmp_path), (0, 1, 2), "run-a", hook=ask_at_100)
    asked.append(contest)
    with pytest.raises(TrialStoppedError, match=r"alpha-0\.1: stopped at 100, saved"):
        contest.play([], 0)
    assert (tmp_path / STOP).read_text() == "run-a"
    with pytest.raises(TrialStoppedError, match="not started"):
        contest.play([], 1)
    assert not (tmp_path / "alpha-0.025").exists()
    other = Trials(plan, str(tmp_path), (0, 1, 2), "run-b")  # another run: not asked
    assert other.play([], 1)["name"] == "alpha-0.025"
    seen: list[tuple[str, int]] = []
    done = run_sweep(plan, tmp_path, resume=True, hook=lambda n, e: seen.append((n, e.done)))
    assert ("alpha-0.1", 100) in seen and ("alpha-0.1", 0) not in seen  # went on from 100
    assert untimed(done.to_dict()) == untimed(reference[1])


class _FakeRay:
    """What RayBackend's stop asks of ray: a wait for the tasks under way."""

    def __init__(self, interrupt: bool = False) -> None:
        self.waited: list[tuple[int, float]] = []
        self.interrupt = interrupt

    def wait(self, refs: list[Any], num_returns: int, timeout: float) -> None:
        self.waited.append((num_returns, timeout))
        if self.interrupt:  # Ctrl-C again during the wait
            raise KeyboardInterrupt


def test_a_stopped_ray_run_lets_the_tasks_it_asked_finish_a_while() -> None:
    from boardai.arena.ray_backend import STOP_GRACE, RayBackend

    said: list[str] = []
    backend = RayBackend(notify=said.append)
    stops: list[int] = []

    class Stoppable:
        def stop(self) -> bool:
            stops.append(1)
            return True

    ray = _FakeRay()
    backend._let_finish(ray, Stoppable(), ["a", "b"])  # type: ignore[arg-type]
    assert stops == [1] and ray.waited == [(2, STOP_GRACE)]
    assert said and "waiting for the 2 tasks under way to save" in said[0]
    impatient = _FakeRay(interrupt=True)
    backend._let_finish(impatient, Stoppable(), ["a"])  # type: ignore[arg-type]
    assert impatient.waited == [(1, STOP_GRACE)]  # and no KeyboardInterrupt out of it
    games = _FakeRay()
    backend._let_finish(games, lambda chunk: chunk, ["a"])
    assert games.waited == []  # a task that cannot be asked: Ray's shutdown ends it


def test_a_sweep_that_cannot_ask_its_trials_to_stop_says_so(tmp_path: Path) -> None:
    import tomllib

    from boardai.arena.runner import ChunkTask
    from boardai.train.sweep import Trials

    plan = plan_from_dict(tomllib.loads(TINY))
    gone = tmp_path / "not-a-folder"
    gone.write_text("")  # --out names a file: no stop request can be written in it
    assert not ChunkTask(Trials(plan, str(gone), (0,), "run-a"), "t").stop()
    assert ChunkTask(Trials(plan, str(tmp_path), (0,), "run-a"), "t").stop()
    assert (tmp_path / ".stop").read_text() == "run-a"
