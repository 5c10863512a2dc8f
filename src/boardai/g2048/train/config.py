"""Hyperparameters of n-tuple TD training, one documented field each."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any

from boardai.g2048.downgrade import downgrade_exponent
from boardai.g2048.ntuple import Stage, parse_stages, stages_to_json
from boardai.g2048.train.episodes import METHODS


@dataclass
class TrainConfig:
    """How an n-tuple network learns 2048 (saved in the model file, restored by ``--resume``)."""

    patterns: str = "4x6"
    """Set name (4x6, 5x6, 8x6, 2x4+2x6, or 4x6-columns: the four 6-tuples of the original TD
    write-up; PATTERN_SETS in boardai.g2048.patterns), hex lists like 0123,4567, or @file (a
    pattern's cells in any order: the same learning, the first cell's 16 weights in one
    cache line)."""
    stages: tuple[Stage, ...] = ()
    """Multi-stage: thresholds where new weights start, a tile exponent or tiles joined by +
    (largest first); e.g. 14,14+13: one stage below 16384, one from 16384, one from 16384 with
    8192 on the board (a tuple ((14,), (14, 13)) reads the same); counted on the board as it
    is, before --downgrade."""
    method: str = field(default="backward", metadata={"choices": tuple(METHODS)})
    """backward: TD(0) updates from the end of each episode back to its start; backward-greedy:
    the same, re-choosing each next move with the current weights; online: forward TD(0);
    online-fast: forward TD(0) from the value each afterstate had when its move was chosen
    (TDL2048+'s default: one pass over its weights, not two)."""
    alpha: float = 0.1
    """Learning rate, split over the lookups (each looked-up weight moves by alpha * error /
    lookups)."""
    alpha_decay: float = 1.0
    """Multiply alpha by this every alpha-every episodes (1.0: constant)."""
    alpha_every: int = 10_000
    """Episodes between decays."""
    lam: float = 0.0
    """TD(lambda) (0: TD(0); backward method only)."""
    horizon: int = 5
    """Longest n-step return in TD(lambda)."""
    tc: bool = False
    """Temporal coherence learning: per-weight adaptive rates, 3x the memory (try alpha
    1.0)."""
    optimistic: float = 0.0
    """OTD: start every value at this (e.g. 320000), so that unseen boards get explored."""
    restart: float = 0.0
    """Start an episode from a late position of an earlier game with this probability."""
    restart_at: tuple[Stage, ...] = ()
    """With restart: restart from the first boards where games reach these thresholds (the
    form of stages; e.g. 14,14+13: the first 16384, and the first 16384 with 8192), a
    threshold at random, not from a random late board."""
    downgrade: int = 0
    """Read boards whose largest tile is at least this tile (16384) downgraded, as the player
    ntuple:...,downgrade=TILE does: a board missing a smaller tile reads with the tiles above
    the gap halved (boardai.g2048.downgrade), in play and in learning (0: off)."""
    pool_size: int = 1000
    """Positions kept for restarts (per thread)."""
    p4: float = 0.1
    """Probability of a spawned 4."""
    seed: int = 0
    """Rng seed: episode e uses spawn stream e of this seed."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Free-form notes kept in the model file."""

    def __post_init__(self) -> None:
        self.stages = parse_stages(self.stages)
        if self.method not in METHODS:
            raise ValueError(f"method must be one of {', '.join(METHODS)}, got {self.method!r}")
        if not 0 < self.alpha < math.inf:
            raise ValueError(f"alpha must be a finite number > 0, got {self.alpha}")
        if not math.isfinite(self.optimistic):
            raise ValueError(f"optimistic must be a finite number, got {self.optimistic}")
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
