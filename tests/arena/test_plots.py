"""The arena's pictures: what the comparison plot draws, checked against counts made here."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardai.arena.plots import LOG_SPREAD, _wrapped, compare_figure, reach_curve
from boardai.arena.results import GameResult, RunResult, wilson_interval
from boardai.cli import main

pytest.importorskip("matplotlib")


def run_of(agent: str, scores: list[int], tiles: list[int]) -> RunResult:
    """A run whose game k scored ``scores[k]`` with ``tiles[k]`` as its largest tile."""
    results = [
        GameResult(index=k, seed=0, score=s, max_tile=t, moves=10, seconds=0.1)
        for k, (s, t) in enumerate(zip(scores, tiles, strict=True))
    ]
    return RunResult(agent=agent, seed=0, games=len(results), workers=1, results=results)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from([2**e for e in range(1, 16)]), min_size=1, max_size=40))
def test_reach_curve_counts_the_games_reaching_each_tile(tiles: list[int]) -> None:
    run = run_of("p", [0] * len(tiles), tiles)
    asked = [32, 256, 2048, 16384]
    rates, err = reach_curve(run, asked)
    for k, tile in enumerate(asked):
        hits = sum(t >= tile for t in tiles)  # counted one game at a time
        assert rates[k] == hits / len(tiles)
        lo, hi = wilson_interval(hits, len(tiles))
        assert err[0, k] == pytest.approx(rates[k] - lo) and err[1, k] == pytest.approx(
            hi - rates[k]
        )
        assert err[0, k] >= 0 and err[1, k] >= 0


@given(st.lists(st.text("abc=:0123", min_size=1, max_size=12), min_size=1, max_size=8))
def test_a_wrapped_spec_keeps_every_character_and_breaks_after_commas(parts: list[str]) -> None:
    spec = ",".join(parts)
    lines = _wrapped(spec, width=20).split("\n")
    assert "".join(lines) == spec
    assert all(line.endswith(",") for line in lines[:-1])
    assert all(len(line) <= 21 or "," not in line[:-1] for line in lines)


def test_the_comparison_figure_draws_each_player_with_games() -> None:
    close = [
        run_of("a", [100, 200, 300], [512, 1024, 2048]),
        run_of("b", [150, 250, 900], [1024, 1024, 4096]),
    ]
    fig = compare_figure([*close, run_of("none yet", [], [])], "t")
    left, right = fig.axes
    assert left.get_yscale() == "linear"
    assert [t.get_text() for t in left.get_xticklabels()] == ["a", "b"]
    assert [t.get_text() for t in right.get_legend().get_texts()] == ["a", "b"]
    # From the tile below the first one a game of some player did not reach (1024)
    assert [t.get_text() for t in right.get_xticklabels()] == ["512", "1024", "2048", "4096"]
    far = run_of("far", [int(200 * LOG_SPREAD) + 1] * 3, [64] * 3)  # a median past the spread
    assert compare_figure([close[0], far], "t").axes[0].get_yscale() == "log"


def test_compare_plots_played_and_read_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    played, read = tmp_path / "played.png", tmp_path / "read.png"
    compare = ["2048", "compare", "--agents", "random", "greedy", "--games", "4", "--workers", "1"]
    assert main([*compare, "--json", str(tmp_path / "c.json"), "--plot", str(played)]) == 0
    assert main(["2048", "compare", "--from", str(tmp_path / "c.json"), "--plot", str(read)]) == 0
    capsys.readouterr()
    from PIL import Image

    for png in (played, read):
        with Image.open(png) as image:
            assert image.format == "PNG" and image.size == (1100, 420)


def test_the_tournament_figure_is_the_cross_table_best_rated_first() -> None:
    from boardai.arena.match_results import elo_ratings
    from boardai.arena.plots import tournament_figure

    names = ["weak", "strong", "middle", "absent"]
    scores = {(0, 1): (1.0, 10), (0, 2): (3.0, 10), (1, 2): (8.0, 10)}  # "absent" never played
    elo = elo_ratings(names, scores)
    left, right = tournament_figure(names, elo, scores).axes
    order = [t.get_text() for t in left.get_yticklabels()]
    assert order == ["strong", "middle", "weak"]
    table = left.get_images()[0].get_array()
    # Row player against column player, both ways from the one count of each pairing
    assert table[0, 1] == pytest.approx(0.8) and table[1, 0] == pytest.approx(0.2)
    assert table[2, 0] == pytest.approx(0.1) and table[2, 1] == pytest.approx(0.3)
    assert table[1, 1] is np.ma.masked  # no score against oneself
    assert [t.get_text() for t in right.get_yticklabels()] == order


def test_tournament_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from PIL import Image

    png = tmp_path / "t.png"
    argv = ["othello", "tournament", "--agents", "random", "greedy", "wpc", "--games", "4"]
    assert main([*argv, "--workers", "1", "--plot", str(png)]) == 0
    capsys.readouterr()
    with Image.open(png) as image:
        assert image.format == "PNG" and image.size == (1100, 420)
