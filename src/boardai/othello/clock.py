"""A game clock: how long each move may take when a whole game has a time limit.

GTP controllers set the clock with ``time_settings main byo_yomi stones`` (main time, then
Canadian byo-yomi: ``stones`` moves in each period of ``byo_yomi`` seconds; no byo-yomi when
``stones`` is 0) and report what is left before a move with ``time_left colour seconds
stones`` (``stones`` > 0: in byo-yomi, that many moves still to make in the period).

A move gets an even share of the main time over the moves its side still has to make (about
half the empty squares; the last few are quick, so the share is over a few fewer), never more
than a third of what is left, plus part of a byo-yomi period's share; in byo-yomi, the period
divided by the moves it must hold. A margin is kept for the moves' own overhead and a
controller's lag.

>>> clock = Clock(main=300.0)
>>> round(clock.budget(empties=60), 2)  # 300 s over the 27 moves before the last three
9.95
>>> clock.left = 1.0
>>> round(clock.budget(empties=20), 3)  # a second for 7 moves: a share, after the margin
0.079
>>> Clock(main=0.0, byo_yomi=10.0, stones=5).budget(empties=30)  # 5 moves in 10 s each period
1.75
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: Seconds kept back from every budget (process and pipe overhead, a controller's lag).
MARGIN_S = 0.05
#: The smallest budget given: a search always finishes its first depth anyway.
MIN_BUDGET_S = 0.01
#: Moves at the end of a game that take almost no time (a solve of a few empties).
QUICK_MOVES = 3


@dataclass
class Clock:
    """One side's clock.

    Attributes:
        main: main time of the game, in seconds.
        byo_yomi: seconds of each byo-yomi period (0: none).
        stones: moves to make in each period (0: no byo-yomi, ``main`` is all there is).
        left: seconds left now (main time, or of the period in byo-yomi).
        left_stones: moves still to make in the current period (0: still in main time).
    """

    main: float
    byo_yomi: float = 0.0
    stones: int = 0
    left: float = math.nan
    left_stones: int = 0

    def __post_init__(self) -> None:
        if math.isnan(self.left):
            self.left = self.main
            if self.main <= 0 and self.stones > 0:  # no main time: byo-yomi from the start
                self.left, self.left_stones = self.byo_yomi, self.stones

    def budget(self, empties: int) -> float:
        """Seconds the next move may take, with ``empties`` empty squares on the board."""
        if self.left_stones > 0:  # in byo-yomi: the period over the moves it must hold
            share = self.left / self.left_stones
            return max(MIN_BUDGET_S, 0.9 * share - MARGIN_S)
        moves = max(1, math.ceil(empties / 2) - QUICK_MOVES)
        share = min(self.left / moves, self.left / 3)
        if self.stones > 0 and self.byo_yomi > 0:  # byo-yomi follows: part of it may go now
            share += 0.5 * self.byo_yomi / self.stones
        return max(MIN_BUDGET_S, 0.9 * share - MARGIN_S)

    def spent(self, seconds: float) -> None:
        """Count ``seconds`` of a move made (for a controller that sends no ``time_left``)."""
        if self.left_stones > 0:
            self.left -= seconds
            self.left_stones -= 1
            if self.left_stones == 0:  # the period's moves are made: a new period
                self.left, self.left_stones = self.byo_yomi, self.stones
            return
        self.left -= seconds
        if self.left <= 0 and self.stones > 0:  # main time is over: byo-yomi begins
            self.left, self.left_stones = self.byo_yomi, self.stones
