"""How Othello is shown: its parts in :data:`boardai.games.GAMES` for replays in the terminal,
pictures, the terminal app and the web page.

>>> from boardai.records import replay
>>> from boardai.othello.game import Game
>>> frames = replay(Game().to_record())
>>> frame_screen(frames[0], None)[0]
'black 2  white 2'
"""

from __future__ import annotations

from typing import Any

import numpy as np
from rich.text import Text

from boardai.records import Frame
from boardai.ui.boards import board_text_othello
from boardai.ui.session import board_state_othello

COLOURS = ("black", "white")


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
    from boardai.ui.pictures import picture_othello

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
