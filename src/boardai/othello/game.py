"""Game: an Othello board with its move history, undo and JSON-ready records.

>>> g = Game()
>>> g.play("d3")
>>> g.play("c5")
>>> g.undo()
True
>>> Game.from_record(g.to_record()).board == g.board
True
"""

from __future__ import annotations

from typing import Any

from boardai.othello.board import BLACK, COLOR_NAMES, Board, action_text, parse_action

RECORD_VERSION = 1


class Game:
    """A game of Othello from a start board (the standard one unless given).

    Args:
        start: the first position (``Board.initial()`` by default).
        players: optional names of the black and white players, kept in the record.
    """

    def __init__(self, start: Board | None = None, players: tuple[str, str] | None = None) -> None:
        self.start = start if start is not None else Board.initial()
        self.board = self.start
        self.players = players
        self.moves: list[int] = []
        self._boards: list[Board] = []

    @property
    def history(self) -> list[Board]:
        """Every board of the game so far, from the start to the current one."""
        return [*self._boards, self.board]

    def is_over(self) -> bool:
        """True when neither side can move."""
        return self.board.is_terminal()

    def play(self, action: int | str) -> None:
        """Play ``action`` (an int or text like ``d3`` / ``pass``).

        Raises:
            ValueError: the move is illegal (the message names it).
        """
        a = parse_action(action)
        board = self.board.play(a)
        self._boards.append(self.board)
        self.board = board
        self.moves.append(a)

    def undo(self) -> bool:
        """Take back the last move; False if there is none."""
        if not self.moves:
            return False
        self.moves.pop()
        self.board = self._boards.pop()
        return True

    def undo_turn(self, color: int) -> bool:
        """Take back moves until it is ``color``'s turn again and ``color`` has taken back at
        least one of its own moves (a person's undo against an AI). False if none was made."""
        undone = False
        while self._boards:
            mover = self._boards[-1].to_move
            self.undo()
            if mover == color:
                undone = True
                if self.board.to_move == color:
                    break
        return undone

    def move_texts(self) -> list[str]:
        """The moves as text: ``['d3', 'c5', ...]``."""
        return [action_text(a) for a in self.moves]

    # -- records --------------------------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        """A JSON-ready record; :meth:`from_record` replays it exactly."""
        black, white = self.board.discs()
        record: dict[str, Any] = {
            "game": "othello",
            "version": RECORD_VERSION,
            "start": str(self.start),
            "moves": self.move_texts(),
            "over": self.is_over(),
            "discs": {"black": black, "white": white},
        }
        if self.players is not None:
            record["players"] = {"black": self.players[0], "white": self.players[1]}
        if self.is_over():
            w = self.board.winner()
            record["winner"] = COLOR_NAMES[w] if w is not None else "draw"
            record["score"] = self.board.score(BLACK)
        return record

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Game:
        """Replay a record of :meth:`to_record`, checking every move.

        Raises:
            ValueError: not an Othello record, a malformed one, or one with an illegal move.
        """
        if not isinstance(record, dict) or record.get("game") != "othello":
            raise ValueError('not an Othello game record (expected "game": "othello")')
        try:
            start = Board.from_str(record["start"]) if record.get("start") else None
            players = record.get("players")
            game = cls(start, (players["black"], players["white"]) if players else None)
            for k, move in enumerate(record["moves"]):
                try:
                    game.play(move)
                except ValueError as e:
                    raise ValueError(f"move {k + 1}: {e}") from None
        except (KeyError, TypeError) as e:
            raise ValueError(f"malformed Othello record: {e!r}") from None
        return game

    def __repr__(self) -> str:
        b, w = self.board.discs()
        return f"Game(moves={len(self.moves)}, black={b}, white={w}, over={self.is_over()})"
