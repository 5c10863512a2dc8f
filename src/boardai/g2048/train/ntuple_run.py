"""A 2048 n-tuple TD training run: ``train(config, out)`` (the shape of
:mod:`boardai.learn.run`).

>>> import tempfile, pathlib
>>> out = pathlib.Path(tempfile.mkdtemp()) / "m.npz"
>>> summary = train(NTupleRun(patterns="0123,4567", episodes=40, report_every=20), out)
>>> summary["done"], summary["interrupted"], out.exists()
(40, False, True)

The run trains in compiled calls of about a second each (so that a stop request or Ctrl-C
is answered quickly), reports over whole ``report_every`` intervals, and saves ``out`` every
``checkpoint_minutes`` of training (and every ``checkpoint_every`` episodes, when given) and at
the end. With one thread it learns exactly what one long call learns, however it was cut.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field, fields
from typing import Any

from boardai.errors import UsageError
from boardai.g2048.ntuple import format_stages
from boardai.g2048.train.config import TrainConfig
from boardai.g2048.train.report import report_row
from boardai.g2048.train.trainer import Chunk, Trainer
from boardai.hardware import check_threads
from boardai.learn.run import Progress, ProgressHook, StopCheck, config_from_dict, stopping
from boardai.learn.run import summary as run_summary

#: The fields of the learning rule that a resumed run takes from its config; the others
#: (patterns, seed, p4, optimistic, pool size) stay the saved run's.
RESUMABLE = (
    "method",
    "alpha",
    "alpha_decay",
    "alpha_every",
    "lam",
    "horizon",
    "tc",
    "restart",
    "restart_at",
    "downgrade",
)


@dataclass
class NTupleRun(TrainConfig):
    """A run: the learning rule (:class:`TrainConfig`, saved in the model) and how long to
    train, how often to report and save."""

    episodes: int = 100_000
    """Total episodes to reach (a resumed run's included)."""
    threads: int = 1
    """Episodes in parallel on one shared table (one thread: exactly reproducible)."""
    report_every: int = 1000
    """Episodes per report."""
    checkpoint_every: int = 0
    """Episodes per save as well (0: by time only)."""
    checkpoint_minutes: float = 5.0
    """Minutes of training per save (0: none by time)."""
    # By time, not by episodes: a 5x6 network with TC takes about 9 s to save, and once it
    # plays long games 10,000 episodes (the old default) take only half a minute.
    add_patterns: str = ""
    """With resume: grow the network by these patterns (hex lists), their weights starting at
    zero; try with tc."""
    tc_warmup: int = 20_000
    """With resume and tc: where TC's state starts afresh on a trained network (a compact
    model that kept none, or tc turned on), first play this many episodes with the weights
    held, which measures it, so that settled weights do not learn at the full rate (0:
    none)."""
    split_tc: str = field(default="fresh", metadata={"choices": ("fresh", "keep")})
    """With resume, tc and stages: the TC state of the stages after the first, ``fresh`` (they
    learn at the full rate) or ``keep`` (each a copy of the first stage's)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        for name in ("episodes", "report_every"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1, got {getattr(self, name)}")
        if self.tc_warmup < 0:
            raise ValueError(f"tc_warmup must be >= 0, got {self.tc_warmup}")
        check_threads(self.threads)  # each thread holds its own episode buffers
        if self.checkpoint_every < 0:
            raise ValueError(f"checkpoint_every must be >= 0, got {self.checkpoint_every}")
        if self.split_tc not in ("fresh", "keep"):
            raise ValueError(f"split_tc must be fresh or keep, got {self.split_tc!r}")
        if not self.checkpoint_minutes >= 0:  # NaN too
            raise ValueError(f"checkpoint_minutes must be >= 0, got {self.checkpoint_minutes}")

    def learning(self) -> TrainConfig:
        """The learning rule alone, as the model file keeps it."""
        return TrainConfig(**{f.name: getattr(self, f.name) for f in fields(TrainConfig)})


@dataclass
class Opened:
    """What :func:`train` set up, sent as the ``detail`` of its ``start`` event."""

    trainer: Trainer
    """The network, its learning rule and its state."""
    changes: dict[str, Any]
    """What a resumed run changed (fields of the learning rule; ``patterns``: ``+LIST`` where
    it grew; ``stages`` where it split)."""
    compact: bool
    """Resumed from a compact model that kept no training state: its TC state and restart
    pools start afresh (``boardai models compact --keep-training`` keeps them)."""
    tc_warmup: int = 0
    """Episodes that first measure a fresh TC state with the weights held (0: none)."""


def resumed_config(resume: str | os.PathLike[str], **values: Any) -> NTupleRun:
    """The config of the run saved at ``resume`` (a file or a shipped model's name), with
    ``values`` over it: what :func:`train` with ``resume`` then changes is exactly
    ``values``' fields that differ from the saved ones.

    Raises:
        UsageError: the file is not a 2048 n-tuple training file; ValueError: a bad value.
    """
    from boardai.learn.model_file import read_meta
    from boardai.learn.store import resolve

    meta = read_meta(resolve(str(resume), "2048", "ntuple"))
    learned = {f.name for f in fields(TrainConfig)}
    saved = {k: v for k, v in meta.get("config", {}).items() if k in learned}
    return config_from_dict(NTupleRun, {**saved, **values})


def _open(config: NTupleRun, resume: str | os.PathLike[str] | None) -> Opened:
    """A fresh trainer, or the saved run ``resume`` reconfigured, grown and split as
    ``config`` says."""
    if resume is None:
        if config.add_patterns:
            raise UsageError("add_patterns grows a saved network: resume one")
        return Opened(Trainer(config.learning()), {}, False)
    from boardai.learn.model_file import read_meta
    from boardai.learn.store import resolve

    path = resolve(str(resume), "2048", "ntuple")
    trainer = Trainer.load(path)
    compact = bool(read_meta(path).get("compacted", {}).get("dropped"))
    changes = {
        k: getattr(config, k) for k in RESUMABLE if getattr(config, k) != getattr(trainer.config, k)
    }
    if changes:
        try:
            trainer.reconfigure(**changes)
        except ValueError as e:
            raise UsageError(f"resume {resume}: {e}") from None
    if config.add_patterns:
        trainer.add_patterns(config.add_patterns)
        changes["patterns"] = f"+{config.add_patterns}"
    if config.stages and config.stages != trainer.config.stages:  # the same again: no-op
        try:
            trainer.split_stages(config.stages, keep_tc=config.split_tc == "keep")
        except ValueError as e:
            raise UsageError(f"resume {resume} with stages: {e}") from None
        changes["stages"] = format_stages(config.stages)
        if trainer.config.tc:
            changes["split_tc"] = config.split_tc
    warmup = trainer.tc_warmup_left  # a checkpoint taken while measuring goes on measuring
    if not warmup and trainer.warm_up_tc(config.tc_warmup):
        warmup = trainer.tc_warmup_left
    return Opened(trainer, changes, compact, warmup)


def train(
    config: NTupleRun,
    out: str | os.PathLike[str],
    *,
    resume: str | os.PathLike[str] | None = None,
    on_progress: ProgressHook | None = None,
    should_stop: StopCheck | None = None,
) -> dict[str, Any]:
    """Train to ``config.episodes`` episodes, saving the model to ``out``.

    Args:
        resume: a saved run (a file, or a shipped model's name) to go on from: its patterns,
            stages, seed and p4 stay; the fields of :data:`RESUMABLE` that differ in
            ``config`` apply, ``config.stages`` (when given) splits a one-stage network and
            ``config.add_patterns`` grows it (see :func:`resumed_config`).
        on_progress: gets a ``start`` event (``detail``: :class:`Opened`), then a ``step``
            event after every compiled call (``detail``: the :class:`Chunk` of the report
            interval so far; ``stats``: the report row, at the end of each interval).
        should_stop: asked before every call; True saves ``out`` and ends the run.

    Returns:
        ``unit``, ``done`` (episodes), ``total``, ``out``, ``interrupted``, ``seconds`` (of
        training, in all) and ``last`` (the last report row, or None).

    Raises:
        UsageError: a bad resume (file, growth or split), or the weights diverged (alpha too
            large; ``out`` is left as the last checkpoint wrote it).
    """
    opened = _open(config, resume)
    trainer = opened.trainer

    def emit(kind: Any, stats: Any = None, saved: Any = None, detail: Any = None) -> None:
        if on_progress is not None:
            done = trainer.episodes
            on_progress(Progress(kind, done, config.episodes, "episodes", stats, saved, detail))

    emit("start", detail=opened)
    last_save, last_save_time = trainer.episodes, time.monotonic()
    saved_any = False  # a checkpoint of this run is in out
    last: dict[str, Any] | None = None
    pieces: list[Chunk] = []
    every = config.report_every
    step = 10 * config.threads  # episodes per compiled call, sized to about a second below
    while trainer.episodes < config.episodes and not stopping(should_stop):
        n = min(step, every - trainer.episodes % every, config.episodes - trainer.episodes)
        try:
            piece = trainer.train(n, config.threads)
        except FloatingPointError:
            kept = f"{os.fspath(out)} keeps episode {last_save:,}" if saved_any else "nothing saved"
            raise UsageError(
                f"training diverged by episode {trainer.episodes + n:,}: the weights are no "
                f"longer finite numbers; lower alpha (was {config.alpha:g}); {kept}"
            ) from None
        pieces.append(piece)
        per_episode = piece.seconds / n
        step = max(config.threads, min(100_000, int(1.0 / max(per_episode, 1e-6))))
        chunk = Chunk.join(pieces)
        row = None
        if trainer.episodes % every == 0 or trainer.episodes == config.episodes:
            pieces = []
            row = last = report_row(chunk, trainer)
        saved = None
        by_count = config.checkpoint_every and (
            trainer.episodes - last_save >= config.checkpoint_every
        )
        by_time = config.checkpoint_minutes and (
            time.monotonic() - last_save_time >= 60 * config.checkpoint_minutes
        )
        if (by_count or by_time) and trainer.episodes < config.episodes:  # the end saves below
            trainer.save(out)
            last_save, last_save_time = trainer.episodes, time.monotonic()
            saved = os.fspath(out)
            saved_any = True
        emit("step", row, saved, chunk)
    interrupted = stopping(should_stop)
    trainer.save(out)
    return run_summary(
        "episodes",
        trainer.episodes,
        config.episodes,
        os.fspath(out),
        interrupted,
        seconds=trainer.seconds,
        last=last,
    )
