"""The one runner: play the games of a contest over a backend, keeping what finishes.

A :class:`Contest` says what one game of a run is (2048: one player's game, see
:mod:`boardai.arena.solo`; Othello: a game of a match between two players, see
:mod:`boardai.arena.match`). :func:`run` plays games ``0 .. n-1`` of it:

- in chunks of consecutive indices (:func:`chunk_size`), so the cost of sending work to a
  worker is paid once per chunk, not once per game;
- on a backend (:mod:`boardai.arena.backends`): this process, a process pool, a cluster;
- each process builds the contest's players once per run and before every game the contest
  reseeds and resets them (see :mod:`boardai.arena.seeding`), so the results do not depend on
  the number of workers, the chunk size, or which games a process played before;
- ``on_result(index, result)`` is called in this process as each game's chunk finishes, and
  the results come back sorted by index;
- Ctrl-C (or SIGTERM in the commands) stops the run and keeps the games finished so far;
- with a journal (:mod:`boardai.arena.journal`) each game is written as it arrives, and the
  games already in it are not played again (``on_result`` sees them first).

>>> from boardai.arena.solo import Solo
>>> done = run(Solo("greedy", seed=1), 3)
>>> [r.index for r, _ in done.results], done.interrupted
([0, 1, 2], False)
"""

from __future__ import annotations

import atexit
import time
import uuid
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from boardai.agent import Agent, Closable
from boardai.arena.backends import Backend, backend_for

if TYPE_CHECKING:
    from boardai.arena.journal import Part

R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)


class Contest(Protocol[R_co]):
    """What a game of a run is. Sent to the workers, so it must pickle (a frozen dataclass of
    specs and numbers, not of built players)."""

    def build(self) -> list[Agent[Any]]:
        """The players, built once per process and run (a bad spec raises UsageError)."""
        ...

    def play(self, players: list[Agent[Any]], index: int) -> R_co:
        """Play game ``index`` with ``players``: seed them and the game from the index alone."""
        ...


@dataclass
class Run(Generic[R]):
    """The games a run finished, sorted by index, and how it went."""

    results: list[R] = field(default_factory=list)
    seconds: float = 0.0
    interrupted: bool = False


def chunk_size(games: int, workers: int) -> int:
    """Games per chunk: about eight chunks per worker (so the work evens out and Ctrl-C loses
    little), at most 16 games."""
    return max(1, min(16, games // (8 * max(workers, 1))))


def chunks_of(games: int, size: int, skip: Collection[int] = ()) -> list[Sequence[int]]:
    """Indices ``0 .. games-1`` but those in ``skip``, in chunks of ``size``, in order."""
    if size < 1:
        raise ValueError(f"chunk size must be >= 1, got {size}")
    if not skip:
        return [range(i, min(i + size, games)) for i in range(0, games, size)]
    todo = [i for i in range(games) if i not in skip]
    return [todo[i : i + size] for i in range(0, len(todo), size)]


def run(
    contest: Contest[R],
    games: int,
    *,
    workers: int = 1,
    backend: Backend | None = None,
    chunk: int | None = None,
    on_result: Callable[[int, R], None] | None = None,
    journal: Part[R] | None = None,
) -> Run[R]:
    """Play games ``0 .. games-1`` of ``contest``; Ctrl-C stops and keeps the finished ones.

    Args:
        contest: what a game is.
        games: how many.
        workers: processes of the default backend (1: this process).
        backend: where to play (default: :func:`~boardai.arena.backends.backend_for`).
        chunk: games per chunk (default :func:`chunk_size`).
        on_result: called with (index, result) as each game is done, in any order.
        journal: where each game is written as it is done; its games already done are not
            played again (``on_result`` sees them first, in index order).
    """
    if games < 0 or workers < 1:
        raise ValueError(f"games must be >= 0 and workers >= 1, got {games}, {workers}")
    had = {i: r for i, r in journal.done.items() if i < games} if journal else {}
    todo = games - len(had)
    backend = backend if backend is not None else backend_for(workers, todo)
    chunks = chunks_of(games, chunk or chunk_size(todo, workers), had.keys())
    token = uuid.uuid4().hex  # players are built afresh for every run
    done: list[tuple[int, R]] = []
    for index in sorted(had):
        done.append((index, had[index]))
        if on_result is not None:
            on_result(index, had[index])
    out: Run[R] = Run()
    start = time.perf_counter()
    finished = backend.map_chunks(partial(play_chunk, contest, token), chunks)
    try:
        for indices, results in finished:
            for index, result in zip(indices, results, strict=True):
                done.append((index, result))
                if journal is not None:
                    journal.add(index, result)
                if on_result is not None:
                    on_result(index, result)
    except KeyboardInterrupt:
        out.interrupted = True
    finally:
        finished.close()  # stops the backend's work still under way, if any
        release(token)
    out.seconds = time.perf_counter() - start
    done.sort(key=lambda d: d[0])
    out.results = [r for _, r in done]
    return out


# -- in each process that plays -----------------------------------------------------------

#: The players of the run this process plays games of: (run token, players).
_players: tuple[str, list[Agent[Any]]] | None = None
_release_at_exit = False


def play_chunk(contest: Contest[R], token: str, chunk: Sequence[int]) -> list[R]:
    """Play the games of ``chunk``, building the run's players if this process has not yet."""
    global _players, _release_at_exit
    if _players is None or _players[0] != token:
        release(None)
        _players = (token, contest.build())
        if not _release_at_exit:  # a worker's engines close as it exits
            atexit.register(release, None)
            _release_at_exit = True
    players = _players[1]
    return [contest.play(players, i) for i in chunk]


def release(token: str | None) -> None:
    """Drop the players of run ``token`` (of any run: None), closing those that hold an engine."""
    global _players
    if _players is None or (token is not None and _players[0] != token):
        return
    players, _players = _players[1], None
    for agent in players:
        if isinstance(agent, Closable):
            agent.close()
