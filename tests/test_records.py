"""Game records: write then replay gives the same final board and score, for both games."""

from __future__ import annotations

import json
import random

import pytest

from boardai.errors import UsageError
from boardai.g2048 import Game
from boardai.othello import Game as OthelloGame
from boardai.records import load, pick, read_records, replay, write_records


def _game_2048(seed: int) -> Game:
    g, rng = Game(seed=seed), random.Random(seed)
    while not g.is_over():
        g.move(rng.choice(g.board.legal_actions()))
    return g


def _game_othello(seed: int) -> OthelloGame:
    g, rng = OthelloGame(), random.Random(seed)
    while not g.is_over():
        g.play(rng.choice(g.board.legal_actions()))
    return g


def test_write_then_replay_gives_the_same_end(tmp_path):
    games = [_game_2048(1), _game_othello(2), _game_2048(3)]
    path = tmp_path / "games.jsonl"
    write_records(path, [g.to_record() for g in games[:2]])
    write_records(path, [games[2].to_record()], append=True)
    records = read_records(path)
    assert len(records) == 3
    for game, record in zip(games, records, strict=True):
        frames = replay(record)
        assert frames[-1].board == game.board
        assert len(frames) == len(game.moves if isinstance(game, OthelloGame) else game.steps) + 1
        if isinstance(game, Game):
            assert frames[-1].score == game.score
            assert load(record).score == game.score
        else:
            assert frames[0].board == game.start
            assert [f.move for f in frames[1:]] == game.move_texts()


def test_replay_frames_follow_the_2048_rules():
    g = _game_2048(5)
    frames = replay(g.to_record())
    assert frames[0].board == g.start_board and frames[0].move is None
    for before, after, step in zip(frames[:-1], frames[1:], g.steps, strict=True):
        slid, reward = before.board.slide(step.action)
        assert after.score == before.score + reward
        assert after.board == slid.place(step.cell, step.value)


def test_write_is_atomic_and_keeps_old_lines(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_text(json.dumps(_game_2048(1).to_record()))  # no trailing newline
    write_records(path, [_game_2048(2).to_record()], append=True)
    assert [r["seed"] for r in read_records(path)] == [1, 2]
    assert list(tmp_path.iterdir()) == [path]  # no temporary file left behind


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{not json\n", ["g.jsonl:1", "not JSON"]),
        ('\n{"game": "chess"}\n', ["g.jsonl:2", "unknown game 'chess'"]),
        ("[1, 2]\n", ["JSON object"]),
    ],
)
def test_bad_files_name_the_line(tmp_path, text, words):
    path = tmp_path / "g.jsonl"
    path.write_text(text)
    with pytest.raises(UsageError) as e:
        read_records(path)
    for word in words:
        assert word in str(e.value)


def test_an_eval_json_file_gives_its_games_records(tmp_path):
    games = [_game_2048(1), _game_2048(2)]
    results = [{"index": i, "score": g.score, "record": g.to_record()} for i, g in enumerate(games)]
    path = tmp_path / "run.json"
    path.write_text(json.dumps({"format": 1, "agent": "x", "results": results}, indent=1))
    records = read_records(path)
    assert [replay(r)[-1].board for r in records] == [g.board for g in games]
    for r in results:
        del r["record"]
    path.write_text(json.dumps({"format": 1, "results": results}, indent=1))
    with pytest.raises(UsageError, match="without game records"):
        read_records(path)
    path.write_text(json.dumps({"format": 1, "runs": []}, indent=1))
    with pytest.raises(UsageError, match="a JSON document without game records"):
        read_records(path)  # neither records nor an eval file


def test_a_compare_json_file_gives_its_players_records(tmp_path):
    games = [_game_2048(k) for k in range(3)]
    runs = [
        {"agent": a, "results": [{"index": i, "record": games[k].to_record()}]}
        for i, (a, k) in enumerate([("x", 0), ("y", 1), ("y", 2)])
    ]
    path = tmp_path / "cmp.json"
    path.write_text(json.dumps({"seed": 0, "runs": runs}, indent=1))
    assert [replay(r)[-1].board for r in read_records(path)] == [g.board for g in games]
    for run in runs:
        del run["results"][0]["record"]
    path.write_text(json.dumps({"seed": 0, "runs": runs}, indent=1))
    with pytest.raises(UsageError, match="a compare --json file without game records"):
        read_records(path)


def test_one_record_as_an_indented_document_reads(tmp_path):
    """``othello play --record`` wrote its record indented before it wrote JSON lines."""
    from boardai.othello.game import Game as OthelloGame

    g = OthelloGame()
    for _ in range(5):
        g.play(g.board.legal_actions()[0])
    path = tmp_path / "old.json"
    path.write_text(json.dumps(g.to_record(), indent=2))
    (record,) = read_records(path)
    assert replay(record)[-1].board == g.board


def test_a_resume_journal_gives_its_finished_games_records(tmp_path):
    """The journal of a real eval run reads as that run's records, in game order (whatever
    order the games finished in), a torn last line left out."""
    from boardai.cli import main

    journal, out = tmp_path / "j.jsonl", tmp_path / "run.json"
    argv = ["2048", "eval", "--agent", "random", "--games", "4", "--seed", "3", "--workers", "2"]
    assert main([*argv, "--json", str(out), "--resume", str(journal)]) == 0
    expected = read_records(out)
    lines = journal.read_text().splitlines()
    journal.write_text("\n".join([lines[0], *reversed(lines[1:])]) + '\n{"run": "random", "ind')
    assert read_records(journal) == expected
    assert [r["index"] for r in read_records(journal)] == [0, 1, 2, 3]
    journal.write_text(lines[0] + "\n")
    with pytest.raises(UsageError, match="no finished game records"):
        read_records(journal)
    unkept = tmp_path / "unkept.jsonl"  # a run that keeps none: said so, not "(yet)"
    assert main([*argv, "--resume", str(unkept)]) == 0
    with pytest.raises(UsageError, match=r"keeps no game records .* without --json or --record"):
        read_records(unkept)


def test_missing_file_and_missing_game(tmp_path):
    with pytest.raises(UsageError, match="no such record file"):
        read_records(tmp_path / "none.jsonl")
    with pytest.raises(UsageError, match="no game 3"):
        pick([{"game": "2048"}], 3)
    with pytest.raises(UsageError, match="no games"):
        pick([], 0)


def test_a_tampered_record_is_refused():
    record = _game_2048(1).to_record()
    record["moves"][3][1] = 99
    with pytest.raises(ValueError, match="move 3"):
        replay(record)
    record = _game_othello(1).to_record()
    record["moves"][0] = "a1"
    with pytest.raises(ValueError, match="illegal"):
        replay(record)


@pytest.mark.parametrize(
    ("game", "key", "value", "words"),
    [
        ("2048", "rules", [], '"rules" is a list, not an object'),
        ("2048", "rules", 5, '"rules" is a number, not an object'),
        ("othello", "start", ["d3"], '"start" is a list, not a string'),
        ("othello", "start", True, '"start" is true or false, not a string'),
    ],
)
def test_a_record_of_the_wrong_shape_is_refused_in_one_line(
    tmp_path, capsys, game, key, value, words
):
    """A hand-edited record with a key of the wrong JSON type is a ValueError (a one-line error
    for replay and render, a note in the terminal app), not an AttributeError's traceback."""
    from boardai.cli import main

    record = (_game_2048(1) if game == "2048" else _game_othello(1)).to_record()
    record[key] = value
    with pytest.raises(ValueError, match=words):
        replay(record)
    path = tmp_path / "g.jsonl"
    write_records(path, [record])
    assert main(["replay", str(path), "--final"]) == 2
    assert main(["render", str(path), "--png", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and all(words in line and "game 0" in line for line in err)
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("index", ['"abc"', "null", "[1]", "1e400"])
def test_a_journal_line_with_a_bad_game_index_is_refused(tmp_path, index):
    """A corrupt journal line is a one-line error, not int()'s traceback."""
    record = json.dumps(_game_2048(1).to_record())
    path = tmp_path / "j.jsonl"
    path.write_text(
        '{"journal": 1, "command": "eval"}\n'
        f'{{"run": "x", "index": {index}, "result": {{"record": {record}}}}}\n'
    )
    with pytest.raises(UsageError, match=r"j\.jsonl:2: game index .* is not a whole number"):
        read_records(path)


def test_appending_to_a_pipe_does_not_read_it(tmp_path):
    """``--record /dev/stdout`` or a named pipe: the new line is written to it; reading it back
    first (as for a file) would wait for ever on the pipe or the terminal."""
    import os
    import threading

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    record = _game_othello(1).to_record()
    writer = threading.Thread(target=write_records, args=(fifo, [record], True), daemon=True)
    try:
        writer.start()
        writer.join(10)
        stuck = writer.is_alive()
        if stuck:  # let the old code's read end, so the thread finishes
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            writer.join(10)
        assert not stuck, "write_records waited to read the pipe"
        assert json.loads(os.read(reader, 1 << 20).decode()) == record
    finally:
        os.close(reader)
