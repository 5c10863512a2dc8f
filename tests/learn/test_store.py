"""The model store: names resolve to verified files, paths stay paths, mistakes are one line.

Every test builds its own tiny store (a manifest and model files in a temporary directory,
named by ``$BOARDAI_MODELS``) and its own user cache (``$XDG_CACHE_HOME``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from boardai.errors import ModelFileError, UsageError
from boardai.learn import store


def manifest_text(models: list[dict[str, object]], url: str = "") -> str:
    """A models.toml holding ``models`` (strings, numbers and lists of strings)."""
    lines = ["format = 1", f"url = {json.dumps(url)}" if url else ""]
    for m in models:
        lines.append("\n[[model]]")
        strength = m.get("strength")
        for k, v in m.items():
            if k != "strength":
                lines.append(f"{k} = {json.dumps(v)}")
        if isinstance(strength, dict):
            lines.append("[model.strength]")
            lines += [f"{k} = {json.dumps(v)}" for k, v in strength.items()]
    return "\n".join(lines) + "\n"


def card(name: str, game: str, kind: str, path: Path) -> dict[str, object]:
    """A manifest entry for the file ``path``."""
    return {
        "name": name,
        "game": game,
        "kind": kind,
        "file": path.name,
        "size": path.stat().st_size,
        "sha256": store.sha256_of(path),
        "description": f"a tiny {game} model for tests",
        "commands": [f"made by {__name__}"],
        "cpu_hours": 0.001,
        "strength": {"command": "none", "games": 0, "seeds": "", "result": "weak"},
    }


def tiny_2048(directory: Path, name: str = "tiny-2048.npz", tc: bool = False) -> Path:
    """A compact 2048 n-tuple model trained for a few episodes."""
    from boardai.g2048.ntuple import NTupleNetwork
    from boardai.g2048.train.trainer import TrainConfig, Trainer
    from boardai.learn.model_file import compact_model

    t = Trainer(TrainConfig(patterns="0123,4567", seed=3, tc=tc, alpha=0.5 if tc else 0.1))
    t.train(20)
    full = directory / f"full-{name}"
    t.save(full)
    compact_model(full, directory / name, NTupleNetwork)
    full.unlink()
    return directory / name


def tiny_othello(directory: Path) -> Path:
    from boardai.othello.ntuple import NTupleNetwork
    from boardai.othello.ntuple_file import save_network

    net = NTupleNetwork.create("corner3x3,diag4")
    net.weights[:] = np.random.default_rng(1).normal(0, 0.1, net.weights.size)
    save_network(directory / "tiny-othello.npz", net, {"episodes": 0})
    return directory / "tiny-othello.npz"


def use_store(monkeypatch: pytest.MonkeyPatch, directory: Path, models: list[dict[str, object]]):
    (directory / "models.toml").write_text(manifest_text(models))
    monkeypatch.setenv(store.ENV_DIR, str(directory))
    monkeypatch.setenv("XDG_CACHE_HOME", str(directory / "cache"))


@pytest.fixture
def shop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A store with a 2048 n-tuple and an Othello n-tuple model."""
    models = [
        card("tiny-2048", "2048", "ntuple", tiny_2048(tmp_path)),
        card("tiny-othello", "othello", "othello-ntuple", tiny_othello(tmp_path)),
    ]
    use_store(monkeypatch, tmp_path, models)
    return tmp_path


def test_names_and_entries(shop: Path) -> None:
    assert store.names() == ["tiny-2048", "tiny-othello"]
    assert store.names(game="othello") == ["tiny-othello"]
    assert store.names(kind="ntuple") == ["tiny-2048"]
    e = store.entries("2048")[0]
    assert e.file == "tiny-2048.npz" and e.cpu_hours == 0.001 and e.strength.result == "weak"
    assert store.is_name("tiny-2048") and not store.is_name("tiny-2048.npz")
    assert not store.is_name(str(shop / "tiny-2048"))
    assert store.default_name("2048", "ntuple") == "tiny-2048"
    assert store.default_name("2048", "dqn") is None


def test_resolve(shop: Path) -> None:
    assert store.resolve("tiny-2048", "2048", "ntuple") == shop / "tiny-2048.npz"
    assert store.resolve("m.npz", "2048", "ntuple") == Path("m.npz")  # a path stays a path
    with pytest.raises(UsageError, match="is othello-ntuple, this needs 2048 ntuple"):
        store.resolve("tiny-othello", "2048", ("ntuple",))
    with pytest.raises(UsageError, match=r"'tiny-2049' is neither a model name nor a file"):
        store.resolve("tiny-2049", "2048", "ntuple")
    with pytest.raises(UsageError, match=r"no model called 'nope' \(models: tiny-2048, tiny-"):
        store.path_of("nope")


def test_checksum_once_per_file(shop: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = store.sha256_of
    monkeypatch.setattr(store, "sha256_of", lambda p: calls.append(p) or real(p))
    store._check.cache_clear()
    for _ in range(3):
        store.resolve("tiny-2048", "2048", "ntuple")
    assert len(calls) == 1


def test_damaged_and_missing_files(shop: Path) -> None:
    path = shop / "tiny-2048.npz"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF  # same size, one byte off
    path.write_bytes(bytes(data))
    os.utime(path, ns=(1, 1))  # a new mtime, whatever the clock's resolution
    with pytest.raises(ModelFileError, match=r"tiny-2048\.npz: damaged model file: sha256"):
        store.resolve("tiny-2048", "2048", "ntuple")
    path.write_bytes(bytes(data[:100]))
    with pytest.raises(ModelFileError, match=r"tiny-2048\.npz: damaged model file: 100 bytes"):
        store.path_of("tiny-2048")
    path.unlink()
    with pytest.raises(UsageError, match=r"run: boardai models fetch tiny-2048$"):
        store.path_of("tiny-2048")


def _damage(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF  # same size, one byte off
    path.write_bytes(bytes(data))
    os.utime(path, ns=(1, 1))  # a new mtime, whatever the clock's resolution


def test_a_shipped_file_is_checked_by_its_path_too(
    shop: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = shop / "tiny-2048.npz"
    assert store.resolve(str(path), "2048", "ntuple") == path
    _damage(path)
    # by name it was refused, by path it used to load
    for ref in (str(path), str(shop / "." / "tiny-2048.npz"), os.path.relpath(path)):
        with pytest.raises(ModelFileError, match=r"tiny-2048\.npz: damaged model file"):
            store.resolve(ref, "2048", "ntuple")
    link = shop / "elsewhere" / "linked.npz"
    link.parent.mkdir()
    link.symlink_to(path)  # the same file under another name
    with pytest.raises(ModelFileError, match="damaged model file"):
        store.resolve(str(link), "2048", "ntuple")
    other = shop / "elsewhere" / "tiny-2048.npz"  # a copy is a file of one's own
    other.write_bytes(path.read_bytes())
    assert store.resolve(str(other), "2048", "ntuple") == other
    monkeypatch.setenv(store.ENV_NO_CHECK, "1")  # training on from the shipped file in place
    assert store.resolve(str(path), "2048", "ntuple") == path
    assert store.resolve("tiny-2048", "2048", "ntuple") == path


def test_players_refuse_a_damaged_shipped_file_by_path(shop: Path) -> None:
    from boardai.g2048.agents import make_agent

    path = shop / "tiny-2048.npz"
    _damage(path)
    with pytest.raises(ModelFileError, match="damaged model file"):
        make_agent(f"ntuple:model={path}")


def test_bad_manifests(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(store.ENV_DIR, str(tmp_path))
    with pytest.raises(UsageError, match=r"no models\.toml there"):
        store.names()
    good = card("a", "2048", "ntuple", tiny_othello(tmp_path))
    for bad, why in [
        ({**good, "kind": "othello-ntuple"}, "game '2048' and kind 'othello-ntuple'"),
        ({**good, "sha256": "abc"}, "is not 64 hex digits"),
        ({**good, "name": "a.npz"}, "looks like a path"),
        ({**good, "file": "../x.npz"}, "bare file name"),
    ]:
        (tmp_path / "models.toml").write_text(manifest_text([bad]))
        with pytest.raises(ModelFileError, match=why):
            store.names()
    (tmp_path / "models.toml").write_text(manifest_text([good, good]))
    with pytest.raises(ModelFileError, match="listed twice"):
        store.names()
    (tmp_path / "models.toml").write_text("format = 2\n")
    with pytest.raises(ModelFileError, match="manifest format 2 is not one this reads"):
        store.names()
    (tmp_path / "models.toml").write_text("[[model]\n")
    with pytest.raises(ModelFileError, match="cannot read the model manifest"):
        store.names()


def test_players_take_names(shop: Path) -> None:
    from boardai.g2048 import Game
    from boardai.g2048.agents import make_agent
    from boardai.othello.agents import make_agent as make_othello
    from boardai.othello.board import Board

    g = Game(seed=1)
    for spec in ("ntuple", "ntuple:model=tiny-2048", "ntuple:model=tiny-2048,depth=2"):
        agent = make_agent(spec)
        assert agent.act(g.board) in g.board.legal_actions()
    assert make_agent(f"ntuple:model={shop / 'tiny-2048.npz'}").act(g.board) >= 0  # a path
    b = Board.initial()
    for spec in ("ntuple", "ntuple:model=tiny-othello,depth=2", "alphabeta:eval=ntuple,depth=2"):
        assert make_othello(spec).act(b) in b.legal_actions()
    with pytest.raises(UsageError, match="'tiny-2048' is 2048 ntuple, this needs othello-ntuple"):
        make_othello("ntuple:model=tiny-2048")
    with pytest.raises(UsageError, match="'tiny-2048' is 2048 ntuple, this needs 2048 dqn"):
        make_agent("dqn:model=tiny-2048")
    with pytest.raises(UsageError, match="is othello-ntuple, this needs othello-dqn"):
        make_othello("dqn:model=tiny-othello")
    # No DQN in this store: a learned player with no model= says how to get one
    with pytest.raises(
        UsageError, match="ships no 2048 dqn model yet: train one with boardai 2048"
    ):
        make_agent("dqn")
    with pytest.raises(
        UsageError, match="ships no othello-dqn model yet: train one with boardai o"
    ):
        make_othello("dqn")


def test_a_journal_names_a_shipped_model_by_its_name_alone(shop: Path) -> None:
    # What a --resume journal records: the model as the spec gave it, not also where its file
    # lies on this machine, so a journal resumes in another checkout or on another machine.
    from boardai.g2048.agents import make_agent
    from boardai.othello.agents import make_agent as make_othello

    for make, spec, name in (
        (make_agent, "ntuple:model=tiny-2048,depth=2", "tiny-2048"),
        (make_agent, "ntuple:model=tiny-2048", "tiny-2048"),
        (make_othello, "ntuple:model=tiny-othello,depth=2", "tiny-othello"),
    ):
        store.forget_resolved()
        make(spec)
        assert list(store.resolved_models()) == [name], spec
    store.forget_resolved()
    path = shop / "tiny-2048.npz"
    make_agent(f"ntuple:model={path}")
    assert list(store.resolved_models()) == [str(path)]


def test_a_journal_that_also_named_the_shipped_file_still_resumes(
    shop: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Journals written before the fix above named the shipped model twice: by its name and by
    # its file's absolute path, with the same checksum. They resume; a path whose checksum is
    # another file's is still another run.
    from boardai.cli import main

    journal = shop / "run.jsonl"
    argv = ["2048", "eval", "--agent", "ntuple:model=tiny-2048", "--workers", "1"]
    assert main([*argv, "--games", "2", "--resume", str(journal)]) == 0
    lines = journal.read_text().splitlines()
    header = json.loads(lines[0])
    assert list(header["models"]) == ["tiny-2048"]
    sha = header["models"]["tiny-2048"]
    for extra, rc in ((sha, 0), ("0" * 16, 2)):
        old = {**header, "models": {"/elsewhere/models/tiny-2048.npz": extra, "tiny-2048": sha}}
        journal.write_text("\n".join([json.dumps(old), *lines[1:]]) + "\n")
        capsys.readouterr()
        assert main([*argv, "--games", "3", "--resume", str(journal)]) == rc, extra
        if rc:
            assert "journal of another run" in capsys.readouterr().err
        else:
            assert len(journal.read_text().splitlines()) == 4  # 2 kept, 1 more played


def test_no_shipped_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from boardai.g2048.agents import make_agent
    from boardai.othello.agents import make_agent as make_othello

    use_store(monkeypatch, tmp_path, [])
    with pytest.raises(UsageError, match="ships no 2048 ntuple model yet: train one with"):
        make_agent("ntuple")
    with pytest.raises(UsageError, match="ships no othello-ntuple model yet"):
        make_othello("ntuple")


def test_url_template(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good = card("a", "othello", "othello-ntuple", tiny_othello(tmp_path))
    (tmp_path / "models.toml").write_text(manifest_text([good], url="https://x.org/m"))
    monkeypatch.setenv(store.ENV_DIR, str(tmp_path))
    monkeypatch.delenv(store.ENV_URL, raising=False)
    assert store.entry("a").url == "https://x.org/m/tiny-othello.npz"
    monkeypatch.setenv(store.ENV_URL, "http://127.0.0.1:1/v1/{file}?x")
    assert store.entry("a").url == "http://127.0.0.1:1/v1/tiny-othello.npz?x"
