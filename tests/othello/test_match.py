"""Matches: double games, epsilon, results independent of the worker count, Elo."""

from __future__ import annotations

from boardai.arena.match import play_match, run_match
from boardai.arena.match_results import elo_ratings


def test_match_is_independent_of_workers() -> None:
    one = play_match("greedy", "wpc", games=8, epsilon=0.1, seed=5, workers=1)
    two = play_match("greedy", "wpc", games=8, epsilon=0.1, seed=5, workers=2)
    assert (one.wins, one.draws, one.losses, one.disc_diff) == (
        two.wins,
        two.draws,
        two.losses,
        two.disc_diff,
    )


def test_double_games_swap_colours() -> None:
    outcomes = run_match("random", "random", 4, seed=1, keep_records=True).results
    assert [o.a_color for o in outcomes] == [0, 1, 0, 1]
    assert all(o.record["game"] == "othello" for o in outcomes)
    r = play_match("wpc", "random", games=20, seed=2)
    assert r.wins + r.draws + r.losses == 20 and r.score > 0.5 and r.score_se > 0


def test_elo_orders_players() -> None:
    elo = elo_ratings(["a", "b", "c"], {(0, 1): (8.0, 10), (1, 2): (7.0, 10), (0, 2): (9.0, 10)})
    assert elo[0] > elo[1] > elo[2]
