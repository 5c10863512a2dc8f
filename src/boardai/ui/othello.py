"""Othello on a screen: the session of a person against a player in the terminal or web
app, the position in coloured text and in pictures, and its parts in
:data:`boardai.games.GAMES` for replays.

>>> from boardai.records import replay
>>> from boardai.othello.game import Game
>>> frames = replay(Game().to_record())
>>> frame_screen(frames[0], None)[0]
'black 2  white 2'
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from rich.text import Text

from boardai.errors import UsageError
from boardai.records import Frame
from boardai.ui import theme
from boardai.ui.pictures import font, with_caption
from boardai.ui.session import AgentCache, MakeAgent, Session, int_field, str_field

if TYPE_CHECKING:
    from boardai.othello.board import Board as BoardOthello

COLOURS = ("black", "white")
SQUARE = 56  # side of a square in a picture, pixels


class SessionOthello(Session):
    """A person against a boardai player at Othello.

    Args:
        human: the person's colour, ``"black"`` (moves first) or ``"white"``.
        player: the opponent's spec (its strength is in its options, e.g. a search depth).
        seed: seeds the players' randomness.
        start: the first position (an Othello ``Board``; the standard one by default).
        make: builds a player from a spec and a seed (default: any Othello player).
        budget: what the players' memory is charged to (see :class:`AgentCache`).
    """

    kind = "othello"
    replies = True

    def __init__(
        self,
        human: str = "black",
        player: str = "random",
        seed: int | None = None,
        start: BoardOthello | None = None,
        make: MakeAgent[BoardOthello] | None = None,
        budget: Any = None,
    ) -> None:
        from boardai.othello.agents import make_agent
        from boardai.othello.board import COLOR_NAMES
        from boardai.othello.game import Game

        if human not in COLOR_NAMES:
            raise UsageError(f"human must be black or white, not {human!r}")
        self.human = COLOR_NAMES.index(human)
        self.agents: AgentCache[BoardOthello] = AgentCache(make or make_agent, seed, budget)
        #: Set to stop the opponent's replies between moves (its client went away).
        self.stop = threading.Event()
        self.player = player.strip()
        names = ("person", self.player)
        self.game = Game(start, players=names if self.human == 0 else names[::-1])
        #: Who made the person's moves: "person", and the players of :meth:`step`.
        self.movers: set[str] = set()
        self.message = ""
        try:
            self.agents.get(self.player)  # a bad spec fails here, before the game
            self._reply()
        except BaseException:
            self.close()  # an engine started for the first reply stops with the game
            raise

    @classmethod
    def from_message(
        cls, msg: dict[str, Any], make: MakeAgent[BoardOthello], budget: Any = None
    ) -> SessionOthello:
        """The game a client's ``new`` message asks for: the person's colour (``human``),
        the opponent (``player``) and the ``seed``."""
        human = str_field(msg, "human", "black")
        seed = int_field(msg, "seed", 0, 2**63 - 1)
        player = str_field(msg, "player", "random")
        return cls(human=human, player=player, seed=seed, make=make, budget=budget)

    def move_message(self, msg: dict[str, Any]) -> None:
        """Play the ``move`` of a client's ``move`` message, then the opponent's reply."""
        self.move(str_field(msg, "move"))

    def _reply(self) -> None:
        """Let the opponent move until it is the person's turn or the game is over."""
        from boardai.arena.play import board_of, play
        from boardai.othello.board import COLOR_NAMES, PASS
        from boardai.othello.contract_game import StateOthello

        def check_stop() -> None:  # before each of the opponent's moves
            game = self.game
            if self.stop.is_set() and not game.is_over() and game.board.to_move != self.human:
                raise UsageError("stopped")

        notes = []
        check_stop()
        if not self.game.is_over() and self.game.board.to_move != self.human:
            with self.agents.use(self.player) as opponent:
                players = (None, opponent) if self.human == 0 else (opponent, None)
                for turn in play(StateOthello(self.game), players, observe=board_of, unasked=PASS):
                    if turn.action == PASS:
                        notes.append(f"{COLOR_NAMES[1 - self.human]} passes")
                    check_stop()
        if not self.game.is_over() and self.game.board.legal_actions() == [PASS]:
            notes.append("you have no move: pass")
        self.message = "; ".join(notes)

    def move(self, move: str) -> None:
        """Play the person's ``move`` (``d3`` or ``pass``), then the opponent's reply."""
        if self.game.is_over():
            raise UsageError("the game is over")
        self._check_turn()
        try:
            self.game.play(move)
        except ValueError as e:
            raise UsageError(str(e)) from None
        self.movers.add("person")
        self._reply()

    def step(self, spec: str) -> None:
        """Let player ``spec`` make the person's move (a pass when forced), then the
        opponent's reply: autoplay, or two players to watch (``spec`` against the opponent)."""
        from boardai.arena.play import IllegalMoveError, board_of, play
        from boardai.othello.board import PASS
        from boardai.othello.contract_game import StateOthello

        if self.game.is_over():
            raise UsageError("the game is over")
        self._check_turn()
        with self.agents.use(spec) as agent:
            players = (agent, None) if self.human == 0 else (None, agent)
            try:
                next(play(StateOthello(self.game), players, observe=board_of, unasked=PASS))
            except IllegalMoveError as e:
                raise UsageError(f"player {spec!r}: {e}") from None
        self.movers.add(spec.strip())
        self._reply()

    def _check_turn(self) -> None:
        """Refuse a move for the person when it is the opponent's turn (its reply stopped)."""
        from boardai.othello.board import COLOR_NAMES

        if self.game.board.to_move != self.human:  # the reply was stopped (:attr:`stop`)
            theirs = COLOR_NAMES[1 - self.human]
            raise UsageError(
                f"it is {theirs}'s turn, not yours: its reply was stopped (undo, or a new game)"
            )

    def undo(self) -> None:
        """Take back the person's last move (and the replies to it)."""
        if not self.game.undo_turn(self.human):
            raise UsageError("nothing to undo")
        self.message = ""

    def action_text(self, action: int) -> str:
        """``d3`` or ``pass``."""
        from boardai.othello.board import action_text

        return action_text(action)

    def hint_refused(self) -> str | None:
        """A hint on the person's turn only."""
        if self.game.is_over() or self.game.board.to_move != self.human:
            return "no move to hint: it is not your turn"
        return None

    def fork(self) -> SessionOthello:
        """A copy to play a request on, sharing the players, with a stop of its own: kept if
        the request ends, left behind (and stopped) if it is cancelled."""
        twin = copy.copy(self)
        game = twin.game = copy.copy(self.game)
        game.moves = list(game.moves)
        game._boards = list(game._boards)
        twin.movers = set(self.movers)
        twin.stop = threading.Event()
        return twin

    def record(self) -> dict[str, Any]:
        """The game's record (see :mod:`boardai.records`): the person's side is named for the
        player that made all of its moves under autoplay, if one did."""
        from boardai.othello.board import COLOR_NAMES

        record = self.game.to_record()
        if len(self.movers) == 1 and "person" not in self.movers:
            record["players"][COLOR_NAMES[self.human]] = next(iter(self.movers))
        return record

    def state(self) -> dict[str, Any]:
        """The board with the last move and its flips, whose turn, counts and result."""
        from boardai.othello.board import COLOR_NAMES, PASS

        history = self.game.history
        return {
            **game_state_othello(self.game),
            "human": COLOR_NAMES[self.human],
            "player": self.player,
            "moves": self.game.move_texts(),
            "pass_forced": self.game.board.to_move == self.human
            and self.game.board.legal_actions() == [PASS],
            "can_undo": any(b.to_move == self.human for b in history[:-1]),
            "message": self.message,
        }


def board_state_othello(
    board: BoardOthello, previous: BoardOthello | None = None, action: int | None = None
) -> dict[str, Any]:
    """What an Othello screen draws of ``board``; ``previous`` and ``action`` (the move that
    led here) mark the last move and the discs it flipped."""
    from boardai.othello.board import COLOR_NAMES, PASS

    grid = board.to_grid()
    cells = "".join(".BW"[v] for row in grid for v in row)
    flips: list[int] = []
    if previous is not None:
        before = [v for row in previous.to_grid() for v in row]
        flips = [i for i, v in enumerate(before) if v and cells[i] != ".BW"[v]]
    black, white = board.discs()
    over = board.is_terminal()
    result = None
    if over:
        winner = board.winner()
        result = (
            f"{COLOR_NAMES[winner]} wins {max(black, white)}-{min(black, white)}"
            if winner is not None
            else f"draw {black}-{white}"
        )
    return {
        "game": "othello",
        "cells": cells,
        "to_move": COLOR_NAMES[board.to_move],
        "legal": [a for a in board.legal_actions() if a != PASS],
        "last": action if action is not None and action != PASS else None,
        "flips": flips,
        "counts": {"black": black, "white": white},
        "over": over,
        "result": result,
    }


def game_state_othello(game: Any) -> dict[str, Any]:
    """:func:`board_state_othello` of an Othello ``Game``'s position, its last move marked."""
    history, moves = game.history, game.moves
    previous = history[-2] if len(history) > 1 else None
    return board_state_othello(history[-1], previous, moves[-1] if moves else None)


def board_text_othello(
    state: dict[str, Any], cursor: int | None = None, legal_moves: bool = False
) -> Text:
    """An Othello position as coloured text: the last move and its flips, and the legal moves
    (dotted) where there is a ``cursor`` or ``legal_moves`` asks for them."""
    c = theme.OTHELLO
    legal = set(state["legal"]) if cursor is not None or legal_moves else set()
    flips = set(state["flips"])
    frame = f"{c['text']} on {c['frame']}"
    text = Text("   " + "".join(f" {ch} " for ch in "abcdefgh") + " \n", style=frame)
    for r in range(8):
        text.append(f" {r + 1} ", style=frame)
        for col in range(8):
            i = 8 * r + col
            ch = state["cells"][i]
            background = c["flip"] if i in flips else c["legal"] if i == cursor else c["board"]
            if i == state["last"]:
                background = c["last"]
            if ch in "BW":
                glyph, ink = " ● ", c["black" if ch == "B" else "white"]
            elif i in legal:
                glyph, ink = " · ", c["legal"]
            else:
                glyph, ink = "   ", c["board"]
            text.append(glyph, style=f"bold {ink} on {background}")
        text.append(" \n", style=frame)
    text.append(" " * 28, style=frame)
    return text


def picture_othello(
    board: Any,
    last: int | None = None,
    flips: Sequence[int] = (),
    legal: Sequence[int] = (),
    caption: Sequence[str] = (),
) -> np.ndarray:
    """An Othello board (:func:`boardai.othello.render.board_image`: discs, the last move's
    red dot, a ring on flipped discs, small dots on ``legal`` squares) with coordinates a..h
    and 1..8 on its frame."""
    from PIL import Image, ImageDraw

    from boardai.othello.render import board_image

    c = theme.OTHELLO
    margin = 24
    img = Image.fromarray(board_image(board, SQUARE, legal, last, flips, margin))
    draw = ImageDraw.Draw(img)
    letters = font(16)
    for k in range(8):
        mid = margin + k * SQUARE + SQUARE // 2
        draw.text(
            (mid, margin // 2), "abcdefgh"[k], fill=theme.rgb(c["text"]), font=letters, anchor="mm"
        )
        draw.text(
            (margin // 2, mid), str(k + 1), fill=theme.rgb(c["text"]), font=letters, anchor="mm"
        )
    return with_caption(np.asarray(img), caption, c["frame"], c["text"])


def frame_text(frame: Frame) -> str:
    """The board as plain text, with the disc counts."""
    b, w = frame.board.discs()
    return f"{frame.board}\nblack {b}  white {w}"


def replay_state(
    frame: Frame, previous: Frame | None, animation: dict[str, Any] | None = None
) -> dict[str, Any]:
    """What a screen draws of a replayed position: the discs, the last move and its flips."""
    return board_state_othello(frame.board, previous.board if previous else None, frame.action)


def frame_screen(frame: Frame, previous: Frame | None) -> tuple[str, Text]:
    """The headline (disc counts, the result at the end) and the coloured board."""
    state = replay_state(frame, previous)
    head = f"black {state['counts']['black']}  white {state['counts']['white']}"
    head += f"   {state['result']}" if state["over"] else ""
    return head, board_text_othello(state)


def picture(frame: Frame, previous: Frame | None, index: int) -> np.ndarray:
    """The board with the last move and its flips, the disc counts and whose turn."""
    s = replay_state(frame, previous)
    counts = f"black {s['counts']['black']}   white {s['counts']['white']}"
    tail = s["result"] if s["over"] else f"{s['to_move']} to move"
    head = f"move {index}: {frame.move}   {counts}" if frame.move else f"start   {counts}"
    return picture_othello(frame.board, s["last"], s["flips"], caption=[head, tail])


def no_animator(frame: Frame) -> None:
    """Othello's discs are not animated between replayed positions."""
    return None


def _players(record: dict[str, Any]) -> tuple[str | None, str | None]:
    players = record.get("players")
    black, white = (players.get(c) if isinstance(players, dict) else None for c in COLOURS)
    return (
        black if isinstance(black, str) else None,
        white if isinstance(white, str) else None,
    )


def record_title(record: dict[str, Any]) -> str:
    """ "BLACK (black) against WHITE (white)", or "Othello" when the record names no players."""
    black, white = _players(record)
    if black is not None and white is not None:
        return f"{black} (black) against {white} (white)"
    return "Othello"


def state_board(state: dict[str, Any]) -> Text:
    """The coloured board of a screen's state."""
    return board_text_othello(state)


def players_line(record: dict[str, Any], state: dict[str, Any]) -> str:
    """The disc counts of a screen's state, with who played each colour."""
    black, white = (f" ({n})" if n is not None else "" for n in _players(record))
    return f"black{black} {state['counts']['black']}  white{white} {state['counts']['white']}"


def replay_summary(record: dict[str, Any], last: Frame) -> str:
    """How the game ended, after "replayed N moves": the discs of each colour, with who."""
    b, w = last.board.discs()
    black, white = (f" ({n})" if n is not None else "" for n in _players(record))
    return f": black{black} {b}, white{white} {w}"
