"""Numba bitboard kernels for 2048.

A board is packed in one ``uint64``: cell (row r, column c) holds the tile's exponent in bits
``4*(4r+c) .. 4*(4r+c)+3`` (0 empty, 1 = tile 2, ..., 15 = tile 32768). Row r is the 16 bits
at ``16*r``, column 0 in its low nibble. Moves use 65536-entry row tables: "left" moves tiles
towards column 0 (the low nibble), "right" towards column 3; up and down transpose the board,
slide its rows, and transpose back.

Tiles above 32768 (65536 and 131072 are reachable) do not fit a nibble. They are kept exact
with a second word, ``hi``: a 16-bit mask whose bit i adds 16 to cell i's exponent, so the
exponent of cell i is ``nibble_i + 16 * hi_bit_i``. Boards with ``hi == 0`` (all but the
strongest games) take the fast path: the row tables. A slide that merges two 32768 tiles is
flagged in the reward table (``OVERFLOW``), and then, or whenever ``hi != 0``, the exact kernels
take the wide path (unpack to exponents, slide, repack). Hot loops that stay in one ``uint64``
call :func:`slide` and must check ``reward >= OVERFLOW`` themselves.

Randomness in compiled loops comes from splitmix64 (:mod:`boardai.rng`): one ``uint64`` state
per stream, so a seed gives the same games whatever runs them.

Kernels that take single boards carry explicit signatures: called from Python, any int
converts to ``uint64`` (without one, numba would type a small Python int as int64 and do signed
arithmetic), and they compile once at import, or load from numba's cache.
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from boardai._jit import njit
from boardai.rng import agent_stream, below, seed_stream, splitmix64

__all__ = ["seed_stream", "splitmix64"]  # re-exported: compiled loops here draw from them

UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3
ACTION_NAMES = ("up", "right", "down", "left")

#: Largest exponent a board may be built with. Real games stop at 17 (131072, the largest
#: tile 2048 can make); boards built by hand may go up to 2^30, whose merge (2^31, exponent 31)
#: still fits a nibble plus the hi bit, so no slide can ever overflow.
MAX_EXPONENT = 30
#: Added to a slide's reward when it merged two 32768 tiles: the fast path capped the new tile,
#: so the caller must redo the move on the wide path (:func:`move`).
OVERFLOW = 1 << 30

_ROW = np.uint64(0xFFFF)
_NIB = np.uint64(0xF)
_LOW_BITS = np.uint64(0x1111_1111_1111_1111)  # bit 0 of every nibble
_LOW32 = np.uint64(0xFFFF_FFFF)


@njit
def _build_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Row tables: the row after sliding left and right, the reward, and the sum of the new
    tiles' exponents (seed 003's log2 reward); the last two are the same both ways."""
    left = np.zeros(65536, np.uint16)
    right = np.zeros(65536, np.uint16)
    reward = np.zeros(65536, np.uint32)
    log_reward = np.zeros(65536, np.int32)
    tiles = np.zeros(4, np.int64)
    out = np.zeros(4, np.int64)
    for x in range(65536):
        n = 0
        for i in range(4):
            e = (x >> (4 * i)) & 0xF
            if e:
                tiles[n] = e
                n += 1
        out[:] = 0
        k = 0
        i = 0
        r = 0
        logr = 0
        while i < n:
            if i + 1 < n and tiles[i] == tiles[i + 1]:
                e = tiles[i] + 1
                r += 1 << e
                logr += e
                if e > 15:  # 32768 + 32768: cap here, flag for the wide path
                    e = 15
                    r |= OVERFLOW
                out[k] = e
                i += 2
            else:
                out[k] = tiles[i]
                i += 1
            k += 1
        row = 0
        rev = 0
        for j in range(4):
            row |= out[j] << (4 * j)
            rev |= out[j] << (4 * (3 - j))
        left[x] = row
        reward[x] = r
        log_reward[x] = logr
        # Sliding right is sliding the reversed row left, reversed back.
        xr = 0
        for j in range(4):
            xr |= ((x >> (4 * j)) & 0xF) << (4 * (3 - j))
        right[xr] = rev
    return left, right, reward, log_reward


LEFT_TABLE, RIGHT_TABLE, REWARD_TABLE, LOG_REWARD_TABLE = _build_tables()


@njit("u8(u8)")
def transpose(b: np.uint64) -> np.uint64:
    """Swap rows and columns: cell (r, c) goes to (c, r)."""
    a1 = b & np.uint64(0xF0F0_0F0F_F0F0_0F0F)
    a2 = b & np.uint64(0x0000_F0F0_0000_F0F0)
    a3 = b & np.uint64(0x0F0F_0000_0F0F_0000)
    a = a1 | (a2 << np.uint64(12)) | (a3 >> np.uint64(12))
    b1 = a & np.uint64(0xFF00_FF00_00FF_00FF)
    b2 = a & np.uint64(0x00FF_00FF_0000_0000)
    b3 = a & np.uint64(0x0000_0000_FF00_FF00)
    return b1 | (b2 >> np.uint64(24)) | (b3 << np.uint64(24))


@njit
def _slide_rows(b: np.uint64, table: np.ndarray) -> tuple[np.uint64, int]:
    r0 = b & _ROW
    r1 = (b >> np.uint64(16)) & _ROW
    r2 = (b >> np.uint64(32)) & _ROW
    r3 = b >> np.uint64(48)
    out = (
        np.uint64(table[r0])
        | (np.uint64(table[r1]) << np.uint64(16))
        | (np.uint64(table[r2]) << np.uint64(32))
        | (np.uint64(table[r3]) << np.uint64(48))
    )
    reward = (
        int(REWARD_TABLE[r0])
        + int(REWARD_TABLE[r1])
        + int(REWARD_TABLE[r2])
        + int(REWARD_TABLE[r3])
    )
    return out, reward


@njit("Tuple((u8, i8))(u8, i8)")
def slide(b: np.uint64, action: int) -> tuple[np.uint64, int]:
    """Fast path: the afterstate and reward of ``action`` on a board with no tile > 32768.

    The move is illegal when the afterstate equals ``b``. A reward of ``OVERFLOW`` or more
    means two 32768 tiles merged: the afterstate holds 32768 there, and :func:`move` gives the
    exact result.
    """
    if action == LEFT:
        return _slide_rows(b, LEFT_TABLE)
    if action == RIGHT:
        return _slide_rows(b, RIGHT_TABLE)
    t = transpose(b)
    if action == UP:
        out, reward = _slide_rows(t, LEFT_TABLE)
    else:
        out, reward = _slide_rows(t, RIGHT_TABLE)
    return transpose(out), reward


@njit("u8(u8)")
def nonzero_nibbles(b: np.uint64) -> np.uint64:
    """Bit 4i set where nibble i of ``b`` is not zero."""
    x = b | (b >> np.uint64(1))
    return (x | (x >> np.uint64(2))) & _LOW_BITS


@njit("i8(u8)")
def count_empty(b: np.uint64) -> int:
    """Number of zero nibbles (empty cells when ``hi == 0``)."""
    if b == 0:
        return 16
    x = ~nonzero_nibbles(b) & _LOW_BITS  # bit 4i set where nibble i is zero
    return int((x * _LOW_BITS) >> np.uint64(60))


@njit("i8(u8)")
def max_exponent_fast(b: np.uint64) -> int:
    """Largest nibble of the board."""
    m = 0
    for i in range(16):
        e = int((b >> np.uint64(4 * i)) & _NIB)
        if e > m:
            m = e
    return m


@njit("u8(u8, u8, f8)")
def spawn(b: np.uint64, bits: np.uint64, p4: float) -> np.uint64:
    """Put one tile on an empty cell of ``b`` (``hi == 0``) using 64 random ``bits``.

    The high 32 bits choose the cell uniformly among the empties (the k-th empty cell in
    row-major order, k = high * n >> 32 of n empties); the low 32 bits give a 4 with probability
    ``p4``, else a 2. A full board is returned unchanged. No loop over the 16 cells: the k
    lowest empty-cell flags are dropped, and the lowest one left is the cell.
    """
    empty = ~nonzero_nibbles(b) & _LOW_BITS
    if empty == 0:
        return b
    # popcount of the nibble flags; 16 empties wrap to 0, and only the empty board has 16
    n = np.uint64(16) if b == 0 else (empty * _LOW_BITS) >> np.uint64(60)
    k = ((bits >> np.uint64(32)) * n) >> np.uint64(32)
    exponent = np.uint64(2) if np.float64(bits & _LOW32) < p4 * 4294967296.0 else np.uint64(1)
    for _ in range(k):
        empty &= empty - np.uint64(1)
    return b | (exponent << np.uint64(trailing_zeros(empty)))  # type: ignore[call-arg]


@njit("b1(u8)")
def can_move_fast(b: np.uint64) -> bool:
    """Whether any move is legal on a board with ``hi == 0``."""
    if b == 0:  # nothing to move
        return False
    if count_empty(b) > 0:  # some tile then has an empty neighbour to move into
        return True
    # Full board: a move is legal only if two neighbours are equal.
    t = transpose(b)
    for shift in range(0, 64, 16):
        s = np.uint64(shift)
        r = (b >> s) & _ROW
        c = (t >> s) & _ROW
        if LEFT_TABLE[r] != r or LEFT_TABLE[c] != c:
            return True
    return False


# ---------------------------------------------------------------------------------------------
# Exact kernels over (lo, hi): correct for every tile up to 131072.
# ---------------------------------------------------------------------------------------------


@njit("i8[:](u8, u8)")
def unpack(lo: np.uint64, hi: np.uint64) -> np.ndarray:
    """The 16 exponents of a board, cell 4r+c at index 4r+c."""
    cells = np.zeros(16, np.int64)
    for i in range(16):
        cells[i] = np.int64((lo >> np.uint64(4 * i)) & _NIB) + 16 * np.int64(
            (hi >> np.uint64(i)) & np.uint64(1)
        )
    return cells


@njit
def pack(cells: np.ndarray) -> tuple[np.uint64, np.uint64]:
    """Inverse of :func:`unpack`."""
    lo = np.uint64(0)
    hi = np.uint64(0)
    for i in range(16):
        e = np.uint64(cells[i])
        lo |= (e & _NIB) << np.uint64(4 * i)
        hi |= (e >> np.uint64(4)) << np.uint64(i)
    return lo, hi


@njit
def _line_cells(action: int, line: int, k: int) -> int:
    """Cell index of the k-th cell of ``line``, counted from the side tiles move towards."""
    if action == LEFT:
        return 4 * line + k
    if action == RIGHT:
        return 4 * line + 3 - k
    if action == UP:
        return 4 * k + line
    return 4 * (3 - k) + line


@njit
def _move_wide(lo: np.uint64, hi: np.uint64, action: int) -> tuple[np.uint64, np.uint64, int]:
    cells = unpack(lo, hi)
    out = np.zeros(16, np.int64)
    reward = 0
    for line in range(4):
        k = 0
        pending = 0
        for j in range(4):
            e = cells[_line_cells(action, line, j)]
            if e == 0:
                continue
            if pending == e:
                out[_line_cells(action, line, k)] = e + 1
                reward += 1 << (e + 1)
                k += 1
                pending = 0
            else:
                if pending:
                    out[_line_cells(action, line, k)] = pending
                    k += 1
                pending = e
        if pending:
            out[_line_cells(action, line, k)] = pending
    lo2, hi2 = pack(out)
    return lo2, hi2, reward


@njit("Tuple((u8, u8, i8))(u8, u8, i8)")
def move(lo: np.uint64, hi: np.uint64, action: int) -> tuple[np.uint64, np.uint64, int]:
    """Exact afterstate ``(lo, hi)`` and reward of ``action``; illegal moves change nothing."""
    if hi == 0:
        out, reward = slide(lo, action)
        if reward < OVERFLOW:
            return out, np.uint64(0), reward
    return _move_wide(lo, hi, action)


@njit("i8(u8, u8)")
def empty_mask(lo: np.uint64, hi: np.uint64) -> int:
    """Bit i set where cell i is empty."""
    mask = 0
    for i in range(16):
        if (lo >> np.uint64(4 * i)) & _NIB == 0 and (hi >> np.uint64(i)) & np.uint64(1) == 0:
            mask |= 1 << i
    return mask


@njit("i8(u8, u8)")
def legal_mask(lo: np.uint64, hi: np.uint64) -> int:
    """Bit a set where action a is legal."""
    mask = 0
    for a in range(4):
        lo2, hi2, _ = move(lo, hi, a)
        if lo2 != lo or hi2 != hi:
            mask |= 1 << a
    return mask


@njit("u8(u8, u8)")
def capped(lo: np.uint64, hi: np.uint64) -> np.uint64:
    """The one-word board of ``(lo, hi)`` with tiles above 32768 (``hi`` bits) capped at
    32768: what the search and the n-tuple features read."""
    for i in range(16):
        if (hi >> np.uint64(i)) & np.uint64(1):
            lo |= _NIB << np.uint64(4 * i)
    return lo


@njit("i8(u8, u8)")
def max_exponent(lo: np.uint64, hi: np.uint64) -> int:
    """Largest exponent on the board (0 for an empty board)."""
    if hi == 0:
        return max_exponent_fast(lo)
    return int(unpack(lo, hi).max())


@njit("u8(u8, u8, i8, i8)")
def spawn_cell(lo: np.uint64, hi: np.uint64, cell: int, exponent: int) -> np.uint64:
    """``lo`` with a tile of ``exponent`` (1 or 2) put on ``cell``, which must be empty."""
    return lo | (np.uint64(exponent) << np.uint64(4 * cell))


@njit("u8(u8, u8, u8, f8)")
def spawn_wide(lo: np.uint64, hi: np.uint64, bits: np.uint64, p4: float) -> np.uint64:
    """:func:`spawn` on an exact board ``(lo, hi)``: a cell holding 65536 or more (its ``hi``
    bit set, its nibble maybe 0) is not empty. Returns the new ``lo`` (a spawn never changes
    ``hi``)."""
    if hi == 0:
        return spawn(lo, bits, p4)
    empties = empty_mask(lo, hi)
    n = 0
    for i in range(16):
        n += (empties >> i) & 1
    if n == 0:
        return lo
    k = np.int64(((bits >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))
    exponent = 2 if np.float64(bits & _LOW32) < p4 * 4294967296.0 else 1
    for i in range(16):
        if (empties >> i) & 1:
            if k == 0:
                return spawn_cell(lo, hi, i, exponent)
            k -= 1
    return lo


# ---------------------------------------------------------------------------------------------
# Batch kernels: whole loops in compiled code.
# ---------------------------------------------------------------------------------------------


@njit
def slide_all(boards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Slide every board in all four directions: afterstates ``(n, 4)`` and rewards ``(n, 4)``."""
    n = boards.shape[0]
    after = np.empty((n, 4), np.uint64)
    rewards = np.empty((n, 4), np.int64)
    for i in range(n):
        b = boards[i]
        t = transpose(b)  # shared by up and down
        out, rewards[i, UP] = _slide_rows(t, LEFT_TABLE)
        after[i, UP] = transpose(out)
        after[i, RIGHT], rewards[i, RIGHT] = _slide_rows(b, RIGHT_TABLE)
        out, rewards[i, DOWN] = _slide_rows(t, RIGHT_TABLE)
        after[i, DOWN] = transpose(out)
        after[i, LEFT], rewards[i, LEFT] = _slide_rows(b, LEFT_TABLE)
    return after, rewards


@njit("UniTuple(u8, 2)(u8, i8, f8)")
def start_board(state: np.uint64, tiles: int, p4: float) -> tuple[np.uint64, np.uint64]:
    """A start board of ``tiles`` spawned tiles, and the advanced rng state."""
    b = np.uint64(0)
    for _ in range(tiles):
        state, bits = splitmix64(state)
        b = spawn(b, bits, p4)
    return b, state


@njit
def play_random_games(
    n_games: int,
    seed: np.uint64,
    p4: float,
    start_tiles: int,
    start_p4: float,
    first: int = 0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play games ``first .. first+n_games-1`` with uniformly random legal moves; per game:
    score, max exponent, moves.

    Game i spawns from stream i of ``seed`` and picks its moves from the player's stream
    (:func:`~boardai.rng.agent_stream`), the rule of :mod:`boardai.rng`: these are the games
    the arena's ``random`` player plays for the same seed. Random play ends near 256 or 512
    (never near 32768), so the fast path is exact here.
    """
    scores = np.zeros(n_games, np.int64)
    maxes = np.zeros(n_games, np.int64)
    moves = np.zeros(n_games, np.int64)
    after = np.zeros(4, np.uint64)
    gains = np.zeros(4, np.int64)
    for g in range(n_games):
        state = seed_stream(seed, np.uint64(first + g))
        picks = agent_stream(seed, np.uint64(first + g))
        b, state = start_board(state, start_tiles, start_p4)
        score = 0
        count = 0
        while True:
            n_legal = 0
            for a in range(4):
                out, reward = slide(b, a)
                if out != b:
                    after[n_legal] = out
                    gains[n_legal] = reward
                    n_legal += 1
            if n_legal == 0:
                break
            picks, bits = splitmix64(picks)
            pick = below(bits, n_legal)
            score += gains[pick]
            state, bits = splitmix64(state)
            b = spawn(after[pick], bits, p4)
            count += 1
        scores[g] = score
        maxes[g] = max_exponent_fast(b)
        moves[g] = count
    return scores, maxes, moves


@njit
def random_game_boards(n_games: int, seed: np.uint64, p4: float) -> np.ndarray:
    """Every position (before each move) of ``n_games`` random games: the benchmark's boards."""
    out = np.empty(1024, np.uint64)
    n = 0
    for g in range(n_games):
        state = seed_stream(seed, np.uint64(g))
        b, state = start_board(state, 2, p4)
        while can_move_fast(b):
            if n == out.shape[0]:
                grown = np.empty(2 * n, np.uint64)
                grown[:n] = out
                out = grown
            out[n] = b
            n += 1
            state, bits = splitmix64(state)
            a = np.int64(bits & np.uint64(3))
            after, _ = slide(b, a)
            if after != b:
                state, bits = splitmix64(state)
                b = spawn(after, bits, p4)
    return out[:n].copy()
