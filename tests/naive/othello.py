"""Slow, obviously right Othello rules over an 8x8 grid, and plain minimax references."""

from __future__ import annotations

DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
PASS = 64


def grid_of(p: int, o: int) -> list[list[int]]:
    """8x8 grid: 1 the mover's disc, -1 the opponent's, 0 empty."""
    return [
        [1 if p >> (8 * r + c) & 1 else -1 if o >> (8 * r + c) & 1 else 0 for c in range(8)]
        for r in range(8)
    ]


def flips(p: int, o: int, sq: int) -> int:
    """Bitboard of the discs the mover flips by playing ``sq`` (0 if it flips none)."""
    g = grid_of(p, o)
    r0, c0 = divmod(sq, 8)
    if g[r0][c0] != 0:
        return 0
    out = 0
    for dr, dc in DIRECTIONS:
        r, c = r0 + dr, c0 + dc
        run = 0
        while 0 <= r < 8 and 0 <= c < 8 and g[r][c] == -1:
            run |= 1 << (8 * r + c)
            r, c = r + dr, c + dc
        if run and 0 <= r < 8 and 0 <= c < 8 and g[r][c] == 1:
            out |= run
    return out


def legal_squares(p: int, o: int) -> list[int]:
    """Squares where the mover flips at least one disc."""
    return [sq for sq in range(64) if flips(p, o, sq)]


def legal_actions(p: int, o: int) -> list[int]:
    """Squares, or [PASS] when only the opponent can move, or [] at the end."""
    moves = legal_squares(p, o)
    if moves:
        return moves
    return [PASS] if legal_squares(o, p) else []


def play(p: int, o: int, a: int) -> tuple[int, int]:
    """The next position, from the next mover's view."""
    if a == PASS:
        return o, p
    f = flips(p, o, a)
    return o & ~f, p | f | (1 << a)


def final_score(p: int, o: int) -> int:
    """Disc difference for the mover, empties to the winner."""
    a, b = bin(p).count("1"), bin(o).count("1")
    e = 64 - a - b
    return a - b + (e if a > b else -e if a < b else 0)


def solve(p: int, o: int) -> int:
    """Exact final score for the mover with perfect play, by exhaustive minimax."""
    actions = legal_actions(p, o)
    if not actions:
        return final_score(p, o)
    return max(-solve(*play(p, o, a)) for a in actions)


def minimax(p: int, o: int, depth: int, evaluate) -> float:  # type: ignore[no-untyped-def]
    """Plain negamax value to ``depth`` plies; ``evaluate(p, o)`` at the leaves, and a finished
    game scores ``terminal_value(p, o)``."""
    actions = legal_actions(p, o)
    if not actions:
        return terminal_value(p, o)
    if depth == 0:
        return evaluate(p, o)
    return max(-minimax(*play(p, o, a), depth - 1, evaluate) for a in actions)


#: What a won game is worth in search units (beyond any evaluation), plus the disc difference.
WIN_VALUE = 1e6


def terminal_value(p: int, o: int) -> float:
    """Search value of a finished game: +-WIN_VALUE plus the final disc difference."""
    s = final_score(p, o)
    return 0.0 if s == 0 else (WIN_VALUE if s > 0 else -WIN_VALUE) + s


def solve_window(p: int, o: int, alpha: int = -64, beta: int = 64) -> int:
    """:func:`solve` with plain fail-hard alpha-beta (the same value, far fewer positions):
    the exact score if it lies in ``(alpha, beta)``, else ``alpha`` or ``beta``."""
    actions = legal_actions(p, o)
    if not actions:
        return max(alpha, min(beta, final_score(p, o)))
    for a in actions:
        alpha = max(alpha, -solve_window(*play(p, o, a), -beta, -alpha))
        if alpha >= beta:
            return beta
    return alpha
