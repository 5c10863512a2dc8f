"""``boardai othello match --random-plies`` and ``boardai othello data pack | show``: training
data from matches, end to end through the command line; mistakes are one line and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boardai.cli import main

#: Tiny searches, an exact solve of the last 6 empties: a game takes a fraction of a second.
PLAYER = "alphabeta:depth=1,endgame=6"


def _one_error_line(err: str) -> str:
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.startswith("boardai: error: ")]
    assert len(lines) == 1, err
    return lines[0]


def _match(tmp_path: Path, name: str, *extra: str, games: int = 4) -> Path:
    record = tmp_path / f"{name}.jsonl"
    argv = ["othello", "match", "--black", PLAYER, "--white", "greedy", "--games", str(games)]
    assert main([*argv, "--seed", "3", "--record", str(record), *extra]) == 0
    return record


@pytest.mark.parametrize("bad", ["30-8", "a-b", "0-61", "-1-3", "5-", ""])
def test_a_bad_random_plies_range_is_one_line(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["othello", "match", "--black", "random", "--white", "random", f"--random-plies={bad}"]
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    assert "argument --random-plies: not LO-HI" in _one_error_line(capsys.readouterr().err)


def test_random_openings_are_the_same_for_one_worker_or_two(tmp_path: Path) -> None:
    one = _match(tmp_path, "one", "--random-plies", "4-12", "--workers", "1")
    two = _match(tmp_path, "two", "--random-plies", "4-12", "--workers", "2")
    assert one.read_text() == two.read_text()
    records = [json.loads(line) for line in one.read_text().splitlines()]
    ks = [r["random_plies"] for r in records]
    assert all(4 <= k <= 12 for k in ks)
    openings = [tuple(r["moves"][:k]) for r, k in zip(records, ks, strict=True)]
    assert openings[0] == openings[1] != openings[2] == openings[3]  # pairs share theirs
    # replay and render read a record with the new field as before
    assert main(["replay", str(one), "--game", "1"]) == 0


def test_a_journal_remembers_its_random_openings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "j.jsonl"
    _match(tmp_path, "a", "--random-plies", "2-4", "--resume", str(journal), games=2)
    argv = ["othello", "match", "--black", PLAYER, "--white", "greedy", "--games", "2"]
    capsys.readouterr()
    code = main([*argv, "--seed", "3", "--random-plies", "2-5", "--resume", str(journal)])
    assert code == 2 and str(journal) in _one_error_line(capsys.readouterr().err)


def test_one_player_on_both_sides_with_swapped_colours_is_warned_of(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["othello", "match", "--black", PLAYER, "--white", PLAYER, "--games", "2"]
    assert main([*argv, "--random-plies", "4-8"]) == 0
    assert "boardai: warning: one player on both sides" in capsys.readouterr().err
    assert main([*argv, "--random-plies", "4-8", "--no-swap"]) == 0
    assert "warning" not in capsys.readouterr().err


def test_pack_then_show(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from boardai.othello.train.games_file import read_games

    record = _match(tmp_path, "m", "--random-plies", "6-10", "--no-swap")
    out = tmp_path / "data" / "games.npz"
    capsys.readouterr()
    assert main(["othello", "data", "pack", str(record), "--out", str(out)]) == 0
    said = capsys.readouterr().out
    games = read_games(out)
    assert len(games) == 4 and f"{out}: 4 games" in said and "0 duplicates dropped" in said
    records = [json.loads(line) for line in record.read_text().splitlines()]
    assert games.results.tolist() == [r["score"] for r in records]
    assert games.random_plies.tolist() == [r["random_plies"] for r in records]
    assert f"{out.stat().st_size:,} bytes" in said

    # packing the packed file with its records again adds nothing: every game is a duplicate
    again = tmp_path / "again.npz"
    assert main(["othello", "data", "pack", str(out), str(record), "--out", str(again)]) == 0
    assert "4 games" in (said := capsys.readouterr().out) and "4 duplicates dropped" in said

    assert main(["othello", "data", "show", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "games" in shown and "11-20 empties" in shown and "mean" in shown
    assert "boardai-othello-games" in shown and PLAYER in shown


def test_pack_refuses_to_overwrite_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = _match(tmp_path, "m", "--random-plies", "6-10", games=2)
    out = tmp_path / "g.npz"
    out.write_bytes(b"keep me")
    capsys.readouterr()
    assert main(["othello", "data", "pack", str(record), "--out", str(out)]) == 2
    assert "exists already" in _one_error_line(capsys.readouterr().err)
    assert out.read_bytes() == b"keep me"
    assert main(["othello", "data", "pack", str(record), "--out", str(out), "--force"]) == 0
    assert out.read_bytes().startswith(b"PK")


def test_pack_mistakes_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = _match(tmp_path, "m", "--random-plies", "6-10", games=2)
    lines = record.read_text().splitlines()
    damaged = json.loads(lines[1])
    damaged["score"] += 2
    bad = tmp_path / "bad.jsonl"
    bad.write_text(lines[0] + "\n" + json.dumps(damaged) + "\n")
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"PK\x03\x04 not really a zip")
    out = str(tmp_path / "o.npz")
    capsys.readouterr()
    for inputs, says in (
        ([str(tmp_path / "none.jsonl")], "no such record file"),
        ([str(bad)], f"{bad}: game 1: its score"),
        ([str(junk)], f"{junk}: damaged games file"),
    ):
        assert main(["othello", "data", "pack", *inputs, "--out", out]) == 2
        assert says in _one_error_line(capsys.readouterr().err)
    assert not Path(out).exists()
    assert main(["othello", "data", "show", str(record)]) == 2
    assert "not a games file" in _one_error_line(capsys.readouterr().err)
    with pytest.raises(SystemExit) as e:
        main(["othello", "data", "pack", str(record)])
    assert e.value.code == 2 and "--out" in _one_error_line(capsys.readouterr().err)
