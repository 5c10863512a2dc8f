#!/bin/bash
# Play a part of a long `boardai 2048 eval` run on a lent machine for at most SECONDS, on every
# core, then pack its journal (and its games cut short) for `boardai journal merge` here. The
# lent machine (see the device tool) has Python, numpy and numba but not boardai's other
# dependencies; their wheels travel in .whl/, boardai itself from src/ (PYTHONPATH).
#
#   here, before:  mkdir -p .dev && cp J .dev/part.jsonl && cp -r J.partial .dev/part.jsonl.partial
#                  python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 \
#                    --implementation cp --platform manylinux_2_17_x86_64 -d .whl \
#                    gymnasium farama-notifications platformdirs pooch
#   there:         bash benchmarks/device_eval.sh SECONDS .dev/part.jsonl --agent SPEC \
#                    --games N --seed S --part A:B      (carry .dev and .whl; $OUT comes back)
#   here, after:   tar xzf OUT/part.tgz && boardai journal merge J .dev/part.jsonl
#
# Ctrl-C (SIGINT, from timeout) stops the run cleanly: finished games are in the journal, and
# each game under way keeps the position it saved in the last 30 s.
set -u
seconds=$1 journal=$2
shift 2
export PYTHONUNBUFFERED=1 NUMBA_CACHE_DIR=${NUMBA_CACHE_DIR:-/tmp/numba-cache}
if compgen -G ".whl/*.whl" > /dev/null; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl || exit 1
fi
export PYTHONPATH=/tmp/site:$PWD/src
out=${OUT:-.}
{ nproc; lscpu | grep -E "Model name|L2 cache|L3 cache"
  python3 -c "import sys, numba, numpy; print(sys.version.split()[0], 'numba', numba.__version__, 'numpy', numpy.__version__)"
} 2>&1 | tee "$out/machine.txt"
date -u +%FT%TZ > "$out/times.txt"
timeout -s INT -k 30 "$seconds" python3 -m boardai 2048 eval --workers "$(nproc)" \
  --resume "$journal" "$@" > "$out/eval.log" 2>&1
echo "eval exit code $? (124: stopped at $seconds s)"
date -u +%FT%TZ >> "$out/times.txt"
parts=()
[ -d "$journal.partial" ] && parts=("$journal.partial")
tar czf "$out/part.tgz" "$journal" "${parts[@]}"
tail -c 1200 "$out/eval.log"
