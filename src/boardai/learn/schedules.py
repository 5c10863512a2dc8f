"""Exploration strategies for value-based learners, all over legal-move masks.

Every strategy picks actions for a batch of states from their Q values ``q`` (N x A) and
legal masks (N x A, bool); an illegal action is never picked. ``step`` counts env steps.

- ``constant``: epsilon-greedy with a fixed epsilon (seed 000: 0.1).
- ``linear``: epsilon falls linearly from ``start`` to ``end`` over ``decay`` steps.
- ``exponential``: the PyTorch DQN tutorial's ``end + (start - end) * exp(-step / decay)``
  (seed 003's "torch_version").
- ``lai_robbins``: seed 003's ``eta / (1 + nu * t(a))`` with t(a) the times the greedy
  action a was taken: exploration fades per action as it gets tried.
- ``entropy``: seed 003's softmax over the legal actions of ``beta(a) * Q(s, a)`` with
  ``beta(a) = alpha * log(t(a) + 1)``: random at first, greedier as actions get used.

>>> import numpy as np
>>> s = make_strategy("linear", start=1.0, end=0.1, decay=100)
>>> s.epsilon(50)
0.55
>>> q = np.array([[1.0, 5.0, 2.0, 0.0]]); legal = np.array([[True, False, True, True]])
>>> int(make_strategy("constant", start=0.0).select(q, legal, 0, np.random.default_rng(0))[0])
2
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

STRATEGIES = ("constant", "linear", "exponential", "lai_robbins", "entropy")
#: The shapes of :func:`anneal`.
ANNEALS = ("linear", "exp")


def anneal(start: float, end: float, fraction: float, kind: str = "linear") -> float:
    """A rate (learning rate, epsilon) ``fraction`` of the way from ``start`` to ``end``
    (``fraction`` clamped to [0, 1]): ``linear``, or ``exp`` (geometric: equal ratios in equal
    steps; ``start`` and ``end`` of one sign).

    >>> anneal(1.0, 0.5, 0.5), anneal(0.01, 0.0001, 0.5, "exp"), anneal(1.0, 0.5, 7.0)
    (0.75, 0.001, 0.5)
    """
    f = min(max(fraction, 0.0), 1.0)
    if kind == "linear":
        return start + f * (end - start)
    if kind == "exp":
        return float(start * (end / start) ** f)
    raise ValueError(f"unknown schedule {kind!r} (use {', '.join(ANNEALS)})")


def masked_argmax(q: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """Per row, the legal action of highest Q (action 0 for a row with no legal action)."""
    return np.where(legal, q, -np.inf).argmax(axis=1)


def random_legal(legal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Per row, a uniformly random legal action (action 0 for a row with none)."""
    keys = rng.random(legal.shape) * legal
    return keys.argmax(axis=1)


@dataclass
class Strategy:
    """An exploration strategy; see the module docstring for the kinds.

    Args:
        kind: one of :data:`STRATEGIES`.
        start, end, decay: epsilon schedule (``constant`` uses ``start``).
        eta, nu: Lai-Robbins constants (seed 003: 0.8 and 0.01).
        alpha: entropy strategy's temperature scale (seed 003: 1).
    """

    kind: str = "linear"
    start: float = 1.0
    end: float = 0.01
    decay: float = 100_000
    eta: float = 0.8
    nu: float = 0.01
    alpha: float = 1.0
    #: Times each action was played (Lai-Robbins and entropy); sized on first use.
    counts: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))

    def __post_init__(self) -> None:
        if self.kind not in STRATEGIES:
            raise ValueError(
                f"unknown exploration {self.kind!r} (choose from {', '.join(STRATEGIES)})"
            )
        if not (0.0 <= self.end <= 1.0 and 0.0 <= self.start <= 1.0):
            raise ValueError("epsilon start and end must be in [0, 1]")
        if self.decay <= 0:
            raise ValueError(f"epsilon decay must be > 0, got {self.decay}")

    def epsilon(self, step: int) -> float:
        """The epsilon of the ``constant``/``linear``/``exponential`` kinds at ``step``."""
        if self.kind == "linear":
            return anneal(self.start, self.end, step / self.decay)
        if self.kind == "exponential":
            return self.end + (self.start - self.end) * math.exp(-step / self.decay)
        return self.start

    def select(
        self,
        q: np.ndarray,
        legal: np.ndarray,
        step: int,
        rng: np.random.Generator,
        greedy: np.ndarray | None = None,
    ) -> np.ndarray:
        """Actions for every row; rows where ``greedy`` is True play the masked argmax."""
        legal = legal.astype(bool)
        if len(self.counts) != q.shape[1]:
            self.counts = np.zeros(q.shape[1], np.int64)
        best = masked_argmax(q, legal)
        if self.kind == "entropy":
            beta = self.alpha * np.log(self.counts + 1.0)
            logits = np.where(legal, beta[None, :] * q, -np.inf)
            logits[~legal.any(axis=1)] = 0.0  # a finished board: no NaN (its action is ignored)
            logits -= logits.max(axis=1, keepdims=True)
            p = np.exp(logits)
            p /= p.sum(axis=1, keepdims=True)
            u = rng.random((len(q), 1))
            acts = np.minimum((p.cumsum(axis=1) < u).sum(axis=1), q.shape[1] - 1)
            acts = np.where(legal[np.arange(len(q)), acts], acts, best)
        else:
            if self.kind == "lai_robbins":
                eps = self.eta / (1.0 + self.nu * self.counts[best])
            else:
                eps = np.full(len(q), self.epsilon(step))
            explore = rng.random(len(q)) < eps
            acts = np.where(explore, random_legal(legal, rng), best)
        if greedy is not None:
            acts = np.where(greedy, best, acts)
        np.add.at(self.counts, acts, 1)
        return acts


def make_strategy(kind: str, **kwargs: Any) -> Strategy:
    """A :class:`Strategy` of ``kind`` (raises ValueError for bad settings)."""
    return Strategy(kind, **kwargs)
