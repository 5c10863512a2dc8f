"""Round-trip time of the web app's WebSocket: 2048 moves, alone and beside a thinking player.

Starts ``boardai serve`` on a free port, then measures the time from sending a request to
receiving its reply:

1. ``move`` requests of one socket alone (a person pressing keys);
2. the same while another socket keeps asking ``expectimax`` for autoplay moves, which is
   what "a slow AI move never blocks other games" means in numbers.

Run: ``python benchmarks/web_latency.py [--moves 300]``
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import threading
import time

from websockets.sync.client import connect


def _serve() -> tuple[subprocess.Popen[str], str]:
    cmd = [sys.executable, "-m", "boardai", "serve", "--port", "0"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    match = re.search(r"http://(127\.0\.0\.1:\d+)/", proc.stdout.readline())
    assert match, "boardai serve printed no URL"
    return proc, f"ws://{match.group(1)}/ws"


def _ask(ws, msg: dict) -> dict:
    ws.send(json.dumps(msg))
    return json.loads(ws.recv(timeout=60))


def person(url: str, moves: int) -> list[float]:
    """Round trips (ms) of ``moves`` legal moves, new games as needed."""
    times = []
    with connect(url) as ws:
        state = _ask(ws, {"type": "new", "game": "2048", "seed": 1})
        while len(times) < moves:
            if state["over"]:
                state = _ask(ws, {"type": "new", "game": "2048"})
            t = time.perf_counter()
            state = _ask(ws, {"type": "move", "action": state["legal"][0]})
            times.append(1000 * (time.perf_counter() - t))
    return times


def thinker(url: str, stop: threading.Event, player: str, counts: list[int]) -> None:
    with connect(url) as ws:
        _ask(ws, {"type": "new", "game": "2048", "seed": 2})
        while not stop.is_set():
            state = _ask(ws, {"type": "step", "player": player})
            counts[0] += 1
            if state.get("over"):
                _ask(ws, {"type": "new", "game": "2048"})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=300)
    ap.add_argument("--player", default="expectimax")
    args = ap.parse_args()
    proc, url = _serve()
    try:
        person(url, 20)  # warm up (compiles nothing new: numba caches)
        alone = person(url, args.moves)
        stop, counts = threading.Event(), [0]
        t = threading.Thread(target=thinker, args=(url, stop, args.player, counts))
        t.start()
        while counts[0] < 3:  # past the first searches (table set-up, cache loads)
            time.sleep(0.05)
        before = counts[0]
        beside = person(url, args.moves)
        made = counts[0] - before
        stop.set()
        t.join()
    finally:
        proc.terminate()
        proc.wait()
    for name, xs in (("alone", alone), (f"beside {args.player} autoplay", beside)):
        q = statistics.quantiles(xs, n=20)
        print(f"move round trip, {name}: median {statistics.median(xs):.2f} ms, p95 {q[-1]:.2f} ms")
    print(f"{args.player} moves made meanwhile: {made}")


if __name__ == "__main__":
    main()
