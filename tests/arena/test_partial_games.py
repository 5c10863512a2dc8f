"""Games cut short: a memoryless player's game saved part-way goes on, in a later run, exactly
as if it had never stopped; a player that draws, a file of another game or with a spawn that is
not the seed's, starts the game afresh; the journal removes the files it no longer needs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Generator, Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardai import stop_request
from boardai.agent import memoryless
from boardai.arena import solo
from boardai.arena.backends import InProcess, Task
from boardai.arena.journal import PARTIAL_SUFFIX, Journal
from boardai.arena.results import PLAYED, GameResult
from boardai.arena.solo import Solo, build_player, load_partial, play_games, save_partial
from boardai.cli import main
from boardai.g2048 import Game
from boardai.g2048.agents import make_agent
from tests.arena.untimed import untimed

SPEC = "heuristic"  # memoryless, about 1,000 moves a game in a few hundredths of a second
HEADER = {"command": "eval", "players": [SPEC], "seed": 5, "games": 4, "records": True}


class CutAt:
    """``agent``, but Ctrl-C (or ``error``) when asked for its move number ``at`` (counted
    over every game it plays, from 1; 0: never)."""

    def __init__(self, agent: Any, at: int, error: type[BaseException] = KeyboardInterrupt):
        self.agent, self.at, self.error, self.asked = agent, at, error, 0
        self.name = agent.name
        self.memoryless = memoryless(agent)

    def act(self, state: Any) -> int:
        self.asked += 1
        if self.asked == self.at:
            raise self.error
        return int(self.agent.act(state))

    def reset(self) -> None:
        self.agent.reset()

    def reseed(self, seed: int) -> None:
        self.agent.reseed(seed)


def _same_game(a: GameResult, b: GameResult) -> bool:
    keep = ("index", "seed", "score", "max_tile", "moves")
    return all(getattr(a, k) == getattr(b, k) for k in keep)


def test_the_searches_and_networks_are_memoryless_and_the_drawing_players_are_not() -> None:
    assert memoryless(make_agent("heuristic")) and memoryless(make_agent("expectimax:depth=2"))
    assert not memoryless(make_agent("random")) and not memoryless(make_agent("greedy"))


@settings(max_examples=12, deadline=None)
@given(index=st.integers(0, 40), cut=st.integers(1, 1200))
def test_a_game_cut_short_goes_on_as_if_never_stopped(index: int, cut: int) -> None:
    player = build_player(SPEC)
    whole, whole_record = Solo(SPEC, seed=3, record=True).play([player], index)
    with tempfile.TemporaryDirectory() as folder:
        prefix = os.path.join(folder, "run-")
        contest = Solo(SPEC, seed=3, record=True, partial=prefix, save_seconds=1e9)
        if cut <= whole.moves:
            with pytest.raises(KeyboardInterrupt):
                contest.play([CutAt(player, cut)], index)
            file = Path(f"{prefix}{index}.json")
            assert file.exists() == (cut > 1)  # a game cut before its first move saves nothing
            if cut > 1:
                assert len(json.loads(file.read_text())["record"]["moves"]) == cut - 1
        counted = CutAt(player, 0)
        resumed, record = contest.play([counted], index)
    assert _same_game(resumed, whole) and record == whole_record
    played_before = cut - 1 if cut <= whole.moves else 0
    assert counted.asked == whole.moves - played_before  # it went on, not afresh


def test_a_crashed_game_goes_on_from_its_last_periodic_save(tmp_path: Path) -> None:
    player = build_player(SPEC)
    whole, _ = Solo(SPEC, seed=8).play([player], 2)
    prefix = str(tmp_path / "p-")
    contest = Solo(SPEC, seed=8, partial=prefix, save_seconds=0.0)  # a save after every move
    with pytest.raises(RuntimeError):  # as a worker killed: no save on the way out
        contest.play([CutAt(player, 41, RuntimeError)], 2)
    loaded = load_partial(f"{prefix}2.json", SPEC, 8, 2)
    assert loaded is not None and loaded[0].moves == 40
    counted = CutAt(player, 0)
    resumed, _ = Solo(SPEC, seed=8, partial=prefix).play([counted], 2)
    assert _same_game(resumed, whole) and counted.asked == whole.moves - 40
    assert resumed.cpu_seconds >= loaded[2] and resumed.seconds >= loaded[1]


class StopsAt(CutAt):
    """``agent``, but asking ``contest`` to stop (as a stopped run on Ray does) when asked
    for its move number ``at``."""

    def __init__(self, agent: Any, at: int, contest: Solo) -> None:
        super().__init__(agent, 0)
        self.stop_at, self.contest = at, contest

    def act(self, state: Any) -> int:
        if self.asked + 1 == self.stop_at:
            assert self.contest.stop()
        return super().act(state)


def test_a_game_its_run_asks_to_stop_saves_and_goes_on_later(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stop_request, "LOOK_EVERY", 0.0)  # look after every move
    player = build_player(SPEC)
    whole, _ = Solo(SPEC, seed=4).play([player], 1)
    prefix = str(tmp_path / "p-")
    contest = Solo(SPEC, seed=4, partial=prefix, save_seconds=1e9)
    assert not Solo(SPEC, seed=4).stop()  # a run that keeps no games cut short: not asked
    with pytest.raises(solo.GameStoppedError, match="game 1: stopped at move 30"):
        contest.play([StopsAt(player, 30, contest)], 1)
    loaded = load_partial(f"{prefix}1.json", SPEC, 4, 1)
    assert loaded is not None and loaded[0].moves == 30
    os.remove(f"{prefix}{solo.STOP_FILE}")  # as the run does when it ends
    counted = CutAt(player, 0)
    resumed, _ = contest.play([counted], 1)
    assert _same_game(resumed, whole) and counted.asked == whole.moves - 30


def test_play_games_clears_a_stop_request_an_earlier_run_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stop_request, "LOOK_EVERY", 0.0)  # a request still there would stop it
    with Journal.open(tmp_path / "j.jsonl", HEADER) as j:
        part = j.part(SPEC, PLAYED)
        stale = Path(f"{part.partial_prefix}{solo.STOP_FILE}")
        stale.parent.mkdir(parents=True, exist_ok=True)
        stale.write_text("stop")  # a crash after a stop was asked
        run = play_games(SPEC, 4, seed=5, workers=1, journal=part)
    assert len(run.results) == 4 and not stale.exists()  # not stopped by it, and gone


def _saved_game(tmp_path: Path, moves: int) -> tuple[str, Game]:
    game = Game(seed=11)
    agent = make_agent(SPEC)
    while game.moves < moves and not game.is_over():
        game.move(agent.act(game.board))
    path = str(tmp_path / "g.json")
    save_partial(path, SPEC, game, 1.0, 1.0)
    return path, game


def test_a_partial_file_of_another_game_or_with_a_forged_spawn_is_ignored(
    tmp_path: Path,
) -> None:
    path, game = _saved_game(tmp_path, 30)
    loaded = load_partial(path, SPEC, 11, 0)
    assert loaded is not None and loaded[0].board == game.board and loaded[0].score == game.score
    assert load_partial(path, "expectimax", 11, 0) is None
    assert load_partial(path, SPEC, 12, 0) is None
    assert load_partial(path, SPEC, 11, 1) is None  # game 1 of the seed, not 0
    assert load_partial(str(tmp_path / "missing.json"), SPEC, 11, 0) is None
    saved = json.loads(Path(path).read_text())
    move = saved["record"]["moves"][10]
    move[2] = 4 if move[2] == 2 else 2  # a spawn the seed did not draw
    Path(path).write_text(json.dumps(saved))
    assert load_partial(path, SPEC, 11, 0) is None
    Path(path).write_text('{"spec": "heuristic", "se')
    assert load_partial(path, SPEC, 11, 0) is None


def test_a_player_that_draws_plays_a_cut_game_afresh(tmp_path: Path) -> None:
    fresh, _ = Solo("random", seed=2).play([build_player("random")], 0)
    game = Game(seed=2, index=fresh.index)
    game.move(game.board.legal_actions()[0])
    prefix = str(tmp_path / "r-")
    save_partial(f"{prefix}0.json", "random", game, 1.0, 1.0)
    counted = CutAt(build_player("random"), 0)
    again, _ = Solo("random", seed=2, partial=prefix).play([counted], 0)
    assert _same_game(again, fresh) and counted.asked == fresh.moves


def test_eval_resumes_the_game_it_was_playing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["2048", "eval", "--agent", SPEC, "--games", "4", "--seed", "5", "--workers", "2"]
    assert main([*argv, "--json", str(tmp_path / "whole.json")]) == 0
    journal = tmp_path / "run.jsonl"
    first = build_player(SPEC)
    two_games = sum(Solo(SPEC, 5).play([first], i)[0].moves for i in range(2))
    monkeypatch.setattr(solo, "build_player", lambda spec: CutAt(first, two_games + 300))
    with Journal.open(journal, HEADER) as j:
        part = j.part(SPEC, PLAYED)
        stopped = play_games(SPEC, 4, 5, record=True, chunk=1, journal=part)
    assert stopped.interrupted and [r.index for r in stopped.results] == [0, 1]
    folder = Path(str(journal) + PARTIAL_SUFFIX)
    (cut,) = folder.iterdir()
    assert cut.name.endswith("-2.json")
    saved = json.loads(cut.read_text())
    assert len(saved["record"]["moves"]) == 299
    saved["seconds"] = 1e6  # a mark: the resumed game's time adds what the file says
    cut.write_text(json.dumps(saved))
    monkeypatch.undo()
    assert main([*argv, "--json", str(tmp_path / "resumed.json"), "--resume", str(journal)]) == 0
    assert untimed(tmp_path / "resumed.json") == untimed(tmp_path / "whole.json")
    assert json.loads((tmp_path / "resumed.json").read_text())["results"][2]["seconds"] > 1e6
    assert not folder.exists()  # game 2's file went with its line, the folder with the journal
    capsys.readouterr()


class _Elsewhere(InProcess):
    """Plays here but says its tasks run where this process's files are not (a cluster)."""

    shares_files = False

    def map_chunks(
        self, task: Task[Any], chunks: Iterable[Sequence[int]]
    ) -> Generator[tuple[Sequence[int], Any], None, None]:
        yield from super().map_chunks(task, chunks)


def test_no_partial_files_for_a_backend_on_other_machines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(solo, "build_player", lambda spec: CutAt(build_player(SPEC), 100))
    journal = tmp_path / "run.jsonl"
    with Journal.open(journal, HEADER) as j:
        part = j.part(SPEC, PLAYED)
        run = play_games(SPEC, 4, 5, record=True, journal=part, backend=_Elsewhere())
    assert run.interrupted and not Path(str(journal) + PARTIAL_SUFFIX).exists()


def test_the_journal_clears_the_partial_files_it_no_longer_needs(tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    folder = Path(str(journal) + PARTIAL_SUFFIX)
    folder.mkdir()
    stale, other = folder / "0123456789ab-7.json", folder / "notes.txt"
    stale.write_text("{}")
    other.write_text("mine")
    with Journal.open(journal, HEADER) as j:  # a new journal: an old run's files go
        assert not stale.exists() and other.exists()
        part = j.part(SPEC, PLAYED)
        Path(part.partial(3)).write_text("{}")
        Path(part.partial(4)).write_text("{}")
        part.add(3, (GameResult(3, 1, 0, 2, 0, 0.0), None))
        assert not Path(part.partial(3)).exists() and Path(part.partial(4)).exists()
    assert folder.exists()  # still holds game 4 (and notes.txt)
    os.remove(part.partial(4))
    other.unlink()
    with Journal.open(journal, HEADER) as j:  # resumed: its folder is kept until it is empty
        pass
    assert not folder.exists()


def test_ctrl_c_over_a_process_pool_keeps_each_worker_s_game_where_it_stopped(
    tmp_path: Path,
) -> None:
    # A real SIGINT to the parent (in a fresh interpreter, as in test_runner) as the fourth
    # game of a two-worker run finishes: the parent stops the pool, and each worker, in the
    # middle of its next chunk, saves its game's position before it exits. (At the first
    # result the other worker may not have begun a game yet, still starting up: then nothing
    # is under way to keep, about one run in ten.) The player's games take a tenth of a second
    # or more, so after the first four (one game a chunk) each chunk holds about a second of
    # play: with the heuristic's few hundredths (16 games a chunk, half a second), a parent
    # slowed by a loaded machine (CI, once) could reach the stop after both workers had run
    # out of queued work, and nothing was under way to keep. Far below the 30 s between
    # saves, so every file is a stop's.
    SLOW_SPEC, GAMES = "expectimax:depth=2", 24  # memoryless
    script = """
import json, multiprocessing, os, signal, sys
from boardai.arena import runner
from boardai.arena.journal import Journal
from boardai.arena.results import PLAYED
from boardai.arena.solo import Solo

signal.signal(signal.SIGINT, signal.default_int_handler)
sent = []

def on_result(index, result):
    sent.append(index)
    if len(sent) == 4:
        os.kill(os.getpid(), signal.SIGINT)

header = json.loads(sys.argv[2])
with Journal.open(sys.argv[1], header) as j:
    part = j.part(header["players"][0], PLAYED)
    contest = Solo(header["players"][0], header["seed"], False, part.partial_prefix)
    done = runner.run(contest, header["games"], workers=2, on_result=on_result, journal=part)
print(json.dumps({"interrupted": done.interrupted, "finished": len(done.results),
                  "children": len(multiprocessing.active_children())}))
"""
    header = {**HEADER, "players": [SLOW_SPEC], "games": GAMES}
    env = {"PYTHONPATH": str(Path(__file__).parents[2] / "src"), "PATH": "/usr/bin:/bin"}
    # Whether a worker is inside a game at the stop is timing (CI once caught both between
    # chunks, with the fourth result in): a run that has nothing under way to keep is run
    # again, up to three times; every run must stop cleanly.
    for attempt in range(3):
        journal = tmp_path / f"run{attempt}.jsonl"
        out = subprocess.run(
            [sys.executable, "-c", script, str(journal), json.dumps(header)],
            capture_output=True, text=True, timeout=300, env=env,
        )  # fmt: skip
        assert out.returncode == 0, out.stderr
        got = json.loads(out.stdout)
        assert got["interrupted"] and got["children"] == 0 and got["finished"] < GAMES, got
        assert "Traceback" not in out.stderr, out.stderr  # the workers left quietly
        folder = Path(str(journal) + PARTIAL_SUFFIX)
        saved = sorted(folder.glob("*.json"))
        if saved:
            break
    assert saved, "no worker kept its game, three runs in a row"
    whole = play_games(SLOW_SPEC, GAMES, 5)
    for path in saved:
        index = int(path.stem.rsplit("-", 1)[1])
        game, _, _ = load_partial(str(path), SLOW_SPEC, 5, index) or (None, 0, 0)
        assert game is not None and 0 < game.moves < whole.results[index].moves
    with Journal.open(journal, header) as j:  # resumed: those games go on to the same end
        resumed = play_games(SLOW_SPEC, GAMES, 5, journal=j.part(SLOW_SPEC, PLAYED))
    assert [_same_game(a, b) for a, b in zip(resumed.results, whole.results, strict=True)] == [
        True
    ] * GAMES
    assert not folder.exists()
