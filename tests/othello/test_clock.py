"""A game clock over GTP (``time_settings``, ``time_left``): each move's budget comes from
what is left, a search keeps to it, and a game never runs out of time for want of a share."""

from __future__ import annotations

import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardai.othello import Board
from boardai.othello.agents import make_agent
from boardai.othello.clock import MIN_BUDGET_S, Clock
from boardai.othello.gtp import GTPServer


def _ok(server: GTPServer, line: str) -> str:
    answer = server.handle(line)
    assert answer is not None and answer.startswith("="), (line, answer)
    return answer[1:].strip()


class Recorder:
    """A player that notes each budget a clock gives it (instant moves)."""

    def __init__(self) -> None:
        self.budgets: list[float | None] = []
        self.name = "recorder"

    def limit_time(self, seconds: float | None) -> None:
        self.budgets.append(seconds)

    def act(self, state: Board) -> int:
        return state.legal_actions()[0]

    def reset(self) -> None:
        pass

    def reseed(self, seed: int) -> None:
        pass


@given(
    main=st.floats(0, 3600),
    byo_yomi=st.floats(0, 60),
    stones=st.integers(0, 25),
    left=st.floats(0, 3600),
    left_stones=st.integers(0, 25),
    empties=st.integers(1, 60),
)
def test_a_budget_never_exceeds_what_is_left(
    main: float, byo_yomi: float, stones: int, left: float, left_stones: int, empties: int
) -> None:
    clock = Clock(main, byo_yomi, stones, left=left, left_stones=left_stones if stones else 0)
    budget = clock.budget(empties)
    assert budget >= MIN_BUDGET_S
    if clock.left_stones:  # in byo-yomi: the period spread over its moves
        assert budget <= max(MIN_BUDGET_S, clock.left / clock.left_stones)
    else:  # main time: at most a third of it, and a little of byo-yomi's first period
        extra = 0.5 * byo_yomi / stones if stones and byo_yomi else 0.0
        assert budget <= max(MIN_BUDGET_S, clock.left / 3 + extra)


def test_a_whole_game_on_the_clock_keeps_within_it() -> None:
    clock = Clock(main=60.0)
    board = Board.initial()
    used = 0.0
    while not board.is_terminal():  # each side spends all its budget, every move
        empties = 64 - (board.mover | board.opponent).bit_count()
        if board.to_move == board.initial().to_move:
            spend = clock.budget(empties)
            clock.spent(spend)
            used += spend
        board = board.play(board.legal_actions()[0])
    assert 40.0 < used < 60.0  # most of the time is used, and never more than there is
    assert clock.left > 0


def test_byo_yomi_starts_when_main_time_is_over_and_renews_each_period() -> None:
    clock = Clock(main=1.0, byo_yomi=10.0, stones=2)
    clock.spent(1.5)
    assert (clock.left, clock.left_stones) == (10.0, 2)
    clock.spent(3.0)
    assert (clock.left, clock.left_stones) == (7.0, 1)
    clock.spent(3.0)
    assert (clock.left, clock.left_stones) == (10.0, 2)  # the period's moves made: a new one


def test_the_server_gives_the_player_each_moves_budget() -> None:
    player = Recorder()
    server = GTPServer(player)
    _ok(server, "genmove black")
    assert player.budgets == [None]  # no clock: the player's own limit
    _ok(server, "time_settings 120 0 0")
    _ok(server, "genmove white")
    assert player.budgets[-1] == pytest.approx(0.9 * 120 / (30 - 3) - 0.05, rel=0.01)
    _ok(server, "time_left black 2 0")
    _ok(server, "genmove black")
    assert player.budgets[-1] < 0.3  # two seconds for the rest of the game
    _ok(server, "time_left white 10 5")  # byo-yomi: 5 moves in 10 s
    _ok(server, "genmove white")
    assert player.budgets[-1] == pytest.approx(0.9 * 2 - 0.05)
    _ok(server, "time_settings 0 1 0")  # GTP: byo-yomi without stones means no limit
    _ok(server, "genmove black")
    assert player.budgets[-1] is None
    for bad in ("time_settings 10 0", "time_settings x 0 0", "time_settings -1 0 0",
                "time_left black nan 0", "time_left purple 1 0"):  # fmt: skip
        answer = server.handle(bad)
        assert answer is not None and answer.startswith("?"), bad


def test_a_deep_search_keeps_to_the_clock() -> None:
    # depth 60 with no time of its own: without the clock a move would not end
    server = GTPServer(make_agent("alphabeta:depth=60,endgame=0"))
    _ok(server, "time_settings 300 0 0")
    _ok(server, "time_left black 1.5 0")
    start = time.perf_counter()
    move = _ok(server, "genmove black")
    assert move.upper() in ("D3", "C4", "F5", "E6")
    assert time.perf_counter() - start < 5.0  # its share of 1.5 s, with room for a busy box


def test_a_move_past_the_main_time_flags_the_clock() -> None:
    clock = Clock(main=1.0)
    clock.spent(0.6)
    assert not clock.flagged
    clock.spent(0.5)
    assert clock.flagged


def test_byo_yomi_flags_a_move_longer_than_a_period_or_a_period_overrun() -> None:
    clock = Clock(main=1.0, byo_yomi=2.0, stones=2)
    clock.spent(2.9)  # 1.9 s past the main time: within the first period
    assert not clock.flagged and clock.left_stones == 2
    clock = Clock(main=1.0, byo_yomi=2.0, stones=2)
    clock.spent(3.1)  # 2.1 s past the main time: more than a period
    assert clock.flagged
    clock = Clock(main=0.0, byo_yomi=2.0, stones=2)
    clock.spent(1.5)
    clock.spent(0.6)  # the period's second move, 0.1 s after its end
    assert clock.flagged and clock.left < 0  # not renewed: the flag fell in this period


class Slow:
    """A player that thinks ``seconds`` a move and notes each budget it is given."""

    def __init__(self, seconds: float) -> None:
        self.seconds, self.name = seconds, "slow"
        self.budgets: list[float | None] = []

    def limit_time(self, seconds: float | None) -> None:
        self.budgets.append(seconds)

    def act(self, state: Board) -> int:
        time.sleep(self.seconds)
        return state.legal_actions()[0]

    def reset(self) -> None:
        pass

    def reseed(self, seed: int) -> None:
        pass


def test_a_player_whose_clock_runs_out_loses_the_game() -> None:
    from boardai.arena.match import play_game
    from boardai.othello.board import BLACK
    from boardai.othello.clock import Clocked

    slow = Slow(0.05)
    black = Clocked(slow, Clock(main=0.3))
    white = Clocked(make_agent("random", seed=1), Clock(main=0.3))
    game, forfeit = play_game(black, white)
    assert forfeit is not None and forfeit.startswith("slow (black) lost on time")
    assert game.board.to_move == BLACK  # the game stops with the loser to move
    assert 1 <= black.times.moves <= 7  # 0.3 s of 0.05 s moves (or fewer, slower), the last past it
    assert black.times.slowest >= 0.05 and black.times.seconds >= 0.3
    assert len(slow.budgets) == black.times.moves  # each move was given its share first
    assert all(b is not None and b <= 0.3 / 3 for b in slow.budgets)
    assert white.times.moves == black.times.moves - 1


def test_a_gtp_engine_is_told_the_clock_once_a_game_and_before_each_move() -> None:
    from boardai.othello.agents.gtp_engine import GTPAgent, GTPOptions
    from boardai.othello.gtp import EngineRefusedError

    class Engine:
        """Stands in for the engine's client: notes the commands, refuses some."""

        def __init__(self, refuse: str = "") -> None:
            self.sent: list[str] = []
            self.refuse = refuse
            self.proc = self  # poll(): still running

        def poll(self) -> None:
            return None

        def send(self, command: str) -> str:
            self.sent.append(command)
            if self.refuse and command.startswith(self.refuse):
                raise EngineRefusedError(command)
            return ""

    agent = GTPAgent(GTPOptions(cmd="unused"))
    agent.client = engine = Engine()  # type: ignore[assignment]
    clock = Clock(main=90.7, byo_yomi=10.0, stones=5)
    agent.tell_clock(clock, 0)
    clock.spent(20.5)
    agent.tell_clock(clock, 0)
    assert engine.sent == ["time_settings 90 10 5", "time_left black 90 0", "time_left black 70 0"]
    agent.reset()
    agent.tell_clock(Clock(main=5.0), 1)  # a new game: its settings again
    assert engine.sent[-3:] == ["clear_board", "time_settings 5 0 0", "time_left white 5 0"]
    agent.client = engine = Engine(refuse="time_settings")
    agent.reset()
    agent.tell_clock(clock, 0)
    agent.tell_clock(clock, 0)  # it keeps no clock: not told again
    assert engine.sent == ["clear_board", "time_settings 90 10 5"]
