"""PNG pictures and GIFs of both games, and the render and replay commands."""

from __future__ import annotations

import io
import random

import imageio.v3 as iio
import numpy as np
from PIL import Image

from boardai.cli import main
from boardai.g2048 import Game
from boardai.othello import Game as OthelloGame
from boardai.records import replay, write_records
from boardai.ui import pictures, theme


def _games(tmp_path):
    g, rng = Game(seed=1), random.Random(1)
    for _ in range(12):
        g.move(rng.choice(g.board.legal_actions()))
    o = OthelloGame()
    o.play("d3")
    o.play("c5")
    path = tmp_path / "games.jsonl"
    write_records(path, [g.to_record(), o.to_record()])
    return g, o, path


def test_a_gif_has_one_frame_per_move_plus_the_start(tmp_path):
    g, o, _ = _games(tmp_path)
    for record, moves in ((g.to_record(), 12), (o.to_record(), 2)):
        frames = replay(record)
        buf = io.BytesIO()
        assert pictures.write_gif(buf, pictures.game_pictures(frames, record["game"])) == moves + 1
        buf.seek(0)
        with Image.open(buf) as im:
            assert im.n_frames == moves + 1
            im.seek(moves)
            last = np.asarray(im.convert("RGB")).astype(int)
        want = pictures.frame_picture(frames[-1], record["game"], frames[-2], moves).astype(int)
        # one fixed palette: theme colours exact, anti-aliased caption text within a blend step
        assert np.abs(last - want).max() <= 12
        if record["game"] == "2048":
            assert np.array_equal(last[pictures.CAPTION :], want[pictures.CAPTION :])


def test_pictures_use_the_page_colours():
    from boardai.g2048 import Board

    img = pictures.picture_2048(Board.from_grid([[2048, 0, 0, 0]] + [[0] * 4] * 3), 0)
    colours = {tuple(int(v) for v in px) for px in img.reshape(-1, 3)}
    for colour in (theme.TILES[2048], theme.G2048["board"], theme.G2048["empty"]):
        assert theme.rgb(colour) in colours
    board = OthelloGame().board
    img = pictures.picture_othello(board)
    colours = {tuple(int(v) for v in px) for px in img.reshape(-1, 3)}
    for key in ("board", "black", "white"):
        assert theme.rgb(theme.OTHELLO[key]) in colours


def test_render_and_replay_commands(tmp_path, capsys):
    g, _, path = _games(tmp_path)
    png, gif = tmp_path / "g.png", tmp_path / "o.gif"
    assert main(["render", str(path), "--png", str(png)]) == 0
    assert main(["render", str(path), "--game", "1", "--gif", str(gif)]) == 0
    assert iio.imread(png).shape[2] in (3, 4)
    with Image.open(gif) as im:
        assert im.n_frames == 3
    assert np.asarray(iio.imread(png)).std() > 10  # not a blank picture
    capsys.readouterr()
    assert main(["replay", str(path), "--final"]) == 0
    out = capsys.readouterr().out
    assert f"score {g.score}" in out and "replayed 12 moves" in out
    assert main(["replay", str(path), "--game", "1", "--delay", "0"]) == 0
    out = capsys.readouterr().out
    assert "position 2/2" in out and "replayed 2 moves" in out


def test_render_errors(tmp_path, capsys):
    _, _, path = _games(tmp_path)
    assert main(["render", str(path)]) == 2
    assert main(["render", str(path), "--game", "5", "--png", str(tmp_path / "x.png")]) == 2
    assert main(["render", str(path), "--at", "99", "--png", str(tmp_path / "x.png")]) == 2
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "nothing to do" in err and "no game 5" in err and "no such record file" in err
