"""The learners a sweep can run, by name: each one's config, training run, files and final
strength, behind one small interface.

Every learner has the training run of :mod:`boardai.learn.run`
(``train(config, out, *, resume, on_progress, should_stop)``); what differs is its config
dataclass, the option that sets the run's length, how its model is measured once trained, and
how the model goes into the model store. The heavy modules are imported only when a learner is
used.

>>> learner("2048-ntuple").length
'episodes'
>>> learner("go")
Traceback (most recent call last):
boardai.errors.UsageError: unknown trainer 'go' (trainers: 2048-ntuple, othello-ntuple)
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boardai.errors import UsageError

#: The model file a trial writes in its folder.
MODEL = "model.npz"
#: The most games an [eval] may ask for: each trial's scores are held in memory (24 bytes a
#: game), and a million 1-ply games already take hours a trial.
MOST_EVAL_GAMES = 1_000_000


@dataclass(frozen=True)
class Evaluation:
    """How a trained model is measured: ``games`` seeded games from ``seed``."""

    games: int = 200
    """Games per trial."""
    seed: int = 2024
    """Seed of the games (the same games for every trial)."""

    def __post_init__(self) -> None:
        if not 1 <= self.games <= MOST_EVAL_GAMES:
            raise ValueError(f"games must be in 1..{MOST_EVAL_GAMES:,}, got {self.games:,}")
        if self.seed < 0:
            raise ValueError(f"seed must be >= 0, got {self.seed}")


@dataclass(frozen=True)
class Learner:
    """What a sweep needs to know of one learner."""

    name: str
    """As a sweep file names it (``trainer = "2048-ntuple"``)."""
    length: str
    """The config option that sets how long a run trains."""
    metric: str
    """What :attr:`evaluate` measures (higher is better)."""
    config: Callable[[], type]
    """The config dataclass."""
    check: Callable[[Any], None]
    """Raises UsageError for a config that would only fail once its run starts."""
    train: Callable[..., dict[str, Any]]
    """The training run (see :mod:`boardai.learn.run`)."""
    evaluate: Callable[[Path, Evaluation], dict[str, Any]]
    """The model file's strength: ``value``, ``se``, ``games`` and the learner's own keys."""
    ship: str
    """How the model goes into the model store (``{model}``: its file)."""


# -- 2048 n-tuple TD ----------------------------------------------------------------------


def _ntuple_config() -> type:
    from boardai.g2048.train.ntuple_run import NTupleRun

    return NTupleRun


def _ntuple_check(config: Any) -> None:
    from boardai.g2048.patterns import parse_patterns

    parse_patterns(config.patterns)
    if config.add_patterns:
        raise UsageError("add_patterns grows a saved network: a sweep trains new ones")


def _ntuple_train(*args: Any, **kwargs: Any) -> dict[str, Any]:
    from boardai.g2048.train.ntuple_run import train

    return train(*args, **kwargs)


def _ntuple_evaluate(model: Path, evaluation: Evaluation) -> dict[str, Any]:
    """1-ply play of ``boardai 2048 bench ntuple --episodes 0``: average score ± standard error."""
    from boardai.g2048.stats import summarize
    from boardai.g2048.train.trainer import Trainer

    scores, maxes, moves = Trainer.load(model).play(evaluation.games, evaluation.seed)
    s = summarize(scores, moves)
    out: dict[str, Any] = {"value": s.mean, "se": s.sem, "games": s.games, "median": s.median}
    out["max"] = s.max
    for tile in (2048, 4096, 8192, 16384, 32768):
        out[f"reach_{tile}"] = float((maxes >= tile.bit_length() - 1).mean())
    out["moves_mean"] = s.moves_mean
    return out


# -- Othello n-tuple TD -------------------------------------------------------------------


def _othello_config() -> type:
    from boardai.othello.train.ntuple_trainer import NTupleConfig

    return NTupleConfig


def _othello_check(config: Any) -> None:
    from boardai.othello.ntuple import parse_tuples

    parse_tuples(config.tuples)


def _othello_train(*args: Any, **kwargs: Any) -> dict[str, Any]:
    from boardai.othello.train.ntuple_trainer import train

    return train(*args, **kwargs)


#: Exploring moves in the matches against wpc, as the training run's own checks play them.
OTHELLO_EPSILON = 0.1


def _othello_evaluate(model: Path, evaluation: Evaluation) -> dict[str, Any]:
    """A match against ``wpc`` (colours swapped, epsilon 0.1), as the run's own checks."""
    from boardai.arena.match import play_match

    r = play_match(
        f"ntuple:model={os.fspath(model)}",
        "wpc",
        evaluation.games,
        epsilon=OTHELLO_EPSILON,
        seed=evaluation.seed,
    )
    return {"value": r.score, "se": r.score_se, "games": r.games, "wins": r.wins}


LEARNERS = {
    learner.name: learner
    for learner in (
        Learner(
            name="2048-ntuple",
            length="episodes",
            metric="average score, 1-ply",
            config=_ntuple_config,
            check=_ntuple_check,
            train=_ntuple_train,
            evaluate=_ntuple_evaluate,
            ship="boardai models compact {model} models/NAME.npz",
        ),
        Learner(
            name="othello-ntuple",
            length="episodes",
            metric=f"score vs wpc (epsilon {OTHELLO_EPSILON})",
            config=_othello_config,
            check=_othello_check,
            train=_othello_train,
            evaluate=_othello_evaluate,
            ship="cp {model} models/NAME.npz",
        ),
    )
}


def learner(name: str) -> Learner:
    """The learner called ``name`` (UsageError naming the others if there is none)."""
    if name not in LEARNERS:
        raise UsageError(f"unknown trainer {name!r} (trainers: {', '.join(LEARNERS)})")
    return LEARNERS[name]
