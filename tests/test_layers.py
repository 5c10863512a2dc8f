"""The layer rule of docs' design: players (``g2048/agents``, ``othello/agents``) never import
a training module (``boardai.*.train``), not even inside a function."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import boardai

SRC = Path(boardai.__file__).parent
PLAYERS = ("g2048/agents", "othello/agents")
TRAIN = re.compile(r"boardai\.[a-z0-9_]+\.train(\.|$)")


def imported_modules(source: str, module: str) -> list[str]:
    """Every module an ``import`` or ``from`` line anywhere in ``source`` names (``from P
    import n`` names ``P`` and ``P.n``, as ``n`` may be a submodule); relative imports are
    resolved against ``module``, the dotted name of the file holding ``source``."""
    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = module.split(".")[: -node.level]
                base = ".".join(parent + ([base] if base else []))
            names.append(base)
            names += [f"{base}.{alias.name}" for alias in node.names]
    return names


def _player_files() -> list[Path]:
    return sorted(p for folder in PLAYERS for p in (SRC / folder).rglob("*.py"))


def test_there_are_players_to_check() -> None:
    names = {p.relative_to(SRC).as_posix() for p in _player_files()}
    assert {"g2048/agents/ntuple.py", "othello/agents/dqn.py"} <= names


@pytest.mark.parametrize("path", _player_files(), ids=lambda p: p.relative_to(SRC).as_posix())
def test_players_never_import_training_modules(path: Path) -> None:
    module = "boardai." + ".".join(path.relative_to(SRC).with_suffix("").parts)
    found = [m for m in imported_modules(path.read_text(), module) if TRAIN.match(m)]
    assert found == [], f"{module} imports {found}: move what it needs beside the network"


def test_the_check_sees_imports_inside_functions_and_relative_ones() -> None:
    source = (
        "import numpy as np\n"
        "from boardai.g2048.board import Board\n"
        "def act():\n"
        "    from boardai.g2048.train.episodes import greedy_move\n"
        "    from ..train import dqn\n"
        "    from boardai.othello import train\n"
        "    import boardai.othello.train.dqn as d\n"
    )
    found = [m for m in imported_modules(source, "boardai.g2048.agents.ntuple") if TRAIN.match(m)]
    assert found == [
        "boardai.g2048.train.episodes",
        "boardai.g2048.train.episodes.greedy_move",
        "boardai.g2048.train",
        "boardai.g2048.train.dqn",
        "boardai.othello.train",
        "boardai.othello.train.dqn",
    ]


#: The game packages; the shared learning code (``boardai.learn``) imports none of them.
GAMES = re.compile(r"boardai\.(g2048|othello)(\.|$)")


def _learn_files() -> list[Path]:
    return sorted((SRC / "learn").rglob("*.py"))


def test_there_is_learning_code_to_check() -> None:
    names = {p.relative_to(SRC).as_posix() for p in _learn_files()}
    assert {"learn/ntuple.py", "learn/model_file.py", "learn/replay.py"} <= names


@pytest.mark.parametrize("path", _learn_files(), ids=lambda p: p.relative_to(SRC).as_posix())
def test_learning_code_imports_no_game(path: Path) -> None:
    module = "boardai." + ".".join(path.relative_to(SRC).with_suffix("").parts)
    found = [m for m in imported_modules(path.read_text(), module) if GAMES.match(m)]
    assert found == [], f"{module} imports {found}: the game passes what it needs in"


def test_the_game_check_sees_game_imports_only() -> None:
    source = (
        "from boardai.g2048.kernels import transpose\n"
        "from boardai import othello\n"
        "import boardai.othello.ntuple\n"
        "from boardai.learn.ntuple import add_at\n"
        "import boardai.g2048x\n"
    )
    found = [m for m in imported_modules(source, "boardai.learn.x") if GAMES.match(m)]
    assert found == [
        "boardai.g2048.kernels",
        "boardai.g2048.kernels.transpose",
        "boardai.othello",
        "boardai.othello.ntuple",
    ]


#: Which packages a module may not import, by where it sits (imports point down: engines <-
#: envs/agents <- training/arena <- CLI/UI). A game's rules and search are the engine layer:
#: everything in ``g2048/`` and ``othello/`` but the players, the environments and training.
ABOVE_ENGINES = re.compile(
    r"boardai\.(arena|cli|ui)(\.|$)|boardai\.(g2048|othello)\.(agents|train|env|vector_env)(\.|$)"
)
ABOVE_ARENA = re.compile(r"boardai\.(cli|ui)(\.|$)")
NOT_ENGINES = ("agents", "train", "env.py", "vector_env.py")


def _engine_files() -> list[Path]:
    return sorted(
        p
        for game in ("g2048", "othello")
        for p in (SRC / game).rglob("*.py")
        if p.relative_to(SRC / game).parts[0] not in NOT_ENGINES
    )


def _module(path: Path) -> str:
    return "boardai." + ".".join(path.relative_to(SRC).with_suffix("").parts)


def test_there_are_engines_to_check() -> None:
    names = {p.relative_to(SRC).as_posix() for p in _engine_files()}
    assert {"g2048/search.py", "othello/search.py", "othello/endgame.py"} <= names
    assert not any("/agents/" in n or "/train/" in n for n in names)


@pytest.mark.parametrize("path", _engine_files(), ids=lambda p: p.relative_to(SRC).as_posix())
def test_engines_import_nothing_above_them(path: Path) -> None:
    module = _module(path)
    found = [m for m in imported_modules(path.read_text(), module) if ABOVE_ENGINES.match(m)]
    assert found == [], f"{module} imports {found}: imports point down"


@pytest.mark.parametrize(
    "path",
    [p for part in ("arena", "learn", "train") for p in sorted((SRC / part).rglob("*.py"))],
    ids=lambda p: p.relative_to(SRC).as_posix(),
)
def test_arena_and_training_code_import_no_command_or_app(path: Path) -> None:
    module = _module(path)
    found = [m for m in imported_modules(path.read_text(), module) if ABOVE_ARENA.match(m)]
    assert found == [], f"{module} imports {found}: the commands and apps sit above"
