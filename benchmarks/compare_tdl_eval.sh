#!/bin/bash
# 1-ply play with a trained 4x6 n-tuple network: boardai against TDL2048+'s `-e` mode, in moves
# per CPU second (issue 23's evaluation target), one thread each.
#   benchmarks/compare_tdl_eval.sh [DIR] [ROUNDS]     (venv active)
# Build TDL2048+ first with `../shared/anchors/compare.sh td` (it lands in ~/.cache/boardai-anchors).
# Trains a 4x6 network with each program (100,000 episodes, seed 5; about 10 minutes each on an
# idle core) into DIR (default runs/tdl-eval) unless it is already there, then times 1,000 games
# of greedy play with each, ROUNDS times (default 3). TDL2048+'s CPU time is that of `-e 2` minus
# that of `-e 1` (1,000 games more), so its start-up and the 256 MiB weight load cancel out;
# boardai's is the process time around its compiled play loop.
set -eu
dir=${1:-runs/tdl-eval}
rounds=${2:-3}
tdl=${ANCHORS_BUILD:-$HOME/.cache/boardai-anchors}/tdl-plain
[ -x "$tdl" ] || { echo "no $tdl: run ../shared/anchors/compare.sh td first"; exit 2; }
mkdir -p "$dir"
[ -f "$dir/tdl4x6.w" ] || "$tdl" -n 4x6patt -t 100 -s 5 -o "$dir/tdl4x6.w" > "$dir/tdl-train.log"
[ -f "$dir/boardai4x6.npz" ] || boardai 2048 train ntuple --patterns 4x6 --episodes 100000 \
  --seed 5 --quiet --out "$dir/boardai4x6.npz" > "$dir/boardai-train.log"

cpu() {  # user + sys seconds and moves of one TDL2048+ evaluation run of $1 thousand games
  /usr/bin/time -f "%U %S" "$tdl" -n 4x6patt -i "$dir/tdl4x6.w" -e "$1" -% -s 1 2>&1 |
    awk '/^summary/{ms=$2; sub("ms","",ms); ops=$3; sub("ops","",ops); moves=ms*ops/1000}
         NF==2 && $1 ~ /^[0-9.]+$/ {cpu=$1+$2} END{printf "%.3f %.0f\n", cpu, moves}'
}

for r in $(seq "$rounds"); do
  python - "$dir/boardai4x6.npz" <<'PY'
import sys, time
from boardai.g2048.train.trainer import Trainer
t = Trainer.load(sys.argv[1])
t.play(1, 1)  # load the compiled code outside the timing
c0 = time.process_time()
scores, _, moves = t.play(1000, 1)
cpu = time.process_time() - c0
print(f"boardai   1,000 games, {int(moves.sum()):,} moves, average {scores.mean():,.0f}: "
      f"{moves.sum() / cpu:,.0f} moves per CPU second")
PY
  read -r c1 m1 <<< "$(cpu 1)"
  read -r c2 m2 <<< "$(cpu 2)"
  python3 -c "import sys; c1, m1, c2, m2 = map(float, sys.argv[1:]); print(f'TDL2048+  1,000 games, {m2 - m1:,.0f} moves: {(m2 - m1) / (c2 - c1):,.0f} moves per CPU second')" "$c1" "$m1" "$c2" "$m2"
done
