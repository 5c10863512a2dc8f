"""The arena: seeding, determinism across worker counts, files, and the commands."""

from __future__ import annotations

import json
import math
import time

import pytest

from boardai.arena import RunResult, play_games
from boardai.arena.results import wilson_interval
from boardai.arena.seeding import agent_seed, game_seed
from boardai.arena.solo import Solo
from boardai.cli import main
from boardai.errors import UsageError
from boardai.g2048 import Game


def test_seeds_depend_on_run_and_index_only():
    assert game_seed(5, 3) == game_seed(5, 3)
    assert len({game_seed(s, i) for s in range(4) for i in range(50)}) == 200
    assert game_seed(1, 2) != agent_seed(1, 2)
    with pytest.raises(ValueError):
        game_seed(-1, 0)


def test_same_results_whatever_the_worker_count():
    one = play_games("greedy", 6, seed=7, workers=1)
    two = play_games("greedy", 6, seed=7, workers=2)
    times = ("seconds", "cpu_seconds")
    assert one.results == [r.__class__(**{**r.__dict__, **{t: getattr(o, t) for t in times}})
                           for r, o in zip(two.results, one.results, strict=True)]  # fmt: skip
    assert [r.index for r in one.results] == list(range(6))


def test_games_replay_from_their_records():
    seen = []
    run = play_games(
        "expectimax:preset=fast", 2, seed=1, record=True, on_result=lambda r, rec: seen.append(rec)
    )
    for result, rec in zip(run.results, sorted(seen, key=lambda r: r["index"]), strict=True):
        game = Game.from_record(rec)
        assert (game.score, game.moves, game.board.max_tile()) == (
            result.score,
            result.moves,
            result.max_tile,
        )
        assert rec["agent"] == "expectimax:preset=fast"


def test_json_round_trip_and_csv(tmp_path):
    run = play_games("random", 5, seed=3)
    path = tmp_path / "run.json"
    run.write_json(path)
    back = RunResult.read_json(path)
    assert back == run
    assert json.loads(path.read_text())["summary"]["games"] == 5
    run.write_csv(tmp_path / "run.csv")
    lines = (tmp_path / "run.csv").read_text().splitlines()
    assert lines[0].startswith("agent,index,seed,score") and len(lines) == 6
    with pytest.raises(UsageError, match="not an arena result"):
        RunResult.read_json(tmp_path / "run.csv")


class _Sleepy:
    """Greedy, but it waits 2 ms before every move: wall-clock time, no CPU time."""

    def __init__(self) -> None:
        from boardai.g2048.agents import make_agent

        self.inner = make_agent("greedy")

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def act(self, state):
        time.sleep(0.002)
        return self.inner.act(state)


def test_a_game_keeps_its_cpu_time_apart_from_its_wall_clock_time(tmp_path):
    result, _ = Solo("greedy", seed=1).play([_Sleepy()], 0)
    assert result.seconds >= 0.002 * result.moves
    assert 0.0 <= result.cpu_seconds < result.seconds / 2
    run = RunResult("greedy", 1, 1, 1, [result])
    assert run.cpu_ms_per_move() == pytest.approx(1000 * result.cpu_seconds / result.moves)
    # a file from before CPU time was kept: NaN, written back as null (JSON has no NaN)
    old = run.to_dict()
    del old["results"][0]["cpu_seconds"]
    back = RunResult.from_dict(old)
    assert math.isnan(back.results[0].cpu_seconds) and math.isnan(back.cpu_ms_per_move())
    path = tmp_path / "old.json"
    back.write_json(path)
    data = json.loads(path.read_text(), parse_constant=lambda c: pytest.fail(f"{c} in JSON"))
    assert data["results"][0]["cpu_seconds"] is None and data["cpu_ms_per_move"] is None
    assert math.isnan(RunResult.read_json(path).results[0].cpu_seconds)


def test_bad_specs_fail_before_playing():
    with pytest.raises(UsageError, match="nosuchagent"):
        play_games("nosuchagent", 3)


def test_wilson_interval_is_honest_at_the_edges():
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == 1.0
    lo, hi = wilson_interval(5, 10)
    assert lo < 0.5 < hi


@pytest.mark.parametrize("spec", ["expectimax:depth=-1", "nosuchagent", "greedy:x=1"])
def test_bad_spec_is_one_line_and_exit_2(spec, capsys):
    assert main(["2048", "eval", "--agent", spec, "--games", "2"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("boardai: error:")


def test_eval_writes_every_file(tmp_path, capsys):
    paths = {k: tmp_path / f"out.{k}" for k in ("json", "csv", "png", "jsonl")}
    code = main([
        "2048", "eval", "--agent", "greedy", "--games", "4", "--seed", "2", "--workers", "1",
        "--json", str(paths["json"]), "--csv", str(paths["csv"]), "--plot", str(paths["png"]),
        "--record", str(paths["jsonl"]), "--buckets", "500",
    ])  # fmt: skip
    assert code == 0
    out = capsys.readouterr().out
    assert "average score" in out and "ended on" in out and "score bands" in out
    assert RunResult.read_json(paths["json"]).summary().games == 4
    assert paths["png"].read_bytes()[:4] == b"\x89PNG"
    records = [json.loads(line) for line in paths["jsonl"].read_text().splitlines()]
    assert [r["index"] for r in records] == [0, 1, 2, 3]


def test_compare_and_watch(tmp_path, capsys):
    compare = ["2048", "compare", "--agents", "random", "greedy", "--games", "3"]
    assert main([*compare, "--workers", "1"]) == 0
    assert "greedy" in capsys.readouterr().out
    record = tmp_path / "w.jsonl"
    watch = ["2048", "watch", "--agent", "greedy", "--seed", "1", "--delay", "0"]
    assert main([*watch, "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "game over: score" in out
    game = Game.from_record(json.loads(record.read_text()))
    assert game.is_over()


def test_compare_json_holds_every_games_record(tmp_path, capsys):
    """Like eval's: replay, render and the tui open it; a resumed run keeps them too."""
    from boardai.records import read_records

    out, journal = tmp_path / "c.json", tmp_path / "c.jsonl"
    compare = ["2048", "compare", "--agents", "random", "greedy", "--games", "3", "--seed", "4"]
    assert main([*compare, "--workers", "1", "--json", str(out), "--resume", str(journal)]) == 0
    records = read_records(out)
    assert [r["agent"] for r in records] == ["random"] * 3 + ["greedy"] * 3
    data = json.loads(out.read_text())
    scores = [g["score"] for run in data["runs"] for g in run["results"]]
    assert [Game.from_record(r).score for r in records] == scores
    capsys.readouterr()
    assert main(["replay", str(out), "--game", "4", "--final"]) == 0
    assert f"by greedy: score {scores[4]}," in capsys.readouterr().out
    again = tmp_path / "again.json"  # every game from the journal, records and all
    assert main([*compare, "--workers", "1", "--json", str(again), "--resume", str(journal)]) == 0
    assert read_records(again) == records


def test_bench_search_json(capsys):
    bench = ["2048", "bench", "search", "--depths", "1", "2", "--positions", "5"]
    assert main([*bench, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["depths"]) == {"1", "2"}
    assert data["depths"]["2"]["nodes_per_s"] > 0 and data["depths"]["1"]["moves_per_s"] > 0


def test_watch_in_a_terminal_redraws_and_ends():
    import sys

    import pexpect

    args = ["-m", "boardai", "2048", "watch", "--agent", "expectimax:preset=fast", "--seed", "2"]
    child = pexpect.spawn(
        sys.executable,
        [*args, "--delay", "0"],
        encoding="utf-8",
        codec_errors="replace",
        timeout=120,
    )
    child.expect("moves")  # the live board
    child.expect(r"game over: score \d+, max tile \d+")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_eval_json_opens_in_replay_and_render(tmp_path, capsys):
    path = tmp_path / "x.json"
    args = ["--agent", "greedy", "--games", "3", "--workers", "1", "--json", str(path)]
    assert main(["2048", "eval", *args]) == 0
    games = json.loads(path.read_text())["results"]
    assert [g["record"]["index"] for g in games] == [0, 1, 2]
    assert RunResult.read_json(path).records[2] == games[2]["record"]
    capsys.readouterr()
    assert main(["replay", str(path), "--game", "2", "--final"]) == 0
    out = capsys.readouterr().out
    assert f"score {games[2]['score']}," in out and f"largest tile {games[2]['max_tile']}" in out
    png = tmp_path / "x.png"
    assert main(["render", str(path), "--game", "2", "--png", str(png)]) == 0
    assert png.read_bytes()[:4] == b"\x89PNG"
