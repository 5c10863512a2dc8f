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

A long run can also be played in parts on machines that share no cluster (``--part
START:STOP``, each part with its own journal): :func:`merge` puts their games together, and the
merged journal is the run's, as if one machine had played it. :func:`journal_progress` says how
far a run got (``boardai journal show``).

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
...     done = j.part("a vs b", dataclass_codec(GameOutcome)).done
>>> done == {0: GameOutcome(0, 0, 1.0, 10, 60)}, done[0].disc_diff
(True, 10)
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
from boardai.errors import MIB, UsageError, read_limited

R = TypeVar("R")
T = TypeVar("T")

FORMAT_VERSION = 1
#: The most bytes a journal is read up to (a million games of 2048 with their records take a
#: few hundred MB); past it, or from an endless file (``/dev/zero``), one line, not the memory.
MAX_JOURNAL_BYTES = 1024 * MIB

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
        folder = os.path.abspath(self.journal.path + PARTIAL_SUFFIX)
        return os.path.join(folder, f"{_run_digest(self.key)}-")

    def partial(self, index: int) -> str:
        """Where game ``index``, cut short, keeps its position so far."""
        return f"{self.partial_prefix}{index}.json"


def pairing(a: str, b: str) -> str:
    """The run of a match of players ``a`` and ``b`` (``a`` black in the first game) in a
    journal: ``othello match`` plays one, ``othello tournament`` one per pair of players."""
    return f"{a} vs {b}"


def run_keys(header: dict[str, Any]) -> list[str]:
    """The runs a journal's header names, in the order its command plays them: one per player
    (``eval``, ``compare``), the match of its two players, or every pair of a tournament's."""
    found = header.get("players")
    players = [str(p) for p in found] if isinstance(found, list) else []
    command = header.get("command")
    if command == "othello match" and len(players) == 2:
        return [pairing(*players)]
    if command == "othello tournament":
        return [pairing(a, b) for i, a in enumerate(players) for b in players[i + 1 :]]
    return players


def _run_digest(key: str) -> str:
    """The name of a run in its partial files' names (``DIGEST-INDEX.json``)."""
    return hashlib.sha256(key.encode()).hexdigest()[:12]


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
            raw = read_limited(path, MAX_JOURNAL_BYTES, "a journal")
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
            if lines[0] != head and not extended and _only_records_differ(lines[0], head):
                kept = bool(lines[0].get("records"))
                flags = "--json" if head.get("command") == "compare" else "--json or --record"
                word = "with" if kept else "without"
                raise UsageError(
                    f"{path} keeps {'' if kept else 'no '}game records (its run was started "
                    f"{word} {flags}): resume it {word} them, or give another --resume file"
                )
            if lines[0] != head and not extended:
                raise UsageError(
                    f"{path} is the journal of another run ({differences(lines[0], head)}); "
                    "give another --resume file or the same options"
                )
            lines = lines[1:]
        _check_games(path, lines)
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
        try:
            done = finished(self._lines, key, codec)
        except (KeyError, TypeError, ValueError) as e:
            raise UsageError(f"{self.path}: a game line this run cannot read ({e})") from None
        return Part(self, key, codec, done)

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
    after it are dropped; so is a line that is not a JSON object), and how many bytes they
    take."""
    lines: list[dict[str, Any]] = []
    good = 0
    for line in raw.splitlines(keepends=True):
        try:
            if not line.endswith(b"\n"):
                raise ValueError("torn line")
            value = json.loads(line)
            if not isinstance(value, dict):
                raise ValueError("not a JSON object")
            lines.append(value)
        except (ValueError, RecursionError):  # RecursionError: nested too deep, none of ours
            break
        good += len(line)
    return lines, good


def _check_games(path: str, lines: list[dict[str, Any]]) -> None:
    """Every game line names a run, a game index and a result (a line edited by hand, or
    of another program, is one line naming it, before any game is played or merged).

    Raises:
        UsageError: a game line that is not one.
    """
    for number, line in enumerate(lines, 2):
        index = line.get("index")
        if isinstance(index, bool) or not isinstance(index, int) or index < 0:
            raise UsageError(
                f"{path}:{number}: game index {json.dumps(index)} is not a whole number >= 0"
            )
        if "run" not in line or "result" not in line:
            raise UsageError(f"{path}:{number}: not a game line (no run or no result)")


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


def _only_records_differ(found: dict[str, Any], wanted: dict[str, Any]) -> bool:
    """Whether the two headers differ only in keeping game records (absent: not kept)."""
    rest = [k for k in {*found, *wanted} - {"records"} if found.get(k) != wanted.get(k)]
    return not rest and bool(found.get("records")) != bool(wanted.get("records"))


def differences(
    found: dict[str, Any], wanted: dict[str, Any], there: str = "there", now: str = "now"
) -> str:
    """The first three keys whose values differ, as ``key: FOUND there, WANTED now``."""
    keys = [k for k in dict.fromkeys([*wanted, *found]) if found.get(k) != wanted.get(k)]
    return ", ".join(f"{k}: {found.get(k)!r} {there}, {wanted.get(k)!r} {now}" for k in keys[:3])


@dataclass(frozen=True)
class Merged:
    """What :func:`merge` did: games added, games now in the target, partial files carried."""

    added: int
    games: int
    partial: int


def _partial_moves(path: str) -> int:
    """How far the game cut short in ``path`` got (moves; -1 if it cannot be read)."""
    game = _part_way(path, -1)
    return -1 if game is None else game.moves


def _read_journal_file(path: str) -> tuple[dict[str, Any], list[dict[str, Any]], int, int]:
    """A journal file's header, game lines, whole-line bytes and size (UsageError: missing,
    unreadable or not a journal)."""
    try:
        raw = read_limited(path, MAX_JOURNAL_BYTES, "a journal")
    except OSError as e:
        raise UsageError(f"{path}: {e.strerror or e}") from None
    lines, good = _whole_lines(raw)
    if not lines or not isinstance(lines[0], dict) or "journal" not in lines[0]:
        raise UsageError(f"{path} is not a journal (a --resume file)")
    _check_games(path, lines[1:])
    return lines[0], lines[1:], good, len(raw)


def merge(target: str | os.PathLike[str], sources: list[str | os.PathLike[str]]) -> Merged:
    """Add to the journal ``target`` the games of ``sources`` that it lacks: journals of the
    same run (the same header), played in parts (``--part``) on machines that share no
    cluster. A game is a run and an index, the same game wherever it was played; a source's
    partial files (its games cut short) come along for the games that no journal finished,
    the furthest of each game kept. A missing (or empty) ``target`` starts with the first
    source's header.

    Lines are appended in place, one write a line, so a run still writing to ``target`` loses
    nothing; it plays an added game again only if it reaches the game before it restarts (the
    first line of a game counts).

    Raises:
        UsageError: a file is missing or not a journal, or the headers differ.
    """
    target = os.fspath(target)
    read = [(os.fspath(s), *_read_journal_file(os.fspath(s))) for s in sources]
    if os.path.exists(target) and os.path.getsize(target) > 0:
        head, have, good, size = _read_journal_file(target)
    else:
        head, have, good, size = read[0][1], [], 0, 0
    for path, h, *_ in read:
        if h != head:
            diff = differences(head, h, f"in {target}", f"in {path}")
            raise UsageError(f"{path} is the journal of another run than {target} ({diff})")
    seen = {(line.get("run"), line.get("index")) for line in have}
    new = []
    for _, _, lines, _, _ in read:
        for line in lines:
            if (line.get("run"), line.get("index")) not in seen:
                seen.add((line.get("run"), line.get("index")))
                new.append(line)
    try:
        if good < size:  # a torn last line (a crash): dropped, as Journal.open does
            os.truncate(target, good)
        fd = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            for line in [head] * (good == 0) + new:
                os.write(fd, (json.dumps(line) + "\n").encode())
        finally:
            os.close(fd)
    except OSError as e:
        raise UsageError(f"{target}: {e.strerror or e}") from None
    finished = {(_run_digest(str(r)), i) for r, i in seen}
    return Merged(len(new), len(seen), _merge_partial(target, [p for p, *_ in read], finished))


def _merge_partial(target: str, sources: list[str], finished: set[tuple[str, Any]]) -> int:
    """Carry the sources' games cut short into ``target``'s partial folder (the furthest copy
    of each game not ``finished``), and drop the target's files of finished games; returns
    the files carried."""
    import shutil

    folder = target + PARTIAL_SUFFIX
    carried = 0
    for name in _partial_names(folder):
        if _partial_game(name) in finished:
            with contextlib.suppress(OSError):
                os.remove(os.path.join(folder, name))
    for source in sources:
        for name in _partial_names(source + PARTIAL_SUFFIX):
            src, dst = os.path.join(source + PARTIAL_SUFFIX, name), os.path.join(folder, name)
            if _partial_game(name) in finished or _partial_moves(src) <= _partial_moves(dst):
                continue
            try:
                os.makedirs(folder, exist_ok=True)
                with open(src, "rb") as f, atomic_write(dst) as out:
                    shutil.copyfileobj(f, out)
            except OSError as e:
                raise UsageError(f"{dst}: {e.strerror or e}") from None
            carried += 1
    with contextlib.suppress(OSError):  # kept while it holds a game cut short
        os.rmdir(folder)
    return carried


def _partial_game(name: str) -> tuple[str, int]:
    """The run digest and game index a partial file's name (``DIGEST-INDEX.json``) gives."""
    digest, index = name.removesuffix(".json").split("-")
    return digest, int(index)


def _partial_names(folder: str) -> list[str]:
    """The partial files' names in ``folder`` (none if it is missing)."""
    try:
        return sorted(n for n in os.listdir(folder) if _PARTIAL_FILE.fullmatch(n))
    except OSError:
        return []


@dataclass(frozen=True)
class PartWay:
    """A game part-way whose position a journal keeps (saved every so often while it plays, and
    when it is cut short; resuming goes on from it): how far it got (a 2048 game's moves, score
    and largest tile, and the CPU seconds it has taken)."""

    index: int
    moves: int
    score: int
    max_tile: int
    cpu_seconds: float = 0.0


@dataclass(frozen=True)
class RunProgress:
    """How far one run of a journal got: its games finished (indices, ascending), its games kept
    part-way, and how many are still to play; ``cpu_seconds``: the CPU time of each finished
    game that reports one (a 2048 game does)."""

    run: str
    games: int
    finished: list[int]
    part_way: list[PartWay]
    cpu_seconds: list[float] = field(default_factory=list)

    @property
    def to_play(self) -> int:
        """Games of the run neither finished nor kept part-way (to play from the start)."""
        started = {i for i in self.finished if i < self.games}
        started |= {c.index for c in self.part_way if c.index < self.games}
        return self.games - len(started)

    def mean_cpu(self) -> float | None:
        """The finished games' mean CPU seconds (None: no timed game finished)."""
        return sum(self.cpu_seconds) / len(self.cpu_seconds) if self.cpu_seconds else None

    def cpu_left(self) -> float | None:
        """A rough estimate of the CPU seconds the run still needs: the finished games' mean
        for each game to play, less what each part-way game has had (None: no timed game
        finished). The long games finish last, so while a run is under way this reads low."""
        mean = self.mean_cpu()
        if mean is None:
            return None
        ahead = [c for c in self.part_way if c.index < self.games]
        return mean * self.to_play + sum(max(0.0, mean - c.cpu_seconds) for c in ahead)


def _part_way(path: str, index: int) -> PartWay | None:
    """The game part-way in the partial file ``path`` (None if it cannot be read)."""
    try:
        with open(path, encoding="utf-8") as f:
            saved = json.load(f)
        record = saved["record"]
        return PartWay(
            index,
            int(record["n_moves"]),
            int(record["score"]),
            int(record["max_tile"]),
            float(saved.get("cpu_seconds") or 0.0),
        )
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return None


def journal_progress(path: str | os.PathLike[str]) -> tuple[dict[str, Any], list[RunProgress]]:
    """A journal's header and how far each of its runs got (those its header names, in order,
    then any other its lines hold), read only: safe while a run writes to it.

    Raises:
        UsageError: the file is missing or not a journal.
    """
    path = os.fspath(path)
    header, lines, _, _ = _read_journal_file(path)
    keys = run_keys(header)
    done: dict[str, dict[int, float | None]] = {k: {} for k in keys}  # index -> CPU seconds
    for line in lines:
        key = str(line.get("run"))
        if key not in done:
            keys.append(key)
            done[key] = {}
        index = line["index"]  # a whole number (_read_journal_file)
        if index not in done[key]:  # the first line of a game counts
            done[key][index] = _cpu_seconds(line)
    kept: dict[tuple[str, int], str] = {}
    folder = path + PARTIAL_SUFFIX
    for name in _partial_names(folder):
        kept[_partial_game(name)] = os.path.join(folder, name)
    games = header.get("games")
    if not isinstance(games, int):
        raise UsageError(f"{path}: its header names no number of games")
    runs = []
    for key in keys:
        digest = _run_digest(key)
        part_way = [
            c
            for (d, i), file in sorted(kept.items())
            if d == digest and i not in done[key] and (c := _part_way(file, i)) is not None
        ]
        cpu = [c for c in done[key].values() if c is not None]
        runs.append(RunProgress(key, games, sorted(done[key]), part_way, cpu))
    return header, runs


def _cpu_seconds(line: dict[str, Any]) -> float | None:
    """The CPU seconds a journal line's game took (a 2048 game's; None when it has none)."""
    try:
        value = float(line["result"]["game"]["cpu_seconds"])
    except (KeyError, TypeError, ValueError):
        return None
    return value if value == value else None  # NaN: not timed
