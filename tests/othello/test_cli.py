"""The Othello commands: perft, match, tournament, play, gtp, train."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from boardai.cli import main


def test_perft_json(tmp_path: Path) -> None:
    out = tmp_path / "perft.json"
    assert main(["othello", "perft", "6", "--json", str(out)]) == 0
    assert json.loads(out.read_text())["leaves"] == 8200


def test_match_and_tournament(tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    args = ["othello", "match", "--black", "wpc", "--white", "random", "--games", "4"]
    assert main([*args, "--workers", "1", "--epsilon", "0.1", "--json", str(out)]) == 0
    r = json.loads(out.read_text())
    assert r["games"] == 4 and 0 <= r["score"] <= 1 and "score_se" in r
    t = ["othello", "tournament", "--agents", "random", "greedy", "--games", "2", "--workers", "1"]
    assert main(t) == 0


def test_match_on_a_game_clock_reports_each_players_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "m.json"
    args = ["othello", "match", "--black", "alphabeta:depth=60,endgame=0", "--white", "random"]
    # depth 60 with no time= of its own: only the clock's share ends each move
    argv = [*args, "--games", "2", "--workers", "1", "--clock", "4", "--json", str(out)]
    assert main(argv) == 0
    r = json.loads(out.read_text())
    assert r["games"] == 2 and r["forfeits"] == []
    assert 0 < r["a_seconds_a_move"] <= r["a_slowest"] < 4 / 3
    assert r["b_seconds_a_move"] < r["a_seconds_a_move"]  # random thinks less than a search
    shown = capsys.readouterr()
    assert "seconds a move (random)" in shown.out
    assert "warning" not in shown.err  # depth 60 is no warning where the clock bounds it
    for bad in ("x", "10+5", "10+0/3", "-1", "0", "nan"):
        with pytest.raises(SystemExit) as e:
            main([*args, "--clock", bad])
        assert e.value.code == 2, bad
        err = capsys.readouterr().err.strip()
        assert err.startswith("boardai: error: argument --clock") and "\n" not in err, bad


def test_match_and_tournament_records_replay_to_their_results(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from boardai.othello.board import BLACK
    from boardai.records import read_records, replay

    rec, out = tmp_path / "m.jsonl", tmp_path / "m.json"
    args = ["othello", "match", "--black", "wpc", "--white", "random", "--games", "4"]
    argv = [*args, "--epsilon", "0.1", "--workers", "1", "--record", str(rec), "--json", str(out)]
    assert main(argv) == 0
    records = read_records(rec)
    assert [r["index"] for r in records] == [0, 1, 2, 3]
    players = [(r["players"]["black"], r["players"]["white"]) for r in records]
    assert players == [("wpc", "random"), ("random", "wpc")] * 2
    discs = 0  # wpc's final disc difference, each game replayed from its record
    for r in records:
        board = replay(r)[-1].board
        discs += board.score(BLACK) * (1 if r["players"]["black"] == "wpc" else -1)
    assert discs / 4 == json.loads(out.read_text())["disc_diff"]
    capsys.readouterr()
    assert main(["replay", str(rec), "--game", "1", "--final"]) == 0
    assert "moves: black (random) " in capsys.readouterr().out  # the players by colour
    # a resumed run keeps the records of the games its journal holds
    journal, more = tmp_path / "j.jsonl", tmp_path / "more.jsonl"
    assert main([*args, "--workers", "1", "--resume", str(journal), "--record", str(rec)]) == 0
    bigger = ["othello", "match", "--black", "wpc", "--white", "random", "--games", "6"]
    assert main([*bigger, "--workers", "1", "--resume", str(journal), "--record", str(more)]) == 0
    assert [r["moves"] for r in read_records(more)][:4] == [r["moves"] for r in read_records(rec)]
    assert read_records(journal)[1]["players"]["black"] == "random"  # a journal's name them too
    t = ["othello", "tournament", "--agents", "random", "greedy", "wpc", "--games", "2"]
    assert main([*t, "--workers", "1", "--record", str(tmp_path / "t.jsonl")]) == 0
    pairs = {tuple(r["players"].values()) for r in read_records(tmp_path / "t.jsonl")}
    assert len(read_records(tmp_path / "t.jsonl")) == 6 and ("greedy", "random") in pairs


def test_bad_spec_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["othello", "match", "--black", "nope", "--white", "wpc"]) == 2
    assert "unknown othello agent 'nope'" in capsys.readouterr().err


def test_play_in_the_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("a1\nd3\neval\nundo\n\nf5\nquit\n"))
    rec = tmp_path / "game.json"
    assert main(["othello", "play", "--ai", "alphabeta:depth=2", "--record", str(rec)]) == 0
    record = json.loads(rec.read_text())
    assert record["game"] == "othello" and record["moves"][0] == "f5"
    out = capsys.readouterr().out
    assert "illegal move a1" in out and "unknown move" not in out  # Enter alone: no move


def test_gtp_server_on_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("name\ngenmove black\nquit\n"))
    assert main(["othello", "gtp", "--agent", "wpc", "--seed", "1"]) == 0
    answers = capsys.readouterr().out.split("\n\n")
    assert answers[0] == "= boardai wpc" and answers[1] in ("= D3", "= C4", "= F5", "= E6")


def test_train_ntuple_and_play_it(tmp_path: Path) -> None:
    model = tmp_path / "nt.npz"
    args = [
        "othello",
        "train",
        "ntuple",
        "--out",
        str(model),
        "--episodes",
        "400",
        "--tuples",
        "small",
    ]
    assert main([*args, "--eval-every", "200", "--eval-games", "4"]) == 0
    assert (
        main(
            [
                *args[:-1],
                "small",
                "--episodes",
                "600",
                "--resume",
                "--eval-every",
                "200",
                "--eval-games",
                "4",
            ]
        )
        == 0
    )
    from boardai.othello.ntuple_file import load_model

    _, meta = load_model(model)
    assert meta["episodes"] == 600 and len(meta["evals"]) == 3
    m = ["othello", "match", "--black", f"ntuple:model={model}", "--white", "random"]
    assert main([*m, "--games", "2", "--workers", "1"]) == 0
    with pytest.raises(SystemExit) as e:  # argparse: not a positive integer
        main([*args, "--stages", "0"])
    assert e.value.code == 2
    assert main([*args, "--stages", "31"]) == 2  # more than MAX_STAGES


def test_train_dqn_and_play_it(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    model = tmp_path / "dqn.pt"
    args = ["othello", "train", "dqn", "--out", str(model), "--games", "4", "--eval-every", "2"]
    assert main([*args, "--eval-games", "2"]) == 0
    from boardai.othello import Board
    from boardai.othello.agents import make_agent

    agent = make_agent(f"dqn:model={model}")
    b = Board.initial().play("d3")
    assert agent.act(b) in b.legal_actions() and len(agent.q(b)) == 65
    bad = tmp_path / "bad.pt"
    bad.write_bytes(b"not a model")
    with pytest.raises(ValueError, match=r"bad\.pt"):
        make_agent(f"dqn:model={bad}")


def test_play_on_a_terminal_draws_the_coloured_board() -> None:
    import sys

    import pexpect

    args = ["-m", "boardai", "othello", "play", "--ai", "wpc", "--seed", "1"]
    child = pexpect.spawn(
        sys.executable, args, encoding="utf-8", codec_errors="replace", timeout=120
    )
    child.expect("black 2  white 2")  # under the board drawn in colour, not the text one
    assert "●" in child.before and "(* = legal)" not in child.before
    child.expect("black > ")
    child.sendline("d3")
    child.expect("AI plays")
    child.expect(r"black \d+  white \d+")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_train_dqn_resume_goes_on_with_the_runs_own_preset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from boardai.othello.qnet import load_checkpoint

    model = tmp_path / "strong.pt"
    args = ["othello", "train", "dqn", "--out", str(model), "--eval-every", "100"]
    small = ["--parallel", "2", "--hidden", "16", "--layers", "1", "--batch-size", "8"]
    small += ["--warmup", "8"]
    assert main([*args, "--preset", "strong", *small, "--games", "2"]) == 0
    assert main([*args, "--resume", "--games", "4"]) == 0  # no --preset: the run's own
    _, config, _ = load_checkpoint(model)
    assert (config["preset"], config["hidden"], config["games"]) == ("strong", 16, 4)
    capsys.readouterr()
    assert main([*args, "--resume", "--preset", "fc64", "--games", "6"]) == 2
    assert "the run in" in capsys.readouterr().err
