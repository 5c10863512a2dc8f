"""``boardai journal show``: how far a run's journal got, read from journals that real runs wrote
(2048 eval, Othello match and tournament) and from the positions games under way keep."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardai.arena.journal import Journal, journal_progress, run_keys
from boardai.arena.results import PLAYED
from boardai.arena.seeding import game_seed
from boardai.arena.solo import save_partial
from boardai.cli import main
from boardai.cli.journal import SHOWN_PART_WAY, resume_command, spans
from boardai.g2048 import Game
from boardai.g2048.agents import make_agent


def _shown(path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    capsys.readouterr()
    assert main(["journal", "show", str(path), "--json"]) == 0
    shown: dict[str, Any] = json.loads(capsys.readouterr().out)
    return shown


def _play(game: Game, spec: str, moves: int) -> Game:
    agent = make_agent(spec, seed=0)
    for _ in range(moves):
        game.move(agent.act(game.board))
    return game


def test_a_2048_run_in_part_and_its_games_part_way(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "run.jsonl"
    argv = ["2048", "eval", "--agent", "heuristic", "--games", "9", "--seed", "4"]
    assert main([*argv, "--workers", "1", "--resume", str(journal), "--part", "2:5"]) == 0
    shown = _shown(journal, capsys)
    assert shown["header"]["games"] == 9 and shown["header"]["players"] == ["heuristic"]
    (run,) = shown["runs"]
    assert run["run"] == "heuristic" and run["finished"] == [2, 3, 4]
    assert run["part_way"] == [] and run["to_play"] == 6

    # games 7 and 8 under way (as a worker saves them), and a stale file of finished game 3
    with Journal.open(journal, json.loads(journal.read_text().splitlines()[0])) as j:
        part = j.part("heuristic", PLAYED)
        played = {}
        for index, moves in ((7, 40), (8, 25), (3, 10)):
            played[index] = _play(Game(seed=game_seed(4, index)), "heuristic", moves)
            save_partial(part.partial(index), "heuristic", played[index], 1.0, 1.0)
        (run,) = journal_progress(journal)[1]
    assert [c.index for c in run.part_way] == [7, 8]  # game 3 is finished: not part-way
    for c in run.part_way:
        game = played[c.index]
        assert (c.moves, c.score, c.max_tile) == (game.moves, game.score, game.board.max_tile())
    assert run.to_play == 9 - 3 - 2
    lines = [json.loads(line) for line in journal.read_text().splitlines()[1:]]
    cpu = [line["result"]["game"]["cpu_seconds"] for line in lines]
    assert sorted(run.cpu_seconds) == sorted(cpu) and len(cpu) == 3
    mean = sum(cpu) / 3  # 4 games to play, 2 part-way that have had 1 CPU second each
    assert run.cpu_left() == pytest.approx(4 * mean + 2 * max(0.0, mean - 1.0))

    capsys.readouterr()
    assert main(["journal", "show", str(journal)]) == 0
    out = capsys.readouterr().out
    assert "finished   3 of 9: 2-4" in out and "to play    4" in out
    assert f"7: 40 moves, {played[7].score:,} points" in out
    assert f"The results so far: boardai 2048 compare --from {journal}" in out
    assert "play left  about " in out and " core-hours " in out

    # resumed, the run plays what is missing and then shows every game finished
    assert main([*argv, "--workers", "1", "--resume", str(journal)]) == 0
    (run,) = _shown(journal, capsys)["runs"]
    assert run["finished"] == list(range(9)) and run["part_way"] == [] and run["to_play"] == 0
    assert run["cpu_seconds_left"] == 0.0
    capsys.readouterr()
    assert main(["journal", "show", str(journal)]) == 0
    out = capsys.readouterr().out
    assert "play left" not in out and "so far" not in out
    assert f"The results: boardai 2048 compare --from {journal}" in out


def test_many_games_part_way_are_listed_up_to_a_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "run.jsonl"
    header = {"command": "eval", "players": ["greedy"], "seed": 1, "games": 40, "records": False}
    with Journal.open(journal, header) as j:
        part = j.part("greedy", PLAYED)
        for index in range(SHOWN_PART_WAY + 3):
            save_partial(part.partial(index), "greedy", _play(Game(seed=index), "greedy", 3), 0, 0)
        capsys.readouterr()
        assert main(["journal", "show", str(journal)]) == 0
        out = capsys.readouterr().out
        assert "and 3 more (--json lists all)" in out
        assert out.count(" moves, ") == SHOWN_PART_WAY
        assert len(_shown(journal, capsys)["runs"][0]["part_way"]) == SHOWN_PART_WAY + 3


def test_othello_match_and_tournament_journals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    match = tmp_path / "m.jsonl"
    argv = ["othello", "match", "--black", "wpc", "--white", "random", "--games", "6"]
    assert main([*argv, "--workers", "1", "--resume", str(match), "--part", "0:4"]) == 0
    (run,) = _shown(match, capsys)["runs"]
    assert run["run"] == "wpc vs random" and run["finished"] == [0, 1, 2, 3]
    assert run["to_play"] == 2 and run["cpu_seconds_left"] is None  # Othello games: no times

    tour = tmp_path / "t.jsonl"
    argv = ["othello", "tournament", "--agents", "random", "wpc", "greedy", "--games", "4"]
    assert main([*argv, "--workers", "1", "--resume", str(tour), "--part", "1:3"]) == 0
    runs = _shown(tour, capsys)["runs"]
    header = json.loads(tour.read_text().splitlines()[0])
    assert [r["run"] for r in runs] == run_keys(header)
    assert [r["run"] for r in runs] == ["random vs wpc", "random vs greedy", "wpc vs greedy"]
    assert all(r["finished"] == [1, 2] and r["to_play"] == 2 for r in runs)
    capsys.readouterr()
    assert main(["journal", "show", str(tour)]) == 0
    out = capsys.readouterr().out
    assert "othello tournament" in out and "compare --from" not in out


@given(st.sets(st.integers(0, 60)))
def test_spans_name_exactly_the_games(games: set[int]) -> None:
    text = spans(sorted(games))
    back: set[int] = set()
    for piece in filter(None, text.split(", ")):
        lo, _, hi = piece.partition("-")
        back |= set(range(int(lo), int(hi or lo) + 1))
    assert back == games
    assert text.count(", ") + bool(games) == sum(  # one piece a run of consecutive games
        1 for g in games if g - 1 not in games
    )


def test_a_missing_file_or_not_a_journal_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "x.json").write_text('{"a": 1}\n')
    for name, says in (("none.jsonl", "No such file"), ("x.json", "is not a journal")):
        capsys.readouterr()
        assert main(["journal", "show", str(tmp_path / name)]) == 2
        err = capsys.readouterr().err
        assert says in err and err.count("\n") == 1


def test_a_line_that_is_not_an_object_ends_the_journal_as_a_torn_line_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "run.jsonl"
    argv = ["2048", "eval", "--agent", "greedy", "--games", "4", "--seed", "2", "--workers", "1"]
    assert main([*argv, "--resume", str(journal), "--part", "0:3"]) == 0
    header, *games = journal.read_text().splitlines()
    journal.write_text("\n".join([header, games[0], "[1, 2]", *games[1:]]) + "\n")
    (run,) = _shown(journal, capsys)["runs"]
    assert run["finished"] == [json.loads(games[0])["index"]]
    target = tmp_path / "merged.jsonl"
    assert main(["journal", "merge", str(target), str(journal)]) == 0
    assert len(target.read_text().splitlines()) == 2  # the header and the one whole game


@pytest.mark.parametrize(
    ("edit", "says"),
    [
        (lambda g: {**g, "index": "abc"}, 'run.jsonl:3: game index "abc" is not a whole number'),
        (lambda g: {**g, "index": True}, "run.jsonl:3: game index true is not a whole number"),
        (lambda g: {k: v for k, v in g.items() if k != "result"}, "run.jsonl:3: not a game line"),
    ],
)
def test_a_game_line_edited_by_hand_is_one_line_to_every_reader(
    edit: Any, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "run.jsonl"
    argv = ["2048", "eval", "--agent", "greedy", "--games", "3", "--seed", "2", "--workers", "1"]
    assert main([*argv, "--resume", str(journal), "--part", "0:2"]) == 0
    header, first, second = journal.read_text().splitlines()
    journal.write_text("\n".join([header, first, json.dumps(edit(json.loads(second)))]) + "\n")
    capsys.readouterr()
    for command in (
        [*argv, "--resume", str(journal)],
        ["journal", "show", str(journal)],
        ["journal", "merge", str(tmp_path / "merged.jsonl"), str(journal)],
    ):
        assert main(command) == 2, command
        err = capsys.readouterr().err
        assert says in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_result_the_run_cannot_read_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "run.jsonl"
    argv = ["2048", "eval", "--agent", "greedy", "--games", "3", "--seed", "2", "--workers", "1"]
    assert main([*argv, "--resume", str(journal), "--part", "0:1"]) == 0
    header, first = journal.read_text().splitlines()
    journal.write_text("\n".join([header, json.dumps({**json.loads(first), "result": 7})]) + "\n")
    capsys.readouterr()
    assert main([*argv, "--resume", str(journal)]) == 2
    err = capsys.readouterr().err
    assert "a game line this run cannot read" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    "argv",
    [
        ["2048", "eval", "--agent", "greedy", "--games", "4", "--seed", "3", "--json", "x.json"],
        ["2048", "compare", "--agents", "greedy", "random", "--games", "3", "--seed", "2"],
        [
            *("othello", "match", "--black", "wpc", "--white", "random", "--games", "4"),
            *("--epsilon", "0.1", "--no-swap", "--seed", "5"),
        ],
        [
            *("othello", "match", "--black", "wpc", "--white", "greedy", "--games", "3"),
            *("--random-plies", "2-6", "--seed", "4", "--record", "g.jsonl"),
        ],
        [
            *("othello", "tournament", "--agents", "random", "wpc", "greedy", "--games", "2"),
            *("--seed", "1", "--record", "g.jsonl"),
        ],
    ],
    ids=["eval-with-records", "compare", "match", "match-random-openings", "tournament"],
)
def test_the_command_shown_goes_on_with_the_run(
    argv: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``journal show`` names the command that resumes its run, whatever the run fixed in its
    header (records, epsilon, colours); run as shown, it finishes the run."""
    monkeypatch.chdir(tmp_path)
    journal = "run one.jsonl"  # a space: the command must quote it
    assert main([*argv, "--workers", "1", "--resume", journal, "--part", "0:1"]) == 0
    capsys.readouterr()
    assert main(["journal", "show", journal]) == 0
    (line,) = [x for x in capsys.readouterr().out.splitlines() if x.startswith("To go on: ")]
    again = line.removeprefix("To go on: ")
    assert _shown(Path(journal), capsys)["resume"] == again
    words = shlex.split(again)
    assert words[0] == "boardai" and words[-2:] == ["--resume", journal]
    assert main([*words[1:], "--workers", "1"]) == 0
    runs = _shown(Path(journal), capsys)["runs"]
    assert runs and all(r["to_play"] == 0 and r["part_way"] == [] for r in runs)
    assert all(len(r["finished"]) == r["games"] for r in runs)
    capsys.readouterr()
    assert main(["journal", "show", journal]) == 0
    out = capsys.readouterr().out
    assert "To go on" not in out
    if argv[0] == "othello":  # no other reader: the same command reports it, playing nothing
        assert f"it plays none): {again}" in out
    else:
        assert "The results: boardai 2048 compare --from" in out


def test_a_header_of_an_unknown_command_names_no_command() -> None:
    assert resume_command({"command": "train", "players": ["x"]}, "j.jsonl") is None
    assert resume_command({"command": "othello match", "players": ["a"]}, "j.jsonl") is None
