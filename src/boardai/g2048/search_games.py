"""Whole games played by the expectimax search, in one compiled loop.

A player's ``act`` costs about 10 us of Python around each search (unboxing, the result, the
game's own Python), as much as a whole depth-2 search over a network; a benchmark of the
search's play (``boardai 2048 bench ntuple --depth 2``, TDL2048+'s ``-e ... -d 2p`` beside
it) should time the search, as the 1-ply loop of :func:`~boardai.g2048.train.episodes.play_games`
times the network. :func:`play_searched` plays the games, move by move the moves the
player's :func:`~boardai.g2048.search.search` would choose (the same kernel, the same table,
the same ties), with the spawns of :func:`~boardai.g2048.train.episodes.play_games`: game
``g`` draws from spawn stream ``first + g`` of ``seed``, so these are the arena's games of that
seed (:mod:`boardai.rng`'s rule; ``Game(seed=seed, index=first + g)``).

:meth:`boardai.g2048.agents.expectimax.ExpectimaxAgent.play_games` is the way in.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardai._jit import njit
from boardai.g2048.kernels import capped, max_exponent, move, spawn_wide, start_board
from boardai.g2048.search import (
    TableView,
    _borrowed,
    _root,
    _with_generation,
    depth_by_distinct,
)
from boardai.rng import seed_stream, splitmix64

#: The table's generations fit 24 bits (:meth:`boardai.g2048.search.Table.next_generation`).
_GENERATIONS = 1 << 24


@njit
def play_searched(
    seed: np.uint64,
    first: np.int64,
    n_games: np.int64,
    depth: np.int64,
    min_depth: np.int64,
    max_depth: np.int64,
    evaluate: Any,
    evaluate_batch: Any,
    data: Any,
    reward_weight: float,
    prob_cut: float,
    p4: float,
    table: TableView,
    stats: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Kernel: play games ``first .. first + n_games - 1``, each move the best of a search.

    ``depth`` > 0 searches every move that deep; 0 picks the depth as
    :meth:`~boardai.g2048.agents.expectimax.ExpectimaxAgent.depth_for` does, from the distinct
    tiles between ``min_depth`` and ``max_depth``. The other arguments are
    :func:`~boardai.g2048.search.search_root`'s, but ``table``'s generation is the table's
    last one: each search takes the next (after the 24 bits run out, the table is emptied
    and they start again at 1). Returns per game the score, the largest exponent and the
    moves, and the last generation used (the caller's :class:`~boardai.g2048.search.Table`
    goes on from it).
    """
    scores = np.zeros(n_games, np.int64)
    maxes = np.zeros(n_games, np.int64)
    moves = np.zeros(n_games, np.int64)
    gen = int(table.generation)
    v = np.empty(4)
    vals = np.empty(4)
    table = _borrowed(table)  # a new view per search would count its references: one here
    for k in range(n_games):
        state = seed_stream(seed, np.uint64(first + k))
        lo, state = start_board(state, 2, p4)
        hi = np.uint64(0)
        while True:
            board = lo if hi == 0 else capped(lo, hi)
            d = depth
            if d <= 0:
                d = depth_by_distinct(board, min_depth, max_depth)
            if gen + 1 >= _GENERATIONS:
                table.info[:] = 0
                gen = 0
            gen += 1
            _root(
                board, d, evaluate, evaluate_batch, data, reward_weight, prob_cut, p4,
                _with_generation(table, gen), stats, v, vals,
            )  # fmt: skip
            # The best move legal on the exact board (a capped board may see others), ties
            # to the lowest, as search() picks.
            best = -1
            for a in range(4):
                alo, ahi, _ = move(lo, hi, a)
                if (alo != lo or ahi != hi) and (best < 0 or v[a] > v[best]):
                    best = a
            if best < 0:
                break
            alo, ahi, r = move(lo, hi, best)
            scores[k] += r
            moves[k] += 1
            state, bits = splitmix64(state)
            lo = spawn_wide(alo, ahi, bits, p4)
            hi = ahi
        maxes[k] = max_exponent(lo, hi)
    return scores, maxes, moves, gen
