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


def _openings(games: int, seed: int, swap: bool = True) -> list[tuple[int, list[str]]]:
    """(k, moves) of each game of a match opening with 8..30 random plies."""
    done = run_match(
        "greedy", "random", games, seed=seed, swap=swap, random_plies=(8, 30), keep_records=True
    )
    return [(o.record["random_plies"], o.record["moves"]) for o in done.results]


def test_random_openings_are_the_same_whatever_the_workers() -> None:
    one = run_match("greedy", "wpc", 6, seed=4, random_plies=(8, 30), workers=1, keep_records=True)
    two = run_match("greedy", "wpc", 6, seed=4, random_plies=(8, 30), workers=2, keep_records=True)
    assert [o.record for o in one.results] == [o.record for o in two.results]


def test_random_openings_vary_stay_in_range_and_pairs_share_theirs() -> None:
    games = _openings(12, seed=7)
    assert all(8 <= k <= 30 for k, _ in games)
    opening = [tuple(moves[:k]) for k, moves in games]
    assert opening[0::2] == opening[1::2]  # both games of a pair, colours swapped
    assert len(set(opening[0::2])) == 6  # each pair its own
    assert len({k for k, _ in games[0::2]}) > 1  # k itself is drawn
    # without colour swapping every game is its own pair, with its own opening
    alone = [tuple(m[:k]) for k, m in _openings(6, seed=7, swap=False)]
    assert len(set(alone)) == 6


def test_random_opening_plies_are_legal_and_exact_when_lo_is_hi() -> None:
    from boardai.arena.match import random_opening
    from boardai.othello.board import Board

    for seed in range(20):
        moves = random_opening((12, 12), seed)
        assert len(moves) == 12
        board = Board.initial()
        for m in moves:
            assert m in board.legal_actions()
            board = board.play(m)
    assert {len(random_opening((0, 3), s)) for s in range(60)} == {0, 1, 2, 3}


def test_records_without_random_openings_are_as_before() -> None:
    done = run_match("random", "random", 2, seed=1, keep_records=True)
    assert all("random_plies" not in o.record for o in done.results)
    # an opening leaves the epsilon draws and the players' own seeds as they were: a match of
    # zero random plies plays the very same games
    none = run_match("wpc", "random", 4, seed=2, epsilon=0.2, keep_records=True).results
    zero = run_match(
        "wpc", "random", 4, seed=2, epsilon=0.2, keep_records=True, random_plies=(0, 0)
    ).results
    assert [o.record["moves"] for o in none] == [o.record["moves"] for o in zero]
    assert all(o.record["random_plies"] == 0 for o in zero)
