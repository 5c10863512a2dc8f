"""2048 in the arena: N games of one player, scored by points and the largest tile.

>>> run = play_games("greedy", games=3, seed=1, workers=1)
>>> len(run.results), run.results[0].index
(3, 0)

Game i of a run seeded S is ``Game(seed=S, index=i)``, spawning from
:func:`~boardai.arena.seeding.game_seed` (S, i), and its player is reseeded with
:func:`~boardai.arena.seeding.agent_seed` (S, i): the rule of :mod:`boardai.rng`, so these are
the games the compiled loops play for seed S (``boardai 2048 random``, training evaluation).

With a journal, a game cut short (Ctrl-C, SIGTERM, a killed worker) is not lost when its player
is :func:`~boardai.agent.memoryless` (the searches and networks; not ``random`` or ``greedy``,
which draw): every :data:`SAVE_SECONDS`, and when it is stopped (in a pool's worker too:
:class:`~boardai.arena.backends.WorkerStopped`; on local Ray, whose workers no Ctrl-C reaches,
when the run asks through :data:`STOP_FILE`), it writes its record so far to its partial
file beside the journal (:meth:`~boardai.arena.journal.Part.partial`), and the next run
replays that record, checking each spawn against the game's seed, and plays on from there. The
game then ends exactly as if it had never stopped, and its seconds and CPU seconds add up both
parts.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from boardai import stop_request
from boardai.agent import Agent, memoryless
from boardai.arena import runner
from boardai.arena.backends import Backend
from boardai.arena.journal import Part
from boardai.arena.play import IllegalMoveError, board_of, play
from boardai.arena.results import GameResult, Played, RunResult
from boardai.arena.seeding import agent_seed, game_seed

if TYPE_CHECKING:
    from boardai.g2048.board import Board
    from boardai.g2048.game import Game

#: A game cut short loses at most this many seconds of play (see the module's docstring).
SAVE_SECONDS = 30.0

#: Beside a run's games cut short (its partial prefix, then this), the request that the games
#: under way stop and save: a run on Ray, stopped, writes it, as no Ctrl-C reaches its workers.
STOP_FILE = "stop"


class GameStoppedError(Exception):
    """A game stopped when its run asked (:data:`STOP_FILE`), after saving its position."""


#: ``on_result(result, record)``: called in the parent as each game finishes (in any order);
#: ``record`` is the game's :meth:`~boardai.g2048.game.Game.to_record` or None.
OnResult = Callable[[GameResult, "dict[str, Any] | None"], None]


def build_player(spec: str) -> Agent[Board]:
    """The player ``spec`` names, its kernels compiled by one move, so that compiling is not
    timed as part of a game (a bad spec raises UsageError)."""
    from boardai.g2048 import Game
    from boardai.g2048.agents import make_agent

    agent = make_agent(spec, seed=0)
    agent.act(Game(seed=0).board)
    return agent


@dataclass(frozen=True)
class Solo:
    """The 2048 contest: game ``index`` of ``spec``'s run seeded ``seed``.

    Attributes:
        spec: the player.
        seed: the run's seed.
        record: keep each game's replay record.
        partial: where games cut short keep their positions: game i's file is this prefix
            and ``f"{i}.json"`` (:attr:`~boardai.arena.journal.Part.partial_prefix`); None
            keeps nothing.
        save_seconds: seconds of play between two saves of a game's position.
    """

    spec: str
    seed: int = 0
    record: bool = False
    partial: str | None = None
    save_seconds: float = SAVE_SECONDS

    def build(self) -> list[Agent[Any]]:
        return [build_player(self.spec)]

    def stop(self) -> bool:
        """Ask the games under way elsewhere to save their positions and stop (a run on Ray);
        whether they were asked (not when the run keeps no games cut short)."""
        if self.partial is None:
            return False
        try:
            stop_request.ask(f"{self.partial}{STOP_FILE}")
        except OSError:
            return False
        return True

    def play(self, players: list[Agent[Any]], index: int) -> Played:
        """Play game ``index``.

        Raises:
            RuntimeError: the player returned an illegal move.
        """
        from boardai.g2048 import Game
        from boardai.g2048.contract_game import State2048

        agent = players[0]
        agent.reseed(agent_seed(self.seed, index))
        agent.reset()
        spawn_seed = game_seed(self.seed, index)
        path = None
        if self.partial is not None and memoryless(agent):
            path = f"{self.partial}{index}.json"
        game, seconds, cpu = Game(seed=self.seed, index=index), 0.0, 0.0
        if path is not None:
            game, seconds, cpu = load_partial(path, self.spec, self.seed, index) or (game, 0.0, 0.0)
        start, cpu_start = time.perf_counter(), time.process_time()
        saved = start
        asked = None if path is None else stop_request.looker(f"{self.partial}{STOP_FILE}")

        def save() -> None:
            assert path is not None
            now = time.perf_counter()
            save_partial(
                path, self.spec, game, seconds + now - start, cpu + time.process_time() - cpu_start
            )

        try:
            for _ in play(State2048(game), [agent], observe=board_of):
                now = time.perf_counter()
                if path is not None and now - saved >= self.save_seconds:
                    save()
                    saved = time.perf_counter()
                if asked is not None and asked():
                    if game.moves:
                        save()
                    raise GameStoppedError(f"game {index}: stopped at move {game.moves}")
        except IllegalMoveError as e:
            raise RuntimeError(f"player {self.spec!r} in game {index}: {e}") from None
        except KeyboardInterrupt:  # Ctrl-C here; in a pool's worker, the pool stopping it
            if path is not None and game.moves:
                save()
            raise
        seconds += time.perf_counter() - start
        cpu += time.process_time() - cpu_start
        result = GameResult(
            index, spawn_seed, game.score, game.board.max_tile(), game.moves, seconds, cpu
        )
        rec = None
        if self.record:
            rec = game.to_record()
            rec["agent"] = self.spec
            rec["index"] = index
        return result, rec


def _unlink(path: str) -> None:
    with contextlib.suppress(OSError):
        os.remove(path)


def save_partial(path: str, spec: str, game: Game, seconds: float, cpu_seconds: float) -> None:
    """Write ``game``'s record so far to ``path``, atomically, for :func:`load_partial`. A
    failure (a full disk) costs only the save: the game goes on."""
    from boardai.atomic import atomic_write

    saved = {
        "spec": spec,
        "seconds": seconds,
        "cpu_seconds": cpu_seconds,
        "record": game.to_record(),
    }
    with contextlib.suppress(OSError):
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        with atomic_write(path, "w") as f:
            json.dump(saved, f)


def load_partial(path: str, spec: str, seed: int, index: int) -> tuple[Game, float, float] | None:
    """Game ``index`` of ``seed`` as ``spec`` was playing it when it saved ``path``, replayed
    move by move with the seed's own spawns, and the seconds and CPU seconds played so far;
    None if there is no such file, or it is another game's, or a spawn in it is not the
    seed's."""
    from boardai.g2048 import Game

    try:
        with open(path, encoding="utf-8") as f:
            saved = json.load(f)
        rec = saved["record"]
        if saved["spec"] != spec or (rec["seed"], rec.get("index", 0)) != (seed, index):
            return None
        game = Game.from_record(saved["record"], seeded=True)
        return game, float(saved["seconds"]), float(saved["cpu_seconds"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def prepare(spec: str, workers: int) -> None:
    """Build the player ``spec`` once in this process, so that a bad option or model file is
    reported (as a UsageError) before any game or worker starts, and the kernels one worker
    plays with are compiled."""
    if workers <= 1:
        build_player(spec)
    else:
        from boardai.g2048.agents import make_agent

        make_agent(spec, seed=0)


def play_games(
    spec: str,
    games: int,
    seed: int = 0,
    workers: int = 1,
    *,
    record: bool = False,
    on_result: OnResult | None = None,
    backend: Backend | None = None,
    chunk: int | None = None,
    journal: Part[Played] | None = None,
    part: range | None = None,
) -> RunResult:
    """Play ``games`` games of the player ``spec``; Ctrl-C stops and keeps the finished ones.

    Args:
        spec: the player (``expectimax:depth=3``); checked before any game starts.
        games: how many games.
        seed: the run's seed: game i's spawns and player seed derive from (seed, i).
        workers: processes; 1 plays in this process.
        record: also pass each game's replay record to ``on_result`` and keep it in the
            result's ``records``.
        on_result: called as each game finishes (for progress bars and incremental files).
        backend: where to play (default: this process or a pool of ``workers``).
        chunk: games sent to a worker at a time (default: sized by the games' time,
            :class:`~boardai.arena.runner.Chunks`).
        journal: where each game is written as it finishes; its games are not played again,
            and a game cut short goes on from its last saved position (module docstring) when
            the backend plays on this machine.
        part: play only the games of this range (:func:`~boardai.arena.runner.run`).

    Raises:
        UsageError: a bad spec.
    """
    from boardai.g2048.agents import check_spec

    check_spec(spec)
    if games < 0 or workers < 1:
        raise ValueError(f"games must be >= 0 and workers >= 1, got {games}, {workers}")

    def each(index: int, played: Played) -> None:
        if on_result is not None:
            on_result(*played)

    partial = None
    if journal is not None and (backend is None or getattr(backend, "shares_files", False)):
        partial = journal.partial_prefix
        _unlink(f"{partial}{STOP_FILE}")  # a request an earlier run left (a crash)
    try:
        done = runner.run(
            Solo(spec, seed, record, partial),
            games,
            workers=workers,
            backend=backend,
            chunk=chunk,
            on_result=each,
            journal=journal,
            part=part,
        )
    finally:
        if partial is not None:
            _unlink(f"{partial}{STOP_FILE}")
    out = RunResult(
        agent=spec,
        seed=seed,
        games=games,
        workers=workers,
        seconds=done.seconds,
        interrupted=done.interrupted,
    )
    for result, rec in done.results:
        out.results.append(result)
        if rec is not None:
            out.records[result.index] = rec
    return out
