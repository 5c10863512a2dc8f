"""Game sessions: what both screens play through."""

from __future__ import annotations

import pytest

from boardai.errors import UsageError
from boardai.othello import BLACK, Board
from boardai.records import RecordSink, read_records, replay
from boardai.ui.g2048 import Session2048
from boardai.ui.othello import SessionOthello
from boardai.ui.session import SessionReplay, evaluation, keep


def test_a_forced_pass_then_the_reply():
    # black (the person) has no move; white takes b1 with c1 and the game ends
    rows = [[2, 1, 0, 0, 0, 0, 0, 0]] + [[0] * 8] * 7
    s = SessionOthello("black", "random", seed=1, start=Board.from_grid(rows, BLACK))
    state = s.state()
    assert state["pass_forced"] and state["legal"] == []
    with pytest.raises(UsageError, match="illegal move a3"):
        s.move("a3")
    s.move("pass")
    state = s.state()
    assert state["over"] and state["result"] == "white wins 3-0"
    assert state["last"] == 2 and state["flips"] == [1]
    with pytest.raises(UsageError, match="over"):
        s.move("pass")


def test_the_ai_passes_for_itself():
    # white (the AI) to move has none; it passes and the person plays on
    rows = [[1, 2, 0, 0, 0, 0, 0, 0]] + [[0] * 8] * 7
    s = SessionOthello("black", "random", start=Board.from_grid(rows, 1))
    assert s.game.move_texts() == ["pass"] and "white passes" in s.state()["message"]
    assert s.state()["legal"] == [2]


def test_othello_step_plays_the_persons_move_then_the_reply():
    s = SessionOthello("black", "random", seed=1)
    s.step("wpc")
    assert len(s.game.moves) == 2 and s.state()["to_move"] == "black"
    assert s.game.moves[0] in (19, 26, 37, 44)  # wpc's opening: d3, c4, f5 or e6
    while not s.game.is_over():
        s.step("greedy")  # passes included, when forced
    assert s.state()["result"]
    with pytest.raises(UsageError, match="the game is over"):
        s.step("greedy")
    assert s.record()["players"] == {"black": "person", "white": "random"}  # two made them
    watched = SessionOthello("white", "random", seed=2)
    while not watched.game.is_over():
        watched.step("wpc")
    assert watched.record()["players"] == {"black": "random", "white": "wpc"}
    # a forced pass: the player passes for the person, then the opponent ends the game
    rows = [[2, 1, 0, 0, 0, 0, 0, 0]] + [[0] * 8] * 7
    s = SessionOthello("black", "random", start=Board.from_grid(rows, BLACK))
    s.step("wpc")
    assert s.game.move_texts() == ["pass", "c1"] and s.state()["over"]


def test_2048_won_and_over_flags():
    s = Session2048(grid=[[1024, 1024, 0, 0], [0] * 4, [0] * 4, [0] * 4])
    assert not s.state()["won"]
    s.move("left")
    assert s.state()["won"] and s.state()["score"] == 2048


def test_a_game_from_a_set_position_is_saved_and_replays(tmp_path):
    grid = [[1024, 1024, 8, 0], [0, 16, 0, 0], [0] * 4, [0, 0, 0, 2]]
    s = Session2048(seed=5, grid=grid)
    s.move("left")
    s.move("down")
    sink = RecordSink(tmp_path / "games.jsonl")
    keep(s, sink, "web")
    (record,) = read_records(tmp_path / "games.jsonl")
    assert record["start_grid"] == grid and record["source"] == "web"
    frames = replay(record)
    assert frames[0].board.to_grid() == grid
    assert frames[-1].board.to_grid() == s.state()["grid"] and frames[-1].score == s.game.score


def test_evaluation_reads_what_a_player_exposes():
    class Values:
        def action_values(self, state):
            return [1.0, None, float("nan"), float("-inf")]

    class Last:
        class last:  # noqa: N801 - mimics a search result attribute
            values = (3.0, 2.0, 1.0, 0.0)

    assert evaluation(Values(), None) == [1.0, None, None, None]
    assert evaluation(Last(), None) == [3.0, 2.0, 1.0, 0.0]
    assert evaluation(object(), None) is None


def test_replay_seek_animates_single_steps():
    from boardai.g2048 import Game

    g = Game(seed=9)
    for _ in range(4):
        g.move(g.board.legal_actions()[0])
    r = SessionReplay(g.to_record())
    r.seek(1)
    assert not r.state()["animation"]["reset"]
    assert any(t["kind"] == "new" for t in r.state()["animation"]["tiles"])
    r.seek(4)
    assert r.state()["animation"]["reset"] and r.state()["grid"] == g.board.to_grid()


def test_agent_cache_keeps_a_few_recent_players():
    from boardai.ui.session import AgentCache

    made = []
    cache = AgentCache(lambda spec, seed: made.append(spec) or object(), seed=None)
    first = cache.get("a")
    for spec in "bcd":
        cache.get(spec)
    assert cache.get("a") is first and made == ["a", "b", "c", "d"]
    cache.get("e")  # "b" is now the least recently used
    cache.get("b")
    assert made == ["a", "b", "c", "d", "e", "b"]
    with pytest.raises(UsageError, match="no player"):
        cache.get("  ")
