"""The web app's WebSocket protocol: one JSON object per message, one game per socket.

Requests (browser -> server), each with a ``"type"``:

=========  =====================================================================================
new        ``{"game": "2048", "seed"?: int, "board"?: [[4 ints] x 4]}`` or
           ``{"game": "othello", "human"?: "black" | "white", "player"?: spec}``
move       2048: ``{"action": 0..3 | "up" | ...}``; Othello: ``{"move": "d3" | "pass"}``
undo       take back the last move (in Othello: back to the person's previous turn)
hint       ``{"player": spec}``: that player's move here and its values, if it has them
step       ``{"player": spec}``: that player makes the next move (autoplay): the 2048 move, or
           the person's Othello move, then the computer's reply (two players to watch)
record     the current game's record (see :mod:`boardai.records`)
replay     ``{"record": {...}}``: open a game record (of at most :data:`MAX_REPLAY_MOVES` moves)
seek       ``{"index": int}``: show position ``index`` of the open replay (0 = start)
agents     the players the server offers in each game, and what a client may set on each
cancel     drop this socket's search: no reply comes for it (an Othello game stopped in the
           computer's reply stays on its turn: ``undo`` or ``new``)
=========  =====================================================================================

A ``spec`` names one of the players the server offers (:mod:`boardai.ui.web.players`), with
only the options and bounds listed by ``agents``: a client never names a file or a program.

Any request may carry an ``"id"`` (an integer or a short string); its reply carries the same
``"id"``. Searches (``hint``, ``step``, and Othello's ``new`` and ``move``, which wait for the
computer's reply) run in a server-wide pool of :data:`MAX_SEARCHES` threads; a socket runs one
at a time (a second gets a ``busy`` error) and keeps answering other requests meanwhile, so a
search's reply may come after the replies to later requests. When a socket closes, its queued
search is dropped and a running one stops at its time budget (every offered search has one).

Messages over :data:`MAX_MESSAGE` characters get an error reply; frames over four times that
are refused by the server itself, which closes that socket with code 1009 (message too big).
Numbers longer than :data:`MAX_DIGITS` digits, NaN and infinities, and nesting deeper than
:data:`MAX_DEPTH` are malformed.

Replies (server -> browser): ``{"type": "state", ...}`` (the session's state),
``{"type": "hint", ...}``, ``{"type": "record", "record": {...}}``, ``{"type": "agents", ...}``,
or ``{"type": "error", "message": "...", "request": type}``. Every request gets exactly one
reply; nothing a browser sends can crash the server or leave the socket hanging.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import re
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from functools import partial
from typing import Any, Protocol

from boardai.errors import UsageError
from boardai.games import parts
from boardai.hardware import cores
from boardai.records import RecordSink
from boardai.ui.session import SessionReplay, int_field, keep, str_field
from boardai.ui.web.players import Offers

log = logging.getLogger(__name__)

#: Largest message accepted, in characters (a long game's record fits easily).
MAX_MESSAGE = 2 * 1024 * 1024
#: Longest integer accepted in a message, in digits (a 64-bit seed has 20).
MAX_DIGITS = 24
#: Deepest nesting of arrays and objects accepted in a message (a record needs 3).
MAX_DEPTH = 16
#: Searches the server runs at once by default (more wait their turn): the cores it may use.
MAX_SEARCHES = cores()
#: Quick requests (a move, an undo, opening a replay) the server runs at once; more wait their
#: turn. They run off the event loop, as a long replay takes a second and up to about 100 MB
#: while it is read; this bounds their memory together, whatever the number of sockets.
MAX_QUICK = 4
#: Most moves in a record opened by ``replay``. Replaying takes tens of microseconds and about
#: a kilobyte a move, and a record may pad a game with moves that spawn nothing; a 2048 game
#: reaching the 131072 tile has about 60,000 moves (an Othello game fewer than 130).
MAX_REPLAY_MOVES = 100_000


#: An absolute path in a message: a slash that starts a word (not ``a/b``, not ``http://``).
_ABSOLUTE_PATH = re.compile(r"(?<![\w.:/~-])/[^\s'\",;:()\[\]{}]*")


def public_text(message: str) -> str:
    """``message`` with every absolute path replaced by ``<path>``: a page learns nothing of
    the server's files (where its models, engines or home are), nor which of the paths it
    names exist.

    >>> public_text("engine '/usr/games/gtp-rhino -l 3' died; /home/u/m.npz: damaged")
    "engine '<path> -l 3' died; <path>: damaged"
    >>> public_text("depth=1..6, up/down, http://localhost:3000")
    'depth=1..6, up/down, http://localhost:3000'
    """
    return _ABSOLUTE_PATH.sub("<path>", message)


def error(message: str, request: str | None = None) -> dict[str, Any]:
    """An error reply (without the server's paths: :func:`public_text`)."""
    return {"type": "error", "message": public_text(message), "request": request}


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"a number of {len(text)} digits (at most {MAX_DIGITS})")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:20]} is out of range")
    return value


def _parse_constant(text: str) -> Any:
    raise ValueError(f"{text} is not a JSON value")


def _depth(value: Any) -> int:
    """How deeply arrays and objects nest in ``value`` (iterative: no recursion limit)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, level)
            if level > MAX_DEPTH:
                break
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, level + 1) for child in children)
    return deepest


def parse(text: str | bytes | None, max_message: int = MAX_MESSAGE) -> dict[str, Any]:
    """One request from its text (UsageError, with the reply's message, if malformed)."""
    if not isinstance(text, str):
        raise UsageError("binary messages are not accepted: send JSON text")
    if len(text) > max_message:
        raise UsageError(f"message too long: {len(text)} characters (at most {max_message})")
    try:
        msg = json.loads(
            text,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_parse_constant,
        )
    except (ValueError, RecursionError) as e:
        raise UsageError(f"malformed JSON: {getattr(e, 'msg', e)}") from None
    if not isinstance(msg, dict):
        raise UsageError("a message is a JSON object with a 'type'")
    if _depth(msg) > MAX_DEPTH:
        raise UsageError(f"malformed JSON: nested deeper than {MAX_DEPTH}")
    return msg


def _request_id(msg: dict[str, Any]) -> int | str | None:
    rid = msg.get("id")
    if rid is None or (isinstance(rid, int) and not isinstance(rid, bool)):
        return rid
    if isinstance(rid, str) and len(rid) <= 64:
        return rid
    return None


class Sink(Protocol):
    """Where finished games go (a :class:`~boardai.records.RecordSink`); ``save`` may answer
    False when it did not keep the game (a full queue)."""

    def save(self, record: dict[str, Any]) -> bool | None: ...


#: Bytes of records waiting to be written, at most (a 2048 game of 5,000 moves is ~100 KB).
MAX_PENDING = 32 * 1024 * 1024
#: Seconds a finished game waits for room in a full queue before it is not kept.
SAVE_WAIT = 0.5
#: Seconds the server's shutdown waits for the records still queued.
CLOSE_WAIT = 3.0


class BackgroundSink:
    """A sink whose records are written by a thread of their own, in turn, in batches.

    Writing waits on the disk, or for ever on a pipe nobody reads yet: done on the event loop
    (a socket closing) or in a request's thread, it would stall every socket or the request.
    A write that fails (a full disk) is logged in one line and the game goes on.

    The queue is bounded: records are queued as their JSON line, at most ``max_bytes`` of
    them; a game finished while it is full waits up to ``wait`` seconds for room, then is not
    kept (:meth:`save` says so, and the log). :meth:`close` waits at most ``close_wait``
    seconds for the rest.
    """

    def __init__(
        self,
        sink: Sink,
        max_bytes: int = MAX_PENDING,
        wait: float = SAVE_WAIT,
        close_wait: float = CLOSE_WAIT,
    ) -> None:
        self.sink = sink
        self.max_bytes = max_bytes
        self.wait = wait
        self.close_wait = close_wait
        self.dropped = 0  #: games not kept: the queue stayed full
        self._lines: deque[str] = deque()
        self._bytes = 0
        self._closed = False
        self._changed = threading.Condition()
        self._writer = threading.Thread(target=self._run, name="boardai-save", daemon=True)
        self._writer.start()

    @property
    def pending(self) -> int:
        """Bytes of records waiting to be written."""
        return self._bytes

    def save(self, record: dict[str, Any]) -> bool:
        """Queue ``record`` for writing (serialized now: its game may change meanwhile).
        False if it was not kept (the queue stayed full for ``wait`` seconds)."""
        line = json.dumps(record, separators=(",", ":")) + "\n"
        with self._changed:
            deadline = time.monotonic() + self.wait
            while self._lines and self._bytes + len(line) > self.max_bytes and not self._closed:
                left = deadline - time.monotonic()
                if left <= 0:
                    self.dropped += 1
                    log.warning(
                        "a finished game was not kept: %d bytes of records wait to be written",
                        self._bytes,
                    )
                    return False
                self._changed.wait(left)
            if not self._closed or self._writer.is_alive():
                self._lines.append(line)
                self._bytes += len(line)
                self._changed.notify_all()
                return True
        self._write([line])  # the server is stopping and the writer is done: write it now
        return True

    def _run(self) -> None:
        while True:
            with self._changed:
                while not self._lines and not self._closed:
                    self._changed.wait()
                if not self._lines:
                    return  # closed, and nothing left
                batch = list(self._lines)
            self._write(batch)
            with self._changed:
                for _ in batch:
                    self._bytes -= len(self._lines.popleft())
                self._changed.notify_all()

    def _write(self, lines: list[str]) -> None:
        try:
            append = getattr(self.sink, "append_lines", None)
            if append is not None:
                append(lines)
            else:
                for line in lines:
                    self.sink.save(json.loads(line))
        except OSError as e:
            log.warning("could not save %d finished game(s): %s", len(lines), e)
        except Exception:
            log.exception("could not save %d finished game(s)", len(lines))

    def close(self) -> None:
        """Take no more records into the queue; wait up to ``close_wait`` seconds for those
        queued to be written (a pipe nobody reads may hold them for ever: they are then lost,
        and the log says how many bytes)."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()
        self._writer.join(self.close_wait)
        if self._writer.is_alive():
            log.warning("stopping with %d bytes of records not written", self._bytes)
        close = getattr(self.sink, "close", None)
        if callable(close) and not self._writer.is_alive():
            try:
                close()
            except OSError as e:
                log.warning("could not close the record file: %s", e)


_POOL: ThreadPoolExecutor | None = None
_QUICK: ThreadPoolExecutor | None = None


def default_pool() -> Executor:
    """The process's search pool when none is given: :data:`MAX_SEARCHES` threads."""
    global _POOL
    if _POOL is None:
        _POOL = ThreadPoolExecutor(MAX_SEARCHES, thread_name_prefix="boardai-search")
    return _POOL


def default_quick_pool() -> Executor:
    """The process's pool of quick requests when none is given: :data:`MAX_QUICK` threads."""
    global _QUICK
    if _QUICK is None:
        _QUICK = ThreadPoolExecutor(MAX_QUICK, thread_name_prefix="boardai-quick")
    return _QUICK


class _Search:
    """One search of a socket: the session it works on, and whether it was cancelled."""

    def __init__(self, kind: str, session: Any, before: Any = None) -> None:
        self.kind = kind
        self.session = session  #: what the search plays on (a fork for a move or a step)
        self.before = before  #: the socket's session before a forked search, given back on cancel
        self.cancelled = False


class Connection:
    """The state of one socket: its game (or replay) and how to answer each request.

    Args:
        sink: where finished games go (the server passes a :class:`BackgroundSink`).
        max_message: messages longer than this (in characters) are refused.
        offers: the players clients may ask for (default: the built-in public players).
        pool: where searches run (default: a pool of :data:`MAX_SEARCHES` threads shared by
            every connection of this process).
        quick: where the other requests run, off the event loop (default: a pool of
            :data:`MAX_QUICK` threads shared the same way).
    """

    def __init__(
        self,
        sink: Sink | None = None,
        max_message: int = MAX_MESSAGE,
        offers: Offers | None = None,
        pool: Executor | None = None,
        quick: Executor | None = None,
    ) -> None:
        self.session: Any = None
        self.sink: Sink = sink or RecordSink()
        self.max_message = max_message
        self.offers = offers or Offers()
        self.pool = pool or default_pool()
        self.quick = quick or default_quick_pool()
        self.search: asyncio.Task[None] | None = None  # delivers this socket's search reply
        self._thinking: Future[dict[str, Any]] | None = None  # the search in the pool
        self._current: _Search | None = None  # that search
        self._local = threading.local()  # in a search's thread: its _Search
        self._lock = threading.Lock()  # cancelling against a search installing its session
        self._closed = False
        self._handlers: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
            "new": self._new,
            "move": self._move,
            "undo": self._undo,
            "hint": self._hint,
            "step": self._step,
            "record": self._record,
            "replay": self._replay,
            "seek": self._seek,
            "agents": self._agents,
            "cancel": self._cancel,
        }

    async def handle(self, text: str | bytes | None) -> dict[str, Any]:
        """The reply to one message, waiting for it even if it is a search."""
        replies: list[dict[str, Any]] = []

        async def keep_reply(reply: dict[str, Any]) -> None:
            replies.append(reply)

        await self.dispatch(text, keep_reply)
        if self.search is not None:
            await asyncio.shield(self.search)
        return replies[0]

    @property
    def busy(self) -> bool:
        """Whether a search of this socket is queued or running. A cancelled one is not: it
        thinks on in its thread, on a copy of the game that nobody keeps."""
        return self._thinking is not None and not self._thinking.done()

    async def dispatch(
        self, text: str | bytes | None, send: Callable[[dict[str, Any]], Awaitable[None]]
    ) -> None:
        """Answer one message through ``send``: at once, or, for a search, when it is done
        (a task in :attr:`search`; the socket meanwhile reads and answers other requests)."""
        try:
            msg = parse(text, self.max_message)
        except UsageError as e:
            await send(error(str(e)))
            return
        rid = _request_id(msg)
        kind = msg.get("type")
        handler = self._handlers.get(kind) if isinstance(kind, str) else None
        if handler is None:
            known = ", ".join(self._handlers)
            await send(_with_id(error(f"unknown message type {kind!r} (types: {known})"), rid))
            return
        assert isinstance(kind, str)
        if self.busy and kind not in ("agents", "cancel"):
            what = self._current.kind if self._current is not None else None
            message = f"busy: a player is still thinking for {what!r} (or send cancel)"
            await send(_with_id(error(message, kind), rid))
            return
        if kind in ("agents", "cancel"):  # quick, and must not wait behind a search
            await send(_with_id(self._call(handler, msg), rid))
        elif self._is_search(kind, msg):
            session = self.session
            if kind in ("move", "step") and getattr(session, "fork", None) is not None:
                # played on a copy (microseconds): a cancel gives the game back as it was,
                # at once, while the search finishes in its thread on the copy
                search = _Search(kind, session.fork(), before=session)
                self.session = search.session
            else:
                search = _Search(kind, session)
            self._current = search
            self._thinking = self.pool.submit(self._searching, search, handler, msg)
            self.search = asyncio.create_task(self._deliver(self._thinking, send, rid))
        else:  # quick, but may load a module or read a long record: off the event loop
            quick = asyncio.get_running_loop().run_in_executor(self.quick, self._call, handler, msg)
            await send(_with_id(await quick, rid))

    def _is_search(self, kind: str, msg: dict[str, Any]) -> bool:
        if kind in ("hint", "step"):
            return True
        if kind == "new":  # a player may move first
            try:
                return bool(parts(msg.get("game")).session.get().replies)
            except ValueError:
                return False
        return kind == "move" and getattr(self.session, "replies", False)

    @staticmethod
    async def _deliver(
        thinking: Future[dict[str, Any]],
        send: Callable[[dict[str, Any]], Awaitable[None]],
        rid: int | str | None,
    ) -> None:
        reply = await asyncio.wrap_future(thinking)
        with contextlib.suppress(Exception):  # the socket closed meanwhile: nobody to tell
            await send(_with_id(reply, rid))

    def _searching(
        self,
        search: _Search,
        handler: Callable[[dict[str, Any]], dict[str, Any]],
        msg: dict[str, Any],
    ) -> dict[str, Any]:
        """Run a search in a pool thread, on its own session (:meth:`_need`)."""
        self._local.search = search
        try:
            return self._call(handler, msg)
        finally:
            self._local.search = None

    def _call(
        self, handler: Callable[[dict[str, Any]], dict[str, Any]], msg: dict[str, Any]
    ) -> dict[str, Any]:
        kind = msg.get("type")
        try:
            return handler(msg)
        except UsageError as e:
            return error(str(e), kind)
        except Exception as e:  # never let one bad request kill the socket
            log.exception("request %r failed", kind)
            return error(f"internal error: {type(e).__name__}: {e}", kind)

    def cancel(self) -> bool:
        """Drop this socket's search, and free the socket at once: a queued one never runs; a
        running one's reply is dropped, and the game is as it was before the request (the
        search goes on in its thread on a copy nobody keeps; an Othello reply on it stops
        before its next move). True if there was one."""
        task, thinking, search = self.search, self._thinking, self._current
        if task is None or task.done() or thinking is None or search is None:
            return False
        thinking.cancel()  # succeeds only while it waits for a thread
        with self._lock:
            search.cancelled = True
            if search.before is not None and self.session is search.session:
                self.session = search.before
        stop = getattr(search.session, "stop", None)
        if stop is not None and search.before is not None:
            stop.set()  # the copy's reply: no more moves on it
        task.cancel()
        self._thinking = self._current = None
        return True

    def close(self) -> None:
        """The socket closed: drop its search, keep the game if it had moves, and let go of
        its players (an engine's process stops; one still thinking stops when it is done).
        Blocks up to a second an engine (run it off the event loop)."""
        self.cancel()
        self._closed = True
        session, self.session = self.session, None
        self._retire(session)

    def _retire(self, session: Any) -> None:
        """Keep ``session``'s game (if it had moves) and let go of its players."""
        if session is None:
            return
        try:
            keep(session, self.sink, "web")
        finally:
            close = getattr(session, "close", None)
            if close is not None:
                close()

    def _replace(self, session: Any) -> None:
        """Make ``session`` this socket's game; the one it replaces is kept and let go. A
        cancelled search's new game is let go instead (its socket has moved on)."""
        search = getattr(self._local, "search", None)
        with self._lock:
            if self._closed or (search is not None and search.cancelled):
                old = session
            else:
                old, self.session = self.session, session
        if old is session:
            close = getattr(session, "close", None)
            if close is not None:
                close()
            return
        self._retire(old)

    # -- requests -------------------------------------------------------------------------

    def _need(self, kind: str | None = None) -> Any:
        search = getattr(self._local, "search", None)
        session = search.session if search is not None else self.session
        if session is None:
            raise UsageError("no game yet: send a 'new' message first")
        if kind is not None and session.kind != kind:
            raise UsageError(f"this socket is showing a {session.kind}, not a {kind} game")
        return session

    def _state(self) -> dict[str, Any]:
        session = self._need()
        state = session.state()
        reply = {"type": "state", **state}
        if state.get("over") and session.kind != "replay" and not session.saved:
            if keep(session, self.sink, "web") is False:
                reply["message"] = "this game was not kept: the server is saving too many"
            agents = getattr(session, "agents", None)
            if agents is not None:
                agents.release()  # the game is over: its engines stop (undo starts them again)
        return reply

    def _new(self, msg: dict[str, Any]) -> dict[str, Any]:
        try:
            game = parts(msg.get("game"))
        except ValueError as e:
            raise UsageError(str(e)) from None
        session_type = game.session.get()
        make = partial(self.offers.make, game.name)
        session = session_type.from_message(msg, make=make, budget=self.offers.budget)
        self._replace(session)
        search = getattr(self._local, "search", None)
        if search is not None:
            search.session = session  # its reply is this game's state
        return self._state()

    def _move(self, msg: dict[str, Any]) -> dict[str, Any]:
        session = self._need()
        if session.kind == "replay":
            raise UsageError("a replay takes no moves: use 'seek'")
        session.move_message(msg)
        return self._state()

    def _undo(self, msg: dict[str, Any]) -> dict[str, Any]:
        session = self._need()
        if session.kind == "replay":
            raise UsageError("a replay has nothing to undo: use 'seek'")
        session.undo()
        return self._state()

    def _hint(self, msg: dict[str, Any]) -> dict[str, Any]:
        session = self._need()
        if session.kind == "replay":
            raise UsageError("no hints in a replay")
        return {"type": "hint", **session.hint(str_field(msg, "player"))}

    def _step(self, msg: dict[str, Any]) -> dict[str, Any]:
        session = self._need()
        if session.kind == "replay":
            raise UsageError("a replay takes no moves: use 'seek'")
        session.step(str_field(msg, "player"))
        return self._state()

    def _record(self, msg: dict[str, Any]) -> dict[str, Any]:
        session = self._need()
        return {"type": "record", "record": session.record()}

    def _replay(self, msg: dict[str, Any]) -> dict[str, Any]:
        record = msg.get("record")
        moves = record.get("moves") if isinstance(record, dict) else None
        if isinstance(moves, list) and len(moves) > MAX_REPLAY_MOVES:
            raise UsageError(
                f"bad record: {len(moves)} moves (at most {MAX_REPLAY_MOVES} are replayed here)"
            )
        try:
            session = SessionReplay(record)
        except ValueError as e:
            raise UsageError(f"bad record: {e}") from None
        self._replace(session)
        return self._state()

    def _seek(self, msg: dict[str, Any]) -> dict[str, Any]:
        session = self._need("replay")
        session.seek(int_field(msg, "index", 0, 10**9))
        return self._state()

    def _agents(self, msg: dict[str, Any]) -> dict[str, Any]:
        return {"type": "agents", **self.offers.listing()}

    def _cancel(self, msg: dict[str, Any]) -> dict[str, Any]:
        return {"type": "cancelled", "cancelled": self.cancel()}


def _with_id(reply: dict[str, Any], rid: int | str | None) -> dict[str, Any]:
    if rid is not None:
        reply["id"] = rid
    return reply
