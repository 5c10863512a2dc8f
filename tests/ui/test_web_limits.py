"""What ``boardai serve`` holds bounded: external engines, the record file and its queue, the
players' memory, a cancelled search's socket. Real servers where a process is what is counted
(engines, memory, a SIGTERM); the parts on their own where that shows the same."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time
import urllib.request
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.sync.client import connect

from boardai.errors import ModelFileError, UsageError
from boardai.records import RecordSink, read_records
from boardai.ui.session import AgentCache
from boardai.ui.web.players import Offers, PlayerBudget
from boardai.ui.web.protocol import BackgroundSink, Connection

# -- a real server -------------------------------------------------------------------------


@contextlib.contextmanager
def serve(tmp_path: Path, *args: str) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``boardai serve --port 0 ARGS`` (its output in a file: a full pipe would stall it):
    (the process, ws://.../ws) once it answers, killed at the end whatever happens."""
    log = open(tmp_path / "serve.log", "wb")  # noqa: SIM115 (closed in the finally)
    cmd = [sys.executable, "-m", "boardai", "serve", "--port", "0", *args]
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    try:
        url, deadline = None, time.monotonic() + 300  # a first start compiles for a minute
        while url is None:
            assert proc.poll() is None, (tmp_path / "serve.log").read_text()
            assert time.monotonic() < deadline, "boardai serve did not start"
            found = re.search(r"http://127\.0\.0\.1:\d+/", (tmp_path / "serve.log").read_text())
            url = found.group(0) if found else None
            time.sleep(0.1)
        while True:  # the socket listens before the warm-up: wait for a real answer
            assert time.monotonic() < deadline, "boardai serve did not answer"
            try:
                with urllib.request.urlopen(url + "api/agents", timeout=30):
                    break
            except OSError:
                time.sleep(0.2)
        yield proc, url.replace("http://", "ws://") + "ws"
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        log.close()


def ask(ws, msg: dict, timeout: float = 60) -> dict:
    ws.send(json.dumps(msg))
    return json.loads(ws.recv(timeout=timeout))


def engines_running(server: int) -> int:
    """The server's child processes (read from /proc: a reaped engine is gone)."""
    count = 0
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            with contextlib.suppress(OSError):
                stat = Path(f"/proc/{pid}/stat").read_text()
                fields = stat.rsplit(")", 1)[1].split()  # after the name, which may hold spaces
                if int(fields[1]) == server and fields[0] != "Z":
                    count += 1
    return count


def wait_for(check, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


# -- external engines ----------------------------------------------------------------------

#: A GTP engine that opens every game with d3 (all the tests ask of it), counted by its path.
ENGINE = """
import sys
for line in sys.stdin:
    words = line.split()
    if words and words[0] == "quit":
        print("=\\n", flush=True)
        break
    print("= D3\\n" if words and words[0] == "genmove" else "=\\n", flush=True)
"""


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="counts processes in /proc")
def test_engines_stop_with_their_game_and_are_capped(tmp_path):
    engine = tmp_path / "fake_engine.py"
    engine.write_text(textwrap.dedent(ENGINE))
    spec = f"fake=gtp:cmd={sys.executable} {engine}"
    white = {"type": "new", "game": "othello", "human": "white", "player": "fake"}
    with (
        serve(tmp_path, "--add-player", "othello", spec, "--max-engines", "2") as (proc, ws_url),
        connect(ws_url) as a,
        connect(ws_url) as b,
        connect(ws_url) as c,
    ):
        for _ in range(5):  # each new game replaces the last: its engine stops first
            state = ask(a, white)
            assert state["type"] == "state" and state["moves"] == ["d3"], state
            assert engines_running(proc.pid) == 1
        assert ask(b, white)["moves"] == ["d3"]
        assert engines_running(proc.pid) == 2
        refused = ask(c, white)
        assert refused["type"] == "error" and "at most 2 engines" in refused["message"]
        assert str(tmp_path) not in refused["message"]
        assert ask(a, {"type": "new", "game": "2048", "seed": 1})["type"] == "state"
        assert wait_for(lambda: engines_running(proc.pid) == 1)  # a's game was replaced
        assert ask(c, white)["moves"] == ["d3"]  # its slot is free again
        b.close()  # the socket closes: its engine stops
        assert wait_for(lambda: engines_running(proc.pid) == 1)
        c.close()
        assert wait_for(lambda: engines_running(proc.pid) == 0)


# -- records -------------------------------------------------------------------------------


def _record(seed: int, moves: int = 50) -> dict:
    return {"game": "2048", "seed": seed, "start": [], "moves": [[0, 1, 2]] * moves}


def test_a_record_is_appended_without_rewriting_the_file(tmp_path):
    """1,000 records onto a 100 MB file: the file is never read back or replaced (the same
    inode, the old bytes untouched), so each append costs its own line, not the file."""
    path = tmp_path / "games.jsonl"
    line = json.dumps(_record(-1, 5000), separators=(",", ":")) + "\n"
    with open(path, "w") as f:
        for _ in range(100 * 2**20 // len(line) + 1):
            f.write(line)
    size, inode = path.stat().st_size, path.stat().st_ino
    sink = BackgroundSink(RecordSink(path))
    t0 = time.perf_counter()
    for seed in range(1000):
        assert sink.save(_record(seed)) is True
    sink.close()
    elapsed = time.perf_counter() - t0
    assert path.stat().st_ino == inode
    with open(path, "rb") as f:
        assert f.read(len(line)) == line.encode()
        f.seek(size)
        seeds = [json.loads(x)["seed"] for x in f.read().splitlines()]
    assert seeds == list(range(1000))
    # rewriting 100 MB a game took minutes for these; appending takes well under a second
    assert elapsed < 60, elapsed


def test_a_torn_last_line_is_cut_before_the_next_record(tmp_path):
    path = tmp_path / "games.jsonl"
    whole = json.dumps(_record(1)) + "\n"
    path.write_text(whole + whole[: len(whole) // 2])  # a crash in the middle of a line
    assert [r["seed"] for r in read_records(path)] == [1]  # read before the next append
    RecordSink(path).save(_record(2))
    assert [r["seed"] for r in read_records(path)] == [1, 2]
    path.write_text(whole.rstrip("\n"))  # a whole last line without its newline stays
    RecordSink(path).save(_record(3))
    assert [r["seed"] for r in read_records(path)] == [1, 3]


class _StuckSink:
    """A sink whose writes wait until let go (a pipe nobody reads, a hung disk)."""

    def __init__(self) -> None:
        self.go = threading.Event()
        self.lines: list[str] = []

    def append_lines(self, lines: list[str]) -> None:
        self.go.wait(30)
        self.lines.extend(lines)


def test_a_full_record_queue_pushes_back_and_bounds_memory(caplog):
    stuck = _StuckSink()
    one = len(json.dumps(_record(0), separators=(",", ":"))) + 1
    sink = BackgroundSink(stuck, max_bytes=10 * one, wait=0.2, close_wait=0.5)
    kept = [sink.save(_record(seed)) for seed in range(30)]
    assert kept.count(True) <= 11 and kept[-1] is False  # the writer holds one batch
    assert sink.pending <= 10 * one and sink.dropped == kept.count(False)
    assert "not kept" in caplog.text
    t0 = time.perf_counter()
    sink.close()  # the writer is stuck: closing still returns
    assert time.perf_counter() - t0 < 10
    stuck.go.set()


def test_a_game_not_kept_is_said_in_the_reply():
    from boardai.g2048.board import Board

    class Refusing:  # a full queue: BackgroundSink.save said no
        def save(self, record: dict) -> bool:
            return False

    async def main() -> dict:
        c = Connection(Refusing())  # type: ignore[arg-type]
        await c.handle(json.dumps({"type": "new", "game": "2048", "seed": 1}))
        await c.handle(json.dumps({"type": "step", "player": "random"}))
        stuck = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 8]]
        c.session.game.board = Board.from_grid(stuck)  # as if that move had ended it
        return c._state()

    reply = asyncio.run(main())
    assert reply["over"] and "not kept" in reply["message"], reply


@pytest.mark.slow
def test_sigterm_with_a_backlog_exits_in_seconds_with_every_acknowledged_game(tmp_path):
    """1,000 games into a 100 MB --record file from 8 sockets at full speed, then SIGTERM:
    the server is gone within 10 s (the issue asks 5; the margin is for a loaded CI box) and
    every game whose saving was acknowledged (the next ``new`` answered) is in the file."""
    path = tmp_path / "games.jsonl"
    line = json.dumps(_record(-1, 5000), separators=(",", ":")) + "\n"
    with open(path, "w") as f:
        for _ in range(100 * 2**20 // len(line) + 1):
            f.write(line)
    acknowledged: list[int] = []
    lock = threading.Lock()

    def client(ws_url: str, first: int) -> None:
        with connect(ws_url) as ws:
            for seed in range(first, first + 125):
                ask(ws, {"type": "new", "game": "2048", "seed": seed})
                ask(ws, {"type": "step", "player": "random"})
                nxt = ask(ws, {"type": "new", "game": "2048", "seed": 10**6 + seed})
                if "not kept" not in nxt.get("message", ""):
                    with lock:
                        acknowledged.append(seed)

    with serve(tmp_path, "--record", str(path)) as (proc, ws_url):
        threads = [threading.Thread(target=client, args=(ws_url, 1000 * k)) for k in range(8)]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join(600)
        games_s = 1000 / (time.perf_counter() - t0)
        t0 = time.perf_counter()
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
        exit_s = time.perf_counter() - t0
    print(f"1,000 games at {games_s:.0f} games/s; SIGTERM to exit {exit_s:.2f} s")
    assert len(acknowledged) == 1000
    assert exit_s < 10
    seeds = {r.get("seed") for r in read_records(path)}
    assert set(acknowledged) <= seeds


# -- memory --------------------------------------------------------------------------------


class _Table:
    def __init__(self, mib: int) -> None:
        import numpy as np

        self.name = f"table{mib}"
        self.table = np.zeros(mib * 2**20, np.uint8)

    def reset(self) -> None:
        pass

    def act(self, board) -> int:
        return board.legal_actions()[0]


def test_idle_players_of_all_sessions_share_one_budget():
    budget = PlayerBudget(limit=40 * 2**20)
    made: list[weakref.ref] = []

    def make(spec: str, seed: int | None) -> _Table:
        player = _Table(int(spec))
        made.append(weakref.ref(player))
        return player

    caches = [AgentCache(make, None, budget) for _ in range(6)]
    for cache in caches:
        cache.get("16")
    assert budget.total <= 40 * 2**20  # 6 x 16 MiB asked for, 2 kept
    gc.collect()
    assert sum(ref() is not None for ref in made) <= 3
    assert caches[-1].get("16") is made[-1]()  # the most recent is still there
    for cache in caches:
        cache.close()
    gc.collect()
    assert budget.total == 0 and all(ref() is None for ref in made)


def test_a_closed_socket_lets_go_of_its_players():
    async def main() -> weakref.ref:
        c = Connection()
        await c.handle(json.dumps({"type": "new", "game": "2048", "seed": 1}))
        reply = await c.handle(json.dumps({"type": "hint", "player": "expectimax:depth=1"}))
        assert reply["type"] == "hint"
        with c.session.agents.use("expectimax:depth=1") as player:
            ref = weakref.ref(player)
        c.close()
        return ref

    ref = asyncio.run(main())
    gc.collect()
    assert ref() is None


@pytest.mark.slow
def test_server_memory_stays_bounded_and_comes_back(tmp_path):
    """32 sockets asking hints of the players with the largest tables a page may ask for
    (56 MiB each, four players a socket): the server stays under 1.5 GB, and is back near
    where it started within 30 s of the last client leaving."""

    def rss_mb(pid: int) -> float:
        for row in Path(f"/proc/{pid}/status").read_text().splitlines():
            if row.startswith("VmRSS:"):
                return int(row.split()[1]) / 1024
        raise AssertionError("no VmRSS")

    specs = [f"alphabeta:tt=20,depth=20,time=0.3,endgame={e}" for e in (0, 1, 2, 3)]
    peak = 0.0
    with serve(tmp_path) as (proc, ws_url):
        start = rss_mb(proc.pid)
        with contextlib.ExitStack() as stack:
            sockets = [stack.enter_context(connect(ws_url)) for _ in range(32)]
            for ws in sockets:
                assert ask(ws, {"type": "new", "game": "othello", "player": "random"})["type"]
            for spec in specs:
                for ws in sockets:
                    reply = ask(ws, {"type": "hint", "player": spec})
                    assert reply["type"] == "hint", reply
                peak = max(peak, rss_mb(proc.pid))
        assert wait_for(lambda: rss_mb(proc.pid) < start + 400, timeout=30), (
            start,
            peak,
            rss_mb(proc.pid),
        )
        end = rss_mb(proc.pid)
    print(f"server RSS: {start:.0f} MB at start, {peak:.0f} MB peak, {end:.0f} MB after")
    assert peak < 1500


# -- cancelling, and what a page is told ---------------------------------------------------


def test_the_listing_leaves_out_a_player_whose_model_fails_its_checksum(monkeypatch):
    from boardai.learn import store

    listed = Offers().listing()
    if "ntuple" not in listed["othello"]:
        pytest.skip("no shipped Othello n-tuple model here")
    real = store.path_of

    def damaged(name: str) -> Path:
        if name == store.default_name("othello", "othello-ntuple"):
            raise ModelFileError("/srv/models/x.npz", "damaged model file: sha256 differs")
        return real(name)

    monkeypatch.setattr(store, "path_of", damaged)
    listed = Offers().listing()
    assert "ntuple" not in listed["othello"] and "ntuple" not in listed["options"]["othello"]
    assert "wpc" in listed["othello"]


def test_error_replies_never_show_a_server_path():
    async def main() -> dict:
        c = Connection()
        await c.handle(json.dumps({"type": "new", "game": "2048", "seed": 1}))

        def fails(spec: str, seed: int | None) -> object:
            raise UsageError(f"{Path.home()}/models/x.npz: damaged model file")

        c.session.agents._make = fails
        return await c.handle(json.dumps({"type": "hint", "player": "random"}))

    reply = asyncio.run(main())
    assert reply["type"] == "error" and "damaged model file" in reply["message"]
    assert str(Path.home()) not in reply["message"] and "<path>" in reply["message"]
