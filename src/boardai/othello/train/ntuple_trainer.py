"""The n-tuple training run: chunks of compiled self-play, periodic matches against ``wpc``,
atomic checkpoints, resume."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from boardai.learn.schedules import ANNEALS, anneal
from boardai.othello.ntuple import NTupleNetwork
from boardai.othello.ntuple_file import load_arrays, load_model, save_network
from boardai.othello.train.ntuple import train_episodes


@dataclass
class NTupleConfig:
    """Options of ``boardai train othello-ntuple``.

    Attributes:
        episodes: self-play games in all (a resumed run counts those already played).
        tuples: tuple set or list (``standard``, ``small``, or names joined by commas).
        stages: phases of the game with their own weights (disc count cut into equal bands).
            3 stages play better against wpc than 1 (about 0.92 against 0.89).
        alpha: learning rate of the TD step (at the start of the run).
        alpha_end: learning rate at the end of the run; None keeps ``alpha`` throughout.
        alpha_schedule: how the rate goes from ``alpha`` to ``alpha_end`` over ``episodes``:
            ``linear`` or ``exp`` (geometric). A self-play run at a constant rate drifts from
            checkpoint to checkpoint; a decaying one settles.
        tc: temporal coherence: each weight's rate is ``alpha`` (after the schedule) times
            ``|E| / A`` of the errors that reached it (see ``update_tc``).
        average: plays (evaluates and saves) an exponential moving average of the weights with
            this time constant in games (0: the weights themselves); self-play wanders from
            checkpoint to checkpoint and the average smooths it out.
        keep_checkpoints: also keep the network of every match (``nt.npz`` ->
            ``nt.at120000.npz``), to choose among them later on fresh games.
        epsilon: probability of a random move during self-play. 0.5 plays far better
            against wpc than the literature's 0.1 (one stage: about 0.89 against 0.6-0.75):
            the values cover the lines a perturbed opponent leads to.
        learn_random: also learn from the plies after random moves.
        seed: seeds the self-play rng.
        eval_every: games between matches against wpc (and checkpoints).
        eval_games: games of each of those matches (epsilon 0.1, colours swapped).
    """

    episodes: int = 960_000
    tuples: str = "standard"
    stages: int = 3
    alpha: float = 0.001
    alpha_end: float | None = 0.0002
    alpha_schedule: str = "exp"
    tc: bool = False
    average: int = 0
    keep_checkpoints: bool = False
    epsilon: float = 0.5
    learn_random: bool = True
    seed: int = 0
    eval_every: int = 40_000
    eval_games: int = 400


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
    resume: bool = False,
    on_progress: Callable[[int, dict[str, Any] | None], None] | None = None,
) -> dict[str, Any]:
    """Train, writing ``out`` at every evaluation and at the end (and the best network by
    score against wpc to :func:`best_path`); returns the last metadata.

    ``on_progress(episodes_done, eval_or_None)`` is called after every chunk. Ctrl-C saves the
    network before it stops.
    """
    from boardai.othello.match import play_match

    out = Path(out)
    done = 0
    history: list[dict[str, Any]] = []
    arrays: dict[str, np.ndarray] = {}
    if resume and out.exists():
        net, saved = load_model(out)
        done = int(saved.get("episodes", 0))
        history = list(saved.get("evals", []))
        state = np.uint64(int(saved.get("rng_state", config.seed)))
        arrays = load_arrays(out)
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
        zeros = np.zeros_like(net.weights)
        tc = (arrays.get("tc_e", zeros), arrays.get("tc_a", zeros.copy()))

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
        extra = {"tc_e": tc[0], "tc_a": tc[1]} if tc is not None else {}
        if played is not net:
            extra["train_weights"] = net.weights
        save_network(path, played, meta(), extra)

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
            if on_progress is not None:
                on_progress(done, ev)
    except KeyboardInterrupt:
        save(out)
        raise
    save(out)
    return meta()
