"""Results of arena runs: one :class:`GameResult` per game, a :class:`RunResult` per run, with
JSON and CSV files and the summary statistics of :mod:`boardai.g2048.stats`."""

from __future__ import annotations

import csv
import json
import math
import os
from dataclasses import asdict, dataclass, field, fields
from typing import Any

import numpy as np

from boardai.arena import journal as _journal
from boardai.arena.journal import Codec, finished, read_journal
from boardai.atomic import atomic_write
from boardai.errors import UsageError, read_limited
from boardai.g2048.stats import Summary, summarize, tile_reach

FORMAT_VERSION = 1


@dataclass(frozen=True)
class GameResult:
    """One finished game: ``seconds`` of wall-clock time, ``cpu_seconds`` of the CPU time of the
    process that played it (NaN in files from before it was kept). Under load, or with the run
    paused, the first grows and the second does not."""

    index: int
    seed: int
    score: int
    max_tile: int
    moves: int
    seconds: float
    cpu_seconds: float = math.nan


#: A game's result and its replay record (None unless the run keeps records).
Played = tuple[GameResult, "dict[str, Any] | None"]


@dataclass
class RunResult:
    """The games of one player in one run (sorted by index), and how the run went.

    ``records`` holds the replay records (:meth:`boardai.g2048.game.Game.to_record`) of the
    games that kept one, by game index; :meth:`to_dict` writes each under its game's
    ``"record"`` key, so ``boardai replay`` and ``boardai render`` can open the file.
    """

    agent: str
    seed: int
    games: int
    workers: int
    results: list[GameResult] = field(default_factory=list)
    seconds: float = 0.0
    interrupted: bool = False
    records: dict[int, dict[str, Any]] = field(default_factory=dict)

    @property
    def scores(self) -> np.ndarray:
        return np.array([r.score for r in self.results], np.int64)

    @property
    def max_tiles(self) -> np.ndarray:
        return np.array([r.max_tile for r in self.results], np.int64)

    @property
    def moves(self) -> np.ndarray:
        return np.array([r.moves for r in self.results], np.int64)

    def summary(self) -> Summary:
        """Score statistics of the finished games."""
        return summarize(self.scores, self.moves)

    def moves_per_second(self) -> float:
        """Moves per second of play time, summed over the games (per worker)."""
        play = sum(r.seconds for r in self.results)
        return float(self.moves.sum() / play) if play > 0 else math.nan

    def cpu_ms_per_move(self) -> float:
        """Milliseconds of CPU time a move, over the games that kept it (NaN if none did)."""
        kept = [r for r in self.results if math.isfinite(r.cpu_seconds)]
        moves = sum(r.moves for r in kept)
        return 1000 * sum(r.cpu_seconds for r in kept) / moves if moves else math.nan

    def reach_rate(self, tile: int) -> float:
        """Share of the finished games that reached at least ``tile``."""
        return float((self.max_tiles >= tile).mean()) if self.results else math.nan

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: every game, the summary and the reach table."""
        return {
            "format": FORMAT_VERSION,
            "agent": self.agent,
            "seed": self.seed,
            "games": self.games,
            "finished": len(self.results),
            "workers": self.workers,
            "seconds": self.seconds,
            "interrupted": self.interrupted,
            "summary": json_finite(self.summary().to_dict()),
            "moves_per_s": _finite_value(self.moves_per_second()),
            "cpu_ms_per_move": _finite_value(self.cpu_ms_per_move()),
            "tile_reach": [
                {"tile": t, "reached": r, "ended": e} for t, r, e in tile_reach(self.max_tiles)
            ],
            "results": [self._game_dict(r) for r in self.results],
        }

    def _game_dict(self, result: GameResult) -> dict[str, Any]:
        game = json_finite(asdict(result))
        if result.index in self.records:
            game["record"] = self.records[result.index]
        return game

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RunResult:
        """Inverse of :meth:`to_dict` (the summary is recomputed from the games)."""
        names = [f.name for f in fields(GameResult)]
        results = [game_from_json({k: g[k] for k in names if k in g}) for g in data["results"]]
        records = {int(g["index"]): g["record"] for g in data["results"] if "record" in g}
        return cls(
            agent=data["agent"],
            seed=int(data["seed"]),
            games=int(data["games"]),
            workers=int(data["workers"]),
            results=results,
            seconds=float(data["seconds"]),
            interrupted=bool(data["interrupted"]),
            records=records,
        )

    def write_json(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`to_dict` atomically."""
        with atomic_write(path, "w", encoding="utf-8") as f:
            json.dump(self.to_dict(), f, indent=1)
            f.write("\n")

    @classmethod
    def read_json(cls, path: str | os.PathLike[str]) -> RunResult:
        """Read a file of :meth:`write_json`.

        Raises:
            UsageError: the file is missing or is not an arena result.
        """
        runs = read_runs(path)
        if len(runs) != 1:
            raise UsageError(f"{path}: {len(runs)} runs (one player's file expected)")
        return runs[0]

    def write_csv(self, path: str | os.PathLike[str]) -> None:
        """One row per game: index, seed, score, max_tile, moves, seconds, cpu_seconds."""
        names = [f.name for f in fields(GameResult)]
        with atomic_write(path, "w", encoding="utf-8", newline="") as f:
            w = csv.writer(f)
            w.writerow(["agent", *names])
            for r in self.results:
                w.writerow([self.agent, *(getattr(r, n) for n in names)])


def read_runs(path: str | os.PathLike[str]) -> list[RunResult]:
    """The runs of an arena result file: ``2048 eval --json`` (one; written as the games go
    too, so a run under way can be read), ``2048 compare --json`` (one per player), or the
    ``--resume`` journal of either (the games finished so far).

    Raises:
        UsageError: the file is missing or is not an arena result.
    """
    try:
        raw = read_limited(path, _journal.MAX_JOURNAL_BYTES, "an arena result file")
        journal = read_journal(raw)
        if journal is not None:
            return _journal_runs(*journal)
        data = json.loads(raw)
        if isinstance(data, dict) and "runs" in data:
            return [RunResult.from_dict(run) for run in data["runs"]]
        return [RunResult.from_dict(data)]
    except FileNotFoundError:
        raise UsageError(f"{path}: no such file") from None
    except OSError as e:
        raise UsageError(f"{path}: {e.strerror or e}") from None
    except UsageError:
        raise
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as e:
        raise UsageError(f"{path}: not an arena result file ({e!r})") from None


def game_from_json(values: dict[str, Any]) -> GameResult:
    """A game from its JSON fields (CPU time None or missing: NaN)."""
    if values.get("cpu_seconds", 0.0) is None:
        values = {**values, "cpu_seconds": math.nan}
    return GameResult(**values)


def _journal_runs(header: dict[str, Any], lines: list[dict[str, Any]]) -> list[RunResult]:
    """The runs of a 2048 journal (``eval``'s or ``compare``'s), one per player, each with the
    games finished (the first line of an index counts, as on resuming). Workers and the run's
    time are not in a journal: 0."""
    if header.get("command") not in ("eval", "compare"):
        raise ValueError(f"a journal of {header.get('command')!r}, not of 2048 eval or compare")
    runs = []
    for spec in header["players"]:
        done = finished(lines, spec, PLAYED)
        if done:
            run = RunResult(spec, int(header["seed"]), int(header["games"]), 0)
            run.results = [done[i][0] for i in sorted(done)]
            run.records = {i: rec for i, (_, rec) in done.items() if rec is not None}
            run.interrupted = len(done) < run.games
            runs.append(run)
    return runs


#: A played game in a journal line: ``{"game": GameResult fields, "record": record or null}``.
PLAYED: Codec[Played] = Codec(
    lambda p: {"game": asdict(p[0]), "record": p[1]},
    lambda d: (game_from_json(d["game"]), d["record"]),
)


def _finite_value(x: float) -> float | None:
    return None if isinstance(x, float) and not math.isfinite(x) else x


def json_finite(d: dict[str, Any]) -> dict[str, Any]:
    """JSON has no NaN: write None instead."""
    return {k: _finite_value(v) for k, v in d.items()}


def wilson_interval(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a rate (95% by default): honest for small n and 0 or n.

    >>> lo, hi = wilson_interval(19, 20)
    >>> round(lo, 3), round(hi, 3)
    (0.764, 0.991)
    """
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))
