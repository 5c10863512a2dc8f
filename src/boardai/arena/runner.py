"""The one runner: play the games of a contest over a backend, keeping what finishes.

A :class:`Contest` says what one game of a run is (2048: one player's game, see
:mod:`boardai.arena.solo`; Othello: a game of a match between two players, see
:mod:`boardai.arena.match`). :func:`run` plays games ``0 .. n-1`` of it:

- in chunks of indices sized as the run goes (:class:`Chunks`): one game each until games
  have been timed, then as many as take about :data:`CHUNK_SECONDS`, so sending work to a
  worker costs nothing next to the games, and Ctrl-C, or a worker lost, loses a second of
  play, not 16 slow games;
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
import itertools
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
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


#: How long a chunk should take once the games have been timed: sending a chunk to a worker
#: process costs about a quarter of a millisecond (4,000 random games in chunks of 1 against
#: 16: 7.7 s against 6.8 s on two workers), so a second's chunk wastes nothing, and Ctrl-C or
#: a lost worker throws away about a second of play.
CHUNK_SECONDS = 1.0

#: The most games in a chunk.
MAX_CHUNK = 16


class Chunks:
    """The chunks of a run, in index order, sized as the run goes: one game each until
    :meth:`timed` has been told how long games take, then ``CHUNK_SECONDS`` worth of games (1
    to ``MAX_CHUNK``), from the average time a game so far; with ``size``, that many always.

    An iterator: a backend takes each chunk when it hands it to a worker (so later chunks
    follow the timings of earlier ones).

    >>> chunks = Chunks(range(10))
    >>> next(chunks), next(chunks)
    ([0], [1])
    >>> chunks.timed(2, 0.5)  # 0.25 s a game: 4 games a chunk
    >>> next(chunks), list(chunks)
    ([2, 3, 4, 5], [[6, 7, 8, 9]])
    """

    def __init__(self, todo: Iterable[int], size: int | None = None) -> None:
        if size is not None and size < 1:
            raise ValueError(f"chunk size must be >= 1, got {size}")
        self._todo = iter(todo)  # read as it goes: a run of 10**9 games holds no list of them
        self._size = size
        self._games = 0
        self._seconds = 0.0

    def __iter__(self) -> Iterator[Sequence[int]]:
        return self

    def __next__(self) -> Sequence[int]:
        chunk = list(itertools.islice(self._todo, self.size()))
        if not chunk:
            raise StopIteration
        return chunk

    def size(self) -> int:
        """The size of the next chunk."""
        if self._size is not None:
            return self._size
        if self._games == 0:
            return 1
        per_game = self._seconds / self._games
        return max(1, min(MAX_CHUNK, int(CHUNK_SECONDS / max(per_game, 1e-9))))

    def timed(self, games: int, seconds: float) -> None:
        """A chunk of ``games`` games took ``seconds`` to play (in its worker)."""
        self._games += games
        self._seconds += seconds


def run(
    contest: Contest[R],
    games: int,
    *,
    workers: int = 1,
    backend: Backend | None = None,
    chunk: int | None = None,
    on_result: Callable[[int, R], None] | None = None,
    journal: Part[R] | None = None,
    part: range | None = None,
) -> Run[R]:
    """Play games ``0 .. games-1`` of ``contest``; Ctrl-C stops and keeps the finished ones.

    Args:
        contest: what a game is.
        games: how many.
        workers: processes of the default backend (1: this process).
        backend: where to play (default: :func:`~boardai.arena.backends.backend_for`).
        chunk: games per chunk (default: sized by the games' time, :class:`Chunks`).
        on_result: called with (index, result) as each game is done, in any order.
        journal: where each game is written as it is done; its games already done are not
            played again (``on_result`` sees them first, in index order).
        part: play only the games of this range (game ``i`` depends on the contest and ``i``
            alone, so a run split into parts on several machines is the same run once their
            journals are merged: :func:`~boardai.arena.journal.merge`).
    """
    if games < 0 or workers < 1:
        raise ValueError(f"games must be >= 0 and workers >= 1, got {games}, {workers}")
    had = {i: r for i, r in journal.done.items() if i < games} if journal else {}
    if part is not None and part.step != 1:
        raise ValueError(f"part must be a range of step 1, got {part}")
    span = range(games) if part is None else range(max(part.start, 0), min(part.stop, games))
    todo = (i for i in span if i not in had)
    to_play = len(span) - sum(1 for i in had if i in span)
    backend = backend if backend is not None else backend_for(workers, to_play)
    chunks = Chunks(todo, chunk)
    token = uuid.uuid4().hex  # players are built afresh for every run
    done: list[tuple[int, R]] = []
    for index in sorted(had):
        done.append((index, had[index]))
        if on_result is not None:
            on_result(index, had[index])
    out: Run[R] = Run()
    start = time.perf_counter()
    finished = backend.map_chunks(ChunkTask(contest, token), chunks)
    try:
        for indices, (results, seconds) in finished:
            chunks.timed(len(indices), seconds)
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


@dataclass(frozen=True)
class ChunkTask(Generic[R]):
    """The task a run gives its backend: :func:`play_chunk` of its contest. A backend whose
    workers no Ctrl-C reaches (Ray's) calls :meth:`stop` when the run ends early, so that the
    games under way there can save what they did (where the contest knows how)."""

    contest: Contest[R]
    token: str

    def __call__(self, chunk: Sequence[int]) -> tuple[list[R], float]:
        return play_chunk(self.contest, self.token, chunk)

    def stop(self) -> bool:
        """Ask the contest's games under way elsewhere to stop and save (its ``stop()``,
        if it has one); whether they were asked."""
        stop = getattr(self.contest, "stop", None)
        return stop is not None and bool(stop())


# -- in each process that plays -----------------------------------------------------------

#: The players of the run this process plays games of: (run token, players).
_players: tuple[str, list[Agent[Any]]] | None = None
_release_at_exit = False


def play_chunk(contest: Contest[R], token: str, chunk: Sequence[int]) -> tuple[list[R], float]:
    """Play the games of ``chunk``, building the run's players if this process has not yet;
    return their results and the seconds they took (building not counted)."""
    global _players, _release_at_exit
    if _players is None or _players[0] != token:
        release(None)
        _players = (token, contest.build())
        if not _release_at_exit:  # a worker's engines close as it exits
            atexit.register(release, None)
            _release_at_exit = True
    players = _players[1]
    start = time.perf_counter()
    results = [contest.play(players, i) for i in chunk]
    return results, time.perf_counter() - start


def release(token: str | None) -> None:
    """Drop the players of run ``token`` (of any run: None), closing those that hold an engine."""
    global _players
    if _players is None or (token is not None and _players[0] != token):
        return
    players, _players = _players[1], None
    for agent in players:
        if isinstance(agent, Closable):
            agent.close()
