"""The terminal app through Textual's pilot: keys change the boards."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("textual")

from boardai.g2048 import Game
from boardai.records import read_records
from boardai.ui.tui import BoardApp

KEYS = {0: "up", 1: "right", 2: "down", 3: "left"}


def _run(coro_fn, **kwargs):
    async def main():
        app = BoardApp(**kwargs)
        async with app.run_test(size=(100, 40)) as pilot:
            await coro_fn(app, pilot)

    asyncio.run(main())


async def _until(pilot, condition, tries=1500):
    for _ in range(tries):
        if condition():
            return
        await pilot.pause(0.02)
    raise AssertionError("condition not met")


def test_keys_move_and_undo_in_2048(tmp_path):
    async def play(app, pilot):
        screen = app.screen
        session = screen.session
        start = session.game.board
        await pilot.press(KEYS[start.legal_actions()[0]])
        assert session.game.moves == 1 and session.game.board != start
        after = session.game.board
        await pilot.press("w", "a", "s", "d")
        assert session.game.moves >= 1
        while session.game.moves > 1:
            await pilot.press("u")
        assert session.game.board == after
        await pilot.press("u")
        assert session.game.board == start
        assert "score" in str(screen.query_one("#status").render())

    _run(play, player="random", seed=4, record_path=str(tmp_path / "g.jsonl"))


def test_hint_and_autoplay(tmp_path):
    path = tmp_path / "g.jsonl"

    async def play(app, pilot):
        screen = app.screen
        await pilot.press("h")
        await _until(pilot, lambda: "suggests" in screen.note)
        await pilot.press("plus", "plus", "plus", "space")
        await _until(pilot, lambda: screen.session.game.moves >= 3)
        await pilot.press("space")
        assert screen.timer is None
        await pilot.press("n")  # the played game is kept in the record file
        assert screen.session.game.moves == 0

    _run(play, player="random", seed=4, record_path=str(path))
    (record,) = read_records(path)
    assert record["source"] == "tui" and record["n_moves"] >= 3


def test_othello_move_and_reply():
    async def play(app, pilot):
        await pilot.press("2")
        screen = app.screen
        await _until(pilot, lambda: screen.session is not None)
        await pilot.press("enter")  # the cursor starts on d3, a legal first move
        await _until(pilot, lambda: len(screen.session.game.moves) >= 2)
        assert screen.session.game.move_texts()[0] == "d3"
        assert screen.session.game.board.to_move == 0
        await pilot.press("u")
        await _until(pilot, lambda: not screen.busy)
        assert screen.session.game.moves == []

    _run(play, opponent="random", seed=1)


def test_replay_screen_steps():
    g = Game(seed=2)
    for _ in range(5):
        g.move(g.board.legal_actions()[0])

    async def play(app, pilot):
        screen = app.screen
        assert screen.session.index == 0
        await pilot.press("right", "right")
        assert screen.session.index == 2
        await pilot.press("end")
        assert screen.session.frames[screen.session.index].board == g.board
        await pilot.press("left", "home")
        assert screen.session.index == 0

    _run(play, records=[g.to_record()], start="replay")
