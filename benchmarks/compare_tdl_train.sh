#!/bin/bash
# n-tuple TD training, boardai against TDL2048+, method for method: `compare.sh td` sets
# boardai's default (backward TD(0), seed 004's method) against TDL2048+'s default (online
# TD(0) from the estimate made at play time, its `optimize:fast`); this also sets backward
# against TDL2048+'s `mode=optimize:backward`, online-fast (the same method as TDL2048+'s
# default) against its default, and online (the error from the value summed again before the
# update) against `mode=optimize:forward` (the same). Same work as compare.sh td: 4x6,
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
    t_fast=$(tdl "$s"); t_back=$(tdl "$s" mode=optimize:backward); t_fwd=$(tdl "$s" mode=optimize:forward)
    b_back=$(ours "$s" backward); b_fast=$(ours "$s" online-fast); b_on=$(ours "$s" online)
    echo "$r $s $t_fast $t_back $t_fwd $b_back $b_fast $b_on" >> "$rows"
    echo "round $r seed $s: TDL2048+ default $t_fast, backward $t_back, forward $t_fwd;" \
      "boardai backward $b_back, online-fast $b_fast, online $b_on (moves/s)"
  done
done
python3 - "$rows" <<'PY'
import statistics, sys
rows = [list(map(float, line.split())) for line in open(sys.argv[1])]
for name, a, b in (("boardai backward / TDL2048+ default", 5, 2),
                   ("boardai online-fast / TDL2048+ default (the same method)", 6, 2),
                   ("backward / backward", 5, 3), ("online / forward (the same method)", 7, 4)):
    print(f"median {name}: {statistics.median(r[a] / r[b] for r in rows):.2f} over {len(rows)}")
PY
