"""Paired comparison of runs on the same games: McNemar's exact test, the pairing, the files it
reads and ``2048 compare --from``."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardai.arena.paired import common_tile, mcnemar_exact, paired
from boardai.arena.results import GameResult, RunResult, read_runs
from boardai.cli import main
from boardai.errors import UsageError


def _two_sided_by_likelihood(b: int, c: int) -> float:
    """Spelled out: under Binomial(b + c, 1/2), the probability of every split no likelier
    than the one seen (for p = 1/2 the same as doubling the smaller tail)."""
    n = b + c
    prob = [Fraction(math.comb(n, k), 2**n) for k in range(n + 1)]
    return float(sum(p for p in prob if p <= prob[b]))


@given(st.integers(0, 60), st.integers(0, 60))
def test_mcnemar_exact_is_the_binomial_test(b, c):
    assert mcnemar_exact(b, c) == pytest.approx(min(1.0, _two_sided_by_likelihood(b, c)))
    assert mcnemar_exact(b, c) == mcnemar_exact(c, b)


def _run(agent, games, seed=7):
    """A run of (index, game seed, score, max tile) tuples."""
    results = [GameResult(i, s, score, tile, 100, 1.0) for i, s, score, tile in games]
    return RunResult(agent, seed, len(games), 1, results)


def test_games_pair_by_index_and_seed():
    a = _run("a", [(0, 10, 1000, 64), (1, 11, 2000, 128), (2, 12, 500, 32), (3, 13, 9, 8)])
    # game 3 has another game seed (not the same game), game 4 is b's alone
    b = _run("b", [(0, 10, 1500, 128), (1, 11, 1000, 64), (2, 12, 800, 128), (3, 99, 1, 2),
                   (4, 14, 5, 4)])  # fmt: skip
    p = paired(a, b, 128)
    assert p.games == 3
    diffs = [500, -1000, 300]
    mean = sum(diffs) / 3
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / 2)
    assert p.diff_mean == pytest.approx(mean)
    assert p.diff_sem == pytest.approx(sd / math.sqrt(3))
    # 128 reached: game 0 by b only, game 1 by a only, game 2 by b only
    assert (p.both, p.only_a, p.only_b, p.neither) == (0, 1, 2, 0)
    assert p.p_value == mcnemar_exact(1, 2)
    assert common_tile([a, b]) == 128
    assert paired(a, _run("c", []), 128).games == 0


def test_read_runs_of_eval_and_compare_files(tmp_path):
    a, b = _run("a", [(0, 10, 1000, 64)]), _run("b", [(0, 10, 900, 64)])
    one = tmp_path / "eval.json"
    a.write_json(one)
    both = tmp_path / "compare.json"
    both.write_text(json.dumps({"seed": 7, "runs": [a.to_dict(), b.to_dict()]}))
    assert [r.agent for r in read_runs(one)] == ["a"]
    assert [r.agent for r in read_runs(both)] == ["a", "b"]
    # field by field as text: a game's unknown CPU time is a NaN, which equals nothing (3.13's
    # dataclass equality compares fields with ==, where 3.11's tuples matched the same NaN)
    assert [repr(r) for r in RunResult.read_json(one).results] == [repr(r) for r in a.results]
    with pytest.raises(UsageError, match="2 runs"):
        RunResult.read_json(both)
    bad = tmp_path / "bad.json"
    bad.write_text('{"not": "a run"}')
    for path, says in ((bad, "not an arena result"), (tmp_path, "directory"),
                       (tmp_path / "none.json", "no such file")):  # fmt: skip
        with pytest.raises(UsageError, match=says):
            read_runs(path)


def test_compare_from_files(tmp_path, capsys):
    files = []
    for agent in ("random", "greedy"):
        files.append(str(tmp_path / f"{agent}.json"))
        argv = ["2048", "eval", "--agent", agent, "--games", "6", "--seed", "3", "--workers", "1"]
        assert main([*argv, "--json", files[-1]]) == 0
    capsys.readouterr()
    both = tmp_path / "both.json"
    assert main(["2048", "compare", "--from", *files, "--tile", "64", "--json", str(both)]) == 0
    out = capsys.readouterr().out
    assert [r.agent for r in read_runs(both)] == ["random", "greedy"]
    expected = paired(*(RunResult.read_json(f) for f in files), 64)
    assert expected.games == 6
    assert "game by game" in out and f"{expected.diff_mean:+,.0f}" in out

    other = str(tmp_path / "other.json")
    argv = ["2048", "eval", "--agent", "random", "--games", "2", "--seed", "4", "--workers", "1"]
    assert main([*argv, "--json", other]) == 0
    capsys.readouterr()
    assert main(["2048", "compare", "--from", files[0], other]) == 2
    err = capsys.readouterr().err
    assert "different seeds" in err and "Traceback" not in err


def test_read_runs_of_journals(tmp_path, capsys):
    journal, out = tmp_path / "c.jsonl", tmp_path / "c.json"
    argv = ["2048", "compare", "--agents", "random", "greedy", "--games", "5", "--seed", "2"]
    assert main([*argv, "--workers", "1", "--resume", str(journal), "--json", str(out)]) == 0
    capsys.readouterr()
    from_journal, from_json = read_runs(journal), read_runs(out)
    assert [r.agent for r in from_journal] == ["random", "greedy"]
    for a, b in zip(from_journal, from_json, strict=True):
        assert a.results == b.results and (a.seed, a.games) == (b.seed, b.games)
        assert not a.interrupted
    # a torn last line (a crash while writing) is left out, as on resuming
    text = journal.read_text()
    journal.write_text(text[: text.rstrip("\n").rfind("\n") + 1] + '{"run": "greedy", "ind')
    torn = read_runs(journal)
    assert len(torn[1].results) == 4 and torn[1].interrupted
    assert main(["2048", "compare", "--from", str(journal)]) == 0
    err = capsys.readouterr().err  # a run under way: said, its figures may read low
    assert "1 of these runs not finished (greedy: 4 of 5 games)" in err and "read low" in err
    empty = tmp_path / "e.jsonl"
    empty.write_text(journal.read_text().splitlines()[0] + "\n")
    assert read_runs(empty) == []
    assert main(["2048", "compare", "--from", str(empty)]) == 2
    assert "no finished games" in capsys.readouterr().err
    other = tmp_path / "m.jsonl"
    other.write_text(json.dumps({"journal": 1, "command": "match"}) + "\n")
    with pytest.raises(UsageError, match="not of 2048 eval"):
        read_runs(other)


@pytest.mark.parametrize(
    "argv",
    [
        ["--agents", "random", "--from", "x.json"],
        ["--from", "x.json", "--tile", "100"],
        ["--from", "x.json", "--tile", "2"],
        [],
    ],
)
def test_compare_usage_errors(argv, capsys):
    with pytest.raises(SystemExit) as e:
        main(["2048", "compare", *argv])
    assert e.value.code == 2
    assert "Traceback" not in capsys.readouterr().err
