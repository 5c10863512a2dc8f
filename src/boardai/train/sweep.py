"""Run a sweep: every trial of a :class:`~boardai.train.plan.Plan`, here or on a cluster, and
rank them.

The trials go through the arena's runner (:func:`boardai.arena.runner.run`) as the "games" of a
contest, one trial a chunk: in this process, over a process pool, or as Ray tasks
(:class:`~boardai.arena.ray_backend.RayBackend`, which runs again a trial whose worker or node
died; the retry goes on from the trial's checkpoint). Each trial trains into ``out/NAME/``
(:mod:`boardai.train.trial`); as each one finishes this process writes its ``result.json``
there, so a sweep stopped by Ctrl-C keeps the finished trials and, run again with ``resume``,
trains only the others. Single-threaded training is reproducible, so a trial gives the same
model and strength wherever it runs.

>>> import tempfile
>>> from boardai.train.plan import plan_from_dict
>>> plan = plan_from_dict({"trainer": "2048-ntuple",
...     "base": {"patterns": "0123", "episodes": 20, "report_every": 10},
...     "grid": {"alpha": [0.1, 0.05]}, "eval": {"games": 3}})
>>> done = run_sweep(plan, tempfile.mkdtemp())
>>> [r["name"] for r in done.results], done.interrupted
(['alpha-0.1', 'alpha-0.05'], False)
"""

from __future__ import annotations

import contextlib
import json
import os
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boardai.errors import UsageError
from boardai.train.plan import Plan, config_json
from boardai.train.trial import (
    RESULT,
    STOP,
    TrialHook,
    TrialStoppedError,
    ask_to_stop,
    run_trial,
    stop_asked,
)

if TYPE_CHECKING:
    from rich.table import Table

    from boardai.agent import Agent
    from boardai.arena.backends import Backend

#: Result keys that differ between two runs of the same trial (where and how fast it ran).
TIMINGS = ("seconds", "host")


@dataclass(frozen=True)
class Trials:
    """The runner's contest of a sweep: "game" ``i`` trains and measures trial ``todo[i]``."""

    plan: Plan
    out: str
    todo: tuple[int, ...]
    run_id: str
    resume: bool = False
    hook: TrialHook | None = field(default=None, compare=False)
    """Progress of the trials: in this process only (it is not sent to workers)."""

    def build(self) -> list[Agent[Any]]:
        return []  # no players: a trial builds what it trains

    def play(self, players: list[Agent[Any]], index: int) -> dict[str, Any]:
        trial = self.plan.trials[self.todo[index]]
        folder = Path(self.out, trial.name)
        asked = stop_asked(self.out, self.run_id)
        if asked():  # queued when the run stopped: nothing to save, nothing to start
            raise TrialStoppedError(f"{trial.name}: not started, the sweep stopped")
        return run_trial(
            self.plan, trial, folder, self.run_id, resume=self.resume, hook=self.hook, asked=asked
        )

    def stop(self) -> bool:
        """Ask this run's trials under way to stop and save (where no Ctrl-C reaches them:
        on Ray; :class:`~boardai.train.trial.TrialStoppedError` ends each); whether they were
        asked (not if ``out`` takes no file: then they end with the run, as before)."""
        try:
            ask_to_stop(self.out, self.run_id)
        except OSError:
            return False
        return True


@dataclass
class SweepRun:
    """The trials a sweep finished (those of earlier runs kept with ``resume`` included), in
    the plan's order, and how it went."""

    plan: Plan
    results: list[dict[str, Any]]
    skipped: int = 0
    """Trials finished by an earlier run, not trained again."""
    interrupted: bool = False
    seconds: float = 0.0

    def ranked(self) -> list[dict[str, Any]]:
        """The results, strongest first (ties: in the plan's order)."""
        return sorted(self.results, key=lambda r: -r["strength"]["value"])

    def to_dict(self) -> dict[str, Any]:
        p = self.plan
        return {
            "trainer": p.trainer,
            "eval": {"games": p.evaluation.games, "seed": p.evaluation.seed},
            "varied": list(p.varied),
            "trials": len(p.trials),
            "finished": len(self.results),
            "interrupted": self.interrupted,
            "results": self.ranked(),
        }


def run_sweep(
    plan: Plan,
    out: str | os.PathLike[str],
    *,
    workers: int = 1,
    backend: Backend | None = None,
    resume: bool = False,
    on_result: Callable[[dict[str, Any]], None] | None = None,
    hook: TrialHook | None = None,
) -> SweepRun:
    """Train and measure every trial of ``plan`` into ``out/NAME/``; Ctrl-C stops and keeps
    the finished trials.

    Args:
        workers: processes of the local backend (1: this process, trial after trial).
        backend: where to run (default: the local one for ``workers``).
        resume: skip the trials whose ``result.json`` is there (one of another config is a
            UsageError), and go on from the checkpoints of the others.
        on_result: called with each trial's result as it finishes.
        hook: a trial's training progress, when the trials run in this process.
    """
    from boardai.arena import runner
    from boardai.arena.backends import InProcess, backend_for
    from boardai.atomic import atomic_write

    out = Path(out).absolute()  # the same folder for workers started elsewhere
    if resume:
        done = finished_trials(plan, out)
    else:
        done = {}
        for trial in plan.trials:  # a stopped run must not pass them off as its own
            (out / trial.name / RESULT).unlink(missing_ok=True)
    todo = tuple(i for i in range(len(plan.trials)) if i not in done)
    backend = backend if backend is not None else backend_for(workers, len(todo))
    watched = hook if isinstance(backend, InProcess) else None
    contest = Trials(plan, os.fspath(out), todo, uuid.uuid4().hex, resume, watched)

    def finished(index: int, result: dict[str, Any]) -> None:
        done[todo[index]] = result
        path = out / result["name"] / RESULT
        with atomic_write(path, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=2)
            f.write("\n")
        if on_result is not None:
            on_result(result)

    try:
        ran = runner.run(
            contest, len(todo), workers=workers, backend=backend, chunk=1, on_result=finished
        )
    finally:  # a stop this run asked for is over
        stop = out / STOP
        with contextlib.suppress(OSError):
            if stop.read_text(encoding="utf-8") == contest.run_id:
                stop.unlink()
    results = [done[i] for i in sorted(done)]
    skipped = len(plan.trials) - len(todo)
    return SweepRun(plan, results, skipped, ran.interrupted, ran.seconds)


def finished_trials(plan: Plan, out: str | os.PathLike[str]) -> dict[int, dict[str, Any]]:
    """The results already in ``out`` of the trials of ``plan``, by trial index; a result of
    another config under a trial's name, or measured otherwise than ``plan.evaluation``
    (its strength would not compare with the others'), is a UsageError (one line)."""
    found = {}
    for i, trial in enumerate(plan.trials):
        path = Path(out, trial.name, RESULT)
        if path.exists():
            found[i] = _finished(path, config_json(trial.config), plan)
    return found


def _finished(path: Path, config: dict[str, Any], plan: Plan) -> dict[str, Any]:
    """The result at ``path``, checked to be of ``config``, measured as ``plan`` measures."""
    from boardai.arena.journal import differences

    try:
        result = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise UsageError(f"{path}: cannot read it ({e}); remove it to train again") from None
    found = result.get("config") if isinstance(result, dict) else None
    if found != config:
        why = differences(found or {}, config)
        raise UsageError(
            f"{path} is the result of another config ({why}); give another --out, or remove it"
        )
    strength = result.get("strength")
    strength = strength if isinstance(strength, dict) else {}
    games, seed = strength.get("games"), strength.get("seed")
    want = plan.evaluation
    if (games, seed) != (want.games, want.seed):  # its strength would not rank with the others'
        raise UsageError(
            f"{path} was measured on {games} games from seed {seed}, [eval] now asks for "
            f"{want.games} from seed {want.seed}; give another --out, or remove it to measure its "
            "model again"
        )
    return result


def sweep_table(run: SweepRun) -> Table:
    """The finished trials, strongest first: the values that vary, the strength (± standard
    error), the training done and the wall time of each."""
    from rich.table import Table

    from boardai.report import folding
    from boardai.train.learners import learner

    plan = run.plan
    chosen = learner(plan.trainer)
    e = plan.evaluation
    title = f"{plan.trainer}: {chosen.metric}, {e.games:,} games from seed {e.seed}"
    t = Table(title=title, title_justify="left")
    t.add_column("#", justify="right")
    t.add_column("trial")
    for key in plan.varied:
        t.add_column(key, justify="right")
    t.add_column("strength", justify="right")
    t.add_column("trained", justify="right")
    t.add_column("minutes", justify="right")
    for rank, r in enumerate(run.ranked(), 1):
        s = r["strength"]
        digits = 0 if abs(s["value"]) >= 100 else 3
        values = [_cell(r["config"].get(key)) for key in plan.varied]
        t.add_row(
            str(rank),
            r["name"],
            *values,
            f"{s['value']:,.{digits}f} ± {s['se']:,.{digits}f}",
            f"{r['done']:,} {r['unit']}",
            f"{r['seconds'] / 60:,.1f}",
        )
    return folding(t)


def _cell(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(_cell(v) for v in value)
    return str(value)
