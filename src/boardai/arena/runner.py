"""Play N games of one player, in this process or over a pool of worker processes."""

from __future__ import annotations

import multiprocessing
import signal
import time
from collections.abc import Callable
from typing import Any

from boardai.arena.results import GameResult, RunResult
from boardai.arena.seeding import agent_seed, game_seed

#: ``on_result(result, record)``: called in the parent as each game finishes (in any order);
#: ``record`` is the game's :meth:`~boardai.g2048.game.Game.to_record` or None.
OnResult = Callable[[GameResult, "dict[str, Any] | None"], None]


_warmed: set[str] = set()


def _warm_up(spec: str) -> None:
    """Compile a player's kernels once per process, outside the timed games."""
    if spec in _warmed:
        return
    from boardai.g2048 import Game
    from boardai.g2048.agents import make_agent

    make_agent(spec, seed=0).act(Game(seed=0).board)
    _warmed.add(spec)


def prepare(spec: str, workers: int) -> None:
    """Build the player ``spec`` once in this process, so that a bad option or model file is
    reported (as a UsageError) before any game or worker starts. With one worker this is the
    warm-up its games need anyway; with more, the player is built and dropped.
    """
    if workers <= 1:
        _warm_up(spec)
    else:
        from boardai.g2048.agents import make_agent

        make_agent(spec, seed=0)


def play_one(
    spec: str, seed: int, index: int, record: bool = False
) -> tuple[GameResult, dict[str, Any] | None]:
    """Play game ``index`` of a run seeded ``seed`` with a fresh player built from ``spec``.

    Raises:
        RuntimeError: the player returned an illegal move.
    """
    from boardai.g2048 import Game
    from boardai.g2048.agents import make_agent

    _warm_up(spec)
    agent = make_agent(spec, seed=agent_seed(seed, index))
    spawn_seed = game_seed(seed, index)
    game = Game(seed=spawn_seed)
    agent.reset()
    start = time.perf_counter()
    while not game.is_over():
        action = agent.act(game.board)
        try:
            game.move(action)
        except ValueError as e:
            raise RuntimeError(f"player {spec!r} in game {index}: {e}") from None
    seconds = time.perf_counter() - start
    result = GameResult(index, spawn_seed, game.score, game.board.max_tile(), game.moves, seconds)
    rec = None
    if record:
        rec = game.to_record()
        rec["agent"] = spec
        rec["index"] = index
    return result, rec


def _job(args: tuple[str, int, int, bool]) -> tuple[GameResult, dict[str, Any] | None]:
    return play_one(*args)


def _ignore_sigint() -> None:
    # Ctrl-C goes to the whole process group: the parent alone handles it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def play_games(
    spec: str,
    games: int,
    seed: int = 0,
    workers: int = 1,
    *,
    record: bool = False,
    on_result: OnResult | None = None,
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

    Raises:
        UsageError: a bad spec.
    """
    from boardai.g2048.agents import check_spec

    check_spec(spec)
    if games < 0 or workers < 1:
        raise ValueError(f"games must be >= 0 and workers >= 1, got {games}, {workers}")
    run = RunResult(agent=spec, seed=seed, games=games, workers=workers)
    jobs = [(spec, seed, i, record) for i in range(games)]
    start = time.perf_counter()
    try:
        if workers == 1 or games <= 1:
            for job in jobs:
                _collect(run, _job(job), on_result)
        else:
            ctx = multiprocessing.get_context("spawn")
            with ctx.Pool(min(workers, games), initializer=_ignore_sigint) as pool:
                try:
                    for out in pool.imap_unordered(_job, jobs, chunksize=1):
                        _collect(run, out, on_result)
                except KeyboardInterrupt:
                    pool.terminate()
                    raise
    except KeyboardInterrupt:
        run.interrupted = True
    run.seconds = time.perf_counter() - start
    run.results.sort(key=lambda r: r.index)
    return run


def _collect(
    run: RunResult, out: tuple[GameResult, dict[str, Any] | None], on_result: OnResult | None
) -> None:
    result, rec = out
    run.results.append(result)
    if rec is not None:
        run.records[result.index] = rec
    if on_result is not None:
        on_result(result, rec)
