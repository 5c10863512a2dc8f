"""Game sessions: one game being played on a screen, shared by the web app and the terminal app.

A session holds the game, its undo history, the players it asked for hints or moves, and
what a screen needs to draw it (:meth:`state`). Every mistake a user can make (an illegal
move, a bad player spec) raises :class:`~boardai.errors.UsageError` with a one-line message.

>>> s = Session2048(seed=1)
>>> s.move(s.game.board.legal_actions()[0])
>>> s.hint("random")["action"] in s.game.board.legal_actions()
True
>>> s.state()["moves"]
1
"""

from __future__ import annotations

import contextlib
import copy
import logging
import math
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from boardai.errors import UsageError
from boardai.ui.tiles import TileTracker

if TYPE_CHECKING:
    from boardai.agent import Agent
    from boardai.g2048.board import Board as Board2048
    from boardai.othello.board import Board as BoardOthello

log = logging.getLogger(__name__)

#: The positions of a game (a 2048 or an Othello board).
S = TypeVar("S")

#: Builds a player from a spec and a seed.
MakeAgent = Callable[[str, "int | None"], "Agent[S]"]

#: Tile that wins 2048 (play goes on after it).
WIN_TILE = 2048


def int_field(
    msg: dict[str, Any], key: str, lo: int, hi: int, default: int | None = None
) -> int | None:
    """The whole number ``msg[key]`` in ``lo..hi`` (``default`` if absent) of a client's
    message (UsageError if it is anything else)."""
    value = msg.get(key, default)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise UsageError(f"{key!r} must be an integer in {lo}..{hi}")
    return value


def str_field(msg: dict[str, Any], key: str, default: str | None = None) -> str:
    """The non-empty text ``msg[key]`` (``default`` if absent) of a client's message
    (UsageError if it is anything else)."""
    value = msg.get(key, default)
    if not isinstance(value, str) or not value.strip():
        raise UsageError(f"{key!r} must be a non-empty string")
    return value


def evaluation(agent: Agent[S], state: S) -> list[float | None] | None:
    """The player's value of each action in ``state``, if it exposes one (call after ``act``).

    A player may define ``action_values(state)`` returning one number per action, or keep
    its last search in ``last.values`` (as expectimax does); an illegal action's value is
    None, NaN or infinite. Players with neither give None.
    """
    fn = getattr(agent, "action_values", None)
    values = fn(state) if fn is not None else getattr(getattr(agent, "last", None), "values", None)
    if values is None:
        return None
    return [float(v) if v is not None and math.isfinite(v) else None for v in values]


def keep(session: Any, sink: Any, source: str) -> bool:
    """Save a played session's game to ``sink`` once (replays and games without a move are
    not saved); ``source`` (``web``, ``tui``) goes into the record. False if the sink said it
    did not keep it (a full queue: :class:`~boardai.ui.web.protocol.BackgroundSink`)."""
    if session.kind == "replay" or session.saved or not session.game.moves:
        return True
    record = session.record()
    record["source"] = source
    kept = sink.save(record) is not False
    session.saved = True
    return kept


class AgentCache(Generic[S]):
    """Players built from specs once per session (they may hold caches, loaded models or an
    engine's process); the least recently used goes (and is closed) when more than
    :attr:`SIZE` are asked for.

    A player is lent to one caller at a time (:meth:`use`): one asked for while it is lent
    (a cancelled search still thinking with it) is built anew, so no two threads ever share
    one. A ``budget`` (:class:`~boardai.ui.web.players.PlayerBudget`) may take back idle
    players to bound the memory of all sessions together; they are built again if asked for.

    Args:
        make: builds a player from a spec and a seed.
        seed: the seed each player is built with.
        budget: what the players' memory is charged to (None: nothing).
    """

    SIZE = 4

    def __init__(self, make: MakeAgent[S], seed: int | None, budget: Any = None) -> None:
        self._make = make
        self._seed = seed
        self._budget = budget
        self._agents: dict[str, Agent[S]] = {}  # the idle ones, least recently used first
        self._lock = threading.Lock()
        self._closed = False

    @staticmethod
    def _spec(spec: str) -> str:
        if not isinstance(spec, str) or not spec.strip():
            raise UsageError("no player given")
        return spec.strip()

    def get(self, spec: str) -> Agent[S]:
        """The player ``spec`` names, built if need be and kept (UsageError for a bad spec)."""
        with self.use(spec) as agent:
            return agent

    @contextlib.contextmanager
    def use(self, spec: str) -> Iterator[Agent[S]]:
        """Lend the player ``spec`` names for the block, then keep it for the next caller."""
        spec = self._spec(spec)
        with self._lock:
            agent = self._agents.pop(spec, None)
        if self._budget is not None and agent is not None:
            self._budget.lent(self, spec)
        if agent is None:
            agent = self._make(spec, self._seed)
        try:
            yield agent
        finally:
            self._give_back(spec, agent)

    def _give_back(self, spec: str, agent: Agent[S]) -> None:
        dropped: dict[str, Agent[S]] = {}
        kept = False
        with self._lock:
            if self._closed or spec in self._agents:  # closed, or built anew meanwhile
                dropped[""] = agent
            else:
                self._agents[spec] = agent  # most recently used last
                kept = True
                while len(self._agents) > self.SIZE:
                    old = next(iter(self._agents))
                    dropped[old] = self._agents.pop(old)
        # the budget is told outside the lock: it may take players back from other sessions
        for old, gone in dropped.items():
            if self._budget is not None and old:
                self._budget.lent(self, old)
            close_agent(gone)
        if kept and self._budget is not None:
            self._budget.idle(self, spec, agent)

    def drop(self, spec: str) -> None:
        """Let go of the idle player ``spec`` (the budget taking memory back): it is built
        again if asked for. A lent one is not touched."""
        with self._lock:
            agent = self._agents.pop(spec, None)
        if agent is not None:
            close_agent(agent)

    def release(self) -> None:
        """Close and forget the idle players (a game over: its engines stop); the cache goes
        on working, building players again if asked for."""
        with self._lock:
            agents, self._agents = list(self._agents.values()), {}
        if self._budget is not None:
            self._budget.forget(self)
        for agent in agents:
            close_agent(agent)

    def close(self) -> None:
        """Close and forget every idle player; players lent now are closed as they come back."""
        with self._lock:
            self._closed = True
            agents, self._agents = list(self._agents.values()), {}
        if self._budget is not None:
            self._budget.forget(self)
        for agent in agents:
            close_agent(agent)


def close_agent(agent: object) -> None:
    """Stop what ``agent`` holds (an engine's process), if it has a ``close()``; a failure is
    logged, never raised (it runs as games end and sockets close)."""
    close = getattr(agent, "close", None)
    if callable(close):
        try:
            close()
        except Exception:
            log.exception("could not close player %r", getattr(agent, "name", agent))


class Session:
    """What a game played on a screen shares, whatever the game: its players (an
    :class:`AgentCache`), whether its game was kept (:func:`keep`), hints and closing.
    A game's session adds its moves, undo, autoplay step, record and screen state.
    """

    #: The game's name (:data:`boardai.games.GAMES`).
    kind: str
    #: Whether :func:`keep` saved the game already.
    saved = False
    #: Whether a move is answered by a player's reply (a search, run off the event loop).
    replies = False
    game: Any
    agents: AgentCache[Any]

    def action_text(self, action: int) -> str:
        """``action`` as the person reads it."""
        raise NotImplementedError

    def hint_refused(self) -> str | None:
        """Why there is no move to hint here (None: there is one)."""
        raise NotImplementedError

    def hint(self, spec: str) -> dict[str, Any]:
        """The move player ``spec`` would make for the person here, and its values of the
        actions if it has them."""
        refused = self.hint_refused()
        if refused is not None:
            raise UsageError(refused)
        with self.agents.use(spec) as agent:
            action = int(agent.act(self.game.board))
            values = evaluation(agent, self.game.board)
        return {
            "player": spec,
            "action": action,
            "move": self.action_text(action),
            "values": values,
        }

    def close(self) -> None:
        """Let go of the players (an engine's process stops); they are built again if asked."""
        self.agents.close()


class Session2048(Session):
    """A game of 2048 on a screen.

    Args:
        seed: seeds the spawns (None: a fresh random game).
        grid: start from this position (4 rows of 4 tile values) instead of two spawned
            tiles; the record then carries it as ``start_grid``.
        p4: probability that a spawned tile is a 4.
        make: builds a player from a spec and a seed (default: any 2048 player; the web app
            passes only what its server offers, see :mod:`boardai.ui.web.players`).
        budget: what the players' memory is charged to (see :class:`AgentCache`).
    """

    kind = "2048"

    def __init__(
        self,
        seed: int | None = None,
        grid: Sequence[Sequence[int]] | None = None,
        p4: float = 0.1,
        make: MakeAgent[Board2048] | None = None,
        budget: Any = None,
    ) -> None:
        from boardai.g2048.agents import make_agent
        from boardai.g2048.board import Board
        from boardai.g2048.game import Game

        board = None
        if grid is not None:
            try:
                board = Board.from_grid(grid)
            except ValueError as e:
                raise UsageError(f"bad board: {e}") from None
        self.game = Game(seed, p4=p4, board=board)
        self.agents: AgentCache[Board2048] = AgentCache(make or make_agent, seed, budget)
        self.tracker = TileTracker(self.game.board.exponents())
        self.animation = self.tracker.reset(self.game.board.exponents())

    @classmethod
    def from_message(
        cls, msg: dict[str, Any], make: MakeAgent[Board2048], budget: Any = None
    ) -> Session2048:
        """The game a client's ``new`` message asks for: its ``seed`` and start ``board``."""
        seed = int_field(msg, "seed", 0, 2**63 - 1)
        return cls(seed, grid=msg.get("board"), make=make, budget=budget)

    def move_message(self, msg: dict[str, Any]) -> None:
        """Play the ``action`` of a client's ``move`` message."""
        action = msg.get("action")
        if not isinstance(action, (int, str)) or isinstance(action, bool):
            raise UsageError("'action' must be 0..3 or up, right, down, left")
        self.move(action)

    def move(self, action: int | str) -> None:
        """Play ``action`` (0..3 or up/right/down/left) for the person at the screen."""
        from boardai.g2048.board import ACTION_NAMES, parse_action

        try:
            a = parse_action(action)
        except ValueError as e:
            raise UsageError(str(e)) from None
        if a not in self.game.board.legal_actions():
            raise UsageError(f"{ACTION_NAMES[a]} is illegal here")
        self.game.move(a)
        step = self.game.steps[-1]
        self.animation = self.tracker.slide(a, (step.cell, step.value))

    def undo(self) -> None:
        """Take back the last move."""
        if not self.game.undo():
            raise UsageError("nothing to undo")
        self.animation = self.tracker.reset(self.game.board.exponents())

    def action_text(self, action: int) -> str:
        """``up``, ``right``, ``down`` or ``left``."""
        from boardai.g2048.board import ACTION_NAMES

        return ACTION_NAMES[action]

    def hint_refused(self) -> str | None:
        """A hint while moves are left."""
        return "the game is over: no move to hint" if self.game.is_over() else None

    def step(self, spec: str) -> None:
        """Let player ``spec`` make the next move (autoplay)."""
        from boardai.arena.play import IllegalMoveError, play_2048

        with self.agents.use(spec) as agent:
            if self.game.is_over():
                raise UsageError("the game is over")
            try:
                turn = next(play_2048(self.game, agent))
            except IllegalMoveError as e:
                raise UsageError(f"player {spec!r}: {e}") from None
        step = self.game.steps[-1]
        self.animation = self.tracker.slide(turn.action, (step.cell, step.value))

    def record(self) -> dict[str, Any]:
        """The game's record (see :mod:`boardai.records`)."""
        return self.game.to_record()

    def fork(self) -> Session2048:
        """A copy to play a request on, sharing the players: kept if the request ends, left
        behind if it is cancelled (O(moves) list copies: microseconds)."""
        twin = copy.copy(self)
        game = twin.game = copy.copy(self.game)
        game.steps = list(game.steps)
        game._undo = list(game._undo)
        game.start = list(game.start)
        game.rng = copy.deepcopy(game.rng)
        twin.tracker = copy.deepcopy(self.tracker)
        return twin

    def state(self) -> dict[str, Any]:
        """What a screen draws: the board, score, whether it is won or over, the animation."""
        return {
            **board_state_2048(self.game.board, self.game.score, self.animation),
            "moves": self.game.moves,
            "can_undo": self.game.moves > 0,
            "seed": self.game.seed,
        }


def board_state_2048(board: Any, score: int, animation: dict[str, Any]) -> dict[str, Any]:
    """The part of a 2048 screen's state that the board alone decides."""
    return {
        "game": "2048",
        "grid": board.to_grid(),
        "score": score,
        "max_tile": board.max_tile(),
        "legal": board.legal_actions(),
        "won": board.max_tile() >= WIN_TILE,
        "over": board.is_terminal(),
        "animation": animation,
    }


def spawn_between(before: Board2048, action: int, after: Board2048) -> tuple[int, int] | None:
    """The (cell, tile value) spawned between two consecutive 2048 boards, if any."""
    slid, _ = before.slide(action)
    for cell, (e0, e1) in enumerate(zip(slid.exponents(), after.exponents(), strict=True)):
        if e0 == 0 and e1:
            return cell, 1 << e1
    return None


class SessionReplay:
    """A recorded game (of any game in :data:`boardai.games.GAMES`) on a screen, stepped
    through with :meth:`seek`.

    Raises:
        ValueError: the record is malformed or a move in it is impossible.
    """

    kind = "replay"

    def __init__(self, record: Any) -> None:
        from boardai.games import parts
        from boardai.records import game_of, replay

        self.of = game_of(record)
        self._parts = parts(self.of)
        self.frames = replay(record)
        self._record = record
        self.index = 0
        self.animator = self._parts.animator(self.frames[0])
        self.animation = self.animator.reset(self.frames[0]) if self.animator else None

    def seek(self, index: int) -> None:
        """Show position ``index`` (0 is the start, one more per move)."""
        if not 0 <= index < len(self.frames):
            raise UsageError(f"no position {index}: the replay has 0..{len(self.frames) - 1}")
        if self.animator is not None:
            frame = self.frames[index]
            if index == self.index + 1 and frame.action is not None:
                self.animation = self.animator.step(self.frames[self.index], frame)
            elif index != self.index:
                self.animation = self.animator.reset(frame)
        self.index = index

    def record(self) -> dict[str, Any]:
        """The record being replayed."""
        return self._record

    def state(self) -> dict[str, Any]:
        """The position at the current index, with where it is in the game."""
        frame = self.frames[self.index]
        previous = self.frames[self.index - 1] if self.index else None
        return {
            **self._parts.replay_state(frame, previous, self.animation),
            "game": "replay",
            "of": self.of,
            "index": self.index,
            "length": len(self.frames),
            "move": frame.move,
            "at_end": self.index == len(self.frames) - 1,
        }


def board_state_othello(
    board: BoardOthello, previous: BoardOthello | None = None, action: int | None = None
) -> dict[str, Any]:
    """What an Othello screen draws of ``board``; ``previous`` and ``action`` (the move that
    led here) mark the last move and the discs it flipped."""
    from boardai.othello.board import COLOR_NAMES, PASS

    grid = board.to_grid()
    cells = "".join(".BW"[v] for row in grid for v in row)
    flips: list[int] = []
    if previous is not None:
        before = [v for row in previous.to_grid() for v in row]
        flips = [i for i, v in enumerate(before) if v and cells[i] != ".BW"[v]]
    black, white = board.discs()
    over = board.is_terminal()
    result = None
    if over:
        winner = board.winner()
        result = (
            f"{COLOR_NAMES[winner]} wins {max(black, white)}-{min(black, white)}"
            if winner is not None
            else f"draw {black}-{white}"
        )
    return {
        "game": "othello",
        "cells": cells,
        "to_move": COLOR_NAMES[board.to_move],
        "legal": [a for a in board.legal_actions() if a != PASS],
        "last": action if action is not None and action != PASS else None,
        "flips": flips,
        "counts": {"black": black, "white": white},
        "over": over,
        "result": result,
    }


def game_state_othello(game: Any) -> dict[str, Any]:
    """:func:`board_state_othello` of an Othello ``Game``'s position, its last move marked."""
    history, moves = game.history, game.moves
    previous = history[-2] if len(history) > 1 else None
    return board_state_othello(history[-1], previous, moves[-1] if moves else None)


class SessionOthello(Session):
    """A person against a boardai player at Othello.

    Args:
        human: the person's colour, ``"black"`` (moves first) or ``"white"``.
        player: the opponent's spec (its strength is in its options, e.g. a search depth).
        seed: seeds the players' randomness.
        start: the first position (an Othello ``Board``; the standard one by default).
        make: builds a player from a spec and a seed (default: any Othello player).
        budget: what the players' memory is charged to (see :class:`AgentCache`).
    """

    kind = "othello"
    replies = True

    def __init__(
        self,
        human: str = "black",
        player: str = "random",
        seed: int | None = None,
        start: BoardOthello | None = None,
        make: MakeAgent[BoardOthello] | None = None,
        budget: Any = None,
    ) -> None:
        from boardai.othello.agents import make_agent
        from boardai.othello.board import COLOR_NAMES
        from boardai.othello.game import Game

        if human not in COLOR_NAMES:
            raise UsageError(f"human must be black or white, not {human!r}")
        self.human = COLOR_NAMES.index(human)
        self.agents: AgentCache[BoardOthello] = AgentCache(make or make_agent, seed, budget)
        #: Set to stop the opponent's replies between moves (its client went away).
        self.stop = threading.Event()
        self.player = player.strip()
        names = ("person", self.player)
        self.game = Game(start, players=names if self.human == 0 else names[::-1])
        #: Who made the person's moves: "person", and the players of :meth:`step`.
        self.movers: set[str] = set()
        self.message = ""
        try:
            self.agents.get(self.player)  # a bad spec fails here, before the game
            self._reply()
        except BaseException:
            self.close()  # an engine started for the first reply stops with the game
            raise

    @classmethod
    def from_message(
        cls, msg: dict[str, Any], make: MakeAgent[BoardOthello], budget: Any = None
    ) -> SessionOthello:
        """The game a client's ``new`` message asks for: the person's colour (``human``),
        the opponent (``player``) and the ``seed``."""
        human = str_field(msg, "human", "black")
        seed = int_field(msg, "seed", 0, 2**63 - 1)
        player = str_field(msg, "player", "random")
        return cls(human=human, player=player, seed=seed, make=make, budget=budget)

    def move_message(self, msg: dict[str, Any]) -> None:
        """Play the ``move`` of a client's ``move`` message, then the opponent's reply."""
        self.move(str_field(msg, "move"))

    def _reply(self) -> None:
        """Let the opponent move until it is the person's turn or the game is over."""
        from boardai.arena.play import play_othello
        from boardai.othello.board import COLOR_NAMES, PASS

        def check_stop() -> None:  # before each of the opponent's moves
            game = self.game
            if self.stop.is_set() and not game.is_over() and game.board.to_move != self.human:
                raise UsageError("stopped")

        notes = []
        check_stop()
        if not self.game.is_over() and self.game.board.to_move != self.human:
            with self.agents.use(self.player) as opponent:
                players = (None, opponent) if self.human == 0 else (opponent, None)
                for turn in play_othello(self.game, players, ask_to_pass=False):
                    if turn.action == PASS:
                        notes.append(f"{COLOR_NAMES[1 - self.human]} passes")
                    check_stop()
        if not self.game.is_over() and self.game.board.legal_actions() == [PASS]:
            notes.append("you have no move: pass")
        self.message = "; ".join(notes)

    def move(self, move: str) -> None:
        """Play the person's ``move`` (``d3`` or ``pass``), then the opponent's reply."""
        if self.game.is_over():
            raise UsageError("the game is over")
        self._check_turn()
        try:
            self.game.play(move)
        except ValueError as e:
            raise UsageError(str(e)) from None
        self.movers.add("person")
        self._reply()

    def step(self, spec: str) -> None:
        """Let player ``spec`` make the person's move (a pass when forced), then the
        opponent's reply: autoplay, or two players to watch (``spec`` against the opponent)."""
        from boardai.arena.play import IllegalMoveError, play_othello

        if self.game.is_over():
            raise UsageError("the game is over")
        self._check_turn()
        with self.agents.use(spec) as agent:
            players = (agent, None) if self.human == 0 else (None, agent)
            try:
                next(play_othello(self.game, players, ask_to_pass=False))
            except IllegalMoveError as e:
                raise UsageError(f"player {spec!r}: {e}") from None
        self.movers.add(spec.strip())
        self._reply()

    def _check_turn(self) -> None:
        """Refuse a move for the person when it is the opponent's turn (its reply stopped)."""
        from boardai.othello.board import COLOR_NAMES

        if self.game.board.to_move != self.human:  # the reply was stopped (:attr:`stop`)
            theirs = COLOR_NAMES[1 - self.human]
            raise UsageError(
                f"it is {theirs}'s turn, not yours: its reply was stopped (undo, or a new game)"
            )

    def undo(self) -> None:
        """Take back the person's last move (and the replies to it)."""
        if not self.game.undo_turn(self.human):
            raise UsageError("nothing to undo")
        self.message = ""

    def action_text(self, action: int) -> str:
        """``d3`` or ``pass``."""
        from boardai.othello.board import action_text

        return action_text(action)

    def hint_refused(self) -> str | None:
        """A hint on the person's turn only."""
        if self.game.is_over() or self.game.board.to_move != self.human:
            return "no move to hint: it is not your turn"
        return None

    def fork(self) -> SessionOthello:
        """A copy to play a request on, sharing the players, with a stop of its own: kept if
        the request ends, left behind (and stopped) if it is cancelled."""
        twin = copy.copy(self)
        game = twin.game = copy.copy(self.game)
        game.moves = list(game.moves)
        game._boards = list(game._boards)
        twin.movers = set(self.movers)
        twin.stop = threading.Event()
        return twin

    def record(self) -> dict[str, Any]:
        """The game's record (see :mod:`boardai.records`): the person's side is named for the
        player that made all of its moves under autoplay, if one did."""
        from boardai.othello.board import COLOR_NAMES

        record = self.game.to_record()
        if len(self.movers) == 1 and "person" not in self.movers:
            record["players"][COLOR_NAMES[self.human]] = next(iter(self.movers))
        return record

    def state(self) -> dict[str, Any]:
        """The board with the last move and its flips, whose turn, counts and result."""
        from boardai.othello.board import COLOR_NAMES, PASS

        history = self.game.history
        return {
            **game_state_othello(self.game),
            "human": COLOR_NAMES[self.human],
            "player": self.player,
            "moves": self.game.move_texts(),
            "pass_forced": self.game.board.to_move == self.human
            and self.game.board.legal_actions() == [PASS],
            "can_undo": any(b.to_move == self.human for b in history[:-1]),
            "message": self.message,
        }
