#!/bin/bash
# Expectimax over a trained 4x6 n-tuple network: boardai's `ntuple:depth=D` player against
# TDL2048+'s `-e ... -d Dp` (D max layers: TDL2048+'s "2p" is max, chance, max, as boardai's
# depth 2), one thread each, the networks benchmarks/compare_tdl_eval.sh trains into DIR.
#   benchmarks/compare_tdl_search.sh [DIR] [DEPTH] [GAMES] [ROUNDS]  (venv active; defaults
#   runs/tdl-eval, 2, 100, 2)
# TDL2048+ (both its builds, as compare.sh td) searches every spawn with no transposition table
# (its default `-c` is none); boardai with its defaults (a transposition table over chance nodes,
# probability cut-off 1e-4, which cuts nothing at depth 2) and with prob_cut=0. Each program's own
# timer: TDL2048+'s `summary` line; boardai's around its game loop, twice: the compiled loop of
# `boardai 2048 bench ntuple --depth D` (game and search in compiled code, as TDL2048+'s; other
# spawns than TDL2048+'s, the same for both rounds), then the player in a Python game loop
# (Game.move, then the agent's act, whose share is shown), which carries the per-move cost of the
# Python API.
set -eu
dir=${1:-runs/tdl-eval}
depth=${2:-2}
games=${3:-100}
rounds=${4:-2}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
build=${ANCHORS_BUILD:-$HOME/.cache/boardai-anchors}
tdl=$build/tdl-plain
[ -x "$tdl" ] || { echo "no $tdl: run ../shared/anchors/compare.sh td first"; exit 2; }
[ -f "$dir/tdl4x6.w" ] && [ -f "$dir/boardai4x6.npz" ] || { echo "no networks in $dir: run benchmarks/compare_tdl_eval.sh $dir"; exit 2; }
for r in $(seq "$rounds"); do
  for cut in 1e-4 0; do
    boardai 2048 bench ntuple --model "$dir/boardai4x6.npz" --episodes 0 --games "$games" \
      --depth "$depth" --prob-cut "$cut" --seed 1 --json "$tmp" >/dev/null 2>&1
    python - "$tmp" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
g = r["games"]
print(f"boardai  depth {r['depth']}, prob_cut {r['prob_cut']:g}, compiled game loop: {g['games']} games, "
      f"{g['moves_mean'] * g['games']:,.0f} moves, average {g['mean']:,.0f}: {r['play_moves_per_s']:,.0f} moves/s")
PY
    python - "$dir/boardai4x6.npz" "$depth" "$games" "$cut" <<'PY'
import sys, time
from boardai.g2048 import Game
from boardai.g2048.agents import make_agent
model, depth, games, cut = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
agent = make_agent(f"ntuple:model={model},depth={depth},prob_cut={cut}")
agent.act(Game(seed=10**6).board)  # compile outside the timing
moves, total, acting = 0, 0, 0.0
start = time.perf_counter()
for g in range(games):
    game = Game(seed=1 + g)
    agent.reset()
    while not game.is_over():
        t = time.perf_counter()
        a = agent.act(game.board)
        acting += time.perf_counter() - t
        game.move(a)
    moves += game.moves
    total += game.score
wall = time.perf_counter() - start
print(f"boardai  depth {depth}, prob_cut {cut}: {games} games, {moves:,} moves, average "
      f"{total / games:,.0f}: {moves / wall:,.0f} moves/s ({1e6 * acting / moves:.1f} us a move in act)")
PY
  done
  for exe in tdl-plain tdl-bmi2; do  # both builds, as compare.sh td: read the faster
    [ -x "$build/$exe" ] || continue
    "$build/$exe" -n 4x6patt -i "$dir/tdl4x6.w" -e "${games}x1" -d "${depth}p" -% -s 1 2>&1 | awk -v d="$depth" -v exe="$exe" '
      /^summary/{ms=$2; sub("ms","",ms); ops=$3; sub("ops","",ops); n=ms*ops/1000}
      /^total:/{avg=$2} END{sub("avg=","",avg); printf "TDL2048+ %sp: %d moves, average %s: %d moves/s (%.1f us a move; %s)\n", d, n, avg, ops, 1e6/ops, exe}'
  done
done
