"""A third game joins records, replay and ``boardai replay`` by one entry in the games table:
the tiny Nim of ``tests/nim_game.py`` (an engine and its contract, nothing in ``src``) with its
few display parts here. Nothing of records, replay or the command changes for it."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from boardai.cli import main
from boardai.contract import play_random
from boardai.games import GAMES, GameParts, Lazy
from boardai.records import Frame, game_of, read_records, replay, write_records
from tests.nim_game import RULES, NimState

HERE = "tests.test_third_game"


def nim_frames(state: NimState) -> list[Frame]:
    """Every position of a played Nim game: the pile after each move (or chance outcome)."""
    game = NimState(state.seed, state.index)
    frames = [Frame(game.pile, None)]
    for action in state.moves:
        chance = game.chance_next
        game.apply(action)
        text = f"+{action} stones" if chance else f"takes {action}"
        frames.append(Frame(game.pile, None, action, text))
    return frames


def nim_text(frame: Frame) -> str:
    return f"pile {frame.board}"


def nim_title(record: dict[str, Any]) -> str:
    return "Nim"


def nim_summary(record: dict[str, Any], last: Frame) -> str:
    return f": pile {last.board}"


def not_shown(*args: Any) -> None:
    raise AssertionError("a part this test does not use")


NIM = GameParts(
    name="nim",
    title="Nim",
    record_shapes=(("moves", list, "a list"),),
    rules=Lazy("tests.nim_game:RULES"),
    game=Lazy("tests.nim_game:RULES"),  # its from_record reads a record, checking each move
    frames=Lazy(f"{HERE}:nim_frames"),
    frame_text=Lazy(f"{HERE}:nim_text"),
    record_title=Lazy(f"{HERE}:nim_title"),
    replay_summary=Lazy(f"{HERE}:nim_summary"),
    warm_up=(),
    **{
        f.name: Lazy(f"{HERE}:not_shown")
        for f in dataclasses.fields(GameParts)
        if f.name
        not in {
            "name",
            "title",
            "record_shapes",
            "rules",
            "game",
            "frames",
            "frame_text",
            "record_title",
            "replay_summary",
            "warm_up",
        }
    },
)


def played(index: int) -> NimState:
    """Game ``index`` of seed 3, played by random players."""
    state = play_random(RULES, seed=3, index=index)
    assert isinstance(state, NimState)
    return state


@pytest.fixture
def nim(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(GAMES, "nim", NIM)


def test_an_unknown_game_is_refused_until_it_is_in_the_table() -> None:
    with pytest.raises(ValueError, match="unknown game 'nim'"):
        game_of(played(0).to_record())


def test_a_third_games_records_replay_exactly(nim: None, tmp_path: Path) -> None:
    states = [played(i) for i in range(5)]
    path = tmp_path / "nim.jsonl"
    write_records(path, [s.to_record() for s in states])
    records = read_records(path)
    assert [game_of(r) for r in records] == ["nim"] * 5
    for state, record in zip(states, records, strict=True):
        frames = replay(record)
        assert len(frames) == len(state.moves) + 1
        assert frames[-1].board == state.pile == 0
        assert [f.action for f in frames[1:]] == state.moves


def test_a_third_games_impossible_record_is_refused(nim: None) -> None:
    record = played(0).to_record()
    record["moves"][1] = 7  # no player takes 7 stones
    with pytest.raises(ValueError, match="7 is not legal"):
        replay(record)
    with pytest.raises(ValueError, match='malformed Nim record: "moves" is a string'):
        replay({**record, "moves": "1,2"})


def test_boardai_replay_shows_a_third_game(
    nim: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = played(1)
    path = tmp_path / "nim.jsonl"
    write_records(path, [state.to_record()])
    assert main(["replay", str(path), "--final"]) == 0
    out = capsys.readouterr().out
    moves = len(state.moves)
    assert f"position {moves}/{moves}" in out
    assert "pile 0" in out
    assert out.strip().endswith(f"replayed {moves} moves: pile 0")
