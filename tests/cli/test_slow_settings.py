"""Long work says so: perft refuses depths past its bound without --force, and commands that
play agents warn (one line on stderr) about settings that take seconds or more a move."""

from __future__ import annotations

import io
import time
from typing import Any

import pytest

from boardai.cli import main
from boardai.cli._common import slow_warning


@pytest.mark.parametrize("depth", ["13", "100"])
def test_deep_perft_needs_force_and_says_how_long(
    depth: str, capsys: pytest.CaptureFixture[str]
) -> None:
    start = time.perf_counter()
    assert main(["othello", "perft", depth]) == 2
    assert time.perf_counter() - start < 5  # nothing was counted (13 plies take minutes)
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "add --force" in err
    assert "about 3 min" in err if depth == "13" else "more than a year" in err


def test_perft_counts_its_repeats_in_the_time_it_asks_force_for(
    capsys: pytest.CaptureFixture[str],
) -> None:
    start = time.perf_counter()
    assert main(["othello", "perft", "12", "--repeat", "1000000"]) == 2  # 20 s a run
    assert time.perf_counter() - start < 5
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "1,000,000 times" in err and "add --force" in err
    assert main(["othello", "perft", "4", "--repeat", "3"]) == 0  # short in all: no --force


def test_perft_help_gives_the_bound_and_force_runs_small_depths(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["othello", "perft", "--help"])
    assert "above 12" in " ".join(capsys.readouterr().out.split())
    assert main(["othello", "perft", "5", "--force"]) == 0
    assert "perft(5) = 1,396" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("game", "spec", "says"),
    [
        ("othello", "alphabeta:depth=12", "about 9 s a move"),
        ("othello", "alphabeta:depth=60", "more than a year a move"),
        ("othello", "alphabeta:endgame=20", "from 20 empty squares"),
        ("2048", "expectimax:depth=12,prob_cut=1e-5", "seconds to minutes a move"),
        ("2048", "expectimax:max_depth=9,prob_cut=0", "depth 9"),
        ("2048", "ntuple:depth=9", "depth 9 with prob_cut 0.0001"),  # about 1 s a move
        ("2048", "ntuple:preset=strong,prob_cut=0", "depth 8 with prob_cut 0"),
    ],
)
def test_slow_settings_are_named(game: str, spec: str, says: str) -> None:
    warning = slow_warning(game, spec)
    assert warning is not None and warning.startswith(spec) and says in warning


@pytest.mark.parametrize(
    ("game", "spec"),
    [
        ("othello", "alphabeta:depth=10"),
        ("othello", "alphabeta:depth=60,time=1"),  # a budget bounds any depth
        ("othello", "alphabeta:endgame=20,time=2"),
        ("othello", "wpc"),
        ("othello", "ntuple:depth=4"),  # Othello's ntuple: another player, with a time budget
        ("2048", "expectimax:depth=12"),  # prob_cut 1e-3 keeps depth 12 at ms a move
        ("2048", "expectimax:preset=strong"),
        ("2048", "expectimax:depth=12,prob_cut=0,time_ms=50"),
        ("2048", "ntuple:depth=8"),  # under a second a move
        ("2048", "ntuple:preset=strong"),
        ("2048", "ntuple:depth=12,prob_cut=0.005"),
        ("2048", "ntuple:depth=12,prob_cut=0,time_ms=100"),
        ("2048", "random"),
    ],
)
def test_settings_within_bounds_say_nothing(game: str, spec: str) -> None:
    assert slow_warning(game, spec) is None


def test_othello_play_warns_before_the_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["othello", "play", "--ai", "alphabeta:depth=30", "--color", "black"]) == 0
    err = capsys.readouterr().err
    assert err.count("boardai: warning: alphabeta:depth=30: depth 30") == 1


def test_eval_warns_before_the_games(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from boardai.arena.results import RunResult

    def no_games(spec: str, args: Any, *rest: Any, **kw: Any) -> RunResult:
        return RunResult(spec, args.seed, args.games, 2)

    monkeypatch.setattr("boardai.cli.g2048.eval.play_with_progress", no_games)
    spec = "expectimax:depth=9,prob_cut=1e-6"
    assert main(["2048", "eval", "--agent", spec, "--games", "1", "--workers", "2"]) == 130
    assert f"boardai: warning: {spec}: depth 9" in capsys.readouterr().err
