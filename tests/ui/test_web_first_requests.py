"""A fresh server started the documented way, ``uvicorn --factory
boardai.ui.web.app:create_app`` (no warm-up, unlike ``boardai serve``), answers its first
requests from many sockets at once: every player is offered from the first request on.

The player registries used to fill in on first use from whichever thread came first, so
concurrent first requests saw no players at all ("othello player 'greedy' is not offered
here (players: none)"), 4-8 of 10 clients in each of three fresh servers.
"""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import time
from typing import Any

import pytest

websockets = pytest.importorskip("websockets")
pytest.importorskip("uvicorn")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _client(port: int, i: int) -> list[dict[str, Any]]:
    if i % 2:
        asks = [
            {"type": "new", "game": "2048", "seed": i},
            {"type": "hint", "player": "expectimax:depth=1"},
        ]
    else:
        player = ["random", "alphabeta:depth=1", "greedy"][i % 3]
        asks = [{"type": "new", "game": "othello", "player": player}]
    replies = []
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws", open_timeout=120) as ws:
        for ask in asks:
            await ws.send(json.dumps(ask))
            replies.append(json.loads(await asyncio.wait_for(ws.recv(), 300)))
    return replies


async def _clients(port: int, n: int) -> list[list[dict[str, Any]]]:
    return list(await asyncio.gather(*(_client(port, i) for i in range(n))))


def test_a_fresh_factory_server_offers_every_player_to_concurrent_first_requests() -> None:
    for _ in range(2):  # fresh servers: the defect was in the first requests only
        port = _free_port()
        server = subprocess.Popen(
            [
                *(sys.executable, "-m", "uvicorn", "--factory"),
                *("boardai.ui.web.app:create_app", "--port", str(port)),
                *("--log-level", "warning"),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            deadline = time.monotonic() + 120
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), 0.5).close()
                    break
                except OSError:
                    assert time.monotonic() < deadline and server.poll() is None
                    time.sleep(0.05)
            replies = asyncio.run(_clients(port, 10))
        finally:
            server.terminate()
            output = server.communicate(timeout=30)[0]
        errors = [r for rs in replies for r in rs if r.get("type") == "error"]
        assert errors == [], (errors, output[-4000:])  # the server log: its traceback
        assert "Traceback" not in output, output[-2000:]
