"""Game records: one JSON object per line, for 2048 and Othello alike.

:func:`read_records` also opens a ``boardai 2048 eval --json`` file: the records kept in its
games (each game's ``"record"``).

A record is its game's ``Game.to_record`` (:mod:`boardai.games` says which class): for 2048 the
seed, rules, start tiles, moves with their spawns and score; for Othello the start and moves.
Either may carry extra keys (the players, a label) that replays ignore. Files are written
atomically, so a crash never leaves half a line; appends (:class:`RecordSink`) write only the
new lines, and cut a line a crash tore before they add theirs.

>>> import tempfile, pathlib
>>> from boardai.g2048 import Game
>>> g = Game(seed=3)
>>> _ = g.move(g.board.legal_actions()[0])
>>> path = pathlib.Path(tempfile.mkdtemp()) / "games.jsonl"
>>> write_records(path, [g.to_record()])
>>> replay(read_records(path)[0])[-1].board == g.board
True
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boardai.atomic import atomic_write
from boardai.errors import MIB, UsageError, read_limited
from boardai.games import GAMES, parts

#: The most bytes :func:`read_records` reads (records of a hundred thousand long 2048 games
#: take a few hundred MB); past it the file is refused, not read into the memory.
MAX_RECORD_BYTES = 512 * MIB


@dataclass(frozen=True)
class Frame:
    """One position of a replayed game.

    Attributes:
        board: the position (its game's ``Board``).
        score: the score so far, in a game that keeps one (None in Othello).
        action: the action that led here (None for the start position).
        move: that action as text (``left``, ``d3``, ``pass``; None at the start).
    """

    board: Any
    score: int | None = None
    action: int | None = None
    move: str | None = None


def read_records(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """Every record of a JSON-lines file (blank lines are skipped, and a last line torn by a
    crash while it was written, without its newline), of the games of a
    ``boardai 2048 eval --json`` or ``compare --json`` file, or of the finished games of a
    ``--resume`` journal.

    Raises:
        UsageError: the file is missing, larger than :data:`MAX_RECORD_BYTES` (``/dev/zero``),
            or a line is not a JSON object with a known game (nor nested past what JSON is
            read to), or an eval or compare file keeps no records.
    """
    p = Path(path)
    try:
        text = read_limited(p, MAX_RECORD_BYTES, "a record file").decode("utf-8")
    except FileNotFoundError:
        raise UsageError(f"{p}: no such record file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"{p}: cannot read records: {e}") from None
    from_eval = _eval_records(p, text)
    if from_eval is None:
        from_eval = _journal_records(p, text)
    if from_eval is not None:
        return from_eval
    whole = _whole_document(p, text)
    if whole is not None:
        return whole
    records = []
    lines = text.splitlines()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as e:
            if number == len(lines) and not text.endswith("\n"):
                break  # torn by a crash mid-append (the next append cuts it): not a game
            raise UsageError(f"{p}:{number}: not JSON ({e.msg})") from None
        except RecursionError:  # [[[[...: a record is a few levels deep
            raise UsageError(f"{p}:{number}: not a game record (JSON nested too deep)") from None
        try:
            game_of(record)
        except ValueError as e:
            raise UsageError(f"{p}:{number}: {e}") from None
        records.append(record)
    return records


def _eval_records(path: Path, text: str) -> list[dict[str, Any]] | None:
    """The records of an ``eval --json`` file, or of a ``compare --json`` one (its players'
    games one player after another), None: ``text`` is neither."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):  # nested too deep: read line by line
        return None
    if not isinstance(data, dict) or "game" in data:
        return None
    runs = data.get("runs")
    if isinstance(runs, list) and all(isinstance(r, dict) for r in runs):
        games = [g for r in runs if isinstance(r.get("results"), list) for g in r["results"]]
        command = "compare"
        if not games:
            return None  # no games at all: not read as a compare file
    elif isinstance(data.get("results"), list):
        games, command = data["results"], "eval"
    else:
        return None
    records = [g["record"] for g in games if isinstance(g, dict) and "record" in g]
    if games and not records:
        raise UsageError(
            f"{path}: a {command} --json file without game records (rerun boardai 2048 "
            f"{command} with this version)"
        )
    for k, record in enumerate(records):
        try:
            game_of(record)
        except ValueError as e:
            raise UsageError(f"{path}: game {k}: {e}") from None
    return records


def _whole_document(path: Path, text: str) -> list[dict[str, Any]] | None:
    """The record ``text`` is as one JSON document (``othello play --record`` wrote one,
    indented, before it wrote JSON lines); None if ``text`` is not one JSON document.

    Raises:
        UsageError: one JSON document that is not a record (a match's ``--json``, say).
    """
    if sum(1 for line in text.splitlines() if line.strip()) < 2:
        return None  # a line: read as a line (its mistakes named by its line number)
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return None  # JSON lines (or not JSON, or nested too deep): read line by line
    if isinstance(data, dict) and "game" in data:
        try:
            game_of(data)
        except ValueError as e:
            raise UsageError(f"{path}: {e}") from None
        return [data]
    raise UsageError(
        f"{path}: a JSON document without game records (a record file holds a game a "
        "line: the --record of watch, eval, othello play, match or tournament, the web "
        "app's or the terminal app's; the --json of 2048 eval and compare hold theirs too)"
    )


def _journal_records(path: Path, text: str) -> list[dict[str, Any]] | None:
    """The records of the finished games in a journal (an eval's or match's ``--resume`` file),
    run by run in index order (None: ``text`` is not one); read as a resumed run reads it, so
    a torn line and what follows it are left out."""
    # The journal's reader is a leaf module (it imports only atomic and errors).
    from boardai.arena.journal import read_journal

    journal = read_journal(text.encode("utf-8"))
    if journal is None:
        return None
    games: dict[str, dict[int, dict[str, Any]]] = {}
    for number, entry in enumerate(journal[1], 2):
        result = entry.get("result") if isinstance(entry, dict) else None
        record = result.get("record") if isinstance(result, dict) else None
        if record is None:
            continue
        try:
            game_of(record)
        except ValueError as e:
            raise UsageError(f"{path}:{number}: {e}") from None
        index = entry.get("index", 0)
        if isinstance(index, bool) or not isinstance(index, int) or index < 0:
            raise UsageError(
                f"{path}:{number}: game index {json.dumps(index)} is not a whole number >= 0"
            )
        games.setdefault(str(entry.get("run")), {}).setdefault(index, record)
    if not games:
        if not journal[0].get("records"):
            raise UsageError(
                f"{path}: a journal that keeps no game records (its run was started without "
                "--json or --record)"
            )
        raise UsageError(f"{path}: a journal with no finished game records (yet)")
    return [games[run][k] for run in games for k in sorted(games[run])]


def write_records(
    path: str | os.PathLike[str], records: Iterable[dict[str, Any]], append: bool = False
) -> None:
    """Write ``records`` one per line, atomically; ``append`` adds them after the lines
    already there instead, writing only the new lines (a torn last line, left by a crash, is
    cut off first: see :func:`append_lines`).

    A device or pipe (``--record /dev/stdout``) is written to as it is, never read back,
    since reading it would wait on a terminal or a pipe for ever, or (``/dev/full``,
    ``/dev/zero``) fill the memory.
    """
    p = Path(path)
    lines = [json.dumps(record, separators=(",", ":")) + "\n" for record in records]
    if append or (p.exists() and not p.is_file()):
        append_lines(p, lines, sync=True)
        return
    with atomic_write(p, "w", encoding="utf-8") as f:
        f.writelines(lines)


def append_lines(path: str | os.PathLike[str], lines: list[str], sync: bool = False) -> None:
    """Append ``lines`` (each ending in a newline) to ``path`` in one write, in O(their size)
    whatever the file's: a regular file whose last line was torn (a crash while writing it)
    first loses that partial line, so every line stays a whole record; a device or a pipe is
    written as it is. ``sync``: fsync the file before returning."""
    data = "".join(lines).encode("utf-8")
    p = Path(path)
    try:
        regular = stat.S_ISREG(p.stat().st_mode)
    except FileNotFoundError:
        regular = True
    flags = os.O_APPEND | os.O_CREAT | (os.O_RDWR if regular else os.O_WRONLY)
    fd = os.open(p, flags | getattr(os, "O_CLOEXEC", 0), 0o666)
    try:
        if regular:
            _cut_torn_tail(fd)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        if sync:
            _fsync(fd)
    except OSError as e:  # os.write names no file: the message must say which one is full
        if e.filename is None:
            raise OSError(e.errno, e.strerror, os.fspath(p)) from None
        raise
    finally:
        os.close(fd)


def _cut_torn_tail(fd: int) -> None:
    """Make a regular file end in a newline: a last line that is whole JSON (written by hand,
    without its newline) gets one; a torn one (not JSON) is cut off."""
    size = os.fstat(fd).st_size
    if size == 0 or os.pread(fd, 1, size - 1) == b"\n":
        return
    end, tail = size, b""
    while end > 0:
        start = max(0, end - 65536)
        block = os.pread(fd, end - start, start)
        newline = block.rfind(b"\n")
        tail = block[newline + 1 :] + tail
        if newline >= 0:
            end = start + newline + 1
            break
        end = start
    try:
        json.loads(tail)
    except ValueError:
        os.ftruncate(fd, end)  # the torn line goes (it was never a whole record)
    else:
        os.write(fd, b"\n")


def _fsync(fd: int) -> None:
    with contextlib.suppress(OSError):  # a pipe or a terminal cannot be synced
        os.fsync(fd)


class RecordSink:
    """Where finished games go: appended to a JSON-lines file (thread-safe), or nowhere.

    Each record is one line appended in O(its size) (:func:`append_lines`: the file is never
    read or rewritten), flushed to the system at once; the file is fsynced at most every
    ``sync_every`` seconds, and by :meth:`close`. A crash may lose the games of the last
    ``sync_every`` seconds and tear the last line; the next append cuts a torn line off.

    Args:
        path: the file (None: keep nothing).
        sync_every: seconds between fsyncs at most (0: after every record).
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, sync_every: float = 1.0) -> None:
        self.path = path
        self.sync_every = sync_every
        self._lock = threading.Lock()
        self._synced = time.monotonic()
        self._dirty = False

    def save(self, record: dict[str, Any]) -> None:
        """Append ``record``."""
        self.append_lines([json.dumps(record, separators=(",", ":")) + "\n"])

    def append_lines(self, lines: list[str]) -> None:
        """Append records already written as JSON lines (each ending in a newline)."""
        if self.path is None or not lines:
            return
        with self._lock:
            due = time.monotonic() - self._synced >= self.sync_every
            append_lines(self.path, lines, sync=due)
            if due:
                self._synced, self._dirty = time.monotonic(), False
            else:
                self._dirty = True

    def close(self) -> None:
        """Fsync what was appended since the last fsync."""
        if self.path is None:
            return
        with self._lock:
            if self._dirty:
                append_lines(self.path, [], sync=True)
                self._dirty = False


def pick(records: list[dict[str, Any]], index: int, where: str = "records") -> dict[str, Any]:
    """Record ``index`` (0-based; negative counts from the end) with a clear error if absent."""
    if not records:
        raise UsageError(f"{where}: no games in it")
    if not -len(records) <= index < len(records):
        raise UsageError(f"{where}: no game {index} (it holds games 0..{len(records) - 1})")
    return records[index]


def game_of(record: Any) -> str:
    """The game a record is of (a name in :data:`boardai.games.GAMES`: ``"2048"``, ...).

    Raises:
        ValueError: not a dict, or no known ``"game"`` key.
    """
    if not isinstance(record, dict):
        raise ValueError(f"a game record is a JSON object, not {type(record).__name__}")
    game = record.get("game")
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r} in record (games: {', '.join(GAMES)})")
    return str(game)


def load(record: dict[str, Any]) -> Any:
    """Replay ``record`` into its game object (its game's ``Game``), checking every move.

    Raises:
        ValueError: the record is malformed or a move in it is impossible.
    """
    game = parts(game_of(record))
    # The games' readers expect these keys' types and would fail with an AttributeError
    # (a traceback, a crashed terminal app) on a hand-edited or corrupt record.
    for key, kind, wanted in game.record_shapes:
        if record.get(key) is not None and not isinstance(record[key], kind):
            raise ValueError(
                f'malformed {game.title} record: "{key}" is {_json_type(record[key])}, not {wanted}'
            )
    try:
        return game.game.get().from_record(record)
    except (AttributeError, TypeError, KeyError, IndexError, OverflowError) as e:
        raise ValueError(f"malformed {game.title} record: {e}") from None


def _json_type(value: Any) -> str:
    """What ``value`` is, in JSON's words."""
    if isinstance(value, bool):
        return "true or false"
    names = {dict: "an object", list: "a list", str: "a string", int: "a number", float: "a number"}
    return names.get(type(value), type(value).__name__)


def replay(record: dict[str, Any]) -> list[Frame]:
    """Every position of the recorded game: the start, then one frame per move.

    Raises:
        ValueError: the record is malformed or a move in it is impossible.
    """
    frames: list[Frame] = parts(game_of(record)).frames(load(record))
    return frames
