"""The web page in a real browser: Playwright driving Debian's chromium against ``boardai serve``.

Set BOARDAI_SCREENSHOTS=DIR to keep the screenshots the tests take.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from boardai.g2048 import Game
from boardai.records import write_records
from boardai.ui import theme

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# One move from the end whatever spawns: "right" leaves one empty cell next to a 32.
LAST_MOVE = [[2, 4, 2, 4], [4, 2, 4, 2], [32, 4, 2, 4], [8, 16, 8, 0]]
ONE_FROM_2048 = [[1024, 1024, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 2]]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM),
        reason=f"no chromium at {CHROMIUM} (apt-get install chromium) for the browser tests",
    ),
]


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 900, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(server.url)
    pg.wait_for_function("window.boardai && window.boardai.g2048.state")
    yield pg
    context.close()
    assert not errors, errors


def _state(page, panel="g2048"):
    return page.evaluate(f"window.boardai.{panel}.state")


def _wait_moves(page, n):
    page.wait_for_function(f"window.boardai.g2048.state.moves >= {n}")


def _shot(page, selector, name, tmp_path) -> Path:
    path = tmp_path / name
    page.locator(selector).screenshot(path=str(path))
    keep = os.environ.get("BOARDAI_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(keep) / name)
    return path


def test_keys_move_the_tiles_and_undo_takes_back(page):
    start = _state(page)
    assert page.locator("#board2048 .tile").count() == 2
    keys = {0: "ArrowUp", 1: "ArrowRight", 2: "ArrowDown", 3: "ArrowLeft"}
    page.keyboard.press(keys[start["legal"][0]])
    _wait_moves(page, 1)
    after = _state(page)
    assert after["grid"] != start["grid"]
    wasd = {0: "w", 1: "d", 2: "s", 3: "a"}
    page.keyboard.press(wasd[after["legal"][-1]])
    _wait_moves(page, 2)
    page.wait_for_function("document.querySelectorAll('#board2048 .tile').length >= 3")
    page.click("#undo2048")
    page.wait_for_function("window.boardai.g2048.state.moves === 1")
    assert _state(page)["grid"] == after["grid"]
    shown = page.eval_on_selector_all("#board2048 .tile", "ts => ts.map(t => +t.textContent)")
    assert sorted(shown) == sorted(v for row in after["grid"] for v in row if v)


def test_win_then_keep_playing(page):
    page.evaluate(f"window.boardai.g2048.newGame({{board: {ONE_FROM_2048}}})")
    page.wait_for_function("window.boardai.g2048.state.max_tile === 1024")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#overlay2048:not(.hidden)")
    assert page.inner_text("#overlaytext") == "You win!"
    assert page.locator("#board2048 .tile-2048").count() == 1
    page.click("#keep2048")
    page.wait_for_selector("#overlay2048", state="hidden")
    page.keyboard.press("ArrowDown")
    page.wait_for_function("window.boardai.g2048.state.moves === 2")
    assert page.locator("#overlay2048").is_hidden()


def test_lose(page):
    page.evaluate(f"window.boardai.g2048.newGame({{board: {LAST_MOVE}}})")
    page.wait_for_function("window.boardai.g2048.state.grid[3][3] === 0")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#overlay2048:not(.hidden)")
    assert page.inner_text("#overlaytext") == "Game over!"
    assert _state(page)["over"]
    page.click("#overundo2048")
    page.wait_for_selector("#overlay2048", state="hidden")


def test_autoplay_and_hint(page):
    page.select_option("#player2048", "random")
    page.click("#hint2048")
    page.wait_for_function("document.getElementById('status2048').textContent.includes('suggests')")
    page.fill("#speed2048", "60")
    page.click("#auto2048")
    _wait_moves(page, 4)
    page.click("#auto2048")
    page.wait_for_function("document.getElementById('auto2048').textContent === 'Autoplay'")
    moves = _state(page)["moves"]
    page.wait_for_timeout(200)
    assert _state(page)["moves"] <= moves + 1  # at most the move that was in flight


def test_screenshot_shows_a_2048_board(page, tmp_path):
    grid = [[2, 4, 8, 16], [32, 64, 128, 256], [512, 1024, 0, 0], [0, 0, 0, 0]]
    page.evaluate(f"window.boardai.g2048.newGame({{board: {grid}}})")
    page.wait_for_function("document.querySelectorAll('#board2048 .tile-1024').length === 1")
    page.wait_for_timeout(400)  # let the tiles' appear animation finish
    from PIL import Image

    with Image.open(_shot(page, "#board2048", "board2048.png", tmp_path)) as im:
        pixels = np.asarray(im.convert("RGB")).reshape(-1, 3)
    colours = {tuple(int(v) for v in px) for px in pixels}
    for value in (2, 64, 1024):
        assert theme.rgb(theme.TILES[value]) in colours, value
    assert theme.rgb(theme.G2048["empty"]) in colours


def test_othello_move_and_reply(page, tmp_path):
    assert page.locator("#playerOthello option[value=random]").count() == 1
    page.click("button[data-tab=othello]")
    page.select_option("#playerOthello", "random")
    page.click("#newOthello")
    page.wait_for_function(
        "window.boardai.othello.state && window.boardai.othello.state.moves.length === 0"
    )
    assert page.locator("#boardOthello .sq.legal").count() == 4
    page.click("#boardOthello .sq.legal >> nth=0")
    page.wait_for_function("window.boardai.othello.state.moves.length >= 2")
    s = _state(page, "othello")
    assert s["to_move"] == "black" and s["last"] is not None and s["flips"]
    assert (
        page.locator("#boardOthello .disc").count() == s["counts"]["black"] + s["counts"]["white"]
    )
    assert page.locator("#boardOthello .sq.last").count() == 1
    _shot(page, "#boardOthello", "othello.png", tmp_path)
    page.click("#undoOthello")
    page.wait_for_function("window.boardai.othello.state.moves.length === 0")


def test_othello_autoplay_plays_to_the_end_and_stops(page):
    page.click("button[data-tab=othello]")
    page.select_option("#playerOthello", "random")
    page.click("#newOthello")
    page.wait_for_function(
        "window.boardai.othello.state && window.boardai.othello.state.moves.length === 0"
    )
    page.click("#autoOthello")
    page.wait_for_function("document.getElementById('autoOthello').textContent === 'Stop'")
    page.wait_for_function("window.boardai.othello.state.over", timeout=60_000)
    page.wait_for_function("document.getElementById('autoOthello').textContent === 'Autoplay'")
    s = _state(page, "othello")
    assert page.inner_text("#statusOthello") == s["result"]
    assert s["counts"]["black"] + s["counts"]["white"] > 4
    # Stop ends it between moves; a new game ends it too
    page.click("#newOthello")
    page.wait_for_function("window.boardai.othello.state.moves.length === 0")
    page.click("#autoOthello")
    page.wait_for_function("window.boardai.othello.state.moves.length >= 2")
    page.click("#autoOthello")
    page.wait_for_function("document.getElementById('autoOthello').textContent === 'Autoplay'")
    moves = len(_state(page, "othello")["moves"])
    page.wait_for_timeout(1200)
    assert len(_state(page, "othello")["moves"]) <= moves + 2  # the step in flight at most


def test_othello_autoplay_by_the_player_named_beside_it_watches_two_players(page):
    page.click("button[data-tab=othello]")
    page.select_option("#playerOthello", "random")
    page.click("#newOthello")
    page.wait_for_function("window.boardai.othello.state.moves.length === 0")
    page.fill("#autoSpecOthello", "wpc")
    page.click("#autoOthello")
    page.wait_for_function("window.boardai.othello.state.over", timeout=60_000)
    record = page.evaluate(
        "async () => (await window.boardai.othello.ch.request({type: 'record'})).record"
    )
    assert record["players"] == {"black": "wpc", "white": "random"}


def test_replay_a_record_file(page, tmp_path):
    g = Game(seed=3)
    for _ in range(6):
        g.move(g.board.legal_actions()[0])
    path = tmp_path / "games.jsonl"
    write_records(path, [g.to_record()])
    page.click("button[data-tab=replay]")
    page.set_input_files("#replayFile", str(path))
    page.wait_for_function(
        "window.boardai.replay.state && window.boardai.replay.state.length === 7"
    )
    page.click("#rLast")
    page.wait_for_function("window.boardai.replay.state.index === 6")
    assert _state(page, "replay")["grid"] == g.board.to_grid()
    page.click("#rPrev")
    page.wait_for_function("window.boardai.replay.state.index === 5")
    assert "position 5 / 6" in page.inner_text("#rPos")


def test_replay_names_a_matchs_players_and_opens_an_indented_record(page, tmp_path):
    from boardai.cli import main

    path = tmp_path / "m.jsonl"
    argv = ["othello", "match", "--black", "wpc", "--white", "random", "--games", "2"]
    assert main([*argv, "--workers", "1", "--record", str(path)]) == 0
    page.click("button[data-tab=replay]")
    page.set_input_files("#replayFile", str(path))
    page.wait_for_function("window.boardai.replay.state && window.boardai.replay.state.length > 1")
    assert "wpc vs random" in page.inner_text("#replayGame option >> nth=0")
    assert "random vs wpc" in page.inner_text("#replayGame option >> nth=1")
    first = json.loads(path.read_text().splitlines()[0])
    old = tmp_path / "old.json"  # one record, indented, as othello play --record once wrote
    old.write_text(json.dumps(first, indent=2))
    page.set_input_files("#replayFile", str(old))
    # the first file's first game is this record, as long: wait for the new list of games
    page.wait_for_function("document.querySelectorAll('#replayGame option').length === 1")
    assert window_state_length(page) == len(first["moves"]) + 1


def window_state_length(page):
    return page.evaluate("window.boardai.replay.state.length")


def test_a_swipe_moves(page):
    grid = [[2, 0, 0, 0]] + [[0] * 4] * 3
    page.evaluate(f"window.boardai.g2048.newGame({{board: {grid}}})")
    page.wait_for_function("window.boardai.g2048.state.grid[0][0] === 2")
    box = page.locator("#board2048").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 120, y + 10, steps=4)
    page.mouse.up()
    _wait_moves(page, 1)
    assert _state(page)["grid"][0][3] == 2  # slid right


def test_replay_a_resume_journal(page, tmp_path):
    """An eval's --resume journal opens as its finished games, in game order, whatever order
    they finished in."""
    from boardai.cli import main
    from boardai.records import read_records

    journal, out = tmp_path / "j.jsonl", tmp_path / "run.json"
    argv = ["2048", "eval", "--agent", "random", "--games", "3", "--seed", "5", "--workers", "1"]
    assert main([*argv, "--json", str(out), "--resume", str(journal)]) == 0
    lines = journal.read_text().splitlines()
    journal.write_text("\n".join([lines[0], *reversed(lines[1:])]) + "\n")
    records = read_records(out)
    page.click("button[data-tab=replay]")
    page.set_input_files("#replayFile", str(journal))
    length = len(records[0]["moves"]) + 1
    page.wait_for_function(
        f"window.boardai.replay.state && window.boardai.replay.state.length === {length}"
    )
    assert page.locator("#replayGame option").count() == 3
    assert f"score {records[0]['score']}," in page.inner_text("#replayGame option >> nth=0")


def test_replay_an_eval_json_file(page, tmp_path):
    from boardai.arena import play_games

    run = play_games("greedy", 2, seed=1, record=True)
    path = tmp_path / "run.json"
    run.write_json(path)
    page.click("button[data-tab=replay]")
    page.set_input_files("#replayFile", str(path))
    length = run.results[0].moves + 1
    page.wait_for_function(
        f"window.boardai.replay.state && window.boardai.replay.state.length === {length}"
    )
    assert page.locator("#replayGame option").count() == 2
    page.click("#rLast")
    page.wait_for_function(f"window.boardai.replay.state.index === {length - 1}")
    assert _state(page, "replay")["score"] == run.results[0].score


def test_replay_a_compare_json_file(page, tmp_path):
    from boardai.arena import play_games

    runs = [play_games(spec, 2, seed=1, record=True) for spec in ("random", "greedy")]
    path = tmp_path / "cmp.json"
    path.write_text(json.dumps({"seed": 1, "runs": [r.to_dict() for r in runs]}))
    page.click("button[data-tab=replay]")
    page.set_input_files("#replayFile", str(path))
    page.wait_for_function("window.boardai.replay.state")
    options = page.locator("#replayGame option")
    assert options.count() == 4
    assert "greedy" in options.nth(2).inner_text() and "random" in options.nth(0).inner_text()
    page.select_option("#replayGame", "3")
    length = runs[1].results[1].moves + 1
    page.wait_for_function(f"window.boardai.replay.state.length === {length}")
