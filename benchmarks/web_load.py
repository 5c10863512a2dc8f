"""The web app under many clients: requests a second, latency percentiles and errors.

Starts ``boardai serve`` on a free port (from the ``boardai`` this Python imports, or from
``--src DIR``, another checkout's ``src``, to put two versions side by side in one run), opens
``--clients`` WebSockets at once and has each play 2048 as fast as its replies come: ``move``
requests (a new game when one ends) for ``--seconds``, every reply timed from its request.

Run: ``python benchmarks/web_load.py [--clients 32] [--seconds 20] [--src ../old/src]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import time

import websockets


def _serve(src: str | None) -> tuple[subprocess.Popen[str], str]:
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = os.path.abspath(src)
    cmd = [sys.executable, "-m", "boardai", "serve", "--port", "0"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    match = re.search(r"http://(127\.0\.0\.1:\d+)/", proc.stdout.readline())
    assert match, "boardai serve printed no URL"
    return proc, f"ws://{match.group(1)}/ws"


async def _client(url: str, seed: int, until: float, times: list[float], errors: list[str]) -> None:
    async with websockets.connect(url, open_timeout=120, max_size=None) as ws:

        async def ask(msg: dict[str, object]) -> dict[str, object]:
            t0 = time.perf_counter()
            await ws.send(json.dumps(msg))
            reply: dict[str, object] = json.loads(await asyncio.wait_for(ws.recv(), 60))
            times.append(time.perf_counter() - t0)
            if reply.get("type") == "error":
                errors.append(str(reply.get("message")))
            return reply

        state = await ask({"type": "new", "game": "2048", "seed": seed})
        k = 0
        while time.perf_counter() < until:
            legal = state.get("legal") or []
            if state.get("over") or not legal:
                seed += 1000
                state = await ask({"type": "new", "game": "2048", "seed": seed})
                continue
            state = await ask({"type": "move", "action": legal[k % len(legal)]})  # type: ignore[index]
            k += 1


async def _load(url: str, clients: int, seconds: float) -> tuple[list[float], list[str], float]:
    times: list[float] = []
    errors: list[str] = []
    # the sockets open first, the clock starts once all are in
    t0 = time.perf_counter()
    until = t0 + seconds
    await asyncio.gather(*(_client(url, i, until, times, errors) for i in range(clients)))
    return times, errors, time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=32, help="sockets (the server takes 32)")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--src", help="run the server from this checkout's src folder")
    args = parser.parse_args()
    proc, url = _serve(args.src)
    try:
        asyncio.run(_load(url, 2, 2.0))  # warm: the first requests import the game
        times, errors, wall = asyncio.run(_load(url, args.clients, args.seconds))
    finally:
        proc.terminate()
        proc.wait(30)
    times.sort()
    p = lambda q: 1000 * times[min(len(times) - 1, int(q * len(times)))]  # noqa: E731
    print(
        json.dumps(
            {
                "server": args.src or "this checkout",
                "clients": args.clients,
                "requests": len(times),
                "requests_per_s": round(len(times) / wall),
                "median_ms": round(1000 * statistics.median(times), 2),
                "p99_ms": round(p(0.99), 2),
                "max_ms": round(1000 * times[-1], 2),
                "errors": len(errors),
                "first_errors": errors[:3],
            }
        )
    )


if __name__ == "__main__":
    main()
