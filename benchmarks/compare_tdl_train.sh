#!/bin/bash
# n-tuple TD training, boardai against TDL2048+, method for method: `compare.sh td` sets
# boardai's default (backward TD(0), seed 004's method) against TDL2048+'s default (online
# TD(0) from the estimate made at play time); this also sets backward against TDL2048+'s
# `mode=optimize:backward`, and online against its default. Same work as compare.sh td: 4x6,
# fresh weights, alpha 0.1, one thread, 5,000 episodes, TDL2048+ the better of its two builds.
# With DIR, both programs continue instead from the 4x6 networks each trained for 100,000
# episodes in DIR by benchmarks/compare_tdl_eval.sh (tdl4x6.w, boardai4x6.npz): filled tables
# and games of the same length (about 3,100 moves each), where from fresh weights the two
# programs learn differently and play games of different lengths (about 790 and 720 moves).
#   benchmarks/compare_tdl_train.sh [ROUNDS] [DIR]  (venv active; build TDL2048+ with compare.sh td)
# Prints per seed and round the moves/s of each, then the median of each ratio (boardai /
# TDL2048+).
set -eu
rounds=${1:-2}
dir=${2:-}
tdl_in=() ours_in=(--patterns 4x6)
if [ -n "$dir" ]; then
  [ -f "$dir/tdl4x6.w" ] && [ -f "$dir/boardai4x6.npz" ] || { echo "no trained networks in $dir: run benchmarks/compare_tdl_eval.sh $dir"; exit 2; }
  tdl_in=(-i "$dir/tdl4x6.w") ours_in=(--model "$dir/boardai4x6.npz")
fi
build=${ANCHORS_BUILD:-$HOME/.cache/boardai-anchors}
[ -x "$build/tdl-plain" ] || { echo "no $build/tdl-plain: run ../shared/anchors/compare.sh td first"; exit 2; }
tdl() {  # best moves/s of the two builds; $1 seed, then TDL2048+ options
  local s=$1 best=0 r exe; shift
  for exe in tdl-plain tdl-bmi2; do
    r=$("$build/$exe" -n 4x6patt "${tdl_in[@]}" -t 5 "$@" -% -s "$s" 2>&1 | awk '/^summary/{sub("ops","",$3); print int($3)}')
    [ -n "$r" ] && [ "$r" -gt "$best" ] && best=$r
  done
  echo "$best"
}
ours() {  # $1 seed, $2 method
  boardai 2048 bench ntuple "${ours_in[@]}" --episodes 5000 --repeat 1 --seed "$1" --method "$2" 2>&1 \
    | awk '/^training/{gsub(",","",$3); print $3}'
}
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
for r in $(seq "$rounds"); do
  for s in 1 2 3; do
    t_on=$(tdl "$s"); t_back=$(tdl "$s" mode=optimize:backward)
    b_back=$(ours "$s" backward); b_on=$(ours "$s" online)
    echo "$r $s $t_on $t_back $b_back $b_on" >> "$rows"
    echo "round $r seed $s: TDL2048+ online $t_on, backward $t_back; boardai backward $b_back, online $b_on (moves/s)"
  done
done
python3 - "$rows" <<'PY'
import statistics, sys
rows = [list(map(float, line.split())) for line in open(sys.argv[1])]
for name, a, b in (("compare.sh td (boardai backward / TDL2048+ online)", 4, 2),
                   ("backward / backward", 4, 3), ("online / online", 5, 2)):
    print(f"median {name}: {statistics.median(r[a] / r[b] for r in rows):.2f} over {len(rows)}")
PY
