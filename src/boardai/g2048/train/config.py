"""Hyperparameters of n-tuple TD training, one documented field each."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from boardai.g2048.downgrade import downgrade_exponent
from boardai.g2048.ntuple import Stage, parse_stages, stages_to_json
from boardai.g2048.train.episodes import METHODS


@dataclass
class TrainConfig:
    """How an n-tuple network learns 2048 (saved in the model file, restored by ``--resume``)."""

    patterns: str = "4x6"
    """A name in :data:`boardai.g2048.patterns.PATTERN_SETS` or hex cell lists (``0123,4567``)."""
    stages: tuple[Stage, ...] = ()
    """Multi-stage: thresholds where a new set of weights starts, tiles largest first
    (``((14,), (14, 13))``: from 16384 up, and from 16384 with 8192 up); ints, ``"14+13"``
    strings and ``"14,14+13"`` are read too."""
    method: str = "backward"
    """``backward`` (seed 004: update from the end of each episode), ``backward-greedy`` (seed
    004 to the letter: re-choose the next move with current weights), or ``online``."""
    alpha: float = 0.1
    """Learning rate; each looked-up weight moves by ``alpha * error / lookups``."""
    alpha_decay: float = 1.0
    """Alpha is multiplied by this every ``alpha_every`` episodes (1.0: constant)."""
    alpha_every: int = 10_000
    """Episodes between alpha decays."""
    lam: float = 0.0
    """TD(lambda): 0 is TD(0); backward methods only."""
    horizon: int = 5
    """Longest n-step return inside the lambda return (used when ``lam > 0``)."""
    tc: bool = False
    """Temporal coherence: per-weight adaptive rates (3x the memory)."""
    optimistic: float = 0.0
    """OTD: every board starts worth this much (e.g. 320000), so unseen boards get explored."""
    restart: float = 0.0
    """Probability that an episode starts from a late position of an earlier game."""
    restart_at: tuple[Stage, ...] = ()
    """Carousel restarts: thresholds in the form of ``stages`` (``((14,),)``: the first 16384;
    ``"14,14+13"``: also the first 16384 with 8192). Every episode that reaches a threshold
    from below keeps the first board that reaches it, and a restart starts from a board of
    one threshold, chosen at random. Empty: from a random late board of a fresh game."""
    downgrade: int = 0
    """0, or a tile (16384): the network reads every afterstate whose largest tile is at least
    this downgraded (:mod:`boardai.g2048.downgrade`), in play and in learning, as the player
    ``ntuple:...,downgrade=16384`` reads its leaves."""
    pool_size: int = 1000
    """Positions kept for restarts (per thread)."""
    p4: float = 0.1
    """Probability that a spawned tile is a 4."""
    seed: int = 0
    """Episode ``e`` uses spawn stream ``e`` of this seed."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Free-form notes kept in the model file."""

    def __post_init__(self) -> None:
        self.stages = parse_stages(self.stages)
        if self.method not in METHODS:
            raise ValueError(f"method must be one of {', '.join(METHODS)}, got {self.method!r}")
        if not self.alpha > 0:
            raise ValueError(f"alpha must be > 0, got {self.alpha}")
        if not 0 < self.alpha_decay <= 1:
            raise ValueError(f"alpha_decay must be in (0, 1], got {self.alpha_decay}")
        if self.alpha_every < 1:
            raise ValueError(f"alpha_every must be >= 1, got {self.alpha_every}")
        if not 0 <= self.lam <= 1:
            raise ValueError(f"lambda must be in [0, 1], got {self.lam}")
        if self.lam > 0 and self.method != "backward":
            raise ValueError("lambda > 0 needs method 'backward'")
        if not 1 <= self.horizon <= 1000:
            raise ValueError(f"horizon must be in 1..1000, got {self.horizon}")
        if not 0 <= self.restart < 1:
            raise ValueError(f"restart must be in [0, 1), got {self.restart}")
        self.restart_at = parse_stages(self.restart_at)
        if self.restart_at and not self.restart:
            raise ValueError("restart thresholds need a restart probability above 0")
        downgrade_exponent(self.downgrade)  # raises for a bad tile
        if self.pool_size < 1:
            raise ValueError(f"pool_size must be >= 1, got {self.pool_size}")
        if not 0 <= self.p4 <= 1:
            raise ValueError(f"p4 must be in [0, 1], got {self.p4}")
        if not 0 <= self.seed < 2**64:
            raise ValueError(f"seed must be in 0..2^64-1, got {self.seed}")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        d = dataclasses.asdict(self)
        d["stages"] = stages_to_json(self.stages)
        d["restart_at"] = stages_to_json(self.restart_at)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TrainConfig:
        """Inverse of :meth:`to_dict` (unknown keys are ignored, missing ones default)."""
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})
