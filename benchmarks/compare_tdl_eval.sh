#!/bin/bash
# 1-ply play with a trained 4x6 n-tuple network: boardai against TDL2048+'s `-e` mode (issue 23's
# evaluation target), one thread each: moves per second by each program's own timer around its
# play loop (wall clock, as `compare.sh td` compares training: read it on an idle box).
#   benchmarks/compare_tdl_eval.sh [DIR] [ROUNDS]     (venv active)
# Build TDL2048+ first with `../shared/anchors/compare.sh td` (it lands in ~/.cache/boardai-anchors).
# Trains a 4x6 network with each program (100,000 episodes, seed 5; about 10 minutes each on an
# idle core) into DIR (default runs/tdl-eval) unless it is already there, then times 1,000 games
# of greedy play with each, ROUNDS times (default 3), in turn. TDL2048+'s timer is its `summary`
# line (its start-up and the 256 MiB weight load are outside it), the better of its two builds each
# round as in compare.sh td (the BMI2 build is the faster where PEXT is fast, Intel and AMD Zen 3
# on; the plain one on AMD Zen 1 and 2); boardai's is around its compiled play loop, which also
# reports its CPU time.
set -eu
dir=${1:-runs/tdl-eval}
rounds=${2:-3}
build=${ANCHORS_BUILD:-$HOME/.cache/boardai-anchors}
tdl=$build/tdl-plain
[ -x "$tdl" ] || { echo "no $tdl: run ../shared/anchors/compare.sh td first"; exit 2; }
mkdir -p "$dir"
[ -f "$dir/tdl4x6.w" ] || "$tdl" -n 4x6patt -t 100 -s 5 -o "$dir/tdl4x6.w" > "$dir/tdl-train.log"
[ -f "$dir/boardai4x6.npz" ] || boardai 2048 train ntuple --patterns 4x6 --episodes 100000 \
  --seed 5 --quiet --out "$dir/boardai4x6.npz" > "$dir/boardai-train.log"

for r in $(seq "$rounds"); do
  python - "$dir/boardai4x6.npz" <<'PY'
import sys, time
from boardai.g2048.train.trainer import Trainer
t = Trainer.load(sys.argv[1])
t.play(1, 1)  # load the compiled code outside the timing
c0, w0 = time.process_time(), time.perf_counter()
scores, _, moves = t.play(1000, 1)
cpu, wall = time.process_time() - c0, time.perf_counter() - w0
print(f"boardai   1,000 games, {int(moves.sum()):,} moves, average {scores.mean():,.0f}: "
      f"{moves.sum() / wall:,.0f} moves/s, {moves.sum() / cpu:,.0f} moves per CPU second")
PY
  for exe in tdl-plain tdl-bmi2; do
    [ -x "$build/$exe" ] || continue
    "$build/$exe" -n 4x6patt -i "$dir/tdl4x6.w" -e 1 -% -s 1 2>&1 | awk -v exe="$exe" '/^summary/{
      ms=$2; sub("ms","",ms); ops=$3; sub("ops","",ops)
      printf "TDL2048+  1,000 games, %d moves: %d moves/s (%s)\n", ms*ops/1000, ops, exe}'
  done
done
