"""Which cell of each n-tuple pattern should be the lowest digit of its table index: a cache
simulation over real games.

The 16 weights of a 64-byte cache line differ only in a pattern's lowest index digit (its
first cell). Lookups that differ in that one cell share a line; so the order of a pattern's
cells, which changes nothing the network learns or plays, decides how many lines a move
touches. This plays GAMES greedy games with MODEL's network (1-ply, as training does), records
every lookup of every legal afterstate of every move (and, with ``--method backward``, the
backward pass over each game's played afterstates), and counts the misses a move of
fully-associative LRU caches of 512, 16,384 and 262,144 lines (L1, L2, and a 16 MiB L3) for
the patterns of ``--patterns`` (default: MODEL's) in their order, then for each pattern with
each of its cells moved to the front (the others kept), and last with every pattern's best.

    python benchmarks/ntuple_layout_sim.py MODEL [--games 6] [--patterns 4x6] [--method play]

for example, with a trained 4x6 network (`benchmarks/compare_tdl_eval.sh` trains one):

    python benchmarks/ntuple_layout_sim.py runs/tdl-eval/boardai4x6.npz --games 6 \\
        --patterns 012345,456789,012456,45689a

The games depend only on MODEL, so ``--patterns`` may name any patterns of the same length
(a 5x6 network's fifth pattern read off a 4x6 network's games).
"""

from __future__ import annotations

import argparse

import numpy as np
from numba import njit

from boardai.g2048.board import Board
from boardai.g2048.ntuple import images
from boardai.g2048.patterns import parse_patterns, pattern_names
from boardai.g2048.train.trainer import Trainer

SIZES = np.array([512, 16384, 262144], np.int64)
_M64 = 0xFFFF_FFFF_FFFF_FFFF


def _image_cells(board: Board) -> np.ndarray:
    ims = images(np.uint64(int(board) & _M64))
    return np.array([[(int(x) >> (4 * c)) & 15 for c in range(16)] for x in ims], np.uint8)


def _games(trainer: Trainer, games: int, seed: int) -> tuple[list[list[np.ndarray]], ...]:
    """Per game, per move: the 8 images' cells of each legal afterstate; and of the one played."""
    rng = np.random.default_rng(seed)
    net = trainer.network
    moves: list[list[np.ndarray]] = []
    played: list[list[np.ndarray]] = []
    for _ in range(games):
        board = Board(0).spawn(rng).spawn(rng)
        game: list[np.ndarray] = []
        chosen: list[np.ndarray] = []
        while legal := board.legal_actions():
            best, best_a, best_cells = -np.inf, legal[0], None
            for a in legal:
                after, r = board.slide(a)
                cells = _image_cells(after)
                game.append(cells)
                if (v := r + net.value(after)) > best:
                    best, best_a, best_cells = v, a, cells
            assert best_cells is not None
            chosen.append(best_cells)
            board = board.slide(best_a)[0].spawn(rng)
        moves.append(game)
        played.append(chosen)
    return moves, played


@njit
def _lines(stream: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """The cache line of every lookup: per afterstate, pattern by pattern, image by image."""
    n, n_patterns, k = stream.shape[0], cells.shape[0], cells.shape[1]
    out = np.empty(n * n_patterns * 8, np.int64)
    m = 0
    for i in range(n):
        for p in range(n_patterns):
            for j in range(8):
                index = 0
                for d in range(k):
                    index |= np.int64(stream[i, j, cells[p, d]]) << (4 * d)
                out[m] = ((p << 32) + index) >> 4  # 16 float32 weights a line
                m += 1
    return out


@njit
def _misses(lines: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Misses of fully-associative LRU caches of each size: an access misses when it is the
    line's first, or when at least ``size`` other lines came between (a Fenwick tree over
    time counts the distinct ones)."""
    n = lines.shape[0]
    tree = np.zeros(n + 1, np.int64)
    last = dict()
    out = np.zeros(sizes.shape[0], np.int64)
    for t in range(n):
        x = lines[t]
        if x in last:
            before = last[x]
            between = 0
            i = t
            while i > 0:
                between += tree[i]
                i -= i & -i
            i = before + 1
            while i > 0:
                between -= tree[i]
                i -= i & -i
            for q in range(sizes.shape[0]):
                if between >= sizes[q]:
                    out[q] += 1
            i = before + 1
            while i <= n:
                tree[i] -= 1
                i += i & -i
        else:
            out += 1
        last[x] = t
        i = t + 1
        while i <= n:
            tree[i] += 1
            i += i & -i
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("model")
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--patterns", help="patterns to lay out (default: the model's)")
    ap.add_argument("--method", choices=("play", "backward"), default="play")
    args = ap.parse_args()
    trainer = Trainer.load(args.model)
    patterns = parse_patterns(args.patterns) if args.patterns else trainer.network.patterns
    if len({len(p) for p in patterns}) != 1:
        raise SystemExit("patterns of one length only")
    moves, played = _games(trainer, args.games, args.seed)
    n_moves = sum(len(g) for g in played)
    order: list[np.ndarray] = []
    for game, chosen in zip(moves, played, strict=True):
        order += game
        if args.method == "backward":
            order += chosen[::-1]
    stream = np.array(order, np.uint8)
    print(f"{n_moves:,} moves ({n_moves / args.games:,.0f} a game), {args.method}; misses a move")

    def misses(pats: list[tuple[int, ...]]) -> np.ndarray:
        return _misses(_lines(stream, np.array(pats, np.int64)), SIZES) / n_moves

    def row(name: str, m: np.ndarray) -> str:
        return f"{name:<40} L1 {m[0]:6.2f}  L2 {m[1]:6.2f}  L3 {m[2]:6.2f}"

    base = list(patterns)
    print(row("as given " + ",".join(pattern_names(tuple(base))), misses(base)))
    best = list(base)
    for p, pattern in enumerate(base):
        tried = []
        for first in pattern:
            trial = list(base)
            trial[p] = (first, *(c for c in pattern if c != first))
            tried.append((misses(trial)[1], trial[p]))
            print(row(f"  {pattern_names((trial[p],))[0]}", misses(trial)))
        best[p] = min(tried)[1]
    print(row("each pattern's best " + ",".join(pattern_names(tuple(best))), misses(best)))


if __name__ == "__main__":
    main()
