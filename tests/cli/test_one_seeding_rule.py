"""One seeding rule: ``boardai 2048 random`` (compiled end to end) and ``boardai 2048 eval
--agent random`` (the arena, move by move in Python) play the same games for the same seed."""

from __future__ import annotations

import json
from pathlib import Path

from boardai.cli import main


def _games(path: Path, key: str) -> list[tuple[int, int, int, int]]:
    data = json.loads(path.read_text())
    return [(g["index"], g["score"], g["max_tile"], g["moves"]) for g in data[key]]


def test_random_and_eval_random_play_the_same_games(tmp_path: Path) -> None:
    compiled, arena = tmp_path / "random.json", tmp_path / "eval.json"
    argv = ["--games", "40", "--seed", "5", "--json"]
    assert main(["2048", "random", *argv, str(compiled)]) == 0
    assert main(["2048", "eval", "--agent", "random", "--workers", "1", *argv, str(arena)]) == 0
    games = _games(compiled, "games")
    assert games == _games(arena, "results")
    assert len({score for _, score, _, _ in games}) > 10  # forty different games
    other = tmp_path / "other.json"
    assert main(["2048", "random", "--games", "40", "--seed", "6", "--json", str(other)]) == 0
    assert _games(other, "games") != games
