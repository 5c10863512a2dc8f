"""Batched data for the Othello DQN: every child of many boards in one compiled call, network
input planes from bitboards, and the 8 board symmetries.

Positions are kept as bitboards ``(P, O, L)``: the mover's discs, the opponent's and the
mover's legal squares, the same three planes :func:`boardai.othello.env.observe` gives.

>>> import numpy as np
>>> from boardai.othello.kernels import START_BLACK, START_WHITE
>>> kids = expand_batch(np.array([START_BLACK], np.uint64), np.array([START_WHITE], np.uint64))
>>> kids.action.tolist()  # d3 c4 f5 e6: the four opening moves
[19, 26, 37, 44]
"""

# ruff: noqa: E741  (P, O, L: the mover's, the opponent's and the legal bitboards)
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from boardai._jit import njit
from boardai.learn.replay import ReplayBuffer
from boardai.othello.kernels import PASS, final_score, legal_moves, lowest_square, play

_SHIFTS = np.arange(64, dtype=np.uint64)


def _symmetries() -> tuple[np.ndarray, np.ndarray]:
    """(SYM, INV): ``x[..., SYM[k]]`` is image ``k`` of the flattened planes ``x``;
    ``INV[k, a]`` is where action ``a`` goes in it (65 columns: the pass stays 64)."""
    grid = np.arange(64).reshape(8, 8)
    images = []
    for k in range(4):
        r = np.rot90(grid, k)
        images += [r, r.T]
    sym = np.stack([g.reshape(64) for g in images])
    inv = np.full((8, 65), PASS, np.int64)
    for k in range(8):
        inv[k, sym[k]] = np.arange(64)
    return sym, inv


SYM, INV = _symmetries()


class Children(NamedTuple):
    """Every legal child of a batch of boards (flat, grouped by parent, actions ascending).

    Attributes:
        start: index of each parent's first child (length parents + 1).
        legal: each parent's legal-square bitboard.
        owner: the parent of each child.
        action: the action that made it (64 = pass).
        P, O, L: the child from its mover's view (the parent's opponent) and its legal squares.
        done: the child ends the game.
        reward: +1 / 0 / -1 for the parent's mover when ``done`` (else 0).
    """

    start: np.ndarray
    legal: np.ndarray
    owner: np.ndarray
    action: np.ndarray
    P: np.ndarray
    O: np.ndarray
    L: np.ndarray
    done: np.ndarray
    reward: np.ndarray


@njit
def _expand(P: np.ndarray, O: np.ndarray) -> tuple[np.ndarray, ...]:
    n = P.shape[0]
    legal = np.empty(n, np.uint64)
    start = np.zeros(n + 1, np.int64)
    for i in range(n):
        legal[i] = legal_moves(P[i], O[i])
        k = 0
        m = legal[i]
        while m:
            m &= m - np.uint64(1)
            k += 1
        start[i + 1] = start[i] + max(k, 1)
    total = start[n]
    owner = np.empty(total, np.int64)
    action = np.empty(total, np.int64)
    cP = np.empty(total, np.uint64)
    cO = np.empty(total, np.uint64)
    cL = np.empty(total, np.uint64)
    done = np.zeros(total, np.bool_)
    reward = np.zeros(total, np.float32)
    for i in range(n):
        j = start[i]
        m = legal[i]
        while True:
            a = np.int64(PASS) if m == 0 else np.int64(lowest_square(m))
            p2, o2 = play(P[i], O[i], a)
            owner[j], action[j], cP[j], cO[j] = i, a, p2, o2
            cL[j] = legal_moves(p2, o2)
            if cL[j] == 0 and legal_moves(o2, p2) == 0:
                done[j] = True
                s = final_score(p2, o2)  # the child's mover is the parent's opponent
                reward[j] = -1.0 if s > 0 else (1.0 if s < 0 else 0.0)
            j += 1
            if m == 0:
                break
            m &= m - np.uint64(1)
            if m == 0:
                break
    return start, legal, owner, action, cP, cO, cL, done, reward


def expand_batch(P: np.ndarray, O: np.ndarray) -> Children:
    """All children of the (unfinished) boards ``(P[i], O[i])``; a board with no square gets
    one child, the pass."""
    return Children(
        *_expand(np.ascontiguousarray(P, np.uint64), np.ascontiguousarray(O, np.uint64))
    )


def planes(P: np.ndarray, O: np.ndarray, L: np.ndarray) -> np.ndarray:
    """float32 ``(n, 3, 64)`` input planes of bitboard triples (as ``observe`` gives them)."""
    bits = np.stack([P, O, L], 1).astype(np.uint64)[:, :, None] >> _SHIFTS
    return (bits & np.uint64(1)).astype(np.float32)


def transform(x: np.ndarray, actions: np.ndarray, k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Symmetry image ``k[i]`` of each sample: planes ``x`` (n, c, 64) and their actions."""
    idx = np.broadcast_to(SYM[k][:, None, :], x.shape)
    return np.take_along_axis(x, idx, 2), INV[k, actions]


class Replay(ReplayBuffer):
    """A ring buffer (:class:`boardai.learn.replay.ReplayBuffer`) of transitions as bitboards:
    ``boards`` (position ``P, O, L`` and next position), ``action``, ``reward``, ``done``, and
    the game's final result for the mover (``ret``, when ``has_ret``: the moves actually
    played get it once their game ends)."""

    def __init__(self, size: int) -> None:
        super().__init__(
            size,
            {
                "boards": ((6,), np.uint64),  # P, O, L, next P, next O, next L
                "action": ((), np.int64),
                "reward": ((), np.float32),
                "done": ((), np.bool_),
                "ret": ((), np.float32),
                "has_ret": ((), np.bool_),
            },
        )

    def add(
        self, boards: np.ndarray, action: np.ndarray, reward: np.ndarray, done: np.ndarray
    ) -> np.ndarray:
        """Store transitions (``boards`` is (k, 6)), results unknown; returns their serial
        numbers (how many transitions came before each)."""
        k = len(action)
        serial = self.added + np.arange(k)
        no_ret = np.zeros(k, np.bool_)
        self.add_batch(
            boards=boards, action=action, reward=reward, done=done, ret=no_ret, has_ret=no_ret
        )
        return serial

    def set_returns(self, serial: np.ndarray, ret: np.ndarray) -> None:
        """Give the transitions ``serial`` (those not yet overwritten) their final results."""
        keep = self.added - serial <= self.capacity
        i = serial[keep] % self.capacity
        self.fields["ret"][i], self.fields["has_ret"][i] = ret[keep], True
