"""The compiled TD training loop: whole 2048 episodes of greedy play and n-tuple updates.

One call of :func:`train_episodes` plays a list of episodes one after another. Each move picks
the action maximising ``r + V(afterstate)`` (Szubert & Jaśkowski's TD-afterstate learning, seed
004's EVALUATE), by the ``ntuple`` player's own kernel
(:func:`~boardai.g2048.ntuple_play.greedy_move`). Episode ``e`` draws its spawns from
``seed_stream(seed, e)``, so a run depends only on the seed and the episode numbers, not on how
episodes are split into calls.

Methods (``method``):

- ``BACKWARD`` (seed 004): play the whole episode, then update from the last afterstate back
  to the first. The target of afterstate ``t`` is the lambda return with horizon ``h``:
  ``(1-lam) * sum_{n<h} lam^(n-1) G(n) + lam^(h-1) G(h)``, where ``G(n)`` is the next ``n``
  rewards plus the (already updated) value ``n`` afterstates later; the terminal afterstate's
  target is 0. ``lam = 0`` is TD(0): target ``r' + V(s'_next)``.
- ``BACKWARD_GREEDY``: seed 004's LEARN EVALUATION to the letter: TD(0) backwards, but the
  next move is chosen again with the current weights instead of taken from the record.
- ``ONLINE``: TD(0) forward, each afterstate updated as soon as the next move is chosen.
- ``ONLINE_FAST``: ``ONLINE`` with the afterstate's error taken from the value it had when its
  move was chosen (TDL2048+'s default, its ``optimize:fast``), not summed again before the
  update: one pass over its weights instead of two. The value is a move old, so an update of
  the afterstate between (one that shares weights with it) is not in its error.

The step given to each looked-up weight is ``alpha * error / n_lookups`` (Yeh et al.'s split),
or with temporal coherence that step times the weight's own rate ``|E|/A``.

Speed: a move reads about 160 scattered weights of a large table (a 4x6 network is 256 MiB),
so the loop keeps many weight loads in flight. A move makes the lookups of every legal
afterstate once, starts loading their weights, then sums the four values side by side
(:func:`~boardai.g2048.ntuple_play.greedy_move_into`, each sum in
:func:`~boardai.g2048.ntuple.evaluate`'s order). The lookups of the afterstate played are kept
(``n_lookups`` int64 a move), so learning never computes them again; the backward pass starts
loading afterstate ``t - AHEAD``'s weights while ``t`` learns, and sums ``t``'s new value
side by side with ``t - 1``'s value before it learns (:func:`_learn_back`: two chains of
additions at once, where one waited for the other: a step takes a quarter less time when
its weights are in L1, a few percent less when they come from memory,
``benchmarks/ntuple_backward_step.py``). Every array the loop touches is used through a
:func:`~boardai.intrinsics.borrow`-ed view, so passing it between the (inlined) kernels costs
no atomic reference counting: the network's, the arguments', and the episode's record, which
this function owns (:func:`_record`) and grows outside the loop over the moves (an array a
loop may assign is counted at every turn of it: five ``lock`` pairs a move, 11% of the time of
backward TD, ``benchmarks/jit_profile.py``). None of this changes a result: the weights after
a run are the same bit for bit.

Restart strategy: with ``restart_p > 0``, at the end of each fresh episode one position from
its second half goes into a ring buffer (``pool``), and a later episode starts from a pool
position with probability ``restart_p`` (late-game positions get trained far more often).
With thresholds in ``restart_masks`` (tile-presence masks, as the stages use) the restarts go
round a carousel instead (Jaśkowski 2016; Wu et al. 2014 train each stage from the boards
where it begins): every episode that reaches a threshold from below keeps, in that
threshold's pool, the first board that reaches it, and a restart starts from a board of a
pool chosen at random among those not empty. So the restarts train the late game from the
first 16384 on (mask 2^14), and from the first 16384 with 8192 (2^14 + 2^13), which the
restarts from the first 16384 then reach.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardai._jit import njit
from boardai.g2048.kernels import legal_mask, max_exponent, spawn_wide, start_board
from boardai.g2048.ntuple import borrow_data, tile_presence
from boardai.g2048.ntuple_play import greedy_move_into
from boardai.intrinsics import borrow, borrow_all, keep, prefetch
from boardai.learn.ntuple import add_at, add_at_tc, sum_at, sum_at_pair
from boardai.rng import seed_stream, splitmix64

BACKWARD, BACKWARD_GREEDY, ONLINE, ONLINE_FAST = 0, 1, 2, 3
METHODS = {
    "backward": BACKWARD,
    "backward-greedy": BACKWARD_GREEDY,
    "online": ONLINE,
    "online-fast": ONLINE_FAST,
}

#: How many afterstates ahead the backward pass starts loading weights.
AHEAD = 2

#: Rows of :func:`train_episodes`'s ``scratch``: the lookups of a move's 4 afterstates.
SCRATCH_ROWS = 4

#: Moves an episode's record (:func:`_record`) holds at first; a full record doubles.
RECORD_MOVES = 4096

_TWO32 = 4294967296.0


@njit
def _uniform(bits: np.uint64) -> float:
    return np.float64(bits >> np.uint64(32)) / _TWO32


@njit(inline="always")
def _learn_from(
    idx: np.ndarray,
    value: np.float64,
    target: np.float64,
    data: Any,
    tc: Any,
    use_tc: bool,
    step_scale: np.float64,
) -> None:
    """Move the board whose lookups are ``idx`` and whose value is ``value`` towards
    ``target`` (``ONLINE_FAST`` gives the value it had when its move was chosen)."""
    error = target - value
    if use_tc:
        add_at_tc(data[0], tc, idx, step_scale * error, error)
    else:
        add_at(data[0], idx, step_scale * error)


@njit(inline="always")
def _learn(
    idx: np.ndarray,
    target: np.float64,
    data: Any,
    tc: Any,
    use_tc: bool,
    step_scale: np.float64,
) -> float:
    """:func:`_learn_from` the board's value summed now; return its new value."""
    _learn_from(idx, sum_at(data[0], idx), target, data, tc, use_tc, step_scale)
    return sum_at(data[0], idx)


@njit(inline="always")
def _learn_back(
    idx: np.ndarray,
    before: np.ndarray,
    value: np.float64,
    target: np.float64,
    data: Any,
    tc: Any,
    use_tc: bool,
    step_scale: np.float64,
) -> tuple[float, float]:
    """:func:`_learn_from` for the backward pass, given the board's current ``value``: returns
    its new value and the value of the board before it (lookups ``before``, learned next), the
    two sums side by side (the next board's sum already reads this update, as it would
    after it)."""
    _learn_from(idx, value, target, data, tc, use_tc, step_scale)
    return sum_at_pair(data[0], idx, before)


@njit(inline="always")
def _fetch(weights: np.ndarray, idx: np.ndarray) -> None:
    """Start loading the weights at ``idx``."""
    for k in range(idx.shape[0]):
        prefetch(weights, idx[k])


@njit(inline="always")
def _fetch_tc(tc_flat: np.ndarray, idx: np.ndarray) -> None:
    """Start loading the TC state (``E, A`` pairs, flattened) of the weights at ``idx``."""
    for k in range(idx.shape[0]):
        prefetch(tc_flat, 2 * idx[k])


@njit
def _grow(a: np.ndarray) -> np.ndarray:
    """``a`` with room for twice as many rows (entries of a 1-D array)."""
    out = np.empty((2 * a.shape[0], *a.shape[1:]), a.dtype)
    out[: a.shape[0]] = a
    return out


@njit
def _record(cap: int, n_lookups: int) -> tuple[np.ndarray, ...]:
    """Room for ``cap`` moves of an episode: per move the lookups of the afterstate played,
    the reward, the board before the move (``lo``, ``hi``: restarts, backward-greedy) and the
    afterstate's updated value (lambda returns)."""
    return (
        np.empty((cap, n_lookups), np.int64),
        np.empty(cap, np.int64),
        np.empty(cap, np.uint64),
        np.empty(cap, np.uint64),
        np.empty(cap, np.float64),
    )


@njit
def _grow_record(record: tuple[np.ndarray, ...]) -> tuple[np.ndarray, ...]:
    """:func:`_record` with room for twice as many moves, the moves so far kept."""
    looked, rewards, states_lo, states_hi, values = record
    return _grow(looked), _grow(rewards), _grow(states_lo), _grow(states_hi), _grow(values)


@njit
def train_episodes(
    data: Any,
    tc: Any,
    use_tc: bool,
    seed: np.uint64,
    episodes: np.ndarray,
    method: np.int64,
    alpha: np.float64,
    alpha_decay: np.float64,
    alpha_every: np.int64,
    lam: np.float64,
    horizon: np.int64,
    p4: np.float64,
    restart_p: np.float64,
    restart_masks: np.ndarray,
    pool: np.ndarray,
    pool_state: np.ndarray,
    scores: np.ndarray,
    max_exponents: np.ndarray,
    moves: np.ndarray,
    restarted: np.ndarray,
    scratch: np.ndarray,
    dg: np.int64,
    record_moves: np.int64,
) -> None:
    """Play and learn from ``episodes`` (global episode numbers), in order.

    ``tc`` is the TC state (:func:`~boardai.learn.ntuple.tc_state`; ``use_tc`` False: any
    ``(1, 2)`` float32 array). Writes per episode its score, largest exponent, moves and
    whether it was a restart.
    ``scratch`` is room for the lookup indices of a move's afterstates (int64,
    ``(SCRATCH_ROWS, n_lookups + 16)``, :func:`~boardai.g2048.ntuple_play.greedy_move_into`'s
    scratch; each row's last 16 entries stay free, so threads never write to one cache line).
    ``pool`` (``[levels, size]``) / ``pool_state`` (``[levels, 2]``: count, next) are the
    restart ring buffers, one per threshold of ``restart_masks`` (one when there are none),
    updated in place.
    Alpha for episode ``e`` is ``alpha * alpha_decay ** (e // alpha_every)``.
    ``dg > 0``: the network reads every afterstate downgraded from tile ``2**dg`` up, in play
    and in learning (:func:`~boardai.g2048.ntuple_play.features`).
    ``record_moves``: the moves the episode's record holds at first (:data:`RECORD_MOVES`;
    fewer only to test its growth).
    """
    n_lookups = 8 * data[2].shape[0]
    data = borrow_data(data)
    tc = borrow(tc)
    tc_flat = tc.reshape(2 * tc.shape[0])
    moves_buf = borrow(scratch)  # lookups of the 4 afterstates of a move
    episodes, restart_masks, pool, pool_state = borrow_all(
        (episodes, restart_masks, pool, pool_state)
    )
    scores, max_exponents, moves, restarted = borrow_all((scores, max_exponents, moves, restarted))
    weights = data[0]
    # The episode's record, owned by ``record`` and used through borrowed views (no reference
    # counting in the loop); ``record`` stays alive to the end (``keep``), and a grown record
    # is borrowed again.
    record = _record(record_moves, n_lookups)
    looked, rewards, states_lo, states_hi, values = borrow_all(record)
    for k in range(episodes.shape[0]):
        e = episodes[k]
        a_e = alpha * alpha_decay ** np.float64(e // alpha_every)
        step_scale = a_e / n_lookups
        state = seed_stream(seed, np.uint64(e))
        state, bits = splitmix64(state)
        fresh = True
        level = _pick_level(pool_state, bits)
        if restart_p > 0.0 and level >= 0 and _uniform(bits) < restart_p:
            if pool_state.shape[0] > 1:  # the carousel: a pool at random (one: no draw)
                state, bits = splitmix64(state)
                level = _pick_level(pool_state, bits)
            state, bits = splitmix64(state)
            count = np.uint64(pool_state[level, 0])
            pick = np.int64(((bits >> np.uint64(32)) * count) >> np.uint64(32))
            lo = pool[level, pick]
            fresh = False
        else:
            lo, state = start_board(state, 2, p4)
        hi = np.uint64(0)
        n = 0
        score = 0
        prev_q = 0.0
        ended = False
        while not ended:
            # the moves until the episode ends or its record is full; then a record twice as
            # large (outside the moves' loop: numba counts references to what a loop assigns)
            while n < rewards.shape[0]:
                a, alo, ahi, r, q = greedy_move_into(lo, hi, data, dg, moves_buf)
                if a < 0:
                    ended = True
                    break
                if method == ONLINE and n > 0:
                    if use_tc:  # the move chosen now learns after the next one: load its TC now
                        _fetch_tc(tc_flat, moves_buf[a])
                    _learn(looked[n - 1], q, data, tc, use_tc, step_scale)
                elif method == ONLINE_FAST and n > 0:
                    if use_tc:
                        _fetch_tc(tc_flat, moves_buf[a])
                    then = prev_q - rewards[n - 1]  # its value when it was chosen
                    _learn_from(looked[n - 1], then, q, data, tc, use_tc, step_scale)
                row, kept = moves_buf[a], looked[n]
                for j in range(n_lookups):
                    kept[j] = row[j]
                rewards[n] = r
                states_lo[n] = lo
                states_hi[n] = hi
                prev_q = q
                score += r
                state, bits = splitmix64(state)
                lo = spawn_wide(alo, ahi, bits, p4)
                hi = ahi
                n += 1
            if not ended:
                record = _grow_record(record)
                looked, rewards, states_lo, states_hi, values = borrow_all(record)
        if prev_q != prev_q or legal_mask(lo, hi) != 0:
            # a NaN value, or no move chosen where one is legal (every value NaN or -inf):
            # the weights are no longer finite numbers (alpha too large)
            raise FloatingPointError("n-tuple weights diverged: lower alpha")
        if n > 0:
            if method == ONLINE:
                _learn(looked[n - 1], 0.0, data, tc, use_tc, step_scale)
            elif method == ONLINE_FAST:
                last = prev_q - rewards[n - 1]  # its value when it was chosen
                _learn_from(looked[n - 1], last, 0.0, data, tc, use_tc, step_scale)
            else:
                for j in range(1, min(AHEAD + 1, n)):
                    _fetch(weights, looked[n - 1 - j])
                    if use_tc:
                        _fetch_tc(tc_flat, looked[n - 1 - j])
                value = sum_at(weights, looked[n - 1])  # of afterstate t, before it learns
                for t in range(n - 1, -1, -1):
                    if t >= AHEAD:  # afterstate t - AHEAD loads while t learns
                        _fetch(weights, looked[t - AHEAD])
                        if use_tc:
                            _fetch_tc(tc_flat, looked[t - AHEAD])
                    if t == n - 1:
                        target = 0.0
                    elif method == BACKWARD_GREEDY:
                        _, _, _, _, target = greedy_move_into(
                            states_lo[t + 1], states_hi[t + 1], data, dg, moves_buf
                        )
                    elif lam == 0.0:
                        target = rewards[t + 1] + values[t + 1]
                    else:
                        target = _lambda_return(rewards, values, t, n, lam, horizon)
                    before = looked[max(t - 1, 0)]
                    values[t], value = _learn_back(
                        looked[t], before, value, target, data, tc, use_tc, step_scale
                    )
        if restart_p > 0.0 and n >= 8:
            if restart_masks.shape[0] > 0:
                _keep_thresholds(states_lo, states_hi, n, restart_masks, pool, pool_state)
            elif fresh:
                state, bits = splitmix64(state)
                late = n // 2 + np.int64(
                    ((bits >> np.uint64(32)) * np.uint64(n - n // 2)) >> np.uint64(32)
                )
                if states_hi[late] == 0:
                    _pool_add(pool, pool_state, 0, states_lo[late])
        scores[k] = score
        max_exponents[k] = max_exponent(lo, hi)
        moves[k] = n
        restarted[k] = not fresh
    keep(record)


@njit(inline="always")
def _pick_level(pool_state: np.ndarray, bits: np.uint64) -> np.int64:
    """A pool that is not empty, drawn uniformly by ``bits``; -1 when all are empty."""
    filled = 0
    for level in range(pool_state.shape[0]):
        if pool_state[level, 0] > 0:
            filled += 1
    if filled == 0:
        return np.int64(-1)
    if filled == 1 and pool_state.shape[0] == 1:
        return np.int64(0)
    k = np.int64(((bits >> np.uint64(32)) * np.uint64(filled)) >> np.uint64(32))
    for level in range(pool_state.shape[0]):
        if pool_state[level, 0] > 0:
            if k == 0:
                return np.int64(level)
            k -= 1
    return np.int64(-1)  # pragma: no cover - k < filled


@njit(inline="always")
def _pool_add(pool: np.ndarray, pool_state: np.ndarray, level: int, board: np.uint64) -> None:
    """Put ``board`` into the ring buffer of pool ``level``."""
    pool[level, pool_state[level, 1]] = board
    pool_state[level, 1] = (pool_state[level, 1] + 1) % pool.shape[1]
    pool_state[level, 0] = min(pool_state[level, 0] + 1, pool.shape[1])


@njit
def _keep_thresholds(
    states_lo: np.ndarray,
    states_hi: np.ndarray,
    n: np.int64,
    masks: np.ndarray,
    pool: np.ndarray,
    pool_state: np.ndarray,
) -> None:
    """For each threshold the episode reached from below, pool the first board reaching it."""
    for level in range(masks.shape[0]):
        if states_hi[0] != 0 or tile_presence(states_lo[0]) >= masks[level]:
            continue  # started there already
        for t in range(1, n):
            if states_hi[t] != 0:
                break
            if tile_presence(states_lo[t]) >= masks[level]:
                _pool_add(pool, pool_state, level, states_lo[t])
                break


@njit
def _lambda_return(
    rewards: np.ndarray,
    values: np.ndarray,
    t: np.int64,
    n: np.int64,
    lam: np.float64,
    horizon: np.int64,
) -> float:
    """Truncated lambda return of afterstate ``t`` (values after ``t`` are already updated)."""
    total = 0.0
    ret = 0.0  # rewards r_{t+1} .. r_{t+m}
    weight = 1.0  # lam ** (m - 1)
    for m in range(1, horizon + 1):
        if t + m > n - 1:  # the episode ended: every longer return equals this one
            return total + weight * ret
        ret += rewards[t + m]
        g = ret + values[t + m]
        if m == horizon:
            total += weight * g
        else:
            total += (1.0 - lam) * weight * g
            weight *= lam
    return total


@njit
def play_games(
    data: Any, seed: np.uint64, first: np.int64, n_games: np.int64, p4: np.float64, dg: np.int64
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play games ``first .. first + n_games - 1`` greedily by ``r + V``, learning nothing
    (``dg > 0``: ``V`` reads the afterstates downgraded, as in
    :func:`~boardai.g2048.ntuple_play.greedy_move`).

    Game ``g`` uses spawn stream ``g`` of ``seed``; returns per game the score, the largest
    exponent and the number of moves.
    """
    scores = np.zeros(n_games, np.int64)
    maxes = np.zeros(n_games, np.int64)
    moves = np.zeros(n_games, np.int64)
    data = borrow_data(data)
    scratch = np.empty((4, 8 * data[2].shape[0]), np.int64)
    moves_buf = borrow(scratch)  # no reference counting in the loop; ``scratch`` is kept
    for k in range(n_games):
        state = seed_stream(seed, np.uint64(first + k))
        lo, state = start_board(state, 2, p4)
        hi = np.uint64(0)
        while True:
            a, alo, ahi, r, _ = greedy_move_into(lo, hi, data, dg, moves_buf)
            if a < 0:
                break
            scores[k] += r
            moves[k] += 1
            state, bits = splitmix64(state)
            lo = spawn_wide(alo, ahi, bits, p4)
            hi = ahi
        maxes[k] = max_exponent(lo, hi)
    keep(scratch)
    return scores, maxes, moves
