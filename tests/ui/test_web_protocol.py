"""The WebSocket API on its own: every good request works, every bad one gets its error reply."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import threading
import time
import urllib.request
from typing import Any

import pytest
from websockets.sync.client import connect

from boardai.errors import UsageError
from boardai.g2048 import Game
from boardai.othello.board import action_text
from boardai.records import RecordSink
from boardai.ui.web.protocol import MAX_MESSAGE, BackgroundSink, Connection

STUCK = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 8]]


class Socket:
    def __init__(self, ws):
        self.ws = ws

    def ask(self, msg) -> dict:
        self.ws.send(msg if isinstance(msg, (str, bytes)) else json.dumps(msg))
        return json.loads(self.ws.recv(timeout=30))

    def error(self, msg, *words: str) -> str:
        reply = self.ask(msg)
        assert reply["type"] == "error", reply
        for word in words:
            assert word in reply["message"], reply["message"]
        return reply["message"]


@pytest.fixture
def sock(server):
    with connect(server.ws, max_size=None) as ws:
        yield Socket(ws)


def test_page_theme_and_agents_are_served(server):
    with urllib.request.urlopen(server.url) as r:
        assert b"boardai" in r.read()
    with urllib.request.urlopen(server.url + "theme.css") as r:
        assert b".tile-2048" in r.read()
    with urllib.request.urlopen(server.url + "api/agents") as r:
        assert "random" in json.loads(r.read())["2048"]


def test_a_2048_game(sock):
    s = sock.ask({"type": "new", "game": "2048", "seed": 5})
    assert s["type"] == "state" and s["score"] == 0 and s["moves"] == 0
    assert sum(v > 0 for row in s["grid"] for v in row) == 2
    s2 = sock.ask({"type": "move", "action": s["legal"][0]})
    assert s2["moves"] == 1 and s2["grid"] != s["grid"]
    assert sock.ask({"type": "undo"})["grid"] == s["grid"]
    hint = sock.ask({"type": "hint", "player": "random"})
    assert hint["type"] == "hint" and hint["action"] in s["legal"]
    s3 = sock.ask({"type": "step", "player": "random"})
    assert s3["moves"] == 1
    record = sock.ask({"type": "record"})["record"]
    assert Game.from_record(record).board.to_grid() == s3["grid"]


def test_replay_and_seek(sock):
    g = Game(seed=2)
    for _ in range(5):
        g.move(g.board.legal_actions()[0])
    s = sock.ask({"type": "replay", "record": g.to_record()})
    assert s["game"] == "replay" and s["of"] == "2048" and s["length"] == 6 and s["index"] == 0
    end = sock.ask({"type": "seek", "index": 5})
    assert end["grid"] == g.board.to_grid() and end["score"] == g.score and end["at_end"]
    sock.error({"type": "seek", "index": 6}, "no position 6")
    sock.error({"type": "move", "action": 0}, "replay")
    sock.error({"type": "undo"}, "replay")


@pytest.mark.parametrize(
    ("msg", "words"),
    [
        ("{not json", ["malformed JSON"]),
        ("[1, 2]", ["JSON object"]),
        ('"hello"', ["JSON object"]),
        ({"type": "fly"}, ["unknown message type"]),
        ({"kind": "new"}, ["unknown message type"]),
        ({"type": "move", "action": 0}, ["no game yet"]),
        ({"type": "seek", "index": 0}, ["no game yet"]),
        ({"type": "new", "game": "chess"}, ["unknown game 'chess'"]),
        ({"type": "new"}, ["unknown game"]),
        ({"type": "new", "game": "2048", "seed": -1}, ["seed"]),
        ({"type": "new", "game": "2048", "seed": "x"}, ["seed"]),
        ({"type": "new", "game": "2048", "seed": True}, ["seed"]),
        ({"type": "new", "game": "2048", "board": [[2, 4]]}, ["bad board"]),
        ({"type": "new", "game": "2048", "board": [[3] * 4] * 4}, ["bad board"]),
        ({"type": "new", "game": "2048", "board": "big"}, ["bad board"]),
        ({"type": "replay", "record": {"game": "2048", "moves": [[9, 9, 9]]}}, ["bad record"]),
        ({"type": "replay", "record": "nope"}, ["bad record"]),
        ({"type": "replay"}, ["bad record"]),
    ],
)
def test_bad_requests_get_errors(sock, msg, words):
    sock.error(msg, *words)
    assert sock.ask({"type": "agents"})["type"] == "agents"  # the socket still works


@pytest.mark.parametrize(
    ("msg", "words"),
    [
        ({"type": "move", "action": 0}, ["illegal"]),
        ({"type": "move", "action": 7}, ["action"]),
        ({"type": "move", "action": True}, ["action"]),
        ({"type": "move", "action": None}, ["action"]),
        ({"type": "move", "action": "sideways"}, ["unknown action"]),
        ({"type": "move"}, ["action"]),
        ({"type": "hint", "player": "nobody"}, ["2048 player 'nobody' is not offered here"]),
        ({"type": "hint", "player": "random:depth=3"}, ["'depth' cannot be set here"]),
        ({"type": "hint"}, ["player"]),
        ({"type": "step", "player": 3}, ["player"]),
        ({"type": "undo"}, ["nothing to undo"]),
        ({"type": "seek", "index": 1}, ["not a replay"]),
    ],
)
def test_bad_2048_requests_get_errors(sock, msg, words):
    # only "left" (3) and "up" (0) are illegal on this board: tiles sit in the top-left corner
    s = sock.ask({"type": "new", "game": "2048", "board": [[2, 0, 0, 0]] + [[0] * 4] * 3})
    assert s["legal"] == [1, 2]
    sock.error(msg, *words)
    assert sock.ask({"type": "move", "action": "right"})["moves"] == 1


def test_a_game_from_a_set_position_has_a_record_that_replays(sock):
    grid = [[2, 0, 0, 0]] + [[0] * 4] * 3
    sock.ask({"type": "new", "game": "2048", "seed": 3, "board": grid})
    end = sock.ask({"type": "move", "action": "right"})
    record = sock.ask({"type": "record"})["record"]
    assert record["start_grid"] == grid
    assert Game.from_record(record).board.to_grid() == end["grid"]
    last = sock.ask({"type": "replay", "record": record})["length"] - 1
    assert sock.ask({"type": "seek", "index": last})["grid"] == end["grid"]


def test_game_over_position(sock):
    s = sock.ask({"type": "new", "game": "2048", "board": STUCK})
    assert s["over"] and s["legal"] == []
    sock.error({"type": "step", "player": "random"}, "over")
    sock.error({"type": "hint", "player": "random"}, "over")


def test_oversized_and_binary_messages(sock):
    sock.error("x" * (MAX_MESSAGE + 1), "too long")
    sock.error(b"\x00\x01", "binary")
    assert sock.ask({"type": "new", "game": "2048", "seed": 1})["type"] == "state"


def test_a_closed_game_is_recorded(server):
    with connect(server.ws) as ws:
        s = Socket(ws)
        state = s.ask({"type": "new", "game": "2048", "seed": 77})
        for _ in range(3):
            state = s.ask({"type": "step", "player": "random"})
    for _ in range(100):
        if server.records.exists() and '"seed":77' in server.records.read_text():
            break
        time.sleep(0.05)
    lines = [json.loads(x) for x in server.records.read_text().splitlines()]
    mine = [r for r in lines if r.get("seed") == 77]  # Othello games have no seed
    assert len(mine) == 1 and mine[0]["source"] == "web"
    assert Game.from_record(mine[0]).board.to_grid() == state["grid"]


class _Blocked:
    """A player that thinks until it is let go."""

    name = "blocked"

    def __init__(self) -> None:
        self.go = threading.Event()

    def reset(self) -> None:
        pass

    def act(self, board) -> int:
        assert self.go.wait(10)
        return board.legal_actions()[0]


def test_a_slow_player_does_not_block_other_games():
    async def main() -> None:
        slow, fast = Connection(), Connection()
        await slow.handle(json.dumps({"type": "new", "game": "2048", "seed": 1}))
        blocked = _Blocked()
        slow.session.agents._agents["blocked"] = blocked
        thinking = asyncio.create_task(
            slow.handle(json.dumps({"type": "step", "player": "blocked"}))
        )
        await asyncio.sleep(0)
        reply = await fast.handle(json.dumps({"type": "new", "game": "2048", "seed": 2}))
        reply = await fast.handle(json.dumps({"type": "step", "player": "random"}))
        assert reply["moves"] == 1
        assert not thinking.done()
        blocked.go.set()
        assert (await thinking)["moves"] == 1

    asyncio.run(main())


def test_quick_requests_share_a_bounded_pool(monkeypatch):
    """Opening replays (a second and up to about 100 MB each at the cap) on many sockets at
    once: at most MAX_QUICK at a time, in the quick pool, every socket answered."""
    from boardai.ui.web import protocol

    running, most, names = 0, 0, set()
    lock = threading.Lock()

    class SlowReplay:  # stands in for SessionReplay: counts how many are read at once
        kind = "replay"

        def __init__(self, record) -> None:
            nonlocal running, most
            with lock:
                running += 1
                most = max(most, running)
                names.add(threading.current_thread().name.split("_")[0])
            time.sleep(0.05)
            with lock:
                running -= 1

        def state(self) -> dict:
            return {"of": "2048"}

    monkeypatch.setattr(protocol, "SessionReplay", SlowReplay)

    async def main() -> list[dict]:
        sockets = [Connection() for _ in range(3 * protocol.MAX_QUICK)]
        msg = json.dumps({"type": "replay", "record": {"game": "2048"}})
        return await asyncio.gather(*(c.handle(msg) for c in sockets))

    replies = asyncio.run(main())
    assert [r["type"] for r in replies] == ["state"] * 3 * protocol.MAX_QUICK
    assert 1 < most <= protocol.MAX_QUICK and names == {"boardai-quick"}


def test_an_othello_game(sock):
    s = sock.ask(
        {"type": "new", "game": "othello", "human": "black", "player": "random", "seed": 1}
    )
    assert s["type"] == "state" and s["counts"] == {"black": 2, "white": 2}
    assert sorted(s["legal"]) == [19, 26, 37, 44] and s["to_move"] == "black"
    s = sock.ask({"type": "move", "move": "d3"})
    assert s["moves"][0] == "d3" and len(s["moves"]) == 2 and s["to_move"] == "black"
    assert s["last"] is not None and s["flips"]
    hint = sock.ask({"type": "hint", "player": "random"})
    assert hint["action"] in s["legal"]
    record = sock.ask({"type": "record"})["record"]
    assert record["game"] == "othello" and record["moves"] == s["moves"]
    s = sock.ask({"type": "undo"})
    assert s["moves"] == [] and not s["can_undo"]


def test_othello_as_white_gets_the_first_reply(sock):
    s = sock.ask({"type": "new", "game": "othello", "human": "white", "player": "random"})
    assert len(s["moves"]) == 1 and s["to_move"] == "white" and s["counts"]["black"] == 4
    sock.error({"type": "undo"}, "nothing to undo")


@pytest.mark.parametrize(
    ("msg", "words"),
    [
        ({"type": "move", "move": "a1"}, ["illegal move a1"]),
        ({"type": "move", "move": "pass"}, ["illegal move pass"]),
        ({"type": "move", "move": "z9"}, ["unknown move"]),
        ({"type": "move", "move": 19}, ["'move' must be"]),
        ({"type": "move"}, ["'move' must be"]),
        ({"type": "step", "player": "nobody"}, ["othello player 'nobody' is not offered here"]),
        ({"type": "hint", "player": "nobody"}, ["othello player 'nobody' is not offered here"]),
        ({"type": "undo"}, ["nothing to undo"]),
    ],
)
def test_bad_othello_requests_get_errors(sock, msg, words):
    sock.ask({"type": "new", "game": "othello", "player": "random"})
    sock.error(msg, *words)
    assert sock.ask({"type": "move", "move": "d3"})["type"] == "state"


def test_othello_autoplay_plays_both_sides_to_the_end(sock):
    """``step`` at Othello: the player named makes the person's move, the opponent replies."""
    s = sock.ask({"type": "new", "game": "othello", "human": "white", "player": "random"})
    for _ in range(64):
        before = len(s["moves"])
        s = sock.ask({"type": "step", "player": "wpc"})
        assert s["over"] or (s["to_move"] == "white" and len(s["moves"]) >= before + 2)
        if s["over"]:
            break
    assert s["over"] and s["result"]
    sock.error({"type": "step", "player": "wpc"}, "the game is over")
    record = sock.ask({"type": "record"})["record"]
    assert record["moves"] == s["moves"] and record["over"]
    sock.ask({"type": "replay", "record": record})
    sock.error({"type": "step", "player": "wpc"}, "a replay takes no moves")


@pytest.mark.parametrize(
    ("msg", "words"),
    [
        ({"human": "red"}, ["black or white"]),
        ({"player": "nobody"}, ["othello player 'nobody' is not offered here"]),
        ({"player": ""}, ["'player' must be"]),
        ({"seed": 1.5}, ["seed"]),
    ],
)
def test_bad_othello_games_get_errors(sock, msg, words):
    sock.error({"type": "new", "game": "othello", **msg}, *words)


def test_othello_replay(sock):
    from boardai.othello import Game as OthelloGame

    g = OthelloGame()
    for move in ("d3", "c5", "f6"):
        g.play(move)
    s = sock.ask({"type": "replay", "record": g.to_record()})
    assert s["of"] == "othello" and s["length"] == 4 and s["counts"] == {"black": 2, "white": 2}
    s = sock.ask({"type": "seek", "index": 3})
    assert s["move"] == "f6" and s["last"] == 45 and s["flips"]


def test_each_socket_has_its_own_game(server):
    with connect(server.ws) as a, connect(server.ws) as b:
        sa, sb = Socket(a), Socket(b)
        first = sa.ask({"type": "new", "game": "2048", "seed": 11})
        sb.ask({"type": "new", "game": "othello", "player": "random"})
        sa.ask({"type": "step", "player": "random"})
        assert sb.ask({"type": "move", "move": "d3"})["game"] == "othello"
        assert sa.ask({"type": "undo"})["grid"] == first["grid"]


def test_a_huge_message_closes_only_its_socket(server):
    from websockets.exceptions import ConnectionClosed

    with connect(server.ws, max_size=None) as ws:
        ws.send("x" * (4 * MAX_MESSAGE + 1))  # over the server's frame limit
        with pytest.raises(ConnectionClosed) as e:
            ws.recv(timeout=30)
        assert e.value.rcvd is not None and e.value.rcvd.code == 1009  # "message too big"
    with connect(server.ws) as ws:
        assert Socket(ws).ask({"type": "agents"})["type"] == "agents"


def test_a_stopped_reply_leaves_the_computers_turn_to_no_one():
    """A cancel that lands as the person's move starts stops the reply before it: the page
    may then only undo or start anew, not play the computer's colour."""

    async def main() -> None:
        c = Connection()
        new = {"type": "new", "game": "othello", "human": "black", "player": "random"}
        assert (await c.handle(json.dumps(new)))["to_move"] == "black"
        c.session.stop.set()  # as cancel() does while the move's thread starts
        with pytest.raises(UsageError, match="stopped"):
            c.session.move("d3")
        assert c.session.game.move_texts() == ["d3"]
        white = action_text(c.session.state()["legal"][0])
        reply = await c.handle(json.dumps({"type": "move", "move": white}))
        assert reply["type"] == "error" and "white's turn, not yours" in reply["message"]
        assert c.session.game.move_texts() == ["d3"]
        state = await c.handle(json.dumps({"type": "undo"}))
        assert state["moves"] == [] and state["to_move"] == "black"
        assert (await c.handle(json.dumps({"type": "move", "move": "d3"})))["type"] == "state"

    asyncio.run(main())


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_loses_the_record_not_the_game(caplog):
    """The next game starts, and the server says once, in one line, what was not saved."""

    async def main() -> list[dict]:
        c = Connection(BackgroundSink(RecordSink("/dev/full")))
        replies = [await c.handle(json.dumps({"type": "new", "game": "2048", "seed": 1}))]
        replies.append(await c.handle(json.dumps({"type": "step", "player": "random"})))
        replies.append(await c.handle(json.dumps({"type": "new", "game": "2048", "seed": 2})))
        return replies

    with caplog.at_level(logging.WARNING, logger="boardai.ui.web.protocol"):
        replies = asyncio.run(main())
        for _ in range(100):
            if caplog.records:
                break
            time.sleep(0.05)
    assert [r["type"] for r in replies] == ["state"] * 3 and replies[2]["seed"] == 2
    (note,) = caplog.records
    assert "could not save" in note.getMessage() and "No space" in note.getMessage()
    assert note.exc_info is None


def _status(app: Any, host: str, kind: str = "http") -> int:
    """The status an ASGI ``app`` answers a GET of /api/agents (or a WebSocket handshake on
    /ws: 101 accepted, 403 closed) with the ``Host`` header ``host``: no server needed."""
    sent: list[dict[str, Any]] = []
    received = [{"type": "http.request", "body": b""}, {"type": "websocket.connect"}]

    async def receive() -> dict[str, Any]:
        return received.pop(0 if kind == "http" else 1) if received else {"type": "x.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)
        if message["type"] == "websocket.accept":
            raise ConnectionAbortedError  # enough: the handshake was taken

    scope = {
        "type": kind,
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "scheme": "ws" if kind == "websocket" else "http",
        "method": "GET",
        "path": "/ws" if kind == "websocket" else "/api/agents",
        "raw_path": b"",
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", host.encode())],
        "client": ("10.0.0.1", 5000),
        "server": ("0.0.0.0", 8000),
    }
    with contextlib.suppress(ConnectionAbortedError):
        asyncio.run(app(scope, receive, send))
    if kind == "websocket":
        return 101 if sent and sent[0]["type"] == "websocket.accept" else 403
    return int(sent[0]["status"])


def test_a_server_on_every_interface_answers_to_addresses_and_named_hosts_only() -> None:
    """Bound to 0.0.0.0 the server is reached by its addresses, this machine's name or an
    ``--allow-host`` name; any other name is refused, as a DNS rebinding page's Host is."""
    from boardai.ui.web.app import ANY_ADDRESS, create_app

    app = create_app(allow_hosts=[ANY_ADDRESS, "boards.lan"])
    for host in ("10.1.2.3:8000", "[fe80::1]:8000", "boards.lan:8000", "localhost"):
        assert _status(app, host) == 200, host
    for host in ("evil.example.com:8000", "10.1.2.3.evil.example.com", "[fe80::1.evil]", ""):
        assert _status(app, host) == 400, host
    assert _status(app, "192.168.0.9:8000", "websocket") == 101
    assert _status(app, "evil.example.com", "websocket") == 403
    # bound to one address, the names are the ones given: an address alone is not enough
    assert _status(create_app(allow_hosts=["10.1.2.3"]), "10.9.9.9:8000") == 400
