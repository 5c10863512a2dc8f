"""N-tuple patterns as data: named sets, parsing, and the 8 symmetries of the 4x4 board.

A pattern is a tuple of cell indices ``4*row + column`` (0 top left, 15 bottom right), written
as hex digits: ``"012345"`` is the first row and the first two cells of the second row.

>>> parse_patterns("4x6")  # the published 4x6, each pattern's cells in a cache-friendly order
((5, 0, 1, 2, 3, 4), (6, 4, 5, 7, 8, 9), (6, 0, 1, 2, 4, 5), (6, 4, 5, 8, 9, 10))
>>> parse_patterns("0123,4567")
((0, 1, 2, 3), (4, 5, 6, 7))
>>> isomorphisms()[4][:4]  # the mirror image swaps columns 0 and 3
(3, 2, 1, 0)
"""

from __future__ import annotations

from pathlib import Path

from boardai.errors import UsageError

Pattern = tuple[int, ...]

#: Built-in pattern sets by name (hex strings, one per pattern).
#:
#: The order of a pattern's cells changes nothing that it learns or plays, only where its
#: weights lie: the first cell is the lowest digit of the table index (:mod:`.ntuple`), so the
#: 16 weights of one 64-byte cache line differ in that cell only. The 6-tuples of the sets
#: below list first the cell that most often is the one cell in which two lookups of a move
#: (or of the moves around it) differ, found by a cache simulation of games of a trained 4x6
#: network (docs/journal/benchmarks-journal.md, the section on "a layout of the weights that
#: misses less"):
#: about a fifth fewer lines a move miss the L2 cache than in the published order (the
#: papers' and TDL2048+'s, ``012345 456789 012456 45689a``), for the same network.
PATTERN_SETS: dict[str, tuple[str, ...]] = {
    # The four 6-tuples of the TD write-up boardai's n-tuple learning grew from, laid along
    # the columns (3x2 rectangles over columns 0-1 and 1-2, an L down each of columns 2 and
    # 3), cells in the order its lineIndex reads them.
    "4x6-columns": ("014589", "12569a", "26a9ed", "37bafe"),
    # The 4x6 network of Yeh et al. / Jaśkowski (2 rectangles, 2 "L+row" shapes): 012345,
    # 456789, 012456, 45689a.
    "4x6": ("501234", "645789", "601245", "64589a"),
    # 4x6 plus one more rectangle, over rows 2-3 (89abcd): the network of the best players in
    # docs/journal/benchmarks-journal.md (grown from 4x6 there, trained as one set from the
    # start later).
    "5x6": ("501234", "645789", "601245", "64589a", "a89bcd"),
    # 4x6 plus four more 6-tuples (wider coverage of the middle and the diagonal): 01259a,
    # 0159de, 159dae, 01589c.
    "8x6": ("501234", "645789", "601245", "64589a", "a01259", "5019de", "519dae", "50189c"),
    # Szubert & Jaśkowski 2014: two straight 4-tuples and two 2x3 rectangles.
    "2x4+2x6": ("0123", "4567", "601245", "64589a"),
}

#: Old names of sets, still read (model files trained with them keep the name) and never
#: listed.
PATTERN_ALIASES = {"seed004": "4x6-columns"}

#: Longest pattern allowed: 16^8 float32 entries are 16 GiB per pattern already.
MAX_PATTERN_LENGTH = 8


def _rotate(cell: int) -> int:
    """Cell index after a quarter turn clockwise: (r, c) -> (c, 3 - r)."""
    r, c = divmod(cell, 4)
    return 4 * c + (3 - r)


def _mirror(cell: int) -> int:
    """Cell index after a left-right mirror: (r, c) -> (r, 3 - c)."""
    r, c = divmod(cell, 4)
    return 4 * r + (3 - c)


def isomorphisms() -> tuple[tuple[int, ...], ...]:
    """The 8 symmetries of the square as cell maps: 4 rotations, then the 4 mirrored ones.

    ``isomorphisms()[i][c]`` is where cell ``c`` goes under symmetry ``i``; the first is the
    identity.
    """
    out = []
    for mirrored in (False, True):
        for turns in range(4):
            cells = []
            for c in range(16):
                x = _mirror(c) if mirrored else c
                for _ in range(turns):
                    x = _rotate(x)
                cells.append(x)
            out.append(tuple(cells))
    return tuple(out)


def _parse_one(text: str, where: str) -> Pattern:
    text = text.strip().lower()
    try:
        cells = tuple(int(ch, 16) for ch in text)
    except ValueError:
        raise UsageError(f"{where}: pattern {text!r} is not hex cell digits (0-f)") from None
    if not 1 <= len(cells) <= MAX_PATTERN_LENGTH:
        raise UsageError(f"{where}: pattern {text!r} needs 1 to {MAX_PATTERN_LENGTH} cells")
    if len(set(cells)) != len(cells):
        raise UsageError(f"{where}: pattern {text!r} repeats a cell")
    return cells


def parse_patterns(spec: str, flag: str = "--patterns") -> tuple[Pattern, ...]:
    """Patterns from a set name, a comma/space separated hex list, or ``@file`` of such lists
    (errors name ``flag``, or the file).

    Raises:
        UsageError: unknown name, bad digits, repeated cells, or an unreadable file.
    """
    spec = spec.strip()
    spec = PATTERN_ALIASES.get(spec, spec)
    if spec in PATTERN_SETS:
        return tuple(_parse_one(p, spec) for p in PATTERN_SETS[spec])
    where = flag
    if spec.startswith("@"):
        path = Path(spec[1:])
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            raise UsageError(f"{path}: cannot read pattern file ({e.strerror})") from None
        lines = [ln.split("#", 1)[0] for ln in text.splitlines()]
        spec, where = " ".join(lines), str(path)
    items = spec.replace(",", " ").split()
    if not items:
        names = ", ".join(PATTERN_SETS)
        raise UsageError(
            f"{where}: no patterns given (names: {names}, or hex lists like 0123,4567)"
        )
    if len(items) == 1 and not all(ch in "0123456789abcdefABCDEF" for ch in items[0]):
        names = ", ".join(PATTERN_SETS)
        raise UsageError(f"{where}: unknown pattern set {items[0]!r} (names: {names})")
    return tuple(_parse_one(p, where) for p in items)


def pattern_names(patterns: tuple[Pattern, ...]) -> list[str]:
    """Patterns as hex strings (the form :func:`parse_patterns` reads back)."""
    return ["".join(f"{c:x}" for c in p) for p in patterns]
