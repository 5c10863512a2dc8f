"""PNG pictures and GIFs of both games, and the render and replay commands."""

from __future__ import annotations

import io
import random

import imageio.v3 as iio
import numpy as np
import pytest
from PIL import Image

from boardai.cli import main
from boardai.g2048 import Game
from boardai.othello import Game as OthelloGame
from boardai.records import replay, write_records
from boardai.ui import g2048, othello, pictures, theme


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

    img = g2048.picture_2048(Board.from_grid([[2048, 0, 0, 0]] + [[0] * 4] * 3), 0)
    colours = {tuple(int(v) for v in px) for px in img.reshape(-1, 3)}
    for colour in (theme.TILES[2048], theme.G2048["board"], theme.G2048["empty"]):
        assert theme.rgb(colour) in colours
    board = OthelloGame().board
    img = othello.picture_othello(board)
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


def test_render_refuses_a_name_of_the_other_format(tmp_path, capsys):
    """``--png x.gif`` wrote a PNG named .gif (and ``--gif x.png`` a GIF named .png)."""
    _, _, path = _games(tmp_path)
    assert main(["render", str(path), "--png", str(tmp_path / "x.gif")]) == 2
    assert main(["render", str(path), "--gif", str(tmp_path / "x.PNG")]) == 2
    assert main(["render", str(path), "--png", str(tmp_path / "x.jpg")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"boardai: error: --png {tmp_path / 'x.gif'}: writes a PNG, not a GIF: name it .png "
        "(--gif draws the whole game)",
        f"boardai: error: --gif {tmp_path / 'x.PNG'}: writes a GIF, not a PNG: name it .gif",
        f"boardai: error: --png {tmp_path / 'x.jpg'}: writes a PNG, not a JPEG: name it .png "
        "(--gif draws the whole game)",
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl"]
    assert main(["render", str(path), "--png", str(tmp_path / "board")]) == 0  # no suffix: fine


def test_gif_frame_times_a_gif_can_hold(tmp_path, capsys):
    """A GIF keeps a frame's time in 16 bits of hundredths of a second: --frame-ms 700000 was
    an OverflowError's traceback after drawing the game; under 20 ms browsers slow it to 100."""
    _, _, path = _games(tmp_path)
    for ms in ("700000", "10"):
        with pytest.raises(SystemExit) as e:
            main(["render", str(path), "--gif", str(tmp_path / "x.gif"), "--frame-ms", ms])
        assert e.value.code == 2
        assert f"--frame-ms: {ms} is not in 20..655350" in capsys.readouterr().err
    assert not (tmp_path / "x.gif").exists()
    with pytest.raises(ValueError, match="frame_ms"):
        pictures.write_gif(io.BytesIO(), [np.zeros((2, 2, 3), np.uint8)], 700000)
    assert (
        main(["render", str(path), "--gif", str(tmp_path / "x.gif"), "--frame-ms", "655350"]) == 0
    )


def test_a_gif_shows_its_progress_on_a_terminal(tmp_path, capsys, monkeypatch):
    """A long game's GIF takes minutes (some 15 ms a frame): a bar says how far it is on a
    terminal, and a log gets nothing on stderr."""
    _, _, path = _games(tmp_path)
    gif = tmp_path / "g.gif"
    assert main(["render", str(path), "--gif", str(gif)]) == 0
    assert capsys.readouterr().err == ""
    monkeypatch.setenv("TTY_COMPATIBLE", "1")
    assert main(["render", str(path), "--gif", str(gif)]) == 0
    err = capsys.readouterr().err
    assert "drawing the GIF" in err and "13/13" in err


def test_ctrl_c_while_drawing_a_gif_leaves_no_file(tmp_path, capsys, monkeypatch):
    _, _, path = _games(tmp_path)
    real = pictures.frame_picture

    def interrupted(frame, game, previous=None, index=0):
        if index == 5:
            raise KeyboardInterrupt
        return real(frame, game, previous, index)

    monkeypatch.setattr(pictures, "frame_picture", interrupted)
    assert main(["render", str(path), "--gif", str(tmp_path / "g.gif")]) == 130
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl"]
