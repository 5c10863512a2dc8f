"""Othello games as training data for an evaluation fitted by regression: a compact file of
whole games (their moves and exact final disc differences), and the labelled positions in them.

The engines that lead Othello (Logistello, Edax, Egaroucid) fit their pattern weights to many
positions, each labelled with the final disc difference of the game it comes from, in games
played from random openings by a search that solves the endgame exactly (``boardai othello
match --random-plies 8-30 --record FILE``, then ``boardai othello data pack``).

The file is one ``.npz`` (format version 1) holding, for ``n`` games, all from the standard
start:

- ``moves``: uint8, every game's moves one after another, in :mod:`boardai.othello.board`'s
  action numbering (0..63 a square, a1 = 0; 64 a pass);
- ``offsets``: int64[n + 1], game ``i``'s moves are ``moves[offsets[i]:offsets[i + 1]]``;
- ``random_plies``: uint8[n], how many of the first moves were random (the opening);
- ``results``: int8[n], the final disc difference from black's view (empty squares to the
  winner, as :meth:`boardai.othello.board.Board.score` counts);
- ``meta``: JSON (as uint8 bytes): the format, its version, and the sources: what made the
  games (the players' specs, epsilon, the records' files, the commands that packed them).

Every game is checked when the file is read: its moves are replayed with the engine, they must
be legal and end the game, and the result must be the one its moves give; a game that fails is
an error naming it. Games are whole: ``--record`` files keep finished games only.

>>> import tempfile, pathlib
>>> from boardai.othello.board import Board
>>> b, moves = Board.initial(), []
>>> while not b.is_terminal():
...     moves.append(b.legal_actions()[0])
...     b = b.play(moves[-1])
>>> games = Games.from_lists([moves], [0], [b.score()])
>>> path = pathlib.Path(tempfile.mkdtemp()) / "g.npz"
>>> write_games(path, games)
>>> back = read_games(path)
>>> back.game(0).tolist() == moves, int(back.results[0]) == b.score()
(True, True)
>>> p = positions(back)
>>> len(p.label) == len([m for m in moves if m != 64])  # one position a move, passes skipped
True
"""

# ruff: noqa: E741  (P, O: the mover's and the opponent's bitboards)
from __future__ import annotations

import io
import json
import os
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from boardai._jit import njit
from boardai.errors import MIB, UsageError, read_limited
from boardai.othello.kernels import (
    PASS,
    START_BLACK,
    START_WHITE,
    final_score,
    legal_moves,
    play,
    popcount,
)

FORMAT = "boardai-othello-games"
FORMAT_VERSION = 1
#: The most bytes a games file may have on disk (about 20 million games) ...
MAX_GAMES_BYTES = 1024 * MIB
#: ... and once its arrays are unpacked (a small zip can unpack to gigabytes).
MAX_UNPACKED_BYTES = 4096 * MIB
#: The most moves one game can have: 60 squares, and a pass before at most each of them.
MAX_GAME_MOVES = 120

#: What :func:`_check_games` finds wrong with a game, by its code.
_PROBLEMS = {
    1: "a move is not 0..64",
    2: "an illegal move",
    3: "the game is not over after its last move",
    4: "its result is not the one its moves give",
    5: "more random plies than moves",
}


@dataclass
class Games:
    """Games in the file's form (see the module's docstring for each array).

    Attributes:
        moves: uint8, the games' moves one after another.
        offsets: int64[n + 1], where each game's moves start (and the last one ends).
        random_plies: uint8[n], the random opening plies of each game.
        results: int8[n], the final disc difference from black's view.
        meta: the file's metadata (``sources``: what made the games).
    """

    moves: np.ndarray
    offsets: np.ndarray
    random_plies: np.ndarray
    results: np.ndarray
    meta: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def game(self, i: int) -> np.ndarray:
        """Game ``i``'s moves (uint8)."""
        return self.moves[self.offsets[i] : self.offsets[i + 1]]

    @classmethod
    def from_lists(
        cls,
        games: Sequence[Sequence[int] | np.ndarray],
        random_plies: Sequence[int],
        results: Sequence[int],
        sources: list[dict[str, Any]] | None = None,
    ) -> Games:
        """Games from lists of moves (each game's), random plies and results (black's view);
        not checked here (:func:`check` does)."""
        lengths = np.array([len(g) for g in games], np.int64)
        offsets = np.zeros(len(games) + 1, np.int64)
        np.cumsum(lengths, out=offsets[1:])
        moves = np.fromiter((m for g in games for m in g), np.uint8, int(offsets[-1]))
        return cls(
            moves,
            offsets,
            np.asarray(random_plies, np.uint8).reshape(len(games)),
            np.asarray(results, np.int8).reshape(len(games)),
            {"format": FORMAT, "format_version": FORMAT_VERSION, "sources": sources or []},
        )


class Positions(NamedTuple):
    """Labelled positions, one per row.

    Attributes:
        mover: uint64, the discs of the side to move.
        opponent: uint64, the other side's discs.
        label: int8, the game's final disc difference from the mover's view.
        empties: uint8, the empty squares.
    """

    mover: np.ndarray
    opponent: np.ndarray
    label: np.ndarray
    empties: np.ndarray


# -- checking and positions (compiled; tests/othello/test_games_file.py has plain references) --


@njit
def _check_games(
    moves: np.ndarray, offsets: np.ndarray, results: np.ndarray, random_plies: np.ndarray
) -> np.ndarray:
    """For each game, 0 if its moves are legal from the standard start, end the game and give
    its result, else the code of its first problem (:data:`_PROBLEMS`)."""
    n = len(offsets) - 1
    found = np.zeros(n, np.int8)
    for i in range(n):
        start, end = offsets[i], offsets[i + 1]
        if random_plies[i] > end - start:
            found[i] = 5
            continue
        P, O = START_BLACK, START_WHITE
        black = True
        for j in range(start, end):
            a = np.int64(moves[j])
            if a > PASS:
                found[i] = 1
                break
            legal = legal_moves(P, O)
            if a == PASS:
                ok = legal == 0 and legal_moves(O, P) != 0
            else:
                ok = (legal >> np.uint64(a)) & np.uint64(1) != 0
            if not ok:
                found[i] = 2
                break
            P, O = play(P, O, a)
            black = not black
        if found[i]:
            continue
        if legal_moves(P, O) != 0 or legal_moves(O, P) != 0:
            found[i] = 3
            continue
        score = final_score(P, O)
        if (score if black else -score) != results[i]:
            found[i] = 4
    return found


@njit
def _positions(
    moves: np.ndarray,
    offsets: np.ndarray,
    results: np.ndarray,
    first: np.ndarray,
    count: np.int64,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The positions of checked games from move ``first[i]`` of game ``i`` on, where the mover
    has a move to choose (a position whose mover must pass is left out: the same discs follow
    with the other side to move; the final position too); ``count`` of them."""
    mover = np.empty(count, np.uint64)
    opponent = np.empty(count, np.uint64)
    label = np.empty(count, np.int8)
    empties = np.empty(count, np.uint8)
    k = 0
    for i in range(len(offsets) - 1):
        P, O = START_BLACK, START_WHITE
        black = True
        for j in range(offsets[i], offsets[i + 1]):
            a = np.int64(moves[j])
            if j - offsets[i] >= first[i] and a != PASS:
                mover[k], opponent[k] = P, O
                label[k] = results[i] if black else -results[i]
                empties[k] = 64 - popcount(P | O)
                k += 1
            P, O = play(P, O, a)
            black = not black
    return mover, opponent, label, empties


def check(games: Games, where: str = "games") -> None:
    """Check every game's arrays and moves (see the module's docstring).

    Raises:
        UsageError: one line naming the first game that fails (``where``: the file).
    """
    n = len(games.offsets) - 1
    arrays = (
        ("moves", games.moves, np.uint8, None),
        ("offsets", games.offsets, np.int64, n + 1),
        ("random_plies", games.random_plies, np.uint8, n),
        ("results", games.results, np.int8, n),
    )
    for name, a, dtype, size in arrays:
        if a.dtype != dtype or a.ndim != 1 or (size is not None and a.shape != (size,)):
            shape = f"[{size}]" if size is not None else ""
            raise UsageError(f"{where}: damaged games file: {name} is not {np.dtype(dtype)}{shape}")
    if n < 0 or games.offsets[0] != 0 or games.offsets[-1] != len(games.moves):
        raise UsageError(f"{where}: damaged games file: the offsets do not span the moves")
    lengths = np.diff(games.offsets)
    if len(lengths) and (lengths.min() < 0 or lengths.max() > MAX_GAME_MOVES):
        i = int(np.flatnonzero((lengths < 0) | (lengths > MAX_GAME_MOVES))[0])
        raise UsageError(f"{where}: game {i}: {int(lengths[i])} moves is not a game")
    found = _check_games(games.moves, games.offsets, games.results, games.random_plies)
    bad = np.flatnonzero(found)
    if len(bad):
        i = int(bad[0])
        raise UsageError(f"{where}: game {i}: {_problem(games, i, int(found[i]))}")


def _problem(games: Games, i: int, code: int) -> str:
    """What is wrong with game ``i`` (its code from :func:`_check_games`), in words."""
    from boardai.othello.board import Board

    moves = games.game(i).tolist()
    if code == 5:
        return f"{int(games.random_plies[i])} random plies but {len(moves)} moves"
    if code in (1, 2):
        board = Board.initial()
        for k, a in enumerate(moves):
            try:
                board = board.play(a)
            except ValueError as e:
                return f"move {k + 1}: {e}"
    if code == 4:
        board = Board.initial()
        for a in moves:
            board = board.play(a)
        return (
            f"its result {int(games.results[i]):+d} (black's disc difference) is not "
            f"{board.score():+d}, the one its moves give"
        )
    return _PROBLEMS[code]


def positions(source: Games | str | os.PathLike[str], skip_random: bool = True) -> Positions:
    """Every position of the games where the mover has a move to choose, labelled with the
    game's final disc difference from the mover's view: from the position after the random
    opening (``skip_random``; else from the start) to the last move. A position whose mover
    must pass is left out (the same discs follow, the other side to move, and are kept), and
    so is each game's final position (no move to choose; its label is its disc count).

    ``source``: games, or a games file (read and checked).
    """
    games = read_games(source) if not isinstance(source, Games) else source
    first, count = _first_moves(games, skip_random)
    return Positions(*_positions(games.moves, games.offsets, games.results, first, np.int64(count)))


def count_positions(games: Games, skip_random: bool = True) -> int:
    """How many rows :func:`positions` gives, without making them."""
    return _first_moves(games, skip_random)[1]


def _first_moves(games: Games, skip_random: bool) -> tuple[np.ndarray, int]:
    """Each game's first move whose position is kept, and the positions kept in all: the
    moves that are not passes, from each game's first kept one on."""
    first = games.random_plies.astype(np.int64) if skip_random else np.zeros(len(games), np.int64)
    played = np.concatenate(([0], np.cumsum(games.moves != PASS)))
    count = int((played[games.offsets[1:]] - played[games.offsets[:-1] + first]).sum())
    return first, count


# -- merging --------------------------------------------------------------------------------


def merge(parts: Iterable[Games], extra_sources: list[dict[str, Any]] | None = None) -> Merged:
    """The games of ``parts``, each game once: a game whose moves are those of one before it
    is a duplicate, dropped (its random plies: the most any copy says, so the content does not
    depend on the order of the parts). The sources of every part are kept, then
    ``extra_sources``."""
    index: dict[bytes, int] = {}
    games: list[np.ndarray] = []
    plies: list[int] = []
    results: list[int] = []
    sources: list[dict[str, Any]] = []
    duplicates = 0
    for part in parts:
        sources += part.meta.get("sources", [])
        for i in range(len(part)):
            moves = part.game(i)
            key = moves.tobytes()
            k = index.get(key)
            if k is not None:
                duplicates += 1
                plies[k] = max(plies[k], int(part.random_plies[i]))
                continue
            index[key] = len(games)
            games.append(moves)
            plies.append(int(part.random_plies[i]))
            results.append(int(part.results[i]))
    merged = Games.from_lists(games, plies, results, [*sources, *(extra_sources or [])])
    return Merged(merged, duplicates)


class Merged(NamedTuple):
    """What :func:`merge` gives: the games, and how many duplicates it dropped."""

    games: Games
    duplicates: int


# -- records --------------------------------------------------------------------------------


class FromRecords(NamedTuple):
    """What :func:`from_records` gives: the games, and the records it left out, by why."""

    games: Games
    skipped: dict[str, int]


def from_records(records: Iterable[dict[str, Any]], where: str = "records") -> FromRecords:
    """The finished Othello games of game records (``--record`` lines of ``othello match``),
    each replayed and checked; a record's ``random_plies`` says its random opening (none:
    0). Left out, and counted by why: games of 2048, games not from the standard start, games
    not over (a forfeit, an interrupted game).

    Raises:
        UsageError: a record whose moves are illegal, or whose ``score`` is not the one its
            moves give, naming it (its position in ``records``).
    """
    from boardai.othello.board import BLACK, Board
    from boardai.records import load

    games: list[list[int]] = []
    plies: list[int] = []
    results: list[int] = []
    skipped: dict[str, int] = {}
    players: dict[str, None] = {}
    epsilons: dict[float, None] = {}
    initial = Board.initial()

    def skip(why: str) -> None:
        skipped[why] = skipped.get(why, 0) + 1

    for k, record in enumerate(records):
        if record.get("game") != "othello":
            skip("not Othello")
            continue
        try:
            game = load(record)
        except ValueError as e:
            raise UsageError(f"{where}: game {k}: {e}") from None
        if game.start != initial:
            skip("not from the standard start")
            continue
        if record.get("forfeit") or not game.is_over():
            skip("not finished (a forfeit or a game cut short)")
            continue
        score = game.board.score(BLACK)
        if "score" in record and record["score"] != score:
            raise UsageError(
                f"{where}: game {k}: its score {record['score']!r} is not {score:+d}, the one "
                "its moves give"
            )
        random_plies = record.get("random_plies", 0)
        if (
            isinstance(random_plies, bool)
            or not isinstance(random_plies, int)
            or not 0 <= random_plies <= len(game.moves)
        ):
            raise UsageError(
                f"{where}: game {k}: random_plies {random_plies!r} is not 0..{len(game.moves)}"
            )
        games.append(game.moves)
        plies.append(random_plies)
        results.append(score)
        if game.players is not None:
            players[f"{game.players[0]} vs {game.players[1]}"] = None
        if isinstance(record.get("epsilon"), (int, float)):
            epsilons[float(record["epsilon"])] = None
    source: dict[str, Any] = {"records": where, "games": len(games)}
    if players:
        source["players"] = list(players)
    if epsilons:
        source["epsilon"] = list(epsilons)
    if plies:
        source["random_plies"] = [min(plies), max(plies)]
    return FromRecords(Games.from_lists(games, plies, results, [source]), skipped)


# -- the file -------------------------------------------------------------------------------


def write_games(path: str | os.PathLike[str], games: Games) -> None:
    """Write ``games`` to ``path`` atomically (a crash leaves the old file or the new one)."""
    from boardai import __version__
    from boardai.atomic import atomic_write

    meta = {
        **games.meta,
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "games": len(games),
        "boardai": __version__,
    }
    meta.setdefault("sources", [])
    text = json.dumps(meta, separators=(",", ":")).encode("utf-8")
    with atomic_write(path, "wb") as f:
        np.savez_compressed(
            f,
            moves=games.moves,
            offsets=games.offsets,
            random_plies=games.random_plies,
            results=games.results,
            meta=np.frombuffer(text, np.uint8),
        )


def is_games_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` looks like a games file (a zip: an ``.npz``), not a record file; by its
    first bytes (False if it cannot be read: the reader it goes to says why)."""
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"PK\x03\x04"
    except OSError:
        return False


def read_games(path: str | os.PathLike[str]) -> Games:
    """Read a games file and check every game in it (see the module's docstring).

    Raises:
        UsageError: missing, past :data:`MAX_GAMES_BYTES`, not a games file, of a newer
            format, or a game that fails its check (one line naming it).
    """
    where = os.fspath(path)
    try:
        data = read_limited(path, MAX_GAMES_BYTES, "a games file")
    except FileNotFoundError:
        raise UsageError(f"{where}: no such games file") from None
    except OSError as e:
        raise UsageError(f"{where}: cannot read it: {e.strerror or e}") from None
    if not data.startswith(b"PK\x03\x04"):
        raise UsageError(f"{where}: not a games file (not an .npz; boardai othello data pack)")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            unpacked = sum(info.file_size for info in z.infolist())
        if unpacked > MAX_UNPACKED_BYTES:
            raise UsageError(f"{where}: its arrays unpack past {MAX_UNPACKED_BYTES // MIB} MiB")
        with np.load(io.BytesIO(data), allow_pickle=False) as z:
            arrays = {name: z[name] for name in z.files}
    except (ValueError, OSError, EOFError, zipfile.BadZipFile) as e:
        raise UsageError(f"{where}: damaged games file ({type(e).__name__}: {e})") from None
    missing = [
        k for k in ("meta", "moves", "offsets", "random_plies", "results") if k not in arrays
    ]
    if missing:
        raise UsageError(f"{where}: not a games file (no {', '.join(missing)})")
    try:
        meta = json.loads(arrays["meta"].tobytes().decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        meta = None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise UsageError(f"{where}: not a games file (its metadata is not {FORMAT!r})")
    version = meta.get("format_version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise UsageError(
            f"{where}: games file format version {version!r}; this boardai reads up to "
            f"{FORMAT_VERSION} (upgrade boardai)"
        )
    if not isinstance(meta.get("sources", []), list):
        raise UsageError(f"{where}: damaged games file: its sources are not a list")
    games = Games(
        arrays["moves"], arrays["offsets"], arrays["random_plies"], arrays["results"], meta
    )
    check(games, where)
    return games


def read_inputs(
    paths: Sequence[str | os.PathLike[str]],
) -> Iterable[tuple[str, Games, dict[str, int]]]:
    """Each of ``paths`` as games, in order: a games file read and checked, or a record file
    (:func:`boardai.records.read_records`: ``--record`` lines, a ``--resume`` journal) turned
    into games by :func:`from_records`; with the records it left out, by why."""
    from boardai.records import read_records

    for path in paths:
        where = os.fspath(path)
        if is_games_file(path):
            yield where, read_games(path), {}
        else:
            games, skipped = from_records(read_records(path), where)
            yield where, games, skipped


def file_size(path: str | os.PathLike[str]) -> int:
    """The bytes of ``path`` (0 if it is not a regular file: ``/dev/null``)."""
    p = Path(path)
    return p.stat().st_size if p.is_file() else 0
