"""The journal: a run stopped part-way and resumed with --resume gives the same final file as a
run never stopped, playing only the missing games; a journal of another run is one line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from boardai.arena.journal import Journal, dataclass_codec
from boardai.arena.match import run_match
from boardai.arena.match_results import GameOutcome
from boardai.arena.results import PLAYED
from boardai.arena.solo import play_games
from boardai.cli import main
from tests.arena.untimed import untimed as _untimed


def _stop_after(n: int) -> Any:
    count = [0]

    def on_result(*_: Any) -> None:
        count[0] += 1
        if count[0] == n:
            raise KeyboardInterrupt  # as Ctrl-C between two games

    return on_result


def test_eval_interrupted_then_resumed_writes_the_uninterrupted_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["2048", "eval", "--agent", "greedy", "--games", "20", "--seed", "4", "--workers", "2"]
    assert main([*argv, "--json", str(tmp_path / "whole.json")]) == 0
    journal = tmp_path / "run.jsonl"
    header = {"command": "eval", "players": ["greedy"], "seed": 4, "games": 20, "records": True}
    with Journal.open(journal, header) as j:
        stopped = play_games(
            "greedy", 20, 4, workers=1, record=True, journal=j.part("greedy", PLAYED),
            on_result=_stop_after(7),
        )  # fmt: skip
    assert stopped.interrupted and len(stopped.results) == 7
    assert len(journal.read_text().splitlines()) == 1 + 7
    with journal.open("a") as f:
        f.write('{"run": "greedy", "ind')  # the process died writing a line
    assert main([*argv, "--json", str(tmp_path / "resumed.json"), "--resume", str(journal)]) == 0
    assert _untimed(tmp_path / "resumed.json") == _untimed(tmp_path / "whole.json")
    lines = [json.loads(line) for line in journal.read_text().splitlines()]
    assert sorted(line["index"] for line in lines[1:]) == list(range(20))  # none played twice
    capsys.readouterr()


def test_tournament_resumes_each_pairing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    names = ["random", "greedy", "wpc"]
    argv = ["othello", "tournament", "--agents", *names, "--games", "6", "--epsilon", "0.1"]
    argv += ["--workers", "1"]
    assert main([*argv, "--json", str(tmp_path / "whole.json")]) == 0
    journal = tmp_path / "t.jsonl"
    header = {
        "command": "othello tournament", "players": names, "seed": 0, "games": 6,
        "epsilon": 0.1, "swap": True,
    }  # fmt: skip
    with Journal.open(journal, header) as j:  # the first pairing done, the second stopped
        for a, b, stop in (("random", "greedy", 99), ("random", "wpc", 4)):
            part = j.part(f"{a} vs {b}", dataclass_codec(GameOutcome))
            run_match(a, b, 6, epsilon=0.1, journal=part, on_game=_stop_after(stop))
    assert len(journal.read_text().splitlines()) == 1 + 6 + 4
    assert main([*argv, "--json", str(tmp_path / "resumed.json"), "--resume", str(journal)]) == 0
    assert _untimed(tmp_path / "resumed.json") == _untimed(tmp_path / "whole.json")
    assert len(journal.read_text().splitlines()) == 1 + 3 * 6
    capsys.readouterr()


def test_a_journal_of_another_run_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = str(tmp_path / "m.jsonl")
    argv = ["othello", "match", "--black", "wpc", "--white", "random", "--workers", "1"]
    assert main([*argv, "--games", "6", "--resume", journal]) == 0
    capsys.readouterr()
    assert main([*argv, "--games", "4", "--resume", journal]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "journal of another run (games: 6 there, 4 now)" in err[0]
    assert main([*argv, "--games", "8", "--epsilon", "0.1", "--resume", journal]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "epsilon: 0.0 there, 0.1 now" in err[0]
    # a run that kept no records, resumed asking for them: said so, with what to do
    record = str(tmp_path / "r.jsonl")
    assert main([*argv, "--games", "6", "--resume", journal, "--record", record]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].endswith(
        "m.jsonl keeps no game records (its run was started without --json or --record): "
        "resume it without them, or give another --resume file"
    )
    compare = ["2048", "compare", "--agents", "random", "--games", "2", "--workers", "1"]
    journal = str(tmp_path / "c.jsonl")
    assert main([*compare, "--resume", journal, "--json", str(tmp_path / "c.json")]) == 0
    capsys.readouterr()
    assert main([*compare, "--resume", journal]) == 2
    assert "c.jsonl keeps game records (its run was started with --json): resume it with them" in (
        capsys.readouterr().err
    )


def test_more_games_extend_a_journal_and_fewer_are_another_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["2048", "eval", "--agent", "greedy", "--seed", "6", "--workers", "1"]
    journal = tmp_path / "run.jsonl"
    five = str(tmp_path / "five.json")
    assert main([*argv, "--games", "5", "--json", five, "--resume", str(journal)]) == 0
    first = journal.read_text().splitlines()
    assert main([*argv, "--games", "9", "--json", str(tmp_path / "whole.json")]) == 0
    out = str(tmp_path / "extended.json")
    assert main([*argv, "--games", "9", "--json", out, "--resume", str(journal)]) == 0
    lines = journal.read_text().splitlines()
    assert json.loads(lines[0]) == {**json.loads(first[0]), "games": 9}
    assert lines[1:6] == first[1:]  # the 5 games kept, only 4 more played
    assert sorted(json.loads(line)["index"] for line in lines[1:]) == list(range(9))
    assert _untimed(tmp_path / "extended.json") == _untimed(tmp_path / "whole.json")
    capsys.readouterr()
    assert main([*argv, "--games", "7", "--resume", str(journal)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "games: 9 there, 7 now" in err[0]
    assert journal.read_text().splitlines() == lines  # refused: untouched


def test_a_journal_names_its_models_and_refuses_other_weights(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from boardai.g2048.train.trainer import TrainConfig, Trainer

    trainer = Trainer(TrainConfig(patterns="0123,4567", seed=1))
    trainer.train(20)
    net = tmp_path / "n.npz"
    trainer.save(net)
    journal = tmp_path / "run.jsonl"
    argv = ["2048", "eval", "--agent", f"ntuple:model={net}", "--games", "3", "--workers", "1"]
    assert main([*argv, "--resume", str(journal)]) == 0
    header = json.loads(journal.read_text().splitlines()[0])
    assert list(header["models"]) == [str(net)] and len(header["models"][str(net)]) == 16
    assert main([*argv, "--games", "4", "--resume", str(journal)]) == 0  # same weights: resumes
    trainer.train(20)  # other weights under the same path
    trainer.save(net)
    capsys.readouterr()
    assert main([*argv, "--games", "5", "--resume", str(journal)]) == 2
    err = capsys.readouterr().err
    assert "journal of another run" in err and "models" in err and err.count("\n") == 1
    # a journal written before headers named models resumes as before (nothing to check)
    lines = journal.read_text().splitlines()
    old = json.loads(lines[0])
    del old["models"]
    journal.write_text("\n".join([json.dumps(old), *lines[1:]]) + "\n")
    assert main([*argv, "--games", "5", "--resume", str(journal)]) == 0
    capsys.readouterr()
