#!/bin/bash
# n-tuple TD training on every core of a lent machine (the device tool's: 16 cores, Python,
# numpy and numba, not boardai's other dependencies, no network), boardai against TDL2048+,
# method for method, at 1 to 16 threads. Two steps, from the repository's root:
#
#   benchmarks/device_threads.sh prep        here: .dev/tdl, a copy of TDL2048+'s sources from
#                                            ../shared/anchors; .whl/, the wheels it lacks
#   benchmarks/device_threads.sh run [T...]  there (carry .dev and .whl): builds TDL2048+ as
#                                            compare.sh does, then for each thread count T
#                                            (default 1 2 4 8 16) times both programs
#   benchmarks/device_threads.sh trained [EPISODES [ROUNDS]]
#                                            there: each program trains its own 4x6 network
#                                            (EPISODES, default 100,000, seed 5, on every
#                                            core), then, one thread each, both go on training
#                                            from it (5,000 episodes, seeds 1 and 2, ROUNDS
#                                            rounds, default 2), as
#                                            `compare_tdl_train.sh ROUNDS DIR` does here, and
#                                            play 1,000 games with it, as
#                                            `compare_tdl_eval.sh` does
#
# Same work as `compare.sh td`, per thread: 4x6 patterns, fresh weights, alpha 0.1, 4,000
# episodes a thread (so more threads train further, the same for both programs). Each row:
# TDL2048+'s default (online TD(0) from the value estimated at play time) and its backward
# mode, boardai's online-fast (the same method as TDL2048+'s default) and backward (boardai's
# default); moves/s as each program prints it (TDL2048+'s `summary` line, boardai's
# `training:` line). TDL2048+ is the better of its two builds where PEXT may be slow (AMD),
# its BMI2 build alone on Intel.
set -eu
. "$(dirname "$0")/device_lib.sh"
step=${1:-}
shift || true
case "$step" in
prep)
  mkdir -p .dev
  rm -rf .dev/tdl && cp -r ../shared/anchors/tdl2048 .dev/tdl
  device_prep .dev .whl
  ;;
run|trained)
  mode=$step
  threads=("$@")
  [ ${#threads[@]} -gt 0 ] || [ "$mode" = trained ] || threads=(1 2 4 8 16)
  device_setup
  build=/tmp/tdl-build
  rm -rf "$build" && cp -r .dev/tdl "$build"
  exes=(tdl-bmi2)
  (cd "$build" && g++ -std=c++20 -O3 -mtune=native -mabm -mbmi -mbmi2 -mavx -mavx2 -pthread -o tdl-bmi2 2048.cpp)
  if ! lscpu | grep -q GenuineIntel; then
    (cd "$build" && g++ -std=c++20 -O3 -mtune=native -mpopcnt -mavx -mavx2 -pthread -o tdl-plain 2048.cpp)
    exes+=(tdl-plain)
  fi
  tdl() {  # $1 threads, then options of TDL2048+'s -t (they must follow it): best moves/s
    local t=$1 best=0 r exe; shift
    for exe in "${exes[@]}"; do
      r=$("$build/$exe" -n 4x6patt -t $((4 * t)) "$@" -p "$t" -% -s 1 2>&1 | awk '/^summary/{sub("ops","",$3); print int($3)}')
      [ -n "$r" ] && [ "$r" -gt "$best" ] && best=$r
    done
    echo "$best"
  }
  ours() {  # $1 threads, $2 method
    python3 -m boardai 2048 bench ntuple --patterns 4x6 --episodes $((4000 * $1)) --threads "$1" \
      --repeat 1 --seed 1 --method "$2" 2>&1 | awk '/^training/{gsub(",","",$3); print $3}'
  }
  if [ "$mode" = trained ]; then
    episodes=${threads[0]:-100000} rounds=${threads[1]:-2} dir=/tmp/trained cores=$(nproc)
    mkdir -p "$dir"
    "$build/tdl-bmi2" -n 4x6patt -t $((episodes / 1000)) -p "$cores" -s 5 -o "$dir/tdl4x6.w" \
      -% 2>&1 | grep summary || true
    python3 -m boardai 2048 train ntuple --patterns 4x6 --episodes "$episodes" --threads "$cores" \
      --seed 5 --quiet --out "$dir/boardai4x6.npz" 2>&1 | tail -2
    echo "round seed | TDL2048+ default | boardai online-fast | ratio | TDL2048+ backward | boardai backward | ratio"
    for r in $(seq "$rounds"); do
      for s in 1 2; do
        tf=$("$build/tdl-bmi2" -n 4x6patt -i "$dir/tdl4x6.w" -t 5 -% -s "$s" 2>&1 | awk '/^summary/{sub("ops","",$3); print int($3)}')
        tb=$("$build/tdl-bmi2" -n 4x6patt -i "$dir/tdl4x6.w" -t 5 mode=optimize:backward -% -s "$s" 2>&1 | awk '/^summary/{sub("ops","",$3); print int($3)}')
        bf=$(python3 -m boardai 2048 bench ntuple --model "$dir/boardai4x6.npz" --episodes 5000 --repeat 1 --seed "$s" --method online-fast 2>&1 | awk '/^training/{gsub(",","",$3); print $3}')
        bb=$(python3 -m boardai 2048 bench ntuple --model "$dir/boardai4x6.npz" --episodes 5000 --repeat 1 --seed "$s" --method backward 2>&1 | awk '/^training/{gsub(",","",$3); print $3}')
        python3 -c "import sys; a, b, c, d = map(float, sys.argv[2:]); print(f'{sys.argv[1]} | {a:,.0f} | {b:,.0f} | {b / a:.2f} | {c:,.0f} | {d:,.0f} | {d / c:.2f}')" \
          "$r $s" "$tf" "${bf:-0}" "$tb" "${bb:-0}"
      done
      "$build/tdl-bmi2" -n 4x6patt -i "$dir/tdl4x6.w" -e 1 -% -s 1 2>&1 | awk '/^summary/{print "TDL2048+ 1-ply play, 1,000 games:", $3}'
      python3 - "$dir/boardai4x6.npz" <<'PY'
import sys, time
from boardai.g2048.train.trainer import Trainer
t = Trainer.load(sys.argv[1])
t.play(1, 1)  # load the compiled code outside the timing
w0 = time.perf_counter()
scores, _, moves = t.play(1000, 1)
print(f"boardai 1-ply play, 1,000 games: {moves.sum() / (time.perf_counter() - w0):,.0f} moves/s, "
      f"average {scores.mean():,.0f}")
PY
    done
    exit 0
  fi
  ours 1 online-fast > /dev/null  # compiles the kernels once, untimed
  echo "threads | TDL2048+ default | boardai online-fast | ratio | TDL2048+ backward | boardai backward | ratio"
  for t in "${threads[@]}"; do
    tf=$(tdl "$t"); bf=$(ours "$t" online-fast)
    tb=$(tdl "$t" mode=optimize:backward); bb=$(ours "$t" backward)
    python3 -c "import sys; t, a, b, c, d = map(float, sys.argv[1:]); print(f'{t:.0f} | {a:,.0f} | {b:,.0f} | {b / a:.2f} | {c:,.0f} | {d:,.0f} | {d / c:.2f}')" \
      "$t" "$tf" "${bf:-0}" "$tb" "${bb:-0}"
  done
  ;;
*)
  echo "usage: benchmarks/device_threads.sh prep | run [THREADS...] | trained [EPISODES [ROUNDS]]" >&2
  exit 2
  ;;
esac
