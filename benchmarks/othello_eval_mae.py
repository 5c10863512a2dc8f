"""Mean absolute error in discs of a player's values against exact scores, per empty squares.

Reads the exact scores (the JSON of ``boardai othello solve``, or a positions file whose lines
say ``exact score S`` after their ';', as data/othello/heldout-20-22.obf does) and the JSON of
``boardai othello analyze`` (a player's values) for the same positions file, and prints the
error by number of empties:

    boardai othello analyze data/othello/heldout-20-22.obf \
        --agent alphabeta:eval=ntuple,model=fit.npz,depth=0,endgame=0 --json fit.json
    python benchmarks/othello_eval_mae.py data/othello/heldout-20-22.obf fit.json

A value that is not in discs (a TD network's value in (-1, 1)) has no error in discs: such a
player is refused.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from collections import defaultdict


def _scores(path: str) -> dict[int, float]:
    """Exact score by line number: a solve's JSON, or ``exact score S`` in a positions file."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if path.endswith(".json"):
        return {row["line"]: row["score"] for row in json.loads(text)["positions"]}
    found = (re.search(r"exact score ([+-]?\d+)", line) for line in text.splitlines())
    return {n: float(m.group(1)) for n, m in enumerate(found, 1) if m}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("solved", help="JSON of boardai othello solve, or positions with scores")
    parser.add_argument("analysed", nargs="+", help="JSON of boardai othello analyze, one a player")
    args = parser.parse_args()
    exact = _scores(args.solved)
    for path in args.analysed:
        with open(path, encoding="utf-8") as f:
            found = json.load(f)
        by_empties: dict[int, list[float]] = defaultdict(list)
        for row in found["positions"]:
            if row["line"] not in exact:
                continue
            if row.get("unit") not in ("discs", "eval"):
                print(f"{path}: line {row['line']} has no value", file=sys.stderr)
                return 2
            by_empties[row["empties"]].append(abs(row["value"] - exact[row["line"]]))
        everything = [e for errs in by_empties.values() for e in errs]
        print(
            f"{found['agent']}: {len(everything)} positions, MAE {statistics.fmean(everything):.2f}"
        )
        for empties in sorted(by_empties):
            errs = by_empties[empties]
            print(f"  {empties:2d} empties  {len(errs):4d}  MAE {statistics.fmean(errs):6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
