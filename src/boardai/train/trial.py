"""One trial of a sweep, run in its own folder: train, log, measure.

``DIR/NAME/`` holds the trial's model (``model.npz``, checkpointed as the learner does), its
progress (``progress.csv``: a row per report of the run, ``done`` first) and ``trial.json``
(its config, and the sweep run that wrote it). The sweep writes ``result.json`` once the trial
is measured (see :mod:`boardai.train.sweep`).

A trial that finds a checkpoint of its own config goes on from it instead of starting over:
when Ray retries it after its worker or node died (the same sweep run), and in a sweep run with
``resume`` (the trials a stopped sweep left unfinished). Runs with one thread learn the same
however they were cut, so the model, and the strength measured, are those of a run never
stopped; a CSV row that straddles the break averages only the episodes after it.
"""

from __future__ import annotations

import json
import os
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from boardai import stop_request
from boardai.learn.run import Progress, StopFlag
from boardai.train.learners import MODEL, learner
from boardai.train.plan import Plan, Trial, config_json

#: The files of a trial's folder.
CSV = "progress.csv"
MARKER = "trial.json"
RESULT = "result.json"
#: The file in the sweep's folder that asks the trials of a run (its id, the file's text) to
#: stop and save: a sweep on Ray, stopped, writes it, as its trials run where no Ctrl-C reaches.
STOP = ".stop"


class TrialStoppedError(Exception):
    """A trial stopped when its sweep asked (:data:`STOP`), after saving its model."""


def ask_to_stop(out: str | os.PathLike[str], run_id: str) -> None:
    """Ask the trials of sweep run ``run_id`` training into ``out`` to stop and save."""
    stop_request.ask(Path(out, STOP), run_id)


def stop_asked(out: str | os.PathLike[str], run_id: str) -> Callable[[], bool]:
    """Whether :func:`ask_to_stop` has asked run ``run_id`` to stop (looked at now and then:
    :func:`boardai.stop_request.looker`)."""
    return stop_request.looker(Path(out, STOP), run_id)


#: ``hook(trial name, event)``: a trial's progress, where the sweep can watch it.
TrialHook = Callable[[str, Progress], None]


def run_trial(
    plan: Plan,
    trial: Trial,
    folder: Path,
    run_id: str,
    *,
    resume: bool = False,
    hook: TrialHook | None = None,
    asked: Callable[[], bool] | None = None,
) -> dict[str, Any]:
    """Train ``trial`` into ``folder`` and measure it; returns its result (JSON-ready).

    Args:
        run_id: the sweep run's id: a checkpoint this run wrote (a retried trial) is gone on
            from, one of another run only with ``resume``.
        resume: go on from a checkpoint of the same config, whichever run wrote it.
        hook: gets the training run's progress events.
        asked: whether the sweep asks this trial to stop (:func:`stop_asked`): it then saves
            and raises :class:`TrialStoppedError`.
    """
    from boardai.atomic import atomic_write
    from boardai.learn.csv_log import CsvLog, keep_rows

    chosen = learner(plan.trainer)
    start = time.perf_counter()
    folder.mkdir(parents=True, exist_ok=True)
    model, marker = folder / MODEL, folder / MARKER
    config = config_json(trial.config)
    previous = _read_json(marker)
    go_on = (
        model.exists()
        and previous is not None
        and previous.get("config") == config
        and (resume or previous.get("run") == run_id)
    )
    if not go_on:
        for stale in (model, folder / CSV):
            stale.unlink(missing_ok=True)
    with atomic_write(marker, "w", encoding="utf-8") as f:
        json.dump({"trainer": plan.trainer, "config": config, "run": run_id}, f, indent=2)
    log = CsvLog(folder / CSV, append=go_on)  # (without go_on: a fresh file)

    def on_progress(event: Progress) -> None:
        nonlocal log
        if event.kind == "start" and go_on:  # rows past the checkpoint are played again
            keep_rows(folder / CSV, event.done)
            log = CsvLog(folder / CSV, append=True)
        if event.stats is not None:
            log.write({"done": event.done, **event.stats})
        if hook is not None:
            hook(trial.name, event)

    # Ctrl-C here, or the pool stopping this worker: the chunk under way ends, the run saves,
    # then the signal goes on (the sweep stops; the worker leaves), so a resume loses nothing
    with StopFlag(resend=True) as stop:

        def should_stop() -> bool:
            return stop() or (asked is not None and asked())

        summary = chosen.train(
            trial.config,
            model,
            resume=model if go_on else None,
            on_progress=on_progress,
            should_stop=should_stop,
        )
    if summary["interrupted"]:
        if stop.signal is None:  # the sweep asked
            raise TrialStoppedError(f"{trial.name}: stopped at {summary['done']:,}, saved")
        raise KeyboardInterrupt  # stopped by a signal whose handler did not raise
    strength = chosen.evaluate(model, plan.evaluation)
    return {
        "name": trial.name,
        "trainer": plan.trainer,
        "values": trial.values,
        "config": config,
        "unit": summary["unit"],
        "done": summary["done"],
        "strength": {
            "metric": chosen.metric,
            "seed": plan.evaluation.seed,
            **strength,
        },
        "files": {"model": MODEL, "csv": CSV},
        "seconds": round(time.perf_counter() - start, 3),
        "host": socket.gethostname(),
    }


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None
