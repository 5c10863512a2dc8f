# Shared steps of the scripts that run boardai on a lent machine (the device tool's: 16 cores,
# Python, numpy and numba, not boardai's other dependencies, no network). Sourced, not run.

# here: ignore the folders that travel to the lent machine ($@, e.g. .dev .whl), and download
# into .whl/ the wheels of boardai's pure-Python dependencies that it lacks (extra names: $WHEELS)
device_prep() {
  mkdir -p .git/info
  local d
  for d in "$@"; do grep -qxF "/$d/" .git/info/exclude 2>/dev/null || echo "/$d/" >> .git/info/exclude; done
  # shellcheck disable=SC2086
  python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 \
    --implementation cp --platform manylinux_2_17_x86_64 -d .whl \
    gymnasium farama-notifications platformdirs pooch ${WHEELS:-}
}

# there: install the carried wheels, put boardai's sources on the path (in this shell: call it
# as is, not in a pipe), and print the machine (cores, CPU, caches, Python, numba, numpy), also
# into the file $1 where one is named
device_setup() {
  export PYTHONUNBUFFERED=1 NUMBA_CACHE_DIR=${NUMBA_CACHE_DIR:-/tmp/numba-cache}
  if compgen -G ".whl/*.whl" > /dev/null; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
      --target /tmp/site .whl/*.whl
  fi
  export PYTHONPATH=/tmp/site:$PWD/src
  { nproc; lscpu | grep -E "Model name|L2 cache|L3 cache|NUMA node\(s\)"
    python3 -c "import sys, numba, numpy; print(sys.version.split()[0], 'numba', numba.__version__, 'numpy', numpy.__version__)"
  } 2>&1 | tee "${1:-/dev/null}"
}
