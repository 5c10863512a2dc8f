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
step=${1:-}
shift || true
case "$step" in
prep)
  mkdir -p .git/info
  grep -qxF "/.whl/" .git/info/exclude 2>/dev/null || echo "/.whl/" >> .git/info/exclude
  python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 \
    --implementation cp --platform manylinux_2_17_x86_64 -d .whl \
    gymnasium farama-notifications platformdirs pooch rich markdown-it-py mdurl pygments
  ;;
run)
  seconds=$1
  shift
  export PYTHONUNBUFFERED=1 NUMBA_CACHE_DIR=${NUMBA_CACHE_DIR:-/tmp/numba-cache}
  if compgen -G ".whl/*.whl" > /dev/null; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
      --target /tmp/site .whl/*.whl
  fi
  export PYTHONPATH=/tmp/site:$PWD/src
  out=${OUT:-.}
  work=/tmp/train2048
  mkdir -p "$work"
  { nproc; lscpu | grep -E "Model name|L2 cache|L3 cache"
    python3 -c "import sys, numba, numpy; print(sys.version.split()[0], 'numba', numba.__version__, 'numpy', numpy.__version__)"
  } 2>&1 | tee "$out/machine.txt"
  date -u +%FT%TZ > "$out/times.txt"
  code=0
  # SIGINT at the deadline stops training as Ctrl-C does: the run saves and exits 130
  timeout -s INT -k 120 "$seconds" python3 -m boardai 2048 train ntuple --resume "${MODEL:-2048-ntuple}" \
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
