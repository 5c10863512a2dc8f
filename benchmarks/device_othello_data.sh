#!/bin/bash
# A round of Othello training data on every core of a lent machine (the device tool's: 16
# cores, Python, numpy and numba, not boardai's other dependencies, no network): new games
# from random openings, then every position with 17 or more empties labelled by a search.
# Three steps, from the repository's root:
#
#   benchmarks/device_othello_data.sh prep        here: .whl/, the wheels the lent machine lacks
#   benchmarks/device_othello_data.sh run SEED GAME_SECONDS LABEL_SECONDS [LABELLER]
#                                                 there (carry .whl): plays games of
#                                                 alphabeta:depth=6,endgame=16 against itself on
#                                                 SEED for GAME_SECONDS, packs them, labels them
#                                                 for at most LABEL_SECONDS (default labeller: a
#                                                 depth-6 search over othello-eval) and writes to
#                                                 $OUT the games, the labels alone (the positions
#                                                 are the games file's, in its order), or the
#                                                 labelling's checkpoint if its time ran out
#   benchmarks/device_othello_data.sh join DIR OUT.npz [LABELLER]
#                                                 here: the positions file of DIR's games with
#                                                 their labels; from a checkpoint, first finishes
#                                                 the labelling here (--resume)
#
# The games cost little beside their labels (about 0.09 CPU-s a game against 0.14), so both
# fit one call: on a 16-core Intel Xeon, `run 4 150 330` played 27,033 games in 148 s and
# labelled their 674,752 positions in 236 s (docs/journal/benchmarks-journal.md, "twice the
# labelled positions"). Use a seed no earlier round used (data/othello/README.md).
set -eu
. "$(dirname "$0")/device_lib.sh"
step=${1:-}
shift || true
player="alphabeta:depth=6,endgame=16"
labeller_default="alphabeta:eval=ntuple,model=models/othello-eval.npz,depth=6,endgame=0"
case "$step" in
prep)
  device_prep .whl
  ;;
run)
  seed=$1 game_seconds=$2 label_seconds=$3 labeller=${4:-$labeller_default}
  out=${OUT:-.}
  work=/tmp/othello-data
  rm -rf "$work" && mkdir -p "$work" "$out"  # a file left by an earlier try is not this run's
  device_setup "$out/machine.txt"
  b="python3 -m boardai"
  # two games and their labels on one worker first: numba compiles and caches its kernels once,
  # not in every worker at once
  $b othello match --black $player --white $player --random-plies 8-30 --no-swap --games 2 \
    --workers 1 --seed 99 --record "$work/warm.jsonl" --resume "$work/warm-journal.jsonl" > /dev/null
  $b othello data pack "$work/warm-journal.jsonl" --out "$work/warm.npz" > /dev/null
  $b othello data label "$work/warm.npz" --agent "$labeller" --out "$work/warm-labels.npz" \
    --workers 1 > /dev/null 2>&1
  # SIGINT at the deadline stops the match as Ctrl-C does: its journal keeps the finished games
  code=0
  timeout --foreground -s INT -k 60 "$game_seconds" $b othello match --black $player \
    --white $player --random-plies 8-30 --no-swap --games 1000000 --workers "$(nproc)" \
    --seed "$seed" --record "$work/games.jsonl" --resume "$work/journal.jsonl" \
    --json "$out/match.json" > "$work/match.log" 2>&1 || code=$?
  echo "games: exit code $code (130 or 124: stopped at $game_seconds s)"
  $b othello data pack "$work/journal.jsonl" --out "$out/games.npz"
  code=0
  timeout --foreground -s INT -k 60 "$label_seconds" $b othello data label "$out/games.npz" \
    --agent "$labeller" --out "$work/labelled.npz" --workers "$(nproc)" \
    --json "$out/label.json" > "$work/label.log" 2>&1 || code=$?
  echo "labels: exit code $code"
  tail -c 400 "$work/label.log"
  if [ -f "$work/labelled.npz" ]; then
    python3 -c "import numpy as np, sys; np.savez_compressed(sys.argv[2], label=np.load(sys.argv[1])['label'])" \
      "$work/labelled.npz" "$out/labels.npz"
  elif [ -f "$work/labelled.partial.npz" ]; then
    cp "$work/labelled.partial.npz" "$out/labelled.partial.npz"
  fi
  ls -l "$out"
  ;;
join)
  dir=$1 dst=$2 labeller=${3:-$labeller_default}
  if [ -f "$dir/labels.npz" ]; then
    python3 - "$dir/games.npz" "$dir/labels.npz" "$dir/label.json" "$dst" <<'EOF'
import json
import sys

import numpy as np

from boardai.othello.train.fit import read_positions, write_positions

games, labels, summary, dst = sys.argv[1:]
data = read_positions([games])[0]
label = np.load(labels)["label"]
if len(label) != len(data.label):
    sys.exit(f"{labels}: {len(label)} labels for {len(data.label)} positions")
with open(summary) as f:
    lo, hi = json.load(f)["empties"]
kept = (data.empties < lo) | (data.empties > hi)  # outside the band: the game's result
if not np.array_equal(label[kept], data.label[kept].astype(np.float32)):
    sys.exit(f"{labels}: not the labels of {games}")
write_positions(dst, data.mover, data.opponent, label, data.game)
print(f"{dst}: {len(label):,} positions")
EOF
  else
    # the checkpoint is named after --out: it must sit beside it as OUT.partial.npz
    cp "$dir/labelled.partial.npz" "${dst%.npz}.partial.npz"
    python3 -m boardai othello data label "$dir/games.npz" --agent "$labeller" --out "$dst" --resume
  fi
  ;;
*)
  echo "usage: benchmarks/device_othello_data.sh prep | run SEED GAME_SECONDS LABEL_SECONDS [LABELLER] | join DIR OUT.npz [LABELLER]" >&2
  exit 2
  ;;
esac
