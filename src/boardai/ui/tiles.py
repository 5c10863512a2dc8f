"""Where each 2048 tile goes in a move, so a screen can animate it.

The engine only knows boards; a screen that slides tiles smoothly needs to know which tile
went where and which pairs merged. :class:`TileTracker` keeps an id per tile across moves.

>>> t = TileTracker([1, 1, 0, 0] + [0] * 12)
>>> anim = t.slide(3)  # left
>>> [(tile["value"], tile["cell"], tile["kind"]) for tile in anim["tiles"]]
[(4, 0, 'merged')]
>>> sorted(r["cell"] for r in anim["removed"])
[0, 0]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3


def line_cells(action: int, line: int) -> list[int]:
    """The cells of ``line`` (a row or column), starting from the side tiles move towards."""
    if action == LEFT:
        return [4 * line + k for k in range(4)]
    if action == RIGHT:
        return [4 * line + 3 - k for k in range(4)]
    if action == UP:
        return [4 * k + line for k in range(4)]
    return [4 * (3 - k) + line for k in range(4)]


def slide_tracks(exponents: Sequence[int], action: int) -> tuple[list[int], list[tuple[int, int]]]:
    """Slide 16 exponents by the rules and say where each tile went.

    Returns:
        (exponents after the slide, [(from cell, to cell) for every tile]); two tiles with
        the same "to" cell merged there.
    """
    out = [0] * 16
    moves: list[tuple[int, int]] = []
    for line in range(4):
        cells = line_cells(action, line)
        k = 0
        pending = -1  # cell of a tile that may still merge
        for cell in cells:
            e = exponents[cell]
            if e == 0:
                continue
            if pending >= 0 and exponents[pending] == e:
                out[cells[k]] = e + 1
                moves += [(pending, cells[k]), (cell, cells[k])]
                k += 1
                pending = -1
            else:
                if pending >= 0:
                    out[cells[k]] = exponents[pending]
                    moves.append((pending, cells[k]))
                    k += 1
                pending = cell
        if pending >= 0:
            out[cells[k]] = exponents[pending]
            moves.append((pending, cells[k]))
    return out, moves


class TileTracker:
    """Ids for the tiles of a 2048 board, carried through moves and spawns.

    Every method returns an animation: ``{"tiles": [...], "removed": [...], "reset": bool}``.
    Each tile is ``{"id", "value", "cell", "kind"}`` with kind ``still``, ``moved``,
    ``merged`` (made by a merge this move) or ``new`` (spawned); ``removed`` lists the tiles
    that slid into a merge (``{"id", "cell"}``: slide there, then vanish). ``reset`` says the
    screen should redraw without animation (a new game, an undo, a jump in a replay).
    """

    def __init__(self, exponents: Sequence[int]) -> None:
        self._next = 0
        self._ids: list[int | None] = [None] * 16
        self.exponents = list(exponents)
        self.reset(exponents)

    def _new_id(self) -> int:
        self._next += 1
        return self._next

    def reset(self, exponents: Sequence[int]) -> dict[str, Any]:
        """Forget the old tiles; give every tile of ``exponents`` a fresh id."""
        self.exponents = list(exponents)
        self._ids = [self._new_id() if e else None for e in self.exponents]
        tiles = [self._tile(c, "new") for c in range(16) if self.exponents[c]]
        return {"tiles": tiles, "removed": [], "reset": True}

    def _tile(self, cell: int, kind: str) -> dict[str, Any]:
        return {
            "id": self._ids[cell],
            "value": 1 << self.exponents[cell],
            "cell": cell,
            "kind": kind,
        }

    def slide(self, action: int, spawn: tuple[int, int] | None = None) -> dict[str, Any]:
        """Move the tiles by ``action``, then put the spawned (cell, tile value) if any."""
        after, moves = slide_tracks(self.exponents, action)
        ids: list[int | None] = [None] * 16
        kinds = [""] * 16
        removed = []
        arrivals: dict[int, list[int]] = {}
        for src, dst in moves:
            arrivals.setdefault(dst, []).append(src)
        for dst, sources in arrivals.items():
            if len(sources) == 2:
                removed += [{"id": self._ids[s], "cell": dst} for s in sources]
                ids[dst] = self._new_id()
                kinds[dst] = "merged"
            else:
                ids[dst] = self._ids[sources[0]]
                kinds[dst] = "still" if sources[0] == dst else "moved"
        if spawn is not None and spawn[0] >= 0:
            cell, value = spawn
            after[cell] = value.bit_length() - 1
            ids[cell] = self._new_id()
            kinds[cell] = "new"
        self._ids, self.exponents = ids, after
        tiles = [self._tile(c, kinds[c]) for c in range(16) if after[c]]
        return {"tiles": tiles, "removed": removed, "reset": False}
