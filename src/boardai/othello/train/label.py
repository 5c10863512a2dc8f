"""Label positions with a search's value instead of their game's result.

A game's final disc difference is an exact label only where both sides played perfectly from
the position on (the exact endgame solver's last empties); earlier, it carries every later
mistake of the players that made the games. On 60 held-out positions at 20-22 empties solved
exactly, the final results of depth-6 games were off by about 16 discs on average, while a
fitted evaluation searched to depth 4 was off by 5.5 (docs/benchmarks.md). Engines fit on
positions labelled by deep searches as well as by outcomes (Buro 1999; Egaroucid labels its
opening positions by a deeper search): :func:`label` gives each position in a band of empty
squares the value of a player's search (its ``analyse``: the value for the side to move, in
discs for an evaluation fitted in discs, exact where the search reaches its endgame solver),
mixed with the game's result by ``mix`` (1: the search's value alone).

The positions of a game go to one worker and are searched in their order, the search's table
cleared at each game's start, so the labels depend only on the data and the player, not on how
many workers share the work.
"""

from __future__ import annotations

import functools
import math
import os
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from boardai.othello.train.fit import Labelled, read_positions


@functools.lru_cache(maxsize=1)
def _data(paths: tuple[str, ...]) -> Labelled:
    return read_positions(list(paths))[0]


@functools.lru_cache(maxsize=1)
def _agent(spec: str) -> Any:
    from boardai.othello.agents import make_agent

    return make_agent(spec)


def game_starts(game: np.ndarray) -> np.ndarray:
    """int64[games + 1]: where each game's run of rows starts (rows of a game are together,
    as :func:`~boardai.othello.train.fit.read_positions` gives them), and the end."""
    if not len(game):
        return np.zeros(1, np.int64)
    cuts = np.flatnonzero(np.diff(game) != 0) + 1
    return np.concatenate([[0], cuts, [len(game)]]).astype(np.int64)


def _label_games(
    paths: tuple[str, ...], spec: str, lo: int, hi: int, games: Sequence[int]
) -> tuple[list[np.ndarray], float]:
    """The search values (float64, NaN outside ``lo..hi`` empties) of the rows of ``games``."""
    from boardai.othello.board import BLACK, Board
    from boardai.othello.search import value_in_discs

    start = time.perf_counter()
    data, agent = _data(paths), _agent(spec)
    assert data.game is not None
    starts = game_starts(data.game)
    out = []
    for g in games:
        agent.reset()
        rows = range(int(starts[g]), int(starts[g + 1]))
        values = np.full(len(rows), np.nan)
        for k, row in enumerate(rows):
            if lo <= int(data.empties[row]) <= hi:
                board = Board.from_mover(int(data.mover[row]), int(data.opponent[row]), BLACK)
                values[k] = value_in_discs(agent.analyse(board).value)
        out.append(values)
    return out, time.perf_counter() - start


def label(
    paths: Sequence[str | os.PathLike[str]],
    spec: str,
    empties: tuple[int, int] = (17, 60),
    mix: float = 1.0,
    workers: int = 1,
    on_progress: Callable[[int, int], None] | None = None,
) -> tuple[Labelled, dict[str, Any]]:
    """The positions of ``paths`` (as :func:`~boardai.othello.train.fit.read_positions` reads
    them; they must carry their games), each in the band ``empties`` (both ends included)
    labelled ``mix * value + (1 - mix) * result`` where ``value`` is the player ``spec``'s
    search value for the side to move; the rest keep their game's result.

    ``on_progress(positions_done, positions_to_label)`` is called as games finish. A
    KeyboardInterrupt stops the work and is raised (nothing is half written).
    Returns the positions and a summary (positions labelled, seconds, mean change of label).
    """
    from boardai.arena.backends import backend_for

    if not 0.0 <= mix <= 1.0:
        raise ValueError(f"mix must be in 0..1, got {mix}")
    if not hasattr(_agent(spec), "analyse"):  # built here once: a bad spec fails before any work
        raise ValueError(f"{spec}: this player has no search value to label with")
    keys = tuple(os.fspath(p) for p in paths)
    data = _data(keys)
    if data.game is None:
        raise ValueError("these positions carry no games: label games or record files")
    lo, hi = empties
    starts = game_starts(data.game)
    n_games = len(starts) - 1
    inside = (data.empties >= lo) & (data.empties <= hi)
    per_game = np.add.reduceat(inside.astype(np.int64), starts[:-1]) if n_games else inside[:0]
    total = int(inside.sum())
    values = np.full(len(data.label), np.nan)
    task = functools.partial(_label_games, keys, spec, lo, hi)
    chunk = max(1, min(50, math.ceil(n_games / (8 * max(1, workers)))))
    chunks = [list(range(i, min(n_games, i + chunk))) for i in range(0, n_games, chunk)]
    done, seconds = 0, 0.0
    start = time.perf_counter()
    backend = backend_for(workers, len(chunks))
    for games, (parts, took) in backend.map_chunks(task, chunks):
        seconds += took
        for g, v in zip(games, parts, strict=True):
            values[starts[g] : starts[g + 1]] = v
            done += int(per_game[g])
        if on_progress is not None:
            on_progress(done, total)
    new = data.label.astype(np.float64)
    new[inside] = mix * values[inside] + (1.0 - mix) * new[inside]
    labelled = Labelled(data.mover, data.opponent, new.astype(np.float32), data.empties, data.game)
    change = float(np.mean(np.abs(new[inside] - data.label[inside]))) if total else 0.0
    return labelled, {
        "positions": len(new),
        "labelled": total,
        "games": n_games,
        "cpu_seconds": seconds,
        "seconds": time.perf_counter() - start,
        "mean_abs_change": change,
    }
