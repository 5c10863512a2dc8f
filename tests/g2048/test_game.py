"""Game: seeding, undo, records and rule options."""

from __future__ import annotations

import json

import numpy as np
import pytest

from boardai.g2048 import Board, Game


def _play(game: Game, moves: int, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if game.is_over():
            return
        game.move(int(rng.choice(game.board.legal_actions())))


def test_same_seed_same_game() -> None:
    a, b = Game(seed=42), Game(seed=42)
    assert a.board == b.board
    _play(a, 200)
    _play(b, 200)
    assert a.board == b.board and a.score == b.score and a.steps == b.steps
    assert Game(seed=43).board != a.start_board or Game(seed=44).board != a.start_board


def test_start_has_two_tiles() -> None:
    g = Game(seed=1)
    assert len(g.board.empty_cells()) == 14 and len(g.start) == 2


def test_undo_restores_board_score_and_rng() -> None:
    g = Game(seed=3)
    _play(g, 30)
    board, score, moves = g.board, g.score, g.moves
    action = g.board.legal_actions()[0]
    g.move(action)
    after = g.board
    assert g.undo()
    assert (g.board, g.score, g.moves) == (board, score, moves)
    g.move(action)  # the rng rewound: the same spawn again
    assert g.board == after
    while g.undo():
        pass
    assert g.board == g.start_board and g.score == 0


def test_record_round_trip_is_exact() -> None:
    g = Game(seed=11)
    _play(g, 10_000)
    assert g.is_over()
    record = json.loads(json.dumps(g.to_record()))
    r = Game.from_record(record)
    assert r.board == g.board and r.score == g.score and r.steps == g.steps
    assert r.rng.next() == g.rng.next()  # a seeded replay stays in step with its rng


def test_record_of_unseeded_game_replays() -> None:
    g = Game()
    _play(g, 50)
    assert Game.from_record(g.to_record()).board == g.board


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(game="othello"), "not a 2048 game record"),
        (lambda r: r["moves"].__setitem__(0, [9, 0, 2]), "move 0"),
        (lambda r: r.update(score=r["score"] + 4), "record says score"),
        (lambda r: r.pop("moves"), "malformed"),
        # no spawn (-1) after a move: a padded record, a tile sliding back and forth for ever
        (lambda r: r["moves"].__setitem__(3, [r["moves"][3][0], -1, 0]), "move 3: a move with no"),
    ],
)
def test_bad_records(change: object, message: str) -> None:
    g = Game(seed=2)
    _play(g, 20)
    record = g.to_record()
    change(record)  # type: ignore[operator]
    with pytest.raises(ValueError, match=message):
        Game.from_record(record)


def test_seed000_rules_options() -> None:
    g = Game(seed=5, p4=0.2, start_p4=0.0)
    assert all(v == 2 for _, v in g.start)
    fours = 0
    twos = 0
    _play(g, 400)
    for s in g.steps:
        fours += s.value == 4
        twos += s.value == 2
    assert 0.1 < fours / (fours + twos) < 0.3


def test_illegal_move_spawns_nothing() -> None:
    g = Game(seed=0)
    g.board = Board.from_grid([[2, 4, 8, 16]] + [[0] * 4] * 3)
    with pytest.raises(ValueError):
        g.move(3)
    assert g.board == Board.from_grid([[2, 4, 8, 16]] + [[0] * 4] * 3) and g.moves == 0


def test_a_game_from_a_set_position_records_and_replays() -> None:
    start = Board.from_grid([[1024, 1024, 0, 0], [512, 256, 0, 0], [0] * 4, [0] * 4])
    g = Game(seed=8, board=start)
    assert g.board == start and g.start == []
    g.move("left")
    assert g.board.max_tile() == 2048
    _play(g, 30)
    record = json.loads(json.dumps(g.to_record()))
    assert record["start_grid"][0][:2] == [1024, 1024]
    r = Game.from_record(record)
    assert r.start_board == start and r.board == g.board and r.score == g.score
    assert "start_grid" not in Game(seed=1).to_record()


def test_a_record_taken_while_a_move_is_half_done_replays() -> None:
    """A stopped pool worker saves its game from inside ``move`` (the interrupt strikes
    between any two statements): the score may already count a move the steps do not yet
    hold. The record then still replays, to the moves it holds, so the game goes on from
    there instead of starting again."""
    g = Game(seed=3)
    _play(g, 30)
    whole = g.to_record()
    g.score += 16  # the next move's reward counted, its step not yet appended
    half = g.to_record()
    assert half["score"] == whole["score"]
    assert Game.from_record(half, seeded=True).board == Game.from_record(whole).board
