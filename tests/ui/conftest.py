"""A live ``boardai serve`` for the web tests (one per test session, on a free port)."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass
class LiveServer:
    url: str
    records: Path

    @property
    def ws(self) -> str:
        return self.url.replace("http://", "ws://") + "ws"


@contextlib.contextmanager
def live_server(*args: str, records: Path | None = None) -> Iterator[LiveServer]:
    """``boardai serve --port 0 ARGS...`` running until the block ends."""
    cmd = [sys.executable, "-m", "boardai", "serve", "--port", "0", *args]
    if records is not None:
        cmd += ["--record", str(records)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        line = proc.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert match, f"boardai serve printed {line!r}"
        url = match.group(0)
        for _ in range(200):
            try:
                with urllib.request.urlopen(url, timeout=2):
                    break
            except OSError:
                time.sleep(0.05)
        yield LiveServer(url, records or Path(os.devnull))
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        proc.stdout.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory):
    with live_server(records=tmp_path_factory.mktemp("web") / "games.jsonl") as live:
        yield live
