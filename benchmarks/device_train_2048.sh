#!/bin/bash
# The shipped 2048 n-tuple network trained on by every core of a lent machine (the device
# tool's: 16 cores, Python, numpy and numba, not boardai's other dependencies, no network),
# the result brought back compact. Three steps, from the repository's root:
#
#   benchmarks/device_train_2048.sh prep          here: .whl/, the wheels the lent machine lacks
#   benchmarks/device_train_2048.sh run SECONDS [TRAIN_OPTIONS...]
#                                                 there (carry .whl): resumes models/2048-ntuple
#                                                 (or $MODEL)
#                                                 with TC at alpha 1.0 on every core (TC's state
#                                                 measured first: --tc-warmup), trains for
#                                                 SECONDS, compacts the result as the shipped
#                                                 file is compacted (12 bits, --drop-untouched)
#                                                 and writes it to $OUT in 15 MB parts, with the
#                                                 log and the report CSV
#   benchmarks/device_train_2048.sh merge DIR OUT.npz
#                                                 here: joins DIR's parts into OUT.npz and checks
#                                                 its sha256; measure it on the card's games
#                                                 before it replaces models/2048-ntuple.npz
#
# A compact file keeps no TC state, and the next resume measures it again (20,000 episodes
# with the weights held): that is what lets training go on from the repository's model on
# whichever machine comes next. The device tool returns files of at most 16 MiB, so the
# compact file (about 30 MB) comes back in parts.
set -eu
. "$(dirname "$0")/device_lib.sh"
step=${1:-}
shift || true
case "$step" in
prep)
  WHEELS="rich markdown-it-py mdurl pygments" device_prep .whl
  ;;
run)
  seconds=$1
  shift
  out=${OUT:-.}
  work=/tmp/train2048
  rm -rf "$work" && mkdir -p "$work"  # a file left by an earlier try is not this run's
  device_setup "$out/machine.txt"
  date -u +%FT%TZ > "$out/times.txt"
  code=0
  # SIGINT at the deadline stops training as Ctrl-C does: the run saves and exits 130
  # (--foreground: to boardai alone, once; a second would abort it without saving)
  timeout --foreground -s INT -k 120 "$seconds" python3 -m boardai 2048 train ntuple --resume "${MODEL:-2048-ntuple}" \
    --tc --alpha 1.0 --threads "$(nproc)" --episodes 100000000 --out "$work/full.npz" \
    --csv "$out/train.csv" --report-every 20000 --checkpoint-minutes 0 --quiet "$@" \
    > "$out/train.log" 2>&1 || code=$?
  echo "training exit code $code (130: stopped at $seconds s)"
  date -u +%FT%TZ >> "$out/times.txt"
  python3 -m boardai models compact "$work/full.npz" "$work/c12.npz" --bits 12 \
    --drop-untouched --force 2>&1 | tee -a "$out/train.log"
  sha256sum "$work/c12.npz" | cut -d' ' -f1 > "$out/c12.sha256"
  split -b 15000000 -d "$work/c12.npz" "$out/c12.part"
  date -u +%FT%TZ >> "$out/times.txt"
  tail -c 1500 "$out/train.log"
  ;;
merge)
  dir=$1 dst=$2
  cat "$dir"/c12.part* > "$dst"
  [ "$(sha256sum "$dst" | cut -d' ' -f1)" = "$(cat "$dir/c12.sha256")" ] \
    || { echo "$dst: sha256 differs from the device's; parts missing?" >&2; exit 1; }
  echo "$dst: $(stat -c %s "$dst") bytes, sha256 $(cat "$dir/c12.sha256")"
  ;;
*)
  echo "usage: benchmarks/device_train_2048.sh prep | run SECONDS [TRAIN_OPTIONS...] | merge DIR OUT.npz" >&2
  exit 2
  ;;
esac
