#!/bin/bash
# sha256 (first 16 hex digits) of the weights after short n-tuple TD runs of every method, to
# check that a change to the training loop keeps results bit-identical:
#   benchmarks/ntuple_td_shas.sh TREE > a.txt; benchmarks/ntuple_td_shas.sh OTHER > b.txt; diff a.txt b.txt
# TREE is a boardai checkout (its src/ is imported); PYTHON picks the interpreter.
set -e
cd "$1"
py=${PYTHON:-python}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
i=0
while read -r opts; do
  i=$((i+1))
  # shellcheck disable=SC2086
  PYTHONPATH=src $py -m boardai 2048 train ntuple --patterns 4x6 --episodes 2000 --seed 3 \
    --out "$d/$i.npz" --quiet $opts >/dev/null 2>&1 || { echo "FAIL $opts"; continue; }
  h=$(PYTHONPATH=src $py -c "import sys, hashlib; from boardai.g2048.train.trainer import Trainer; t=Trainer.load(sys.argv[1]); print(hashlib.sha256(t.network.weights.tobytes()).hexdigest()[:16])" "$d/$i.npz")
  echo "$h $opts"
done <<'L'
--method backward
--method online
--method online-fast
--method online-fast --tc --alpha 1.0
--method backward-greedy
--tc --alpha 1.0
--lambda 0.5
--stages 14
--optimistic 1000
--downgrade 16384
--restart 0.5
--downgrade 256
--restart 0.5 --restart-at 9
L
