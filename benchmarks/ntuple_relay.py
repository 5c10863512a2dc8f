"""Save a one-stage 2048 n-tuple network with its patterns' cells in another order: the same
network (every value the same, checked on 2,000 boards), its weights moved to where the new
order keeps them (`benchmarks/ntuple_layout_sim.py` picks orders;
docs/journal/benchmarks-journal.md, "Session 42: a layout of the weights that misses less").

    python benchmarks/ntuple_relay.py IN.npz OUT.npz PATTERNS

for example ``python benchmarks/ntuple_relay.py runs/tdl-eval/boardai4x6.npz b4x6.npz 4x6``
(a network trained in the published order, relaid in the named set's).
"""

from __future__ import annotations

import sys

import numpy as np

from boardai.g2048.ntuple import NTupleNetwork
from boardai.g2048.patterns import parse_patterns, pattern_names
from boardai.g2048.train.trainer import Trainer


def main() -> None:
    src, dst, spec = sys.argv[1:4]
    trainer = Trainer.load(src)
    old = trainer.network
    new_patterns = parse_patterns(spec)
    if old.n_stages != 1 or [sorted(p) for p in old.patterns] != [sorted(p) for p in new_patterns]:
        raise SystemExit("one stage, and the same patterns' cells in another order only")
    weights = np.empty_like(old.weights)
    for p, (a, b) in enumerate(zip(old.patterns, new_patterns, strict=True)):
        k = len(a)
        table = old.weights[old.offsets[p] : old.offsets[p + 1]].reshape((16,) * k)
        # axis k-1-d of a table holds digit d; b's digit d is cell b[d], a's digit a.index(b[d])
        axes = [k - 1 - a.index(b[k - 1 - axis]) for axis in range(k)]
        weights[old.offsets[p] : old.offsets[p + 1]] = table.transpose(axes).reshape(-1)
    new = NTupleNetwork(new_patterns, (), weights)
    rng = np.random.default_rng(0)
    for _ in range(2000):
        board = int(rng.integers(0, 2**63)) & 0x7777_7777_7777_7777  # tiles up to 128
        assert old.value(board) == new.value(board), hex(board)
    trainer.network = new
    trainer.config.patterns = ",".join(pattern_names(new_patterns))
    trainer.save(dst)
    print(f"{dst}: {trainer.config.patterns}")


if __name__ == "__main__":
    main()
