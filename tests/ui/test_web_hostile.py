"""A hostile page and a careless client against a real ``boardai serve`` on 127.0.0.1.

Every attack gets a refusal or a one-line error, runs nothing, reveals nothing, and leaves the
server answering within a second. Loops are bounded in count and time.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
import urllib.error
import urllib.request

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from boardai.g2048 import Game
from boardai.ui.web.protocol import MAX_DEPTH, MAX_DIGITS, MAX_REPLAY_MOVES
from tests.ui.conftest import live_server


@pytest.fixture(scope="module")
def server():
    """A server with one search thread, so queueing and cancelling can be seen."""
    with live_server("--max-searches", "1") as live:
        yield live.url.rsplit(":", 1)[1].strip("/")


def ws_url(port: str) -> str:
    return f"ws://127.0.0.1:{port}/ws"


def ask(ws, msg, timeout: float = 30) -> dict:
    ws.send(msg if isinstance(msg, str) else json.dumps(msg))
    return json.loads(ws.recv(timeout=timeout))


def answers_quickly(port: str) -> None:
    """The server still answers a fresh socket's ``agents`` (a liveness check, not a speed one:
    the bound is loose enough for a loaded CI box, far below a blocked server's wait)."""
    with connect(ws_url(port)) as ws:
        assert ask(ws, {"type": "agents"}, timeout=3)["type"] == "agents"


# -- who may connect -----------------------------------------------------------------------


def test_a_page_of_another_origin_is_refused_with_a_reason(server):
    with (
        connect(ws_url(server), origin="http://evil.example.com") as ws,
        pytest.raises(ConnectionClosed) as e,
    ):
        ws.recv(timeout=10)
    assert e.value.rcvd is not None and e.value.rcvd.code == 1008
    assert "cross-origin" in e.value.rcvd.reason
    answers_quickly(server)


def test_the_servers_own_page_may_connect(server):
    with connect(ws_url(server), origin=f"http://127.0.0.1:{server}") as ws:
        assert ask(ws, {"type": "agents"})["type"] == "agents"


def test_a_rebound_host_name_is_refused(server):
    """DNS rebinding: evil.example.com resolving to 127.0.0.1 sends its own Host."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{server}/api/agents", headers={"Host": f"evil.example.com:{server}"}
    )
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(request, timeout=10)
    e.value.close()
    assert e.value.code == 400
    with pytest.raises(InvalidStatus) as refused:
        connect(ws_url(server), additional_headers={"Host": "evil.example.com"})
    assert refused.value.response.status_code == 400


def test_cross_origin_writes_are_refused(server):
    request = urllib.request.Request(
        f"http://127.0.0.1:{server}/api/agents",
        data=b"{}",
        headers={"Origin": "http://evil.example.com"},
        method="POST",
    )
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(request, timeout=10)
    e.value.close()
    assert e.value.code == 403


# -- what a client may ask for -------------------------------------------------------------


@pytest.mark.parametrize(
    "msg",
    [
        {"type": "hint", "player": "gtp:cmd=touch {marker}"},
        {"type": "new", "game": "othello", "human": "white", "player": "gtp:cmd=touch {marker}"},
        {"type": "new", "game": "othello", "player": "gtp:cmd=sh -c 'id > {marker}'"},
        {"type": "step", "player": "ntuple:model={marker}"},
    ],
)
def test_no_client_runs_a_program(server, tmp_path, msg):
    marker = tmp_path / "pwned"
    text = json.dumps(msg).replace("{marker}", str(marker))
    with connect(ws_url(server)) as ws:
        ask(ws, {"type": "new", "game": "othello" if "othello" in text else "2048", "seed": 1})
        reply = ask(ws, text)
    assert reply["type"] == "error"
    assert "not offered" in reply["message"] or "must be one of" in reply["message"]
    time.sleep(0.2)
    assert not marker.exists()


@pytest.mark.parametrize(
    ("game", "template"),
    [
        ("2048", "ntuple:model={path}"),
        ("2048", "dqn:model={path}"),
        ("othello", "ntuple:model={path}"),
        ("othello", "alphabeta:eval=ntuple,model={path}"),
    ],
)
def test_no_client_names_a_file_or_learns_which_exist(server, tmp_path, game, template):
    present = tmp_path / "present.npz"
    present.write_bytes(b"secret")
    paths = [present, tmp_path / "absent.npz", "../../etc/passwd", "/etc/shadow", "~/.ssh/id"]
    messages = set()
    with connect(ws_url(server)) as ws:
        ask(ws, {"type": "new", "game": "2048", "seed": 1})
        for path in paths:
            spec = template.format(path=path)
            reply = ask(
                ws, {"type": "hint" if game == "2048" else "new", "game": game, "player": spec}
            )
            assert reply["type"] == "error", reply
            assert str(tmp_path) not in reply["message"]  # absolute paths are never shown
            messages.add(reply["message"].replace(str(path), "PATH").replace("<path>", "PATH"))
    assert len(messages) == 1, messages  # the same answer whether the file is there or not


UNBOUNDED = [
    ("othello", "alphabeta:depth=60"),
    ("othello", "alphabeta:time=0"),
    ("othello", "alphabeta:time=3600"),
    ("othello", "alphabeta:tt=26"),
    ("othello", "alphabeta:endgame=24"),
    ("othello", "ntuple:depth=60"),
    ("2048", "expectimax:depth=12"),
    ("2048", "expectimax:preset=strong"),  # its depth 12 is above the caps
    ("2048", "expectimax:table_bits=26"),
    ("2048", "expectimax:prob_cut=0"),
    ("2048", "ntuple:depth=4"),
    ("2048", "dqn:device=cuda"),
    ("2048", "dqn:threads=64"),
]


@pytest.mark.parametrize(("game", "spec"), UNBOUNDED)
def test_unbounded_work_is_refused(server, game, spec):
    with connect(ws_url(server)) as ws:
        if game == "2048":
            ask(ws, {"type": "new", "game": "2048", "seed": 1})
            reply = ask(ws, {"type": "hint", "player": spec})
        else:
            reply = ask(ws, {"type": "new", "game": "othello", "player": spec})
    assert reply["type"] == "error", reply


def test_bounded_players_play(server):
    with connect(ws_url(server)) as ws:
        ask(ws, {"type": "new", "game": "2048", "seed": 1})
        for spec in ("expectimax:depth=3", "expectimax:preset=strong,max_depth=4,table_bits=16"):
            reply = ask(ws, {"type": "hint", "player": spec})
            assert reply["type"] == "hint", reply
        state = ask(ws, {"type": "new", "game": "othello", "player": "alphabeta:depth=3,time=0.5"})
        assert state["type"] == "state", state


# -- malformed messages --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"type": "new", "game": "2048", "seed": ' + "9" * 5000 + "}", "digits"),
        ('{"type": "new", "game": "2048", "seed": ' + "9" * (MAX_DIGITS + 1) + "}", "digits"),
        ('{"type": "new", "game": "2048", "seed": 1e999}', "range"),
        ('{"type": "new", "game": "2048", "seed": NaN}', "NaN"),
        (
            '{"type": "agents", "x": ' + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "}",
            "deeper",
        ),
        ('{"type": "agents", "x": ' + "[" * 100_000 + "]" * 100_000 + "}", "malformed"),
        ('{"type": "agents", "id": {"a": 1}}', None),
    ],
)
def test_malformed_messages_get_one_line_and_the_socket_stays(server, text, words):
    with connect(ws_url(server), max_size=None) as ws:
        reply = ask(ws, text)
        if words is None:
            assert reply["type"] == "agents" and "id" not in reply
        else:
            assert reply["type"] == "error" and words in reply["message"], reply
            assert "\n" not in reply["message"]
        assert ask(ws, {"type": "agents", "id": 7})["id"] == 7


def test_a_padded_record_is_refused_before_it_is_replayed(server):
    """Moves that spawn nothing slide one tile back and forth for ever: a 2 MB message would
    replay into 200,000 positions (seconds of work, hundreds of MB) on each send."""
    grid = [[2, 0, 0, 0]] + [[0] * 4] * 3
    moves = [[1, -1, 0], [3, -1, 0]] * (MAX_REPLAY_MOVES // 2 + 1)
    record = {"game": "2048", "seed": 1, "start": [], "start_grid": grid, "moves": moves}
    with connect(ws_url(server), max_size=None) as ws:
        reply = ask(ws, {"type": "replay", "record": record})
        assert reply["type"] == "error" and "bad record" in reply["message"], reply
        assert f"at most {MAX_REPLAY_MOVES}" in reply["message"]
        short = ask(ws, {"type": "replay", "record": {**record, "moves": moves[:10]}})
        assert short["type"] == "error" and "a move with no spawn" in short["message"], short
        game = Game(seed=1)
        for _ in range(10):
            game.move(next(a for a in range(4) if game.board.slide(a)[0] != game.board))
        played = ask(ws, {"type": "replay", "record": game.to_record()})
        assert played["type"] == "state" and played["length"] == 11


# -- searches: bounded, one per game, cancelled with their client --------------------------


SLOW = {"type": "new", "game": "othello", "human": "white", "player": "alphabeta:depth=20,time=2"}


def test_one_search_per_game_and_agents_answered_meanwhile(server):
    with connect(ws_url(server)) as ws:
        ws.send(json.dumps({**SLOW, "id": 1}))
        time.sleep(0.2)
        t0 = time.perf_counter()
        busy = ask(ws, {"type": "hint", "player": "random", "id": 2})
        assert busy["type"] == "error" and "busy" in busy["message"] and busy["id"] == 2
        assert ask(ws, {"type": "agents", "id": 3})["id"] == 3
        assert time.perf_counter() - t0 < 1.5  # while the 2-second search runs, not after it
        state = json.loads(ws.recv(timeout=30))
        assert state["id"] == 1 and state["type"] == "state" and state["to_move"] == "white"


def test_a_flood_of_searches_leaves_the_server_answering(server):
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(connect(ws_url(server))) for _ in range(6)]
        for ws in sockets:
            ws.send(json.dumps(SLOW))
        time.sleep(0.2)
        answers_quickly(server)
        t0 = time.perf_counter()
        for ws in sockets[1:]:  # closing drops their queued searches
            ws.close()
        state = json.loads(sockets[0].recv(timeout=30))
        assert state["type"] == "state"
        elapsed = time.perf_counter() - t0
    # One search thread: had the five closed sockets' searches run, this would take 12 s.
    with connect(ws_url(server)) as ws:
        t0 = time.perf_counter()
        reply = ask(ws, {"type": "new", "game": "othello", "human": "white", "player": "wpc"})
        assert reply["type"] == "state"
        assert time.perf_counter() - t0 < 3.0, elapsed


def test_cancel_drops_a_queued_search(server):
    with connect(ws_url(server)) as first, connect(ws_url(server)) as second:
        first.send(json.dumps({**SLOW, "id": 1}))  # takes the one search thread
        time.sleep(0.2)
        second.send(json.dumps({**SLOW, "id": 1}))  # waits for it
        reply = ask(second, {"type": "cancel", "id": 2})
        assert reply == {"type": "cancelled", "cancelled": True, "id": 2}
        assert ask(second, {"type": "agents", "id": 3})["id"] == 3  # no reply to the search
        assert json.loads(first.recv(timeout=30))["type"] == "state"
        with pytest.raises(TimeoutError):  # the cancelled search would answer within 2 s
            second.recv(timeout=2.5)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_record_file_that_blocks_holds_up_no_socket(tmp_path):
    """``--record`` on a pipe nobody reads yet (or a slow disk, or a big file rewritten): the
    game of a closed socket waits to be written, and nothing else waits with it."""
    fifo = tmp_path / "games.fifo"
    os.mkfifo(fifo)
    with live_server("--record", str(fifo)) as live:
        port = live.url.rsplit(":", 1)[1].strip("/")
        try:
            with connect(ws_url(port)) as ws:
                ask(ws, {"type": "new", "game": "2048", "seed": 424242})
                assert ask(ws, {"type": "step", "player": "random"})["moves"] == 1
            time.sleep(0.3)  # the socket's close is handled: its game is being saved
            answers_quickly(port)
            with connect(ws_url(port)) as ws:  # a game, not only the agents
                assert ask(ws, {"type": "new", "game": "2048", "seed": 1}, timeout=3)["moves"] == 0
        finally:
            reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # lets the save go on
        text, deadline = b"", time.monotonic() + 10
        while b"\n" not in text and time.monotonic() < deadline:
            with contextlib.suppress(BlockingIOError):
                text += os.read(reader, 65536)
            time.sleep(0.02)
        os.close(reader)
    assert json.loads(text.decode().splitlines()[0])["seed"] == 424242  # still kept


# -- anything at all -----------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
messages = st.fixed_dictionaries(
    {
        "type": st.sampled_from(
            [
                "new",
                "move",
                "undo",
                "hint",
                "step",
                "record",
                "replay",
                "seek",
                "agents",
                "cancel",
                "bogus",
            ]
        )
    },
    optional={
        "game": st.sampled_from(["2048", "othello", "chess"]) | json_values,
        "player": st.sampled_from(["random", "wpc", "greedy", "gtp:cmd=x", "ntuple:model=/x"])
        | json_values,
        "action": json_values,
        "move": json_values,
        "seed": json_values,
        "board": json_values,
        "index": json_values,
        "record": json_values,
        "human": json_values,
        "id": json_values,
    },
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batch=st.lists(messages, min_size=1, max_size=5))
def test_any_message_gets_one_reply_and_the_socket_stays(server, batch):
    with connect(ws_url(server)) as ws:
        for msg in batch:
            reply = ask(ws, msg)
            assert isinstance(reply, dict) and isinstance(reply.get("type"), str)
            if reply["type"] == "error" and "busy" in reply["message"]:
                ask(ws, {"type": "cancel"})
        assert ask(ws, {"type": "agents"})["type"] == "agents"


def test_the_page_lists_only_offered_players(server):
    with urllib.request.urlopen(f"http://127.0.0.1:{server}/api/agents", timeout=10) as r:
        listing = json.loads(r.read())
    assert "gtp" not in listing["othello"]
    assert "depth=1..6" in listing["options"]["2048"]["expectimax"]


def test_head_of_the_page_is_answered_like_get(server):
    request = urllib.request.Request(f"http://127.0.0.1:{server}/", method="HEAD")
    with urllib.request.urlopen(request, timeout=10) as r:
        assert r.status == 200 and r.read() == b""
        assert r.headers["content-type"].startswith("text/html")


def test_cancel_frees_the_socket_at_once_and_gives_the_game_back(server):
    """A running search cancelled: the socket takes its next request while the search thinks
    on (on a copy of the game nobody keeps), and the game is as it was before the request."""
    slow = "alphabeta:depth=20,time=5"
    with connect(ws_url(server)) as ws:
        state = ask(ws, {"type": "new", "game": "othello", "human": "black", "player": slow})
        assert state["type"] == "state" and state["moves"] == []
        ws.send(json.dumps({"type": "move", "move": "d3", "id": 1}))  # the reply thinks 5 s
        time.sleep(0.5)  # running, not queued: the server has one search thread
        assert ask(ws, {"type": "cancel", "id": 2})["cancelled"] is True
        record = ask(ws, {"type": "record", "id": 3}, timeout=3)
        assert record["id"] == 3 and record["record"]["moves"] == []  # d3 taken back too
        again = ask(ws, {"type": "new", "game": "2048", "seed": 3, "id": 4}, timeout=3)
        assert again["type"] == "state" and again["id"] == 4  # not "busy"
        with pytest.raises(TimeoutError):  # the cancelled search never answers
            ws.recv(timeout=6)
