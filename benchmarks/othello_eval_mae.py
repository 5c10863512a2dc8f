"""Mean absolute error in discs of a player's values against exact scores, per empty squares.

Reads the JSON of ``boardai othello solve`` (exact scores) and of ``boardai othello analyze``
(a player's values) for the same positions file and prints the error by number of empties:

    boardai othello solve data/othello/heldout-20-22.obf --json solved.json
    boardai othello analyze data/othello/heldout-20-22.obf \
        --agent alphabeta:eval=ntuple,model=fit.npz,depth=0,endgame=0 --json fit.json
    python benchmarks/othello_eval_mae.py solved.json fit.json

A value that is not in discs (a TD network's value in (-1, 1)) has no error in discs: such a
player is refused.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import defaultdict


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("solved", help="JSON of boardai othello solve")
    parser.add_argument("analysed", nargs="+", help="JSON of boardai othello analyze, one a player")
    args = parser.parse_args()
    with open(args.solved, encoding="utf-8") as f:
        exact = {row["line"]: row for row in json.load(f)["positions"]}
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
            by_empties[row["empties"]].append(abs(row["value"] - exact[row["line"]]["score"]))
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
