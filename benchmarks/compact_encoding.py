"""Compact encodings side by side: size, weight error and changed moves of each.

Compacts FULL (a 2048 n-tuple training file) with each ``ENCODING:BITS`` variant into a
temporary folder (as ``boardai models compact``), and prints for each: the file's size, the
seconds to write and to load it, the mean and largest absolute change of the non-zero weights
it keeps (all but those ``--drop-untouched`` drops) and their mean relative change, and the
share of positions where its 1-ply move differs from the full network's, on the positions of
``--games`` games the full network plays (``compact_agreement.py``'s games). The deciding
figure is strength: ``boardai 2048 bench ntuple --model C.npz --episodes 0 --games 10000
--seed 2024`` (and 2025) on the files kept with ``--keep DIR``.

    python benchmarks/compact_encoding.py FULL.npz --drop-untouched --games 30 --seed 7 \\
        --variants uniform:12,uniform:11,uniform:10,activity:10,activity:9,activity:8
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np
from compact_agreement import _choose, reference  # that benchmark's games and moves

from boardai.g2048.ntuple import NTupleNetwork
from boardai.learn.model_file import ENCODINGS, compact_model, load_model


def _variants(text: str) -> list[tuple[str, int]]:
    out = []
    for item in text.split(","):
        encoding, _, bits = item.partition(":")
        if encoding not in ENCODINGS or not bits.isdigit():
            raise argparse.ArgumentTypeError(f"{item!r} is not ENCODING:BITS")
        out.append((encoding, int(bits)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("full")
    ap.add_argument("--variants", type=_variants, default=_variants("uniform:12,activity:9"))
    ap.add_argument("--drop-untouched", action="store_true")
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--keep", help="a folder to keep the compact files in")
    args = ap.parse_args()
    full, dg, los, his, acts, _ = reference(args.full, args.games, args.seed)
    print(f"{los.size} positions of {args.games} games; {args.full}: {_mb(args.full)}", flush=True)
    kept = full.weights != 0  # the weights each file keeps: all but zeros (and untouched)
    if args.drop_untouched:
        with np.load(args.full) as z:
            kept &= z["extra_tc_a"] != 0
    folder = Path(args.keep or tempfile.mkdtemp())
    folder.mkdir(parents=True, exist_ok=True)
    try:
        for encoding, bits in args.variants:
            path = folder / f"{encoding}{bits}.npz"
            t0 = time.perf_counter()
            compact_model(
                args.full,
                path,
                NTupleNetwork,
                bits=bits,
                drop_untouched=args.drop_untouched,
                encoding=encoding,
            )
            t1 = time.perf_counter()
            net = load_model(path, NTupleNetwork, with_extra=False)[0]
            t2 = time.perf_counter()
            e = np.abs(net.weights[kept] - full.weights[kept])
            rel = e / np.abs(full.weights[kept])
            a2, _ = _choose(los, his, net.data(), dg)
            differ = int(np.count_nonzero(a2 != acts))
            print(
                f"{encoding}:{bits}: {_mb(path)} (write {t1 - t0:.0f} s, load {t2 - t1:.1f} s); "
                f"{kept.sum():,} weights kept, |change| mean {e.mean():.3f} max {e.max():.1f}, "
                f"relative mean {rel.mean():.4f}; other move in {differ} "
                f"({100 * differ / los.size:.3f}%)",
                flush=True,
            )
            del net, e, rel
    finally:
        if not args.keep:
            shutil.rmtree(folder)


def _mb(path: str | os.PathLike[str]) -> str:
    return f"{os.path.getsize(path) / 1e6:.2f} MB"


if __name__ == "__main__":
    main()
