"""Results of matches between two players: one :class:`GameOutcome` per game, a
:class:`MatchResult` per match (wins, draws, losses, score ± standard error), and Elo ratings
for a round robin.

>>> outcomes = [GameOutcome(0, 0, 1.0, 10, 60), GameOutcome(1, 1, 0.5, 0, 60)]
>>> r = summarize("a", "b", outcomes, seconds=1.0, epsilon=0.0)
>>> (r.wins, r.draws, r.losses, r.score)
(1, 1, 0, 0.75)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np


@dataclass
class GameOutcome:
    """One game of a match, from player A's point of view."""

    index: int
    a_color: int
    score: float  #: 1 win, 0.5 draw, 0 loss for A
    disc_diff: int  #: A's final disc difference (empties to the winner)
    moves: int
    forfeit: str | None = None  #: why a player lost by forfeit (a crashed engine), if one did
    record: dict[str, Any] | None = None
    #: Seconds each player thought in all, over how many of its moves, and its slowest move
    #: (a random move of epsilon is not the player's; a game of an older journal has none).
    a_seconds: float = 0.0
    a_moves: int = 0
    a_slowest: float = 0.0
    b_seconds: float = 0.0
    b_moves: int = 0
    b_slowest: float = 0.0


@dataclass
class MatchResult:
    """Totals of a match for player A against player B."""

    a: str
    b: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    score_se: float
    disc_diff: float
    moves: int
    seconds: float
    epsilon: float
    forfeits: list[str] = field(default_factory=list)
    #: Each player's mean and slowest seconds a move over the games that timed them.
    a_seconds_a_move: float = math.nan
    b_seconds_a_move: float = math.nan
    a_slowest: float = math.nan
    b_slowest: float = math.nan

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds if self.seconds > 0 else math.nan

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``--json``: NaN (a figure with no games behind it) as None."""
        from boardai.arena.results import json_finite

        d = asdict(self)
        d["moves_per_second"] = self.moves_per_second
        return json_finite(d)


def summarize(
    a: str, b: str, outcomes: Sequence[GameOutcome], seconds: float, epsilon: float
) -> MatchResult:
    """Wins, draws, losses, score ± standard error and mean disc difference for A."""
    s = np.array([o.score for o in outcomes], np.float64)
    n = len(s)
    a_moves, b_moves = sum(o.a_moves for o in outcomes), sum(o.b_moves for o in outcomes)
    se = float(s.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    return MatchResult(
        a=a,
        b=b,
        games=n,
        wins=int((s == 1).sum()),
        draws=int((s == 0.5).sum()),
        losses=int((s == 0).sum()),
        score=float(s.mean()) if n else math.nan,
        score_se=se,
        disc_diff=float(np.mean([o.disc_diff for o in outcomes])) if n else math.nan,
        moves=sum(o.moves for o in outcomes),
        seconds=seconds,
        epsilon=epsilon,
        forfeits=[o.forfeit for o in outcomes if o.forfeit],
        a_seconds_a_move=sum(o.a_seconds for o in outcomes) / a_moves if a_moves else math.nan,
        b_seconds_a_move=sum(o.b_seconds for o in outcomes) / b_moves if b_moves else math.nan,
        a_slowest=max((o.a_slowest for o in outcomes if o.a_moves), default=math.nan),
        b_slowest=max((o.b_slowest for o in outcomes if o.b_moves), default=math.nan),
    )


def elo_ratings(
    names: Sequence[str], scores: dict[tuple[int, int], tuple[float, int]], iters: int = 2000
) -> list[float]:
    """Elo ratings (mean 1500) that best explain the pairwise scores (a Bradley-Terry fit).

    ``scores[(i, j)] = (points of i against j, games)``.

    >>> a, b = elo_ratings(["a", "b"], {(0, 1): (7.5, 10)})
    >>> a > 1500 > b
    True
    """
    n = len(names)
    r = np.zeros(n)
    for _ in range(iters):
        grad = np.zeros(n)
        for (i, j), (pts0, g0) in scores.items():
            pts, g = pts0 + 0.5, g0 + 1  # one pseudo-draw per pair keeps 100% scores finite
            expected = g / (1 + 10 ** ((r[j] - r[i]) / 400))
            grad[i] += pts - expected
            grad[j] -= pts - expected
        r += 4.0 * grad / max(1, max(g for _, g in scores.values()))
        r -= r.mean()
    return [float(1500 + x) for x in r]
