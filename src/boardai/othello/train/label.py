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
many workers share the work, nor on whether the work stopped and went on: a run given a
``checkpoint`` file keeps the values of the games done there (every few minutes, and when it is
stopped), and a run given the same file again searches only the games it lacks.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from boardai.othello.train.fit import Labelled, read_positions, write_positions


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


def _fingerprint(data: Labelled, spec: str, lo: int, hi: int) -> str:
    """What a checkpoint's values depend on: the positions, their games, the player, the band."""
    assert data.game is not None
    h = hashlib.sha256(json.dumps([spec, lo, hi]).encode())
    for a in (data.mover, data.opponent, data.game):
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


def _read_checkpoint(
    path: Path, fingerprint: str, n_rows: int, n_games: int
) -> tuple[np.ndarray, np.ndarray, float]:
    """(values, games done, CPU seconds so far) of a checkpoint written by :func:`label`."""
    try:
        with np.load(path) as z:
            meta = json.loads(str(z["meta"]))
            values, done = z["values"], z["done"]
    except (OSError, ValueError, KeyError) as e:
        raise ValueError(f"{path}: not a labelling checkpoint ({e})") from None
    if meta.get("fingerprint") != fingerprint:
        raise ValueError(
            f"{path}: a labelling of other positions, another player or another band of empties"
        )
    if values.shape != (n_rows,) or done.shape != (n_games,):  # the fingerprint says they fit
        raise ValueError(f"{path}: not a labelling checkpoint (damaged: its arrays do not fit)")
    return values.astype(np.float64), done.astype(bool), float(meta.get("cpu_seconds", 0.0))


def _write_checkpoint(
    path: Path, fingerprint: str, values: np.ndarray, done: np.ndarray, cpu_seconds: float
) -> None:
    from boardai.atomic import atomic_write

    meta = json.dumps({"fingerprint": fingerprint, "cpu_seconds": cpu_seconds})
    with atomic_write(path, "wb") as f:
        np.savez_compressed(f, values=values, done=done, meta=np.array(meta))


def label(
    paths: Sequence[str | os.PathLike[str]] | Labelled,
    spec: str,
    empties: tuple[int, int] = (17, 60),
    mix: float = 1.0,
    workers: int = 1,
    on_progress: Callable[[int, int], None] | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    every: float = 180.0,
) -> tuple[Labelled, dict[str, Any]]:
    """The positions of ``paths`` (as :func:`~boardai.othello.train.fit.read_positions` reads
    them, or given as they are; they must carry their games), each in the band ``empties``
    (both ends included) labelled ``mix * value + (1 - mix) * result`` where ``value`` is the
    player ``spec``'s search value for the side to move; the rest keep their game's result.

    ``on_progress(positions_done, positions_to_label)`` is called as games finish. A
    KeyboardInterrupt stops the work and is raised. With a ``checkpoint`` path, the search
    values of the games done are written there every ``every`` seconds and when the work is
    stopped, and the games a checkpoint found there holds already are not searched again (it
    must come from the same positions, player and band: ValueError otherwise); the caller
    removes it once the result is written. The labels are the same either way.
    Returns the positions and a summary (positions labelled, seconds, mean change of label,
    positions taken from the checkpoint).
    """
    from boardai.arena.backends import backend_for

    if not 0.0 <= mix <= 1.0:
        raise ValueError(f"mix must be in 0..1, got {mix}")
    if not hasattr(_agent(spec), "analyse"):  # built here once: a bad spec fails before any work
        raise ValueError(f"{spec}: this player has no search value to label with")
    if isinstance(paths, Labelled):  # the workers read them from a file, as they read the rest
        with tempfile.TemporaryDirectory(prefix="boardai-label-") as folder:
            given = os.path.join(folder, "positions.npz")
            write_positions(given, paths.mover, paths.opponent, paths.label, paths.game)
            return label([given], spec, empties, mix, workers, on_progress, checkpoint, every)
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
    finished = np.zeros(n_games, bool)
    seconds = 0.0
    saved = None if checkpoint is None else Path(checkpoint)
    fingerprint = _fingerprint(data, spec, lo, hi) if saved is not None else ""
    if saved is not None and saved.exists():
        values, finished, seconds = _read_checkpoint(saved, fingerprint, len(values), n_games)
    resumed = done = int(per_game[finished].sum())
    todo = np.flatnonzero(~finished).tolist()
    task = functools.partial(_label_games, keys, spec, lo, hi)
    chunk = max(1, min(50, math.ceil(len(todo) / (8 * max(1, workers)))))
    chunks = [todo[i : i + chunk] for i in range(0, len(todo), chunk)]
    start = last_save = time.perf_counter()
    if on_progress is not None:
        on_progress(done, total)
    try:
        for games, (parts, took) in backend_for(workers, len(chunks)).map_chunks(task, chunks):
            seconds += took
            for g, v in zip(games, parts, strict=True):
                values[starts[g] : starts[g + 1]] = v
                finished[g] = True
                done += int(per_game[g])
            if on_progress is not None:
                on_progress(done, total)
            if saved is not None and time.perf_counter() - last_save >= every:
                _write_checkpoint(saved, fingerprint, values, finished, seconds)
                last_save = time.perf_counter()
    except KeyboardInterrupt:
        if saved is not None and done > resumed:
            _write_checkpoint(saved, fingerprint, values, finished, seconds)
        raise
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
        "resumed": resumed,
    }
