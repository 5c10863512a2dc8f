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
    module = _module(path)
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
    module = _module(path)
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
#: The environments; and the Gymnasium entry points above them and the players, which build
#: an opponent from its spec (Othello's).
ENVS = ("env.py", "vector_env.py")
ENTRY = "env_entry.py"
NOT_ENGINES = ("agents", "train", *ENVS, ENTRY)


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


#: The bottom of the cake: the modules every layer may use. They import no game (a game's
#: parts reach them as arguments or through the table of strings in ``boardai.games``) and
#: nothing above the engines, but for the journal reader, a leaf they share with the arena.
BASE = (
    "_jit.py",
    "atomic.py",
    "errors.py",
    "games.py",
    "hardware.py",
    "intrinsics.py",
    "records.py",
    "report.py",
    "rng.py",
    "stop_request.py",
)
ABOVE_BASE = re.compile(r"boardai\.(g2048|othello|arena|train|cli|ui)(\.|$)")
LEAVES = {"boardai.arena.journal"}


@pytest.mark.parametrize("name", BASE)
def test_base_modules_import_no_game_and_nothing_above(name: str) -> None:
    module = _module(SRC / name)
    found = [
        m
        for m in imported_modules((SRC / name).read_text(), module)
        if ABOVE_BASE.match(m) and m not in LEAVES and m.rpartition(".")[0] not in LEAVES
    ]
    assert found == [], f"{module} imports {found}: take the game's parts as arguments"


@pytest.mark.parametrize("leaf", sorted(LEAVES))
def test_the_leaves_base_modules_share_import_only_base_modules(leaf: str) -> None:
    path = SRC / (leaf.removeprefix("boardai.").replace(".", "/") + ".py")
    base = {_module(SRC / name) for name in BASE}
    found = [
        m
        for m in imported_modules(path.read_text(), leaf)
        if m.startswith("boardai.") and m not in base and m.rpartition(".")[0] not in base
    ]
    assert found == [], f"{leaf} imports {found}: a leaf the base modules use stays a leaf"


def test_importing_the_base_imports_no_game() -> None:
    import subprocess
    import sys

    code = (
        "import sys, boardai.records, boardai.report, boardai.games\n"
        "print(sorted(m for m in sys.modules if m.startswith(('boardai.g2048', "
        "'boardai.othello', 'boardai.arena.play', 'boardai.ui', 'boardai.cli'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


#: Players and environments (the layer above the engines) import neither the arena nor the
#: commands and apps above them.
ABOVE_PLAYERS = re.compile(r"boardai\.(arena|cli|ui)(\.|$)")


def _player_and_env_files() -> list[Path]:
    envs = [SRC / game / name for game in ("g2048", "othello") for name in ENVS]
    return sorted([*_player_files(), *envs, SRC / "othello" / ENTRY])


def test_there_are_envs_to_check() -> None:
    names = {p.relative_to(SRC).as_posix() for p in _player_and_env_files()}
    assert {"g2048/env.py", "othello/vector_env.py", "othello/agents/dqn.py"} <= names


@pytest.mark.parametrize(
    "path", _player_and_env_files(), ids=lambda p: p.relative_to(SRC).as_posix()
)
def test_players_and_envs_import_no_arena_command_or_app(path: Path) -> None:
    module = _module(path)
    found = [m for m in imported_modules(path.read_text(), module) if ABOVE_PLAYERS.match(m)]
    assert found == [], f"{module} imports {found}: imports point down"


#: The envs take their opponents as players or functions: they import no players' package
#: (a spec is resolved one layer up, by the Gymnasium entry point, ``othello/env_entry.py``).
PLAYERS_PACKAGE = re.compile(r"boardai\.(g2048|othello)\.agents(\.|$)")


def _env_files() -> list[Path]:
    envs = [SRC / game / name for game in ("g2048", "othello") for name in ENVS]
    return sorted([*envs, SRC / "vector_base.py"])


@pytest.mark.parametrize("path", _env_files(), ids=lambda p: p.relative_to(SRC).as_posix())
def test_envs_import_no_players(path: Path) -> None:
    module = _module(path)
    found = [m for m in imported_modules(path.read_text(), module) if PLAYERS_PACKAGE.match(m)]
    assert found == [], f"{module} imports {found}: take the opponent as a player or function"


def test_the_players_check_sees_a_players_import_only() -> None:
    source = (
        "from boardai.agent import Agent\n"
        "from boardai.othello.agents._seeded import seed_state\n"
        "def f():\n"
        "    from boardai.g2048.agents import make_agent\n"
        "    import boardai.othello.agents_table\n"
    )
    found = imported_modules(source, "boardai.othello.env")
    assert [m for m in found if PLAYERS_PACKAGE.match(m)] == [
        "boardai.othello.agents._seeded",
        "boardai.othello.agents._seeded.seed_state",
        "boardai.g2048.agents",
        "boardai.g2048.agents.make_agent",
    ]


#: Where a game's name may decide what code does: its own packages and modules, and the
#: table of per-game parts. Everywhere else looks the game up in ``boardai.games``.
PER_GAME = ("g2048/", "othello/", "cli/g2048/", "cli/othello/", "games.py")
PER_GAME_FILES = ("ui/g2048.py", "ui/othello.py")
#: A comparison with a game's name (Python's ``==``, ``in (...)``, JavaScript's ``===``).
BRANCH = re.compile(
    r"""(==|!=)=? ?["'](2048|othello)["']|["'](2048|othello)["'] ?(==|!=)|in \(["'](2048|othello)"""
)


def _shared_files() -> list[Path]:
    files = [*SRC.rglob("*.py"), *SRC.rglob("*.js")]
    return sorted(
        p
        for p in files
        if not p.relative_to(SRC).as_posix().startswith(PER_GAME)
        and p.relative_to(SRC).as_posix() not in PER_GAME_FILES
    )


def test_there_are_shared_layers_to_check() -> None:
    names = {p.relative_to(SRC).as_posix() for p in _shared_files()}
    assert {"records.py", "ui/web/static/app.js", "cli/replay.py", "ui/session.py"} <= names
    assert not any(n.startswith(("g2048/", "cli/othello/")) for n in names)


@pytest.mark.parametrize("path", _shared_files(), ids=lambda p: p.relative_to(SRC).as_posix())
def test_shared_layers_do_not_branch_on_a_games_name(path: Path) -> None:
    found = [line.strip() for line in path.read_text().splitlines() if BRANCH.search(line)]
    assert found == [], f"{path.name} branches on a game's name: add a part to boardai.games"


def test_the_branch_check_sees_the_forms_of_a_comparison() -> None:
    lines = [
        'if game == "2048":',
        "if 'othello' == kind:",
        'if game in ("2048", "othello"):',
        'const what = r.game === "2048" ? a : b;',
        'if s.of != "othello":',
    ]
    assert [bool(BRANCH.search(line)) for line in lines] == [True] * 5
    assert not BRANCH.search('GAMES = ("2048", "othello")')


def test_every_part_in_the_games_table_is_there() -> None:
    from boardai.games import GAMES, Lazy

    for name, game in GAMES.items():
        assert game.name == name == game.rules.get().name
        for field in game.__dataclass_fields__:
            part = getattr(game, field)
            if isinstance(part, Lazy):
                assert part.get() is not None, f"{name}: {field} names {part.target}"


#: Shared layers above the engines that reach every game through ``boardai.games`` only.
GAME_FREE = (
    "cli/_common.py",
    "cli/_watch.py",
    "cli/models.py",
    "cli/render.py",
    "cli/replay.py",
    "cli/serve.py",
    "cli/tui.py",
    "ui/pictures.py",
    "ui/session.py",
    "ui/web/app.py",
    "ui/web/protocol.py",
)


@pytest.mark.parametrize("name", GAME_FREE)
def test_shared_layers_import_no_game(name: str) -> None:
    module = _module(SRC / name)
    found = [m for m in imported_modules((SRC / name).read_text(), module) if GAMES.match(m)]
    assert found == [], f"{module} imports {found}: look the game's part up in boardai.games"
