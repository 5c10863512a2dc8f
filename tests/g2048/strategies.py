"""Hypothesis strategies for 2048 boards: random, adversarial (equal runs, full rows) and big."""

from __future__ import annotations

from hypothesis import strategies as st

from boardai.g2048 import Board

#: Exponents weighted towards runs and collisions: small tiles, 32768 (15) and above.
exponent = st.one_of(
    st.integers(0, 3),
    st.integers(0, 17),
    st.sampled_from([0, 11, 14, 15, 15, 16, 17]),
)


@st.composite
def boards(draw: st.DrawFn, max_exponent: int = 17) -> Board:
    """Any board with tiles up to 2^max_exponent; often rows of equal tiles."""
    style = draw(st.sampled_from(["cells", "rows", "runs"]))
    if style == "cells":
        cells = [min(draw(exponent), max_exponent) for _ in range(16)]
    elif style == "rows":
        cells = []
        for _ in range(4):
            e = min(draw(exponent), max_exponent)
            cells += (
                [e, e, e, e]
                if draw(st.booleans())
                else [min(draw(exponent), max_exponent) for _ in range(4)]
            )
    else:  # pairs like [4, 4, 8, 8]
        cells = []
        for _ in range(8):
            e = min(draw(exponent), max_exponent)
            cells += [e, e]
        if draw(st.booleans()):  # columns instead of rows
            cells = [cells[4 * c + r] for r in range(4) for c in range(4)]
    return Board.from_exponents(cells)


def small_boards() -> st.SearchStrategy[Board]:
    """Boards with no tile above 32768 (the 64-bit fast path)."""
    return boards(max_exponent=15)
