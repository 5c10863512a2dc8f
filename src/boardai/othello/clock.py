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

A match under a game clock (``boardai othello match --clock``) plays each player through
:class:`Clocked`: a search (:class:`~boardai.agent.Timed`) is given each move's budget, an
engine that keeps its own time (:class:`KeepsTime`: a GTP engine) is told what is left, and a
player whose clock runs out loses the game (:class:`OutOfTimeError`).

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
import time
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from boardai.agent import Agent, Timed

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
        flagged: a move took more time than was left (main time with no byo-yomi after it,
            more than a byo-yomi period, or a period's last move after its time).
    """

    main: float
    byo_yomi: float = 0.0
    stones: int = 0
    left: float = math.nan
    left_stones: int = 0
    flagged: bool = False

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
            self.flagged |= self.left < 0
            if self.left_stones == 0 and not self.flagged:  # the period's moves are made
                self.left, self.left_stones = self.byo_yomi, self.stones
            return
        over = seconds - self.left  # how far the move ran past the main time
        self.left -= seconds
        if self.left <= 0 and self.stones > 0:  # main time is over: byo-yomi begins
            self.flagged |= over > self.byo_yomi
            self.left, self.left_stones = self.byo_yomi, self.stones
        else:
            self.flagged |= self.left < 0


@runtime_checkable
class KeepsTime(Protocol):
    """A player that keeps its own clock (an engine over GTP): it is told the game's time
    settings and what is left before each of its moves, and budgets its moves itself."""

    def tell_clock(self, clock: Clock, color: int) -> None:
        """``clock`` is the time of ``color``, the side about to move."""
        ...


class OutOfTimeError(Exception):
    """A player's clock ran out during its move: it loses the game."""


def give_budget(agent: object, clock: Clock | None, board: Any) -> None:
    """Before a move on ``board``: a search gets the move's share of ``clock`` (None: no clock,
    its own limit alone), an engine that keeps its own time is told the clock."""
    if isinstance(agent, KeepsTime):
        if clock is not None:
            agent.tell_clock(clock, board.to_move)
    elif isinstance(agent, Timed):
        empties = 64 - (board.mover | board.opponent).bit_count()
        agent.limit_time(None if clock is None else clock.budget(empties))


@dataclass
class MoveTimes:
    """Seconds a player took over its moves: in all, how many moves, the slowest."""

    seconds: float = 0.0
    moves: int = 0
    slowest: float = 0.0

    def add(self, seconds: float) -> None:
        self.seconds += seconds
        self.moves += 1
        self.slowest = max(self.slowest, seconds)


class Clocked:
    """``agent`` playing under ``clock`` (None: no clock, its moves only timed): each move is
    given its budget (:func:`give_budget`), timed into :attr:`times`, and charged to the clock;
    a move that runs the clock out raises :class:`OutOfTimeError`."""

    def __init__(self, agent: Agent[Any], clock: Clock | None = None) -> None:
        self.agent = agent
        self.name = agent.name
        self.clock = clock
        self.times = MoveTimes()

    def reset(self) -> None:
        self.agent.reset()

    def reseed(self, seed: int) -> None:
        self.agent.reseed(seed)

    def act(self, state: Any) -> int:
        clock = self.clock
        if clock is not None:
            give_budget(self.agent, clock, state)
        start = time.perf_counter()
        action = self.agent.act(state)
        seconds = time.perf_counter() - start
        self.times.add(seconds)
        if clock is not None:
            left = clock.left
            clock.spent(seconds)
            if clock.flagged:
                raise OutOfTimeError(f"a move took {seconds:.2f} s with {left:.2f} s left")
        return action
