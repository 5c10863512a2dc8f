"""Game: a 2048 board with its score, seeded spawns, undo and exact replay.

Game ``index`` of seed ``S`` spawns from the splitmix64 stream ``seed_stream(S, index)``
(:mod:`boardai.rng`), drawing exactly as the compiled loops do (one 64-bit draw a spawn:
:func:`spawn_of`), so it is the same game as game ``index`` of ``S`` in
:func:`~boardai.g2048.kernels.play_random_games` or a training run's evaluation.

>>> g = Game(seed=7)
>>> reward = g.move(g.board.legal_actions()[0])
>>> Game.from_record(g.to_record()).board == g.board
True
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from boardai.g2048.board import ACTION_NAMES, Board, parse_action
from boardai.rng import Stream, game_stream

RECORD_VERSION = 1


@dataclass(frozen=True)
class Step:
    """One move of a game: the action, its reward, and the tile spawned after it."""

    action: int
    reward: int
    cell: int
    value: int


class Game:
    """A game of 2048 under the standard rules (or the options below).

    Args:
        seed: seeds the spawns; the same seed and index give the same start and spawns (None:
            a fresh random game).
        index: which game of ``seed`` (game ``index`` of a run seeded ``seed``).
        p4: probability that a spawned tile is a 4 (0.1 in the original game).
        start_tiles: tiles on the start board (2 in the original game).
        start_p4: probability of a 4 among the start tiles (defaults to ``p4``; seed 000 used
            0, only 2s at the start).
        board: start from this position instead of spawned start tiles (a puzzle, a test);
            its record then carries the position as ``start_grid``.
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        index: int = 0,
        p4: float = 0.1,
        start_tiles: int = 2,
        start_p4: float | None = None,
        board: Board | None = None,
    ) -> None:
        if not 0.0 <= p4 <= 1.0:
            raise ValueError(f"p4 must be in [0, 1], got {p4}")
        if start_p4 is not None and not 0.0 <= start_p4 <= 1.0:
            raise ValueError(f"start_p4 must be in [0, 1], got {start_p4}")
        if not 0 <= start_tiles <= 16:
            raise ValueError(f"start_tiles must be in 0..16, got {start_tiles}")
        self.seed = seed
        self.index = index
        self.p4 = p4
        self.start_tiles = start_tiles
        self.start_p4 = p4 if start_p4 is None else start_p4
        state = secrets.randbits(64) if seed is None else game_stream(seed, index)
        self.rng = Stream(state)
        self.start: list[tuple[int, int]] = []
        self.custom_start = board is not None
        if board is None:
            board = Board()
            for _ in range(start_tiles):
                cell, value = spawn_of(board, self.rng.next(), self.start_p4)
                board = board.place(cell, value)
                self.start.append((cell, value))
        self.start_board = board
        self.board = board
        self.score = 0
        self.steps: list[Step] = []
        self._rng_state = self.rng.state
        self._undo: list[tuple[Board, int, int]] = []

    @property
    def moves(self) -> int:
        """Number of moves played."""
        return len(self.steps)

    def is_over(self) -> bool:
        """True when no move is legal."""
        return self.board.is_terminal()

    def move(self, action: int | str, spawn: tuple[int, int] | None = None) -> int:
        """Play ``action``, spawn a tile, and return the reward.

        ``spawn`` forces the spawned tile as (cell, value), as a replay does; the rng still
        advances as if it had drawn, so a seeded game stays in step with its record.

        Raises:
            ValueError: the action is not 0..3 (or a name), or is illegal on this board, or
                the forced spawn is not on an empty cell (or is none, -1, where there is one).
        """
        a = parse_action(action)
        after, reward = self.board.slide(a)
        if after == self.board:
            raise ValueError(f"action {a} ({ACTION_NAMES[a]}) is illegal here")
        cell, value = spawn_of(after, self.rng.next(), self.p4)
        if spawn is not None:
            cell, value = int(spawn[0]), int(spawn[1])
            if cell < 0 and after.empty_cells():  # a legal move always leaves a cell to fill
                raise ValueError("a move with no spawn, where the board has an empty cell")
        board = after.place(cell, value) if cell >= 0 else after
        self._undo.append((self.board, self.score, self._rng_state))
        self._rng_state = self.rng.state
        self.board = board
        self.score += reward
        self.steps.append(Step(a, reward, cell, value))
        return reward

    def undo(self) -> bool:
        """Take back the last move (the rng rewinds too, so replaying it spawns the same)."""
        if not self._undo:
            return False
        self.board, self.score, self._rng_state = self._undo.pop()
        self.rng.state = self._rng_state
        self.steps.pop()
        return True

    # -- records --------------------------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        """A JSON-ready record from which :meth:`from_record` replays this game exactly.

        The score is the sum of the moves' rewards (:attr:`score` when no move is under way):
        a record saved as an interrupt strikes inside :meth:`move` (a stopped worker saving
        its game, :mod:`boardai.arena.solo`), between the score's update and the move's, still
        replays to its own score.
        """
        return {
            "game": "2048",
            "version": RECORD_VERSION,
            "seed": self.seed,
            **({"index": self.index} if self.index else {}),
            "rules": {"p4": self.p4, "start_tiles": self.start_tiles, "start_p4": self.start_p4},
            "start": [list(s) for s in self.start],
            **({"start_grid": self.start_board.to_grid()} if self.custom_start else {}),
            "moves": [[s.action, s.cell, s.value] for s in self.steps],
            "score": sum(s.reward for s in self.steps),
            "max_tile": self.board.max_tile(),
            "n_moves": self.moves,
        }

    @classmethod
    def from_record(cls, record: dict[str, Any], seeded: bool = False) -> Game:
        """Replay a record of :meth:`to_record`, checking every move and spawn; ``seeded``
        also checks that the start and every spawn are those the record's seed draws (a game
        then goes on exactly as the recorded one would have).

        Raises:
            ValueError: the record is not a 2048 record, or a move or spawn in it is
                impossible (or, ``seeded``, not the seed's), or its final score disagrees
                with the replay.
        """
        if not isinstance(record, dict) or record.get("game") != "2048":
            raise ValueError('not a 2048 game record (expected "game": "2048")')
        try:
            rules = record.get("rules", {})
            grid = record.get("start_grid")
            game = cls(
                record.get("seed"),
                index=int(record.get("index", 0)),
                p4=float(rules.get("p4", 0.1)),
                start_tiles=int(rules.get("start_tiles", 2)),
                start_p4=float(rules.get("start_p4", rules.get("p4", 0.1))),
                board=None if grid is None else Board.from_grid(grid),
            )
            start = [(int(cell), int(value)) for cell, value in record["start"]]
            if grid is None and start != game.start:  # unseeded, or start tiles placed by hand
                if seeded:
                    raise ValueError("the start tiles are not the seed's")
                board = Board()
                for cell, value in start:
                    board = board.place(cell, value)
                game.start, game.start_board, game.board = start, board, board
            for k, (action, cell, value) in enumerate(record["moves"]):
                try:
                    game.move(int(action), spawn=None if seeded else (int(cell), int(value)))
                except ValueError as e:
                    raise ValueError(f"move {k}: {e}") from None
                step = game.steps[-1]
                if seeded and (step.cell, step.value) != (int(cell), int(value)):
                    raise ValueError(f"move {k}: the spawn is not the seed's")
        except (KeyError, TypeError) as e:
            raise ValueError(f"malformed 2048 record: {e!r}") from None
        if "score" in record and record["score"] != game.score:
            raise ValueError(f"record says score {record['score']}, replay gives {game.score}")
        return game

    def __repr__(self) -> str:
        index = f", index={self.index}" if self.index else ""
        return f"Game(seed={self.seed!r}{index}, score={self.score}, moves={self.moves})"


def spawn_of(board: Board, bits: int, p4: float) -> tuple[int, int]:
    """The (cell, value) that 64 random ``bits`` spawn on ``board``, as the compiled
    :func:`~boardai.g2048.kernels.spawn` places it: the high 32 bits pick the k-th empty cell
    (k = high * n >> 32 of n), the low 32 bits give a 4 below ``p4 * 2^32``; (-1, 0) on a full
    board."""
    empties = board.empty_cells()
    if not empties:
        return -1, 0
    cell = empties[((bits >> 32) * len(empties)) >> 32]
    return cell, 4 if float(bits & 0xFFFF_FFFF) < p4 * 4294967296.0 else 2
