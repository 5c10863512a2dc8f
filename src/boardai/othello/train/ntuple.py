"""TD(0) self-play for Othello n-tuple networks, whole episodes in compiled code.

Both sides play the same network, 1-ply: the mover picks the move whose position is worst
for the opponent (``-V``), or with probability epsilon a random move (Lucas and Runarsson's
TDL for the Othello League). After every ply the value of the position just left moves toward
``-V(next)`` (the next mover is the opponent), or toward the result at the end (+1 win, 0
draw, -1 loss for the mover), through ``tanh``'s derivative. Random moves teach nothing by
default (they are not the policy being evaluated). With temporal coherence (``tc``, see
:func:`boardai.learn.ntuple.add_at_tc`) each weight's rate adapts by itself.

>>> from boardai.othello.ntuple import NTupleNetwork
>>> net = NTupleNetwork.create("small")
>>> state = train_episodes(net, 10, 0.01, 0.1, np.uint64(1))[0]
>>> bool(np.abs(net.weights).sum() > 0)
True
"""

# ruff: noqa: E741  (P, O: the mover's and the opponent's bitboards)
from __future__ import annotations

import numpy as np

from boardai._jit import njit
from boardai.learn.ntuple import add_at, add_at_tc
from boardai.othello import ntuple as nt
from boardai.othello.kernels import (
    START_BLACK,
    START_WHITE,
    legal_moves,
    play,
    random_action,
    splitmix64,
)


def train_episodes(
    net: nt.NTupleNetwork,
    episodes: int,
    alpha: float,
    epsilon: float,
    state: np.uint64,
    learn_random: bool = False,
    tc: np.ndarray | None = None,
) -> tuple[np.uint64, float]:
    """Play ``episodes`` self-play games, learning after every greedy ply (and after random
    ones too with ``learn_random``; Lucas and Runarsson skip those). ``tc``: the temporal
    coherence state (:func:`boardai.learn.ntuple.tc_state`: the ``E`` and ``A`` of each
    weight side by side), updated in place.

    Returns the advanced rng state and the mean squared TD error of the last episode.
    """
    if tc is None:
        tc = np.zeros((0, 2), np.float32)
    elif tc.shape != (net.weights.size, 2):
        raise ValueError("the temporal coherence state must be two values a weight")
    return _train_episodes(
        *net.data(), tc, np.int64(episodes), alpha, epsilon, np.uint64(state), learn_random
    )


@njit
def _train_episodes(
    squares: np.ndarray,
    offsets: np.ndarray,
    weights: np.ndarray,
    tc: np.ndarray,
    episodes: np.int64,
    alpha: float,
    epsilon: float,
    state: np.uint64,
    learn_random: bool,
) -> tuple[np.uint64, float]:
    use_tc = tc.shape[0] > 0
    idx = np.empty(offsets.shape[1], np.int64)  # the weights the position just left reads
    err = 0.0
    for _ in range(episodes):
        P = START_BLACK
        O = START_WHITE
        err = 0.0
        plies = 0
        while True:
            if legal_moves(P, O) == 0 and legal_moves(O, P) == 0:
                break
            state, bits = splitmix64(state)
            explore = np.float64(bits >> np.uint64(11)) * (1.0 / 9007199254740992.0) < epsilon
            if explore:
                state, a = random_action(P, O, state)
            else:
                a = nt.greedy_action(P, O, squares, offsets, weights)
            O2, P2 = play(P, O, a)
            if not explore or learn_random:
                v = nt.value(P, O, squares, offsets, weights)
                target = -nt.position_value(O2, P2, squares, offsets, weights)
                delta = target - v
                grad = delta * (1.0 - v * v)
                nt.indices(P, O, squares, offsets, idx)
                if use_tc:
                    add_at_tc(weights, tc, idx, alpha * grad, grad)
                else:
                    add_at(weights, idx, alpha * grad)
                err += delta * delta
                plies += 1
            P, O = O2, P2
        err /= max(plies, 1)
    return state, err
