"""A run played in parts (``--part``) on machines that share no cluster, each with its own
journal, then put together (``boardai journal merge``), is the run played whole: the same games,
its games cut short carried over, and nothing lost by a run still writing to the target."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boardai.arena.journal import PARTIAL_SUFFIX, Journal, Merged, merge
from boardai.arena.results import PLAYED
from boardai.arena.solo import load_partial, play_games, save_partial
from boardai.cli import main
from boardai.g2048 import Game
from boardai.g2048.agents import make_agent
from tests.arena.untimed import untimed

SPEC = "heuristic"  # memoryless: its games cut short are kept
HEADER = {"command": "eval", "players": [SPEC], "seed": 5, "games": 6, "records": False}


def _indices(journal: Path) -> list[int]:
    return sorted(json.loads(line)["index"] for line in journal.read_text().splitlines()[1:])


def test_a_2048_run_in_two_parts_merged_is_the_whole_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["2048", "eval", "--agent", "greedy", "--games", "12", "--seed", "3"]
    assert main([*argv, "--workers", "1", "--json", str(tmp_path / "whole.json")]) == 0
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    part_a = str(tmp_path / "a.json")
    assert main([*argv, "--workers", "1", "--json", part_a, "--resume", str(a),
                 "--part", "0:5"]) == 0  # fmt: skip
    assert json.loads(Path(part_a).read_text())["summary"]["games"] == 5  # the part alone
    assert main([*argv, "--workers", "2", "--json", str(tmp_path / "b.json"), "--resume", str(b),
                 "--part", "5:12"]) == 0  # fmt: skip
    assert _indices(a) == list(range(5)) and _indices(b) == list(range(5, 12))
    capsys.readouterr()
    assert main(["journal", "merge", str(a), str(b)]) == 0
    assert "7 games added, 12 in all" in capsys.readouterr().out
    assert _indices(a) == list(range(12))
    before = a.read_text()
    merged = str(tmp_path / "merged.json")
    assert main([*argv, "--workers", "1", "--json", merged, "--resume", str(a)]) == 0
    assert a.read_text() == before  # nothing played again
    assert untimed(Path(merged)) == untimed(tmp_path / "whole.json")
    assert main(["journal", "merge", str(a), str(b)]) == 0  # again: nothing to add
    assert "0 games added, 12 in all" in capsys.readouterr().out
    assert a.read_text() == before


def test_an_othello_match_in_parts_merged_into_a_new_file_is_the_whole_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["othello", "match", "--black", "wpc", "--white", "random", "--games", "6"]
    argv += ["--epsilon", "0.1", "--workers", "1"]
    assert main([*argv, "--json", str(tmp_path / "whole.json")]) == 0
    parts = [tmp_path / "p0.jsonl", tmp_path / "p1.jsonl"]
    assert main([*argv, "--resume", str(parts[0]), "--part", "0:4"]) == 0
    assert main([*argv, "--resume", str(parts[1]), "--part", "4:6"]) == 0
    target = tmp_path / "all.jsonl"
    target.touch()  # empty: as if missing
    assert main(["journal", "merge", str(target), *map(str, parts)]) == 0  # made from the first
    assert target.read_text().splitlines()[0] == parts[0].read_text().splitlines()[0]
    capsys.readouterr()
    assert main([*argv, "--json", str(tmp_path / "merged.json"), "--resume", str(target)]) == 0
    assert untimed(tmp_path / "merged.json") == untimed(tmp_path / "whole.json")
    capsys.readouterr()


def _cut_game(index: int, moves: int) -> Game:
    """Game ``index`` of HEADER's run played ``moves`` moves in (as a partial file holds it)."""
    agent = make_agent(SPEC, seed=0)
    game = Game(seed=5, index=index)  # HEADER's seed
    for _ in range(moves):
        game.move(agent.act(game.board))
    return game


def test_merge_carries_the_furthest_games_cut_short_and_drops_those_finished(
    tmp_path: Path,
) -> None:
    a, b = str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl")
    with Journal.open(a, HEADER) as j:  # here: games 0-1 finished, 2 and 3 cut short
        part = j.part(SPEC, PLAYED)
        play_games(SPEC, 2, 5, journal=part)
        save_partial(part.partial(2), SPEC, _cut_game(2, 30), 1.0, 1.0)
        save_partial(part.partial(3), SPEC, _cut_game(3, 40), 1.0, 1.0)
        prefix = part.partial_prefix
    with Journal.open(b, HEADER) as j:  # elsewhere: game 3 finished, 2 further on, 4 begun
        part = j.part(SPEC, PLAYED)
        run = play_games(SPEC, 4, 5, journal=part)  # games 0-3
        save_partial(part.partial(2), SPEC, _cut_game(2, 50), 2.0, 2.0)
        save_partial(part.partial(4), SPEC, _cut_game(4, 20), 2.0, 2.0)
    lines = [json.loads(x) for x in Path(b).read_text().splitlines()]
    Path(b).write_text("".join(json.dumps(x) + "\n" for x in lines if x.get("index") != 2))
    assert run.results[2].moves > 50  # game 2 is cut short there, as written above
    done = merge(a, [b])
    assert (done.added, done.games, done.partial) == (1, 3, 2)  # game 3; files of 2 and 4
    assert _indices(Path(a)) == [0, 1, 3]
    folder = Path(a + PARTIAL_SUFFIX)
    names = sorted(p.name for p in folder.iterdir())
    assert names == [Path(f"{prefix}{i}.json").name for i in (2, 4)]  # 3 finished: its file went
    resumed = load_partial(f"{prefix}2.json", SPEC, 5, 2)
    assert resumed is not None and resumed[0].moves == 50  # the further copy
    # resuming plays games 2, 4 and 5, going on from the positions carried over
    with Journal.open(a, HEADER) as j:
        finished = play_games(SPEC, 6, 5, journal=j.part(SPEC, PLAYED))
    whole = play_games(SPEC, 6, 5)
    keep = ("index", "seed", "score", "max_tile", "moves")
    assert [[getattr(r, k) for k in keep] for r in finished.results] == [
        [getattr(r, k) for k in keep] for r in whole.results
    ]
    assert not folder.exists()  # every game finished: the folder went with its files


def test_merging_into_a_journal_a_run_is_writing_loses_no_line(tmp_path: Path) -> None:
    a, b = str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl")
    with Journal.open(b, HEADER) as j:
        play_games(SPEC, 4, 5, journal=j.part(SPEC, PLAYED))
    merged: list[Merged] = []

    def merge_once(*_: object) -> None:  # after the run's first game, as another process would
        if not merged:
            merged.append(merge(a, [b]))

    with Journal.open(a, HEADER) as j:  # the run has the target open and writes as it goes
        run = play_games(SPEC, 6, 5, journal=j.part(SPEC, PLAYED), on_result=merge_once)
    assert merged[0].added == 3  # games 1-3: game 0 was there
    lines = Path(a).read_text().splitlines()
    assert all(json.loads(line) for line in lines)  # every line whole
    assert _indices(Path(a)) == [0, 1, 1, 2, 2, 3, 3, 4, 5]  # the run played 1-3 as well
    assert len(run.results) == 6
    with Journal.open(a, HEADER) as j:  # the first line of a game counts: the same game
        assert sorted(j.part(SPEC, PLAYED).done) == list(range(6))


def test_a_torn_last_line_of_the_target_is_dropped_before_merging(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path, games in ((a, 1), (b, 3)):
        with Journal.open(path, HEADER) as j:
            play_games(SPEC, games, 5, journal=j.part(SPEC, PLAYED))
    with a.open("a") as f:
        f.write('{"run": "heuristic", "ind')  # the process died writing a line
    assert merge(a, [b]).added == 2
    assert _indices(a) == [0, 1, 2]


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--part", "5"], "argument --part: not START:STOP"),
        (["--part", "3:2"], "argument --part: not START:STOP"),
        (["--part=-1:2"], "argument --part: not START:STOP"),
        (["--part", "2:7"], "--part 2:7 reaches past the run's 6 games"),
    ],
)
def test_a_bad_part_is_one_line_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    journal = tmp_path / "j.jsonl"
    base = ["2048", "eval", "--agent", "greedy", "--games", "6", "--resume", str(journal)]
    try:
        code = main([*base, *argv])
    except SystemExit as e:  # argparse's own check of the option's form
        code = int(str(e.code))
    err = capsys.readouterr().err
    assert code == 2 and says in err and "Traceback" not in err
    assert len([line for line in err.splitlines() if "error:" in line]) == 1
    assert not journal.exists()


def test_merge_refuses_another_run_a_missing_file_and_itself(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    with Journal.open(a, HEADER):
        pass
    with Journal.open(b, {**HEADER, "seed": 6}):
        pass
    before = a.read_text()
    for argv, says in (
        ([a, b], f"{b} is the journal of another run than {a} (seed: 5 in {a}, 6 in {b})"),
        ([a, tmp_path / "none.jsonl"], "none.jsonl: No such file or directory"),
        ([a, a], f"{a} is both the target and a source"),
    ):
        assert main(["journal", "merge", *map(str, argv)]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and says in err[0], err
    b.write_text('{"not": "a journal"}\n')
    assert main(["journal", "merge", str(a), str(b)]) == 2
    assert "is not a journal" in capsys.readouterr().err
    assert a.read_text() == before  # refused: untouched
