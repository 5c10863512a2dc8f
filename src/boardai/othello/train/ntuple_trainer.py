"""The n-tuple training run: chunks of compiled self-play, periodic matches against ``wpc``,
atomic checkpoints, resume."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np

from boardai.learn.ntuple import tc_arrays, tc_state
from boardai.learn.run import Progress, ProgressHook, StopCheck, stopping
from boardai.learn.run import summary as run_summary
from boardai.learn.schedules import ANNEALS, anneal
from boardai.othello.ntuple import NTupleNetwork
from boardai.othello.ntuple_file import load_arrays, load_model, save_network
from boardai.othello.train.ntuple import train_episodes


@dataclass
class NTupleConfig:
    """Options of ``boardai othello train ntuple`` (each field's docstring is its ``--help``)."""

    episodes: int = 960_000
    """Self-play games in all (a resumed run counts those already played)."""
    tuples: str = "standard"
    """Tuple sets (standard, small; systematic: all2x2, all2x3, all3x3, all2, all3, all4) or
    tuple names, joined by commas."""
    stages: int = 3
    """Phases of the game with their own weights: the disc count cut into this many equal
    bands (3 stages play better against wpc than 1: about 0.92 against 0.89)."""
    alpha: float = 0.001
    """Learning rate of the TD step (at the start of the run)."""
    alpha_end: float | None = 0.0002
    """Learning rate at the last game, reached by alpha-schedule (the same as alpha, or None,
    for a constant rate)."""
    alpha_schedule: str = field(default="exp", metadata={"choices": ANNEALS})
    """Decay from alpha to alpha-end over the episodes: linear or exp (geometric). A
    self-play run at a constant rate drifts from checkpoint to checkpoint; a decaying one
    settles."""
    tc: bool = False
    """Temporal coherence: per-weight rates |E|/A times the scheduled alpha."""
    average: int = 0
    """Play and save a moving average of the weights over about this many games (0: off):
    self-play wanders from checkpoint to checkpoint and the average smooths it out."""
    keep_checkpoints: bool = False
    """Also keep the network of every eval as FILE.atGAMES.npz (choose later on new games)."""
    epsilon: float = 0.5
    """Probability of a random self-play move. 0.5 plays far better against wpc than the
    literature's 0.1 (one stage: about 0.89 against 0.6-0.75): the values cover the lines a
    perturbed opponent leads to."""
    learn_random: bool = True
    """Learn after random exploring moves too, not only after greedy ones."""
    seed: int = 0
    """Seed of the self-play rng."""
    eval_every: int = 40_000
    """Games between evals (matches against wpc) and checkpoints."""
    eval_games: int = 400
    """Games per eval vs wpc (epsilon 0.1, colours swapped)."""

    def __post_init__(self) -> None:
        from boardai.othello.ntuple import MAX_STAGES

        checks = [
            (self.episodes >= 1, f"episodes must be >= 1, got {self.episodes}"),
            (
                1 <= self.stages <= MAX_STAGES,
                f"stages must be in 1..{MAX_STAGES}, got {self.stages}",
            ),
            (0 < self.alpha <= 1, f"alpha must be in (0, 1], got {self.alpha}"),
            (
                self.alpha_end is None or 0 < self.alpha_end <= 1,
                f"alpha_end must be in (0, 1], got {self.alpha_end}",
            ),
            (
                self.alpha_schedule in ANNEALS,
                f"unknown alpha schedule {self.alpha_schedule!r} (use {', '.join(ANNEALS)})",
            ),
            (self.average >= 0, f"average must be >= 0, got {self.average}"),
            (0 <= self.epsilon <= 1, f"epsilon must be in [0, 1], got {self.epsilon}"),
            (self.seed >= 0, f"seed must be >= 0, got {self.seed}"),
            (self.eval_every >= 1, f"eval_every must be >= 1, got {self.eval_every}"),
            (self.eval_games >= 1, f"eval_games must be >= 1, got {self.eval_games}"),
        ]
        for ok, why in checks:
            if not ok:
                raise ValueError(why)


SCHEDULES = ANNEALS


def alpha_at(config: NTupleConfig, done: int) -> float:
    """The learning rate after ``done`` of ``config.episodes`` games.

    >>> c = NTupleConfig(episodes=100, alpha=0.01, alpha_end=0.001, alpha_schedule="exp")
    >>> round(alpha_at(c, 0), 6), round(alpha_at(c, 50), 6), round(alpha_at(c, 100), 6)
    (0.01, 0.003162, 0.001)
    """
    if config.alpha_end is None:
        return config.alpha
    if config.alpha_schedule not in ANNEALS:
        raise ValueError(f"unknown alpha schedule {config.alpha_schedule!r} (use {SCHEDULES})")
    return anneal(config.alpha, config.alpha_end, done / config.episodes, config.alpha_schedule)


def trained_path(out: str | Path) -> Path:
    """Where a run with ``average`` writes its trained (not averaged) weights at each match."""
    out = Path(out)
    return out.with_name(out.stem + ".train" + out.suffix)


def best_path(out: str | Path) -> Path:
    """Where the run keeps its best network so far (``nt.npz`` -> ``nt.best.npz``)."""
    out = Path(out)
    return out.with_name(out.stem + ".best" + out.suffix)


def train(
    config: NTupleConfig,
    out: str | Path,
    *,
    resume: str | Path | None = None,
    on_progress: ProgressHook | None = None,
    should_stop: StopCheck | None = None,
) -> dict[str, Any]:
    """Train, writing ``out`` at every evaluation and at the end (and the best network by
    score against wpc to :func:`best_path`); the shape of :mod:`boardai.learn.run`.

    Args:
        resume: a file this trainer saved, to go on from (its weights, games played, rng and
            evaluations; ``config`` is the run's from now on).
        on_progress: gets a ``start`` event, then a ``step`` event after every chunk of
            games (``stats``: the evaluation, where one was played).
        should_stop: asked after every chunk: True saves ``out`` and ends the run.

    Returns:
        The saved metadata, with ``unit`` (games), ``done``, ``total``, ``out`` and
        ``interrupted``. Ctrl-C saves ``out`` before it goes on up.
    """
    from boardai.arena.match import play_match

    out = Path(out)
    done = 0
    history: list[dict[str, Any]] = []
    arrays: dict[str, np.ndarray] = {}
    if resume is not None:
        net, saved = load_model(resume)
        done = int(saved.get("episodes", 0))
        history = list(saved.get("evals", []))
        state = np.uint64(int(saved.get("rng_state", config.seed)))
        arrays = load_arrays(resume)
    else:
        net = NTupleNetwork.create(config.tuples, config.stages)
        state = np.uint64(np.random.SeedSequence(config.seed).generate_state(1, np.uint64)[0])
    # ``net`` trains; ``played`` is what the file holds and the matches play.
    played = net
    if "train_weights" in arrays:
        played = NTupleNetwork(net.names, net.squares, net.offsets, net.weights)
        net = NTupleNetwork(net.names, net.squares, net.offsets, arrays["train_weights"])
    if config.average and played is net:
        played = NTupleNetwork(net.names, net.squares, net.offsets, net.weights.copy())
    elif not config.average:
        played = net
    tc = None
    if config.tc:
        tc = tc_state(net.weights.size, arrays)

    def meta() -> dict[str, Any]:
        return {
            "episodes": done,
            "config": asdict(config),
            "rng_state": int(state),
            "evals": history,
            "alpha_now": alpha_at(config, done),
            "trainer": "td0-selfplay",
        }

    def save(path: Path) -> None:
        extra = tc_arrays(tc) if tc is not None else {}
        if played is not net:
            extra["train_weights"] = net.weights
        save_network(path, played, meta(), extra)

    def summary(interrupted: bool) -> dict[str, Any]:
        return {**meta(), **run_summary("games", done, config.episodes, out, interrupted)}

    def emit(kind: Literal["start", "step"], ev: dict[str, Any] | None = None) -> None:
        if on_progress is not None:
            saved = str(out) if ev is not None else None
            on_progress(Progress(kind, done, config.episodes, "games", ev, saved))

    emit("start")
    chunk = 500
    t0 = time.perf_counter()
    try:
        while done < config.episodes:
            n = min(chunk, config.episodes - done, config.eval_every - done % config.eval_every)
            state, err = train_episodes(
                net, n, alpha_at(config, done), config.epsilon, state, config.learn_random, tc
            )
            state = np.uint64(state)
            done += n
            if played is not net:
                played.weights += (net.weights - played.weights) * min(1.0, n / config.average)
            ev = None
            if done % config.eval_every == 0 or done == config.episodes:
                save(out)
                r = play_match(
                    f"ntuple:model={out}", "wpc", config.eval_games, epsilon=0.1, seed=done
                )
                ev = {
                    "episodes": done,
                    "score_vs_wpc": r.score,
                    "se": r.score_se,
                    "games": r.games,
                    "seconds": time.perf_counter() - t0,
                    "td_error": float(err),
                }
                if played is not net:  # the trained weights too, on the same games
                    raw = trained_path(out)
                    save_network(raw, net, meta())
                    rr = play_match(
                        f"ntuple:model={raw}", "wpc", config.eval_games, epsilon=0.1, seed=done
                    )
                    ev["score_vs_wpc_trained"] = rr.score
                best = max((h["score_vs_wpc"] for h in history), default=-1.0)
                history.append(ev)
                save(out)
                if r.score > best:  # keep the best network seen: self-play can drift
                    save(best_path(out))
                if config.keep_checkpoints:
                    save(out.with_name(f"{out.stem}.at{done}{out.suffix}"))
            emit("step", ev)
            if stopping(should_stop):
                save(out)
                return summary(True)
    except KeyboardInterrupt:
        save(out)
        raise
    save(out)
    return summary(False)
