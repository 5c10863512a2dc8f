"""Nothing lost: a JSON-lines journal of a command's finished games, so that a run that stopped
(Ctrl-C, a crash, a lost cluster) resumes and plays only the games missing.

The first line is the header: the run's identity (command, players, seed, games, ...). Every
other line is one finished game of one of the command's runs (``2048 compare`` plays one run
per player, ``othello tournament`` one per pairing)::

    {"journal": 1, "command": "eval", "players": ["greedy"], "seed": 0, "games": 100, ...}
    {"run": "greedy", "index": 3, "result": {"index": 3, "seed": ..., "score": 2448, ...}}

Each line is flushed as it is written, so a killed process loses at most the line it was
writing (a torn last line is dropped on reading). A run may be extended: resumed with more games
than its header names and nothing else changed, a journal keeps its games and its header takes
the new count (game ``i`` depends on the seed and ``i`` alone, never on how many games there
are); fewer games than the header's is another run. Results are dataclasses; a :class:`Codec`
turns one into a JSON-ready dict and back.

A game cut short can keep its position so far beside the journal, in the folder ``FILE.partial``
(:meth:`Part.partial`; a 2048 game does, see :mod:`boardai.arena.solo`): the game's file goes
once its line is written, the folder when the journal closes empty, and a new journal clears
what an old run of the same name left there.

>>> import tempfile, os
>>> from boardai.arena.match_results import GameOutcome
>>> path = os.path.join(tempfile.mkdtemp(), "j.jsonl")
>>> with Journal.open(path, {"command": "demo"}) as j:
...     j.part("a vs b", dataclass_codec(GameOutcome)).add(0, GameOutcome(0, 0, 1.0, 10, 60))
>>> with Journal.open(path, {"command": "demo"}) as j:
...     j.part("a vs b", dataclass_codec(GameOutcome)).done
{0: GameOutcome(index=0, a_color=0, score=1.0, disc_diff=10, moves=60, forfeit=None, record=None)}
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import IO, Any, Generic, TypeVar

from boardai.atomic import TMP_SUFFIX, atomic_write
from boardai.errors import UsageError

R = TypeVar("R")
T = TypeVar("T")

FORMAT_VERSION = 1

#: The folder beside a journal FILE where games cut short keep their positions: FILE.partial.
PARTIAL_SUFFIX = ".partial"
_PARTIAL_FILE = re.compile(r"[0-9a-f]{12}-\d+\.json")


@dataclass(frozen=True)
class Codec(Generic[R]):
    """How a result goes into a journal line and comes back."""

    encode: Callable[[R], Any]
    decode: Callable[[Any], R]


def dataclass_codec(cls: type[T]) -> Codec[T]:
    """The codec of a dataclass of JSON-ready fields."""
    return Codec(lambda r: asdict(r), lambda d: cls(**d))  # type: ignore[call-overload]


@dataclass
class Part(Generic[R]):
    """The games of one run in a journal: those already finished, and where new ones go."""

    journal: Journal
    key: str
    codec: Codec[R]
    done: dict[int, R] = field(default_factory=dict)

    def add(self, index: int, result: R) -> None:
        """Append a finished game (flushed at once); its partial file, if any, goes."""
        self.journal.write({"run": self.key, "index": index, "result": self.codec.encode(result)})
        with contextlib.suppress(OSError):
            os.remove(self.partial(index))

    @property
    def partial_prefix(self) -> str:
        """The partial file of game ``i`` is this prefix and ``f"{i}.json"`` (a string, so
        that a contest sent to worker processes can carry it; absolute, as their working
        folder may differ)."""
        digest = hashlib.sha256(self.key.encode()).hexdigest()[:12]
        return os.path.join(os.path.abspath(self.journal.path + PARTIAL_SUFFIX), f"{digest}-")

    def partial(self, index: int) -> str:
        """Where game ``index``, cut short, keeps its position so far."""
        return f"{self.partial_prefix}{index}.json"


class Journal:
    """An open journal file; :meth:`open` creates it or checks and reads it."""

    def __init__(self, path: str, file: IO[str], lines: list[dict[str, Any]]) -> None:
        self.path = path
        self._file = file
        self._lines = lines

    @classmethod
    def open(cls, path: str | os.PathLike[str], header: dict[str, Any]) -> Journal:
        """Open the journal at ``path`` for the run ``header`` names: a missing (or empty) file
        is started with the header; an existing one must carry the same header (else one line,
        UsageError) and its games are kept.
        """
        path = os.fspath(path)
        head = {"journal": FORMAT_VERSION, **header}
        head = json.loads(json.dumps(head))  # compare as JSON reads it back (tuples: lists)
        try:
            with open(path, "rb") as f:
                raw = f.read()
        except FileNotFoundError:
            raw = b""
        except OSError as e:
            raise UsageError(f"{path}: {e.strerror or e}") from None
        lines, good = _whole_lines(raw)
        if lines and "models" in head and "models" not in lines[0]:
            # a journal from before headers named the models: nothing to check them against
            head = {k: v for k, v in head.items() if k != "models"}
        if lines and isinstance(lines[0].get("models"), dict) and "models" in head:
            lines[0] = {**lines[0], "models": _same_models(lines[0]["models"], head["models"])}
        extended = bool(lines) and _extends(lines[0], head)
        if lines:
            if lines[0] != head and not extended:
                raise UsageError(
                    f"{path} is the journal of another run ({differences(lines[0], head)}); "
                    "give another --resume file or the same options"
                )
            lines = lines[1:]
        try:
            if extended:  # the same lines under the new header, swapped in whole
                with atomic_write(path, "w") as f:
                    f.writelines(json.dumps(line) + "\n" for line in [head, *lines])
            elif good < len(raw):
                os.truncate(path, good)
            file = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed by close()
        except OSError as e:
            raise UsageError(f"{path}: {e.strerror or e}") from None
        journal = cls(path, file, lines)
        if good == 0:
            journal.write(head)
            _clear_partial(path + PARTIAL_SUFFIX)  # an old run's, under the same name
        return journal

    def part(self, key: str, codec: Codec[R]) -> Part[R]:
        """The games of run ``key`` (:func:`finished`)."""
        return Part(self, key, codec, finished(self._lines, key, codec))

    def write(self, line: dict[str, Any]) -> None:
        self._file.write(json.dumps(line) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()
        with contextlib.suppress(OSError):  # kept while it holds a game cut short
            os.rmdir(self.path + PARTIAL_SUFFIX)

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _clear_partial(folder: str) -> None:
    """Remove the partial files in ``folder`` (and it, once empty); nothing else is touched."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if _PARTIAL_FILE.fullmatch(name) or name.endswith(TMP_SUFFIX):
            with contextlib.suppress(OSError):
                os.remove(os.path.join(folder, name))
    with contextlib.suppress(OSError):
        os.rmdir(folder)


def _whole_lines(raw: bytes) -> tuple[list[dict[str, Any]], int]:
    """The lines of a journal's bytes up to the first torn one (a crash's: it and anything
    after it are dropped), and how many bytes they take."""
    lines: list[dict[str, Any]] = []
    good = 0
    for line in raw.splitlines(keepends=True):
        try:
            if not line.endswith(b"\n"):
                raise ValueError("torn line")
            lines.append(json.loads(line))
        except ValueError:
            break
        good += len(line)
    return lines, good


def finished(lines: list[dict[str, Any]], key: str, codec: Codec[R]) -> dict[int, R]:
    """The games of run ``key`` among a journal's game ``lines``, by index (the first result
    of an index counts)."""
    done: dict[int, R] = {}
    for line in lines:
        if line.get("run") == key and int(line["index"]) not in done:
            done[int(line["index"])] = codec.decode(line["result"])
    return done


def read_journal(raw: bytes) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """A journal's header and game lines, read only (None: ``raw`` is not a journal)."""
    lines, _ = _whole_lines(raw)
    if not lines or not isinstance(lines[0], dict) or "journal" not in lines[0]:
        return None
    return lines[0], lines[1:]


def _same_models(found: dict[str, Any], wanted: dict[str, Any]) -> dict[str, Any]:
    """A header's models as this version writes them: before 2026-11-27 a shipped model was
    named twice, by its name and by its file's absolute path on that machine, with the same
    checksum; the path, which this run does not name, goes."""
    named = {v for k, v in found.items() if not os.path.isabs(k)}
    return {k: v for k, v in found.items() if k in wanted or not os.path.isabs(k) or v not in named}


def _extends(found: dict[str, Any], wanted: dict[str, Any]) -> bool:
    """Whether ``wanted`` is the run of header ``found`` with more games."""
    old, new = found.get("games"), wanted.get("games")
    return (
        isinstance(old, int)
        and isinstance(new, int)
        and new > old
        and {**found, "games": new} == wanted
    )


def differences(found: dict[str, Any], wanted: dict[str, Any]) -> str:
    """The first three keys whose values differ, as ``key: FOUND there, WANTED now``."""
    keys = [k for k in dict.fromkeys([*wanted, *found]) if found.get(k) != wanted.get(k)]
    return ", ".join(f"{k}: {found.get(k)!r} there, {wanted.get(k)!r} now" for k in keys[:3])
