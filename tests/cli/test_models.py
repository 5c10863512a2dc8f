"""``boardai models``: list, show, verify, path, fetch (from a local HTTP server), compact; and
the names where commands take a model (``train ntuple --resume``, ``bench ntuple --model``)."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from boardai.cli import main
from boardai.learn import store
from tests.learn.test_store import card, tiny_2048, use_store


@pytest.fixture
def shop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A store holding one compact 2048 n-tuple model (trained with TC)."""
    use_store(monkeypatch, tmp_path, [card("tiny", "2048", "ntuple", tiny_2048(tmp_path, tc=True))])
    return tmp_path


def test_list_show_path_verify(shop: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["models"]) == 0
    out = capsys.readouterr().out
    assert "tiny" in out and "weak" in out and "here" in out
    assert main(["models", "list", "--game", "othello"]) == 0
    assert "no othello models" in capsys.readouterr().out
    assert main(["models", "show", "tiny"]) == 0
    out = capsys.readouterr().out
    assert store.entry("tiny").sha256 in out and "0.001 CPU-hours" in out and "made by" in out
    assert main(["models", "path", "tiny"]) == 0
    assert capsys.readouterr().out.strip() == str(shop / "tiny-2048.npz")
    assert main(["models", "verify"]) == 0
    assert "tiny: ok" in capsys.readouterr().out


def test_mistakes_are_one_line(shop: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["models", "show", "x"], ["models", "path", "x"], ["models", "verify", "x"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err == "boardai: error: no model called 'x' (models: tiny)\n"
    path = shop / "tiny-2048.npz"
    path.write_bytes(path.read_bytes()[:-10])
    for argv in (["models", "verify"], ["models", "path", "tiny"], ["watch", "--agent", "ntuple"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "tiny-2048.npz: damaged model file" in err
    path.unlink()
    assert main(["models", "verify"]) == 2
    assert "tiny-2048.npz is missing (run: boardai models fetch tiny)" in capsys.readouterr().err


def test_resume_and_bench_by_name(shop: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = shop / "more.npz"
    argv = ["train", "ntuple", "--resume", "tiny", "--episodes", "30", "--out", str(out)]
    assert main([*argv, "--quiet", "--report-every", "10"]) == 0
    text = capsys.readouterr().out
    assert "tiny is a compact model" in text and "restart pools (not kept)" in text
    assert "resuming tiny: 20 episodes done" in text
    from boardai.learn.model_file import read_meta

    assert read_meta(out)["episodes"] == 30 and read_meta(out)["format_version"] == 1
    bench = ["bench", "ntuple", "--model", "tiny", "--episodes", "0", "--games", "2"]
    assert main(bench) == 0
    assert "1-ply play, tiny" in capsys.readouterr().out


def test_compact(shop: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from boardai.g2048.train.trainer import TrainConfig, Trainer

    Trainer(TrainConfig(patterns="0123")).save(shop / "full.npz")
    assert main(["models", "compact", str(shop / "full.npz"), str(shop / "c.npz")]) == 0
    out = capsys.readouterr().out
    assert f'sha256 = "{store.sha256_of(shop / "c.npz")}"' in out
    assert main(["models", "compact", str(shop / "models.toml"), str(shop / "d.npz")]) == 2
    assert "models.toml: not a boardai n-tuple model" in capsys.readouterr().err
    from boardai.learn.model_file import read_meta

    compact = ["models", "compact", str(shop / "full.npz"), str(shop / "s.npz"), "--bits"]
    assert main([*compact, "13"]) == 0 and read_meta(shop / "s.npz")["weights_bits"] == 13
    capsys.readouterr()
    for bad, why in (("17", "17 is not in 2..16"), ("x", "'x' is not an integer")):
        with pytest.raises(SystemExit) as e:
            main([*compact, bad])
        assert e.value.code == 2 and f"--bits: {why}" in capsys.readouterr().err
    drop = ["models", "compact", str(shop / "full.npz"), str(shop / "t.npz"), "--drop-untouched"]
    assert main(drop) == 2  # full.npz was trained without TC
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "no TC state" in err
    Trainer(TrainConfig(patterns="0123", tc=True)).save(shop / "tc.npz")
    assert (
        main(["models", "compact", str(shop / "tc.npz"), str(shop / "t.npz"), "--drop-untouched"])
        == 0
    )
    assert "weights TC never updated written as 0" in capsys.readouterr().out


def test_compact_encoding(shop: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--encoding activity writes the compact format (version 2) with its steps from the TC
    state it needs: finer in the blocks training updated most; another name is refused."""
    from boardai.g2048.ntuple import NTupleNetwork
    from boardai.g2048.train.trainer import TrainConfig, Trainer
    from boardai.learn.model_file import load_model, read_meta

    Trainer(TrainConfig(patterns="0123,4567", alpha=1.0)).save(shop / "plain.npz")
    activity = ["models", "compact", str(shop / "plain.npz"), str(shop / "a.npz")]
    assert main([*activity, "--encoding", "activity"]) == 2  # trained without TC
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "no TC state" in err
    trainer = Trainer(TrainConfig(patterns="0123,4567", alpha=1.0, tc=True))
    trainer.train(30)
    trainer.save(shop / "full.npz")
    compact = ["models", "compact", str(shop / "full.npz")]
    assert main([*compact, str(shop / "a.npz"), "--bits", "9", "--encoding", "activity"]) == 0
    assert main([*compact, str(shop / "u.npz"), "--bits", "9"]) == 0
    capsys.readouterr()
    meta = read_meta(shop / "a.npz")
    assert meta["weights_scaled_by"] == "activity" and meta["format_version"] == 2
    assert "weights_scaled_by" not in read_meta(shop / "u.npz")
    w = trainer.network.weights
    a = load_model(shop / "a.npz", NTupleNetwork)[0].weights
    u = load_model(shop / "u.npz", NTupleNetwork)[0].weights
    busiest = np.argmax(np.add.reduceat(trainer.tc[:, 1], np.arange(0, w.size, 4096)))
    part = slice(busiest * 4096, (busiest + 1) * 4096)
    assert np.abs(a - w)[part].max() < np.abs(u - w)[part].max()  # finer where most updated
    with pytest.raises(SystemExit) as e:
        main([*compact, str(shop / "x.npz"), "--encoding", "cube"])
    assert e.value.code == 2 and "invalid choice: 'cube'" in capsys.readouterr().err


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """An HTTP server on 127.0.0.1 serving a directory: (the directory, its URL)."""
    root = tmp_path / "served"
    root.mkdir()

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(root))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.timeout = 5
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield root, f"http://127.0.0.1:{httpd.server_address[1]}/models/{{file}}"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


def test_fetch_from_a_local_server(
    server: tuple[Path, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A store whose directory holds the manifest only (as in a wheel): fetch downloads the
    file into the cache, checked; then players find it by name."""
    served, url = server
    (served / "models").mkdir()
    model = tiny_2048(served / "models")
    store_dir = tmp_path / "store"
    store_dir.mkdir()
    use_store(monkeypatch, store_dir, [card("tiny", "2048", "ntuple", model)])
    monkeypatch.setenv(store.ENV_URL, url)
    cached = store.cache_dir() / model.name
    assert str(cached).startswith(str(store_dir / "cache"))

    assert main(["models", "path", "tiny"]) == 2
    assert "run: boardai models fetch tiny" in capsys.readouterr().err
    with monkeypatch.context() as m:
        m.setenv("FORCE_COLOR", "1")  # rich draws the progress bar as on a terminal
        assert main(["models", "fetch", "tiny", "--timeout", "10"]) == 0
    captured = capsys.readouterr()
    assert "tiny" in captured.err and "kB" in captured.err  # the progress bar
    assert captured.out.strip().endswith(f"tiny: {cached}")
    assert cached.read_bytes() == model.read_bytes()
    assert main(["models", "verify"]) == 0 and "tiny: ok" in capsys.readouterr().out
    assert main(["models"]) == 0 and "cache" in capsys.readouterr().out

    from boardai.g2048 import Game
    from boardai.g2048.agents import make_agent

    g = Game(seed=2)
    assert make_agent("ntuple:model=tiny").act(g.board) in g.board.legal_actions()

    # a damaged copy on the server: the download is refused and not kept (the good copy is)
    good = model.read_bytes()
    data = bytearray(good)
    data[len(data) // 2] ^= 0xFF
    model.write_bytes(bytes(data))
    assert main(["models", "fetch", "tiny", "--force", "--timeout", "10"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "does not match the manifest's sha256" in err
    assert cached.read_bytes() == good and [p.name for p in cached.parent.iterdir()] == [model.name]
    # nothing there at all
    cached.unlink()
    model.unlink()
    assert main(["models", "fetch", "tiny", "--timeout", "10"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot download model 'tiny'" in err and "404" in err


def test_watch_plays_the_shipped_model(shop: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["watch", "--agent", "ntuple", "--delay", "0", "--seed", "1"]) == 0
    assert "game over: score" in capsys.readouterr().out


def test_list_shows_each_strength_headline() -> None:
    """The list keeps a strength line's opening figure; the card keeps the rest."""
    from boardai.cli.models import headline

    assert headline("166,424 ± 2,168 at 1-ply; 2048 in 98.7%") == "166,424 ± 2,168 at 1-ply"
    assert headline("0.704 ± 0.014 vs wpc (691 / 26 / 283)") == "0.704 ± 0.014 vs wpc"
    assert headline("0.9 vs wpc (1-ply; 9 / 0 / 1); more") == "0.9 vs wpc"
    assert headline("weak") == "weak"
    assert headline("") == "(not measured)"
