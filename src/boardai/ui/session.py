"""Game sessions: one game being played on a screen, shared by the web app and the terminal app.

A session holds the game, its undo history, the players it asked for hints or moves, and
what a screen needs to draw it (:meth:`Session.state`). Every mistake a user can make (an
illegal move, a bad player spec) raises :class:`~boardai.errors.UsageError` with a one-line
message. What all sessions share is here (:class:`Session`, the players' :class:`AgentCache`,
:class:`SessionReplay` of any game); each game's session is in its module of
:mod:`boardai.ui` (the ``session`` of :data:`boardai.games.GAMES`).

>>> from boardai.othello.game import Game
>>> s = SessionReplay(Game().to_record())
>>> s.state()["of"], s.state()["counts"]
('othello', {'black': 2, 'white': 2})
"""

from __future__ import annotations

import contextlib
import logging
import math
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from boardai.errors import UsageError

if TYPE_CHECKING:
    from boardai.agent import Agent

log = logging.getLogger(__name__)

#: The positions of a game (its ``Board``).
S = TypeVar("S")

#: Builds a player from a spec and a seed.
MakeAgent = Callable[[str, "int | None"], "Agent[S]"]


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
