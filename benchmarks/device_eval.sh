#!/bin/bash
# A part of a long `boardai 2048 eval` run played on a lent machine (the device tool's: 16
# cores, Python, numpy and numba, not boardai's other dependencies, no network), its games put
# back into the run's journal J here. Three steps, from the repository's root:
#
#   benchmarks/device_eval.sh prep J       here: .dev/part.jsonl, a copy of J (and its games cut
#                                          short); .whl/, the wheels the lent machine lacks
#   benchmarks/device_eval.sh run SECONDS --agent SPEC --games N --seed S --part A:B
#                                          there (carry .dev and .whl): the eval on every core
#                                          for at most SECONDS, then $OUT/part.tgz
#   benchmarks/device_eval.sh merge DIR J  here: unpack DIR/part.tgz, boardai journal merge
#
# Timeout's SIGINT stops the run as Ctrl-C does: finished games are in the journal, and each
# game under way keeps the position it saved in its last 30 s. Game i is the same game on
# either machine (the same moves, checked in session 32), but its CPU time is that machine's.
set -eu
. "$(dirname "$0")/device_lib.sh"
step=${1:-}
shift || true
case "$step" in
prep)
  j=$1
  mkdir -p .dev
  rm -rf .dev/part.jsonl .dev/part.jsonl.partial
  cp "$j" .dev/part.jsonl
  [ ! -d "$j.partial" ] || cp -r "$j.partial" .dev/part.jsonl.partial
  device_prep .dev .whl
  boardai journal show "$j" | head -4  # pick a --part of games neither finished nor under way here
  ;;
run)
  seconds=$1
  shift
  out=${OUT:-.}
  device_setup "$out/machine.txt"
  date -u +%FT%TZ > "$out/times.txt"
  code=0
  timeout -s INT -k 30 "$seconds" python3 -m boardai 2048 eval --workers "$(nproc)" \
    --resume .dev/part.jsonl "$@" > "$out/eval.log" 2>&1 || code=$?
  echo "eval exit code $code (124: stopped at $seconds s)"
  date -u +%FT%TZ >> "$out/times.txt"
  parts=()
  [ ! -d .dev/part.jsonl.partial ] || parts=(.dev/part.jsonl.partial)
  tar czf "$out/part.tgz" .dev/part.jsonl "${parts[@]}"
  tail -c 1200 "$out/eval.log"
  ;;
merge)
  dir=$1 j=$2
  rm -rf .dev/part.jsonl .dev/part.jsonl.partial
  tar xzf "$dir/part.tgz"
  boardai journal merge "$j" .dev/part.jsonl
  ;;
*)
  echo "usage: benchmarks/device_eval.sh prep J | run SECONDS EVAL_OPTIONS... | merge DIR J" >&2
  exit 2
  ;;
esac
