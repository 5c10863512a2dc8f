"""Tile tracking for animations agrees with the engine's slides."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from boardai.g2048 import Board
from boardai.ui.tiles import TileTracker, slide_tracks

boards = st.lists(st.integers(0, 12), min_size=16, max_size=16)


@settings(max_examples=200, deadline=None)
@given(boards, st.integers(0, 3))
def test_tracks_slide_like_the_engine(exponents, action):
    after, moves = slide_tracks(exponents, action)
    assert after == Board.from_exponents(exponents).slide(action)[0].exponents()
    assert sorted(src for src, _ in moves) == [i for i in range(16) if exponents[i]]
    for src, dst in moves:
        assert exponents[src] in (after[dst], after[dst] - 1)


@settings(max_examples=100, deadline=None)
@given(boards, st.integers(0, 3))
def test_tracker_keeps_ids_of_moved_tiles(exponents, action):
    t = TileTracker(exponents)
    before = {tile["cell"]: tile["id"] for tile in t.reset(exponents)["tiles"]}
    anim = t.slide(action)
    after = Board.from_exponents(exponents).slide(action)[0]
    assert {tile["cell"]: tile["value"] for tile in anim["tiles"]} == {
        i: 1 << e for i, e in enumerate(after.exponents()) if e
    }
    ids = {tile["id"] for tile in anim["tiles"]}
    for tile in anim["tiles"]:
        if tile["kind"] in ("still", "moved"):
            assert tile["id"] in before.values()
    assert all(r["id"] in before.values() and r["id"] not in ids for r in anim["removed"])
    assert len(anim["removed"]) == 2 * sum(tile["kind"] == "merged" for tile in anim["tiles"])
