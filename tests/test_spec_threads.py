"""The player registries' first use from many threads at once (a web server's first requests).

Run in a fresh interpreter each time: the defect lives in the first load only, which this test
process has long done.
"""

from __future__ import annotations

import json
import subprocess
import sys

SCRIPT = r"""
import json, threading
from boardai.g2048.agents import REGISTRY as R2
from boardai.othello.agents import REGISTRY as RO

errors = []
barrier = threading.Barrier(20)

def work(i):
    reg = RO if i % 2 else R2
    spec = ["random", "greedy", "random"][i % 3]
    barrier.wait()  # all threads meet the fresh registries together
    try:
        agent = reg.make_untrusted(spec) if i % 4 < 2 else reg.make(spec)
        assert agent.name == spec
    except Exception as e:
        errors.append(f"{type(e).__name__}: {e}")

threads = [threading.Thread(target=work, args=(i,)) for i in range(20)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(json.dumps(errors))
"""


def test_twenty_threads_build_players_on_fresh_registries() -> None:
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout.strip().splitlines()[-1]) == []
