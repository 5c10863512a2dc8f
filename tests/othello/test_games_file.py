"""The games file of Othello training data: what is packed is read back, the positions and their
labels against a plain reference (tests/naive/othello.py's rules), merging, and damaged files."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardai.errors import UsageError
from boardai.othello.board import Board
from boardai.othello.train.games_file import (
    FORMAT,
    Games,
    check,
    from_records,
    merge,
    positions,
    read_games,
    write_games,
)
from tests.naive import othello as naive

START = (0x0000000810000000, 0x0000001008000000)  # (black, white): black to move


@functools.cache
def random_game(seed: int) -> tuple[list[int], int, int]:
    """A game of uniformly random legal moves to its end, made with the engine: (moves, random
    plies to claim, black's final disc difference by the plain rules)."""
    rng = random.Random(seed)
    board, moves = Board.initial(), []
    while actions := board.legal_actions():
        moves.append(rng.choice(actions))
        board = board.play(moves[-1])
    p, o = START
    for a in moves:  # the result, by the plain rules
        p, o = naive.play(p, o, a)
    score = naive.final_score(p, o)
    black = len(moves) % 2 == 0
    return moves, rng.randint(0, min(30, len(moves))), score if black else -score


def games_of(seeds: list[int]) -> Games:
    made = [random_game(s) for s in seeds]
    return Games.from_lists([m for m, _, _ in made], [k for _, k, _ in made], [r for *_, r in made])


def reference_positions(
    games: list[tuple[list[int], int, int]], skip_random: bool
) -> list[tuple[int, int, int, int]]:
    """(mover, opponent, label, empties) of every position with a move to choose, from the
    random plies on (or the start), by the plain rules: the label is the final disc
    difference seen by the side to move."""
    out = []
    for moves, k, result in games:
        p, o = START
        black = True
        for j, a in enumerate(moves):
            if a != naive.PASS and (j >= k or not skip_random):
                empties = 64 - bin(p | o).count("1")
                out.append((p, o, result if black else -result, empties))
            p, o = naive.play(p, o, a)
            black = not black
    return out


def as_rows(pos: object) -> list[tuple[int, int, int, int]]:
    mover, opponent, label, empties = pos  # type: ignore[misc]
    return [
        (int(a), int(b), int(c), int(d))
        for a, b, c, d in zip(mover, opponent, label, empties, strict=True)
    ]


@settings(max_examples=25)
@given(st.lists(st.integers(0, 2**32), min_size=0, max_size=6))
def test_packed_games_read_back_the_same(tmp_path_factory: pytest.TempPathFactory, seeds) -> None:  # type: ignore[no-untyped-def]
    made = [random_game(s) for s in seeds]
    path = tmp_path_factory.mktemp("g") / "g.npz"
    write_games(path, games_of(seeds))
    back = read_games(path)
    assert len(back) == len(made)
    assert [back.game(i).tolist() for i in range(len(back))] == [m for m, _, _ in made]
    assert back.random_plies.tolist() == [k for _, k, _ in made]
    assert back.results.tolist() == [r for *_, r in made]
    assert back.meta["format"] == "boardai-othello-games" and back.meta["games"] == len(made)


@settings(max_examples=25)
@given(st.lists(st.integers(0, 2**32), min_size=1, max_size=4), st.booleans())
def test_positions_and_labels_match_the_plain_rules(seeds: list[int], skip_random: bool) -> None:
    made = [random_game(s) for s in seeds]
    got = positions(games_of(seeds), skip_random=skip_random)
    assert got.mover.dtype == np.uint64 and got.label.dtype == np.int8
    assert as_rows(got) == reference_positions(made, skip_random)


def test_a_pass_position_is_left_out_and_its_successor_kept() -> None:
    """A game with passes: only positions with a move to choose are rows, each labelled from
    its own mover's view."""
    seed = next(s for s in range(1000) if naive.PASS in random_game(s)[0])
    moves, _, result = random_game(seed)
    got = positions(games_of([seed]), skip_random=False)
    assert len(got.label) == sum(1 for a in moves if a != naive.PASS)
    assert set(np.abs(got.label.astype(int)).tolist()) == {abs(result)}


@settings(max_examples=20)
@given(
    st.lists(st.integers(0, 40), min_size=1, max_size=8),
    st.lists(st.integers(0, 40), min_size=1, max_size=8),
)
def test_merge_drops_duplicates_whatever_the_order(a: list[int], b: list[int]) -> None:
    ga, gb = games_of(a), games_of(b)
    ab, ba = merge([ga, gb]), merge([gb, ga])

    def content(g: Games) -> set[tuple[tuple[int, ...], int, int]]:
        return {
            (tuple(g.game(i).tolist()), int(g.random_plies[i]), int(g.results[i]))
            for i in range(len(g))
        }

    assert content(ab.games) == content(ba.games)
    distinct = len(set(a) | set(b))  # seeds this small make distinct games
    assert len(ab.games) == len(ba.games) == distinct
    assert ab.duplicates == ba.duplicates == len(a) + len(b) - distinct


def test_merge_keeps_every_source() -> None:
    x, y = games_of([1]), games_of([2])
    x.meta["sources"], y.meta["sources"] = [{"records": "x"}], [{"records": "y"}]
    merged = merge([x, y], [{"command": "pack"}]).games
    assert merged.meta["sources"] == [{"records": "x"}, {"records": "y"}, {"command": "pack"}]


def plainly_valid(moves: list[int], result: int) -> bool:
    """Whether ``moves`` are legal from the start, end the game, and give ``result``, by the
    plain rules."""
    p, o = START
    for a in moves:
        if a == naive.PASS:
            if naive.legal_squares(p, o) or not naive.legal_squares(o, p):
                return False
        elif not 0 <= a < 64 or not naive.flips(p, o, a):
            return False
        p, o = naive.play(p, o, a)
    if naive.legal_actions(p, o):
        return False
    score = naive.final_score(p, o)
    return (score if len(moves) % 2 == 0 else -score) == result


@settings(max_examples=40)
@given(st.integers(0, 2**32), st.integers(0, 200), st.integers(0, 64), st.integers(-3, 3))
def test_the_check_refuses_exactly_what_the_plain_rules_refuse(
    seed: int, where: int, move: int, nudge: int
) -> None:
    moves, k, result = random_game(seed)
    moves = list(moves)
    moves[where % len(moves)] = move
    games = Games.from_lists([moves], [min(k, len(moves))], [result + nudge])
    try:
        check(games)
    except UsageError as e:
        assert not plainly_valid(moves, result + nudge), e
    else:
        assert plainly_valid(moves, result + nudge)


def _damaged(tmp_path: Path, change: str) -> Path:
    games = games_of([1, 2, 3, 4])
    if change == "result":
        games.results[2] = games.results[2] + 2
    elif change == "move":
        games.moves[games.offsets[3] + 5] = 0  # a1 is never legal on move 6
    elif change == "cut":
        games = Games.from_lists(
            [games.game(i).tolist()[: -1 if i == 1 else None] for i in range(4)],
            games.random_plies,
            games.results,
        )
    path = tmp_path / "bad.npz"
    write_games(path, games)
    return path


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ("result", "game 2: its result"),
        ("move", "game 3: move 6: illegal move a1"),
        ("cut", "game 1: the game is not over after its last move"),
    ],
)
def test_a_damaged_game_is_refused_naming_it(tmp_path: Path, change: str, says: str) -> None:
    path = _damaged(tmp_path, change)
    with pytest.raises(UsageError) as e:
        read_games(path)
    assert str(e.value).startswith(f"{path}: {says}") and "\n" not in str(e.value)


def test_what_is_not_a_games_file_is_one_line(tmp_path: Path) -> None:
    text = tmp_path / "t.npz"
    text.write_text("hello")
    other = tmp_path / "o.npz"
    np.savez(other, x=np.zeros(3))
    for path, says in (
        (tmp_path / "none.npz", "no such games file"),
        (text, "not a games file"),
        (other, "not a games file (no meta, moves"),
    ):
        with pytest.raises(UsageError, match="^" + str(path) + ": " + says.replace("(", r"\(")):
            read_games(path)


def test_a_newer_format_is_refused(tmp_path: Path) -> None:
    games = games_of([5])
    games.meta["format_version"] = 99
    path = tmp_path / "new.npz"
    # write_games stamps the version it writes: the arrays are written here
    text = json.dumps({**games.meta, "format": FORMAT}).encode()
    np.savez(
        path,
        moves=games.moves,
        offsets=games.offsets,
        random_plies=games.random_plies,
        results=games.results,
        meta=np.frombuffer(text, np.uint8),
    )
    with pytest.raises(UsageError, match="format version 99"):
        read_games(path)


def test_records_become_games_and_a_wrong_score_is_refused() -> None:
    from boardai.arena.match import run_match

    done = run_match("greedy", "random", 4, seed=2, random_plies=(3, 9), keep_records=True)
    records = [o.record for o in done.results]
    games, skipped = from_records(records, "m.jsonl")
    assert len(games) == 4 and skipped == {}
    assert games.random_plies.tolist() == [r["random_plies"] for r in records]
    assert games.results.tolist() == [r["score"] for r in records]
    assert games.meta["sources"][0]["players"] == ["greedy vs random", "random vs greedy"]
    old = {k: v for k, v in records[0].items() if k != "random_plies"}  # a record before them
    assert from_records([old]).games.random_plies.tolist() == [0]
    unfinished = {**records[1], "moves": records[1]["moves"][:10]}
    unfinished.pop("score")
    assert from_records([unfinished]).skipped == {"not finished (a forfeit or a game cut short)": 1}
    wrong = {**records[3], "score": records[3]["score"] + 2}
    with pytest.raises(UsageError, match=r"^m\.jsonl: game 1: its score"):
        from_records([records[0], wrong], "m.jsonl")
