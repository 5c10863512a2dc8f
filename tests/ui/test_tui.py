"""The terminal app through Textual's pilot: keys change the boards."""

from __future__ import annotations

import asyncio
import os

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

    _run(play, players={"2048": "random"}, seed=4, record_path=str(tmp_path / "g.jsonl"))


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

    _run(play, players={"2048": "random"}, seed=4, record_path=str(path))
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

    _run(play, players={"othello": "random"}, seed=1)


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


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_game_that_cannot_be_saved_is_said_not_a_crash():
    """A full disk (``/dev/full``) when a finished game is saved: the app took a traceback
    and went, losing the game on the screen; now the note says so and play goes on."""

    async def play(app, pilot):
        screen = app.screen
        await pilot.press(KEYS[screen.session.game.board.legal_actions()[0]])
        await pilot.press("n")
        assert screen.session.game.moves == 0  # the new game started
        note = str(screen.query_one("#note").render())
        assert "/dev/full: No space left on device: a game not saved" in note
        await pilot.press(KEYS[screen.session.game.board.legal_actions()[0]])
        assert screen.session.game.moves == 1

    _run(play, players={"2048": "random"}, seed=4, record_path="/dev/full")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_the_command_ends_with_the_games_not_saved(monkeypatch, capsys):
    from boardai.cli import main

    def run(app):  # a session whose last game could not be saved as the app closed
        app.screens_made["2048"].sink.save(Game(seed=1).to_record())

    monkeypatch.setattr(BoardApp, "run", run)
    assert main(["tui", "--record", "/dev/full"]) == 2
    err = capsys.readouterr().err
    assert err == "boardai: error: /dev/full: No space left on device: a game not saved\n"


def test_the_replay_screen_names_the_players_a_record_keeps():
    from boardai.othello.game import Game as OthelloGame

    o = OthelloGame(players=("wpc", "ntuple:depth=2"))
    o.play("d3")
    match = o.to_record()
    run = {**Game(seed=1).to_record(), "agent": "expectimax"}

    async def play(app, pilot):
        status = str(app.screen.query_one("#status").render())
        assert "black (wpc) " in status and "white (ntuple:depth=2) " in status
        await pilot.press("right_square_bracket")
        await _until(
            pilot, lambda: "by expectimax" in str(app.screen.query_one("#status").render())
        )

    _run(play, records=[match, run], start="replay")


def test_a_malformed_record_is_a_note_in_the_replay_screen():
    """A record with ``"rules": []`` took the app down with an AttributeError."""
    good = Game(seed=2)
    good.move(good.board.legal_actions()[0])
    bad = {**good.to_record(), "rules": []}

    async def play(app, pilot):
        screen = app.screen
        assert screen.session is None
        assert '"rules" is a list' in str(screen.query_one("#note").render())
        await pilot.press("right_square_bracket")
        assert screen.session is not None and screen.game == 1
        await pilot.press("end")
        assert screen.session.frames[screen.session.index].board == good.board

    _run(play, records=[bad, good.to_record()], start="replay")


def test_othello_autoplay_plays_your_side_to_the_end(tmp_path):
    path = tmp_path / "g.jsonl"

    async def play(app, pilot):
        await pilot.press("2")
        screen = app.screen
        await _until(pilot, lambda: screen.session is not None and not screen.busy)
        first = screen.hint_player
        while screen.hint_player != "wpc":  # p: the next hint player, round the list
            await pilot.press("p")
            assert screen.hint_player != first
        await pilot.press("a")
        assert screen.timer is not None
        await _until(pilot, lambda: screen.session.game.is_over(), tries=5000)
        await _until(pilot, lambda: screen.timer is None)
        assert "autoplay" not in str(screen.query_one("#status").render())
        await pilot.press("n")  # a new game; autoplay stays off
        await _until(pilot, lambda: not screen.busy and screen.session.game.moves == [])
        await pilot.press("a", "a")
        assert screen.timer is None

    _run(play, players={"othello": "random"}, seed=1, record_path=str(path))
    (record,) = read_records(path)
    assert record["game"] == "othello" and record["over"]


def test_the_replay_screen_counts_games_from_one():
    """The first of three games read "game 0 of 3"; the last "game 2 of 3"."""
    games = [Game(seed=s).to_record() for s in (1, 2, 3)]

    async def play(app, pilot):
        def status() -> str:
            return str(app.screen.query_one("#status").render())

        assert "game 1 of 3 " in status()
        await pilot.press("right_square_bracket", "right_square_bracket")
        await _until(pilot, lambda: "game 3 of 3 " in status())

    _run(play, records=games, start="replay")
