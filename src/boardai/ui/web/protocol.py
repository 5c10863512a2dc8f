"""The web app's WebSocket protocol: one JSON object per message, one game per socket.

Requests (browser -> server), each with a ``"type"``:

=========  =====================================================================================
new        ``{"game": "2048", "seed"?: int, "board"?: [[4 ints] x 4]}`` or
           ``{"game": "othello", "human"?: "black" | "white", "player"?: spec}``
move       2048: ``{"action": 0..3 | "up" | ...}``; Othello: ``{"move": "d3" | "pass"}``
undo       take back the last move (in Othello: back to the person's previous turn)
hint       ``{"player": spec}``: that player's move here and its values, if it has them
step       ``{"player": spec}``: that player makes the next 2048 move (autoplay)
record     the current game's record (see :mod:`boardai.records`)
replay     ``{"record": {...}}``: open a game record; then ``seek``
seek       ``{"index": int}``: show position ``index`` of the open replay (0 = start)
agents     the players of both games
=========  =====================================================================================

Messages over :data:`MAX_MESSAGE` characters get an error reply; frames over four times that
are refused by the server itself, which closes that socket with code 1009 (message too big).

Replies (server -> browser): ``{"type": "state", ...}`` (the session's state),
``{"type": "hint", ...}``, ``{"type": "record", "record": {...}}``, ``{"type": "agents", ...}``,
or ``{"type": "error", "message": "...", "request": type}``. Every request gets exactly one
reply; nothing a browser sends can crash the server or leave the socket hanging.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any

from boardai.errors import UsageError
from boardai.records import RecordSink
from boardai.ui.session import Session2048, SessionOthello, SessionReplay, keep

log = logging.getLogger(__name__)

#: Largest message accepted, in characters (a long game's record fits easily).
MAX_MESSAGE = 2 * 1024 * 1024

GAMES = ("2048", "othello")


def error(message: str, request: str | None = None) -> dict[str, Any]:
    """An error reply."""
    return {"type": "error", "message": message, "request": request}


def _int(msg: dict[str, Any], key: str, lo: int, hi: int, default: int | None = None) -> int | None:
    value = msg.get(key, default)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise UsageError(f"{key!r} must be an integer in {lo}..{hi}")
    return value


def _str(msg: dict[str, Any], key: str, default: str | None = None) -> str:
    value = msg.get(key, default)
    if not isinstance(value, str) or not value.strip():
        raise UsageError(f"{key!r} must be a non-empty string")
    return value


class Connection:
    """The state of one socket: its game (or replay) and how to answer each request.

    Args:
        sink: where finished games go.
        max_message: messages longer than this (in characters) are refused.
    """

    def __init__(self, sink: RecordSink | None = None, max_message: int = MAX_MESSAGE) -> None:
        self.session: Any = None
        self.sink = sink or RecordSink()
        self.max_message = max_message
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
        }

    async def handle(self, text: str | bytes | None) -> dict[str, Any]:
        """The reply to one message; slow work (AI moves, replays) runs in a worker thread."""
        if not isinstance(text, str):
            return error("binary messages are not accepted: send JSON text")
        if len(text) > self.max_message:
            return error(f"message too long: {len(text)} characters (at most {self.max_message})")
        try:
            msg = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as e:
            return error(f"malformed JSON: {getattr(e, 'msg', e)}")
        if not isinstance(msg, dict):
            return error("a message is a JSON object with a 'type'")
        kind = msg.get("type")
        handler = self._handlers.get(kind) if isinstance(kind, str) else None
        if handler is None:
            known = ", ".join(self._handlers)
            return error(f"unknown message type {kind!r} (types: {known})", None)
        try:
            return await asyncio.to_thread(handler, msg)
        except UsageError as e:
            return error(str(e), kind)
        except Exception as e:  # never let one bad request kill the socket
            log.exception("request %r failed", kind)
            return error(f"internal error: {type(e).__name__}: {e}", kind)

    def close(self) -> None:
        """The socket closed: keep the game if it had moves."""
        self._save()

    # -- requests -------------------------------------------------------------------------

    def _need(self, kind: str | None = None) -> Any:
        if self.session is None:
            raise UsageError("no game yet: send a 'new' message first")
        if kind is not None and self.session.kind != kind:
            raise UsageError(f"this socket is showing a {self.session.kind}, not a {kind} game")
        return self.session

    def _state(self) -> dict[str, Any]:
        session = self._need()
        state = session.state()
        if state.get("over"):
            self._save()
        return {"type": "state", **state}

    def _save(self) -> None:
        if self.session is not None:
            keep(self.session, self.sink, "web")

    def _new(self, msg: dict[str, Any]) -> dict[str, Any]:
        game = msg.get("game")
        if game not in GAMES:
            raise UsageError(f"unknown game {game!r} (games: {', '.join(GAMES)})")
        if game == "2048":
            seed = _int(msg, "seed", 0, 2**63 - 1)
            grid = msg.get("board")
            session: Any = Session2048(seed, grid=grid)
        else:
            human = _str(msg, "human", "black")
            seed = _int(msg, "seed", 0, 2**63 - 1)
            session = SessionOthello(human=human, player=_str(msg, "player", "random"), seed=seed)
        self._save()
        self.session = session
        return self._state()

    def _move(self, msg: dict[str, Any]) -> dict[str, Any]:
        session = self._need()
        if session.kind == "2048":
            action = msg.get("action")
            if not isinstance(action, (int, str)) or isinstance(action, bool):
                raise UsageError("'action' must be 0..3 or up, right, down, left")
            session.move(action)
        elif session.kind == "othello":
            session.move(_str(msg, "move"))
        else:
            raise UsageError("a replay takes no moves: use 'seek'")
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
        return {"type": "hint", **session.hint(_str(msg, "player"))}

    def _step(self, msg: dict[str, Any]) -> dict[str, Any]:
        self._need("2048").step(_str(msg, "player"))
        return self._state()

    def _record(self, msg: dict[str, Any]) -> dict[str, Any]:
        session = self._need()
        return {"type": "record", "record": session.record()}

    def _replay(self, msg: dict[str, Any]) -> dict[str, Any]:

        record = msg.get("record")
        try:
            session = SessionReplay(record)
        except ValueError as e:
            raise UsageError(f"bad record: {e}") from None
        self._save()
        self.session = session
        return self._state()

    def _seek(self, msg: dict[str, Any]) -> dict[str, Any]:
        session = self._need("replay")
        session.seek(_int(msg, "index", 0, 10**9))
        return self._state()

    def _agents(self, msg: dict[str, Any]) -> dict[str, Any]:
        return {"type": "agents", **agent_lists()}


def agent_lists() -> dict[str, Any]:
    """The players of each game (name -> one-line description) and, under ``"options"``,
    each player's options with their defaults (``"depth=None, preset=default"``)."""
    from boardai.g2048 import agents as agents_2048
    from boardai.othello import agents as agents_othello

    out: dict[str, Any] = {"options": {}}
    for game, module in (("2048", agents_2048), ("othello", agents_othello)):
        out[game] = module.agent_names()
        out["options"][game] = {name: _defaults(module.REGISTRY, name) for name in out[game]}
    return out


def _defaults(registry: Any, name: str) -> str:
    """``key=value, ...`` of a player's default options ("" if it has none or needs some)."""
    import dataclasses

    try:
        opts = registry.options(name)[1]
    except UsageError:  # an option without a default, e.g. a model file
        return "options without defaults (see its description)"
    return ", ".join(f"{f.name}={getattr(opts, f.name)}" for f in dataclasses.fields(opts))
