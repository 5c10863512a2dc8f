"""2048 in the arena: N games of one player, scored by points and the largest tile.

>>> run = play_games("greedy", games=3, seed=1, workers=1)
>>> len(run.results), run.results[0].index
(3, 0)

Game i of a run seeded S spawns from :func:`~boardai.arena.seeding.game_seed` (S, i) and its
player is reseeded with :func:`~boardai.arena.seeding.agent_seed` (S, i), the rule for
one-player games.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from boardai.agent import Agent
from boardai.arena import runner
from boardai.arena.backends import Backend
from boardai.arena.journal import Part
from boardai.arena.play import IllegalMoveError, play_2048
from boardai.arena.results import GameResult, Played, RunResult
from boardai.arena.seeding import agent_seed, game_seed

if TYPE_CHECKING:
    from boardai.g2048.board import Board

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
    """

    spec: str
    seed: int = 0
    record: bool = False

    def build(self) -> list[Agent[Any]]:
        return [build_player(self.spec)]

    def play(self, players: list[Agent[Any]], index: int) -> Played:
        """Play game ``index``.

        Raises:
            RuntimeError: the player returned an illegal move.
        """
        from boardai.g2048 import Game

        agent = players[0]
        agent.reseed(agent_seed(self.seed, index))
        agent.reset()
        spawn_seed = game_seed(self.seed, index)
        game = Game(seed=spawn_seed)
        start, cpu_start = time.perf_counter(), time.process_time()
        try:
            for _ in play_2048(game, agent):
                pass
        except IllegalMoveError as e:
            raise RuntimeError(f"player {self.spec!r} in game {index}: {e}") from None
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
        result = GameResult(
            index, spawn_seed, game.score, game.board.max_tile(), game.moves, seconds, cpu
        )
        rec = None
        if self.record:
            rec = game.to_record()
            rec["agent"] = self.spec
            rec["index"] = index
        return result, rec


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
        journal: where each game is written as it finishes; its games are not played again.

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

    done = runner.run(
        Solo(spec, seed, record),
        games,
        workers=workers,
        backend=backend,
        chunk=chunk,
        on_result=each,
        journal=journal,
    )
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
