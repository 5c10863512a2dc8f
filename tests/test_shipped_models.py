"""The models the repository ships (models/models.toml): every one loads, verifies and plays a
legal move; the folder keeps within its size limit; the packaged manifest is a copy of it."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from boardai.learn import store

ROOT = Path(__file__).resolve().parents[1]
MODELS = ROOT / "models"
#: The limit on the whole models/ folder.
LIMIT = 150 * 10**6


@pytest.fixture(autouse=True)
def repository_store(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(store.ENV_DIR, raising=False)
    monkeypatch.delenv(store.ENV_URL, raising=False)


def shipped() -> list[str]:
    with (MODELS / store.MANIFEST).open("rb") as f:
        return [m["name"] for m in tomllib.load(f).get("model", [])]


def test_the_repository_manifest_is_in_use() -> None:
    assert store.manifest().path == MODELS / store.MANIFEST and store.manifest().holds_files
    assert store.names() == shipped()


def test_packaged_manifest_is_a_copy() -> None:
    assert store.PACKAGED.read_text() == (MODELS / store.MANIFEST).read_text(), (
        "copy models/models.toml to src/boardai/learn/models.toml"
    )


def test_size_limit() -> None:
    total = sum(p.stat().st_size for p in MODELS.rglob("*") if p.is_file())
    assert total <= LIMIT, f"models/ holds {total:,} bytes, over {LIMIT:,}"
    for e in store.entries():
        assert (MODELS / e.file).stat().st_size == e.size


@pytest.mark.parametrize("name", shipped())
def test_shipped_model_plays(name: str) -> None:
    e = store.entry(name)
    path = store.path_of(name)  # verifies size and sha256
    assert path == MODELS / e.file
    if e.game == "2048":
        from boardai.g2048 import Game
        from boardai.g2048.agents import make_agent

        g = Game(seed=0)
        agent = make_agent(f"{e.kind}:model={name}")
        assert agent.act(g.board) in g.board.legal_actions()
    else:
        from boardai.othello.agents import make_agent as make_othello
        from boardai.othello.board import Board

        b = Board.initial()
        agent = make_othello(f"{e.kind.removeprefix('othello-')}:model={name}")
        assert agent.act(b) in b.legal_actions()


def card_figures(command: str, out: dict) -> list[str]:
    """The figures of a card's strength ``result`` that its command's JSON output gives."""
    if " othello match " in f" {command} ":
        wdl = f"{out['wins']:,} / {out['draws']:,} / {out['losses']:,}"
        return [wdl, f"{out['score']:.3f} ± {out['score_se']:.3f}"]
    games = out["summary"] if " eval " in f" {command} " else out["games"]  # eval / bench ntuple
    return [f"{games['mean']:,.0f} ± {games['sem']:,.0f}"]


@pytest.mark.slow
@pytest.mark.parametrize("name", shipped())
def test_card_strength_is_what_its_command_measures(name: str, tmp_path: Path) -> None:
    """Every card's strength figure comes out of its own command, run again here."""
    import json
    import shlex
    import subprocess
    import sys

    e = store.entry(name)
    assert e.strength is not None and e.strength.command.startswith("boardai ")
    out = tmp_path / "out.json"
    args = [*shlex.split(e.strength.command)[1:], "--json", str(out)]
    subprocess.run([sys.executable, "-m", "boardai", *args], check=True, capture_output=True)
    for figure in card_figures(e.strength.command, json.loads(out.read_text())):
        assert figure in e.strength.result, (figure, e.strength.result)
