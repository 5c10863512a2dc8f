#!/bin/bash
# sha256 (first 16 hex digits) of the weights and the evaluations (or log rows, times left out)
# after short DQN runs of both games, to check that a change keeps results bit-identical:
#   benchmarks/dqn_shas.sh TREE > a.txt; benchmarks/dqn_shas.sh OTHER > b.txt; diff a.txt b.txt
# TREE is a boardai checkout (its src/ is imported); PYTHON picks the interpreter. The Othello
# runs spell the hyperparameters the older way (--batch, --start, --huber, ...), which every
# tree reads.
set -e
cd "$1"
py=${PYTHON:-python}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
sha='
import hashlib, json, sys
from boardai.learn import torch_file
path, = sys.argv[1:]
data = torch_file.load(path, path)
h = hashlib.sha256()
for part in ("state", "net", "target"):
    for k, v in sorted((data.get(part) or {}).items()):
        h.update(k.encode() + v.numpy().tobytes())
timed = ("seconds", "wall_s", "env_steps_per_s", "updates_per_s")
rows = data.get("history") or data["meta"]["evals"]
rows = [{k: v for k, v in r.items() if k not in timed} for r in rows]
print(h.hexdigest()[:16], hashlib.sha256(json.dumps(rows).encode()).hexdigest()[:16])
'
i=0
while read -r opts; do
  i=$((i+1))
  # shellcheck disable=SC2086
  PYTHONPATH=src $py -m boardai othello train dqn --out "$d/$i.pt" --games 6 --parallel 4 \
    --hidden 16 --eval-every 3 --eval-games 2 $opts >/dev/null 2>&1 || { echo "FAIL $opts"; continue; }
  echo "$(PYTHONPATH=src $py -c "$sha" "$d/$i.pt") othello $opts"
done <<'L'
--batch 16 --start 64
--preset strong --batch 16 --start 64 --replay 3000
--batch 16 --start 64 --epsilon-start 0.5 --epsilon-end 0.02 --epsilon-decay 4 --target-every 7 --huber true --symmetries true --train-every 3 --double true
L
while read -r opts; do
  i=$((i+1))
  # shellcheck disable=SC2086
  PYTHONPATH=src $py -m boardai 2048 train dqn --out "$d/$i" --steps 300 --num-envs 2 \
    --warmup 20 --batch-size 8 --replay-size 500 --eval-games 2 --eval-every 100 \
    $opts >/dev/null 2>&1 || { echo "FAIL $opts"; continue; }
  echo "$(PYTHONPATH=src $py -c "$sha" "$d/$i/checkpoint.pt") 2048 $opts"
done <<'L'
--net fc --planes 12 --fc-layers 16 --target-update hard --target-period 5
--net afterstate --planes 12 --channels 4 --hidden 8 --augment true
--preset action-cnn --episodes-per-fit 2 --fit-epochs 2 --fit-newest 50 --fit-older 50
L
