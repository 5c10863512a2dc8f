"""How 2048 is shown: its parts in :data:`boardai.games.GAMES` for replays in the terminal,
pictures, the terminal app and the web page.

>>> from boardai.records import replay
>>> from boardai.g2048.game import Game
>>> frames = replay(Game(seed=1).to_record())
>>> frame_screen(frames[0], None)[0]
'score 0   max 2'
"""

from __future__ import annotations

from typing import Any

import numpy as np
from rich.text import Text

from boardai.records import Frame
from boardai.ui.boards import board_text_2048
from boardai.ui.session import board_state_2048, spawn_between
from boardai.ui.tiles import TileTracker


def start() -> Any:
    """A start position (game 0 of seed 0)."""
    from boardai.g2048.game import Game

    return Game(seed=0).board


def frame_text(frame: Frame) -> str:
    """The board as plain text, with its score."""
    from boardai.g2048.render import board_text

    return board_text(frame.board, frame.score)


def frame_screen(frame: Frame, previous: Frame | None) -> tuple[str, Text]:
    """The headline (score, largest tile) and the coloured board."""
    head = f"score {frame.score:,}   max {frame.board.max_tile():,}"
    return head, board_text_2048(frame.board.to_grid())


def picture(frame: Frame, previous: Frame | None, index: int) -> np.ndarray:
    """The board with its score and the move that led to it."""
    from boardai.ui.pictures import picture_2048

    return picture_2048(frame.board, frame.score, frame.move, index)


def replay_state(
    frame: Frame, previous: Frame | None, animation: dict[str, Any] | None
) -> dict[str, Any]:
    """What a screen draws of a replayed position: the board, score and tiles' animation."""
    return board_state_2048(frame.board, frame.score or 0, animation or {})


class Animator:
    """The tiles' slides and spawns between replayed positions (:class:`TileTracker`)."""

    def __init__(self, frame: Frame) -> None:
        self.tracker = TileTracker(frame.board.exponents())

    def reset(self, frame: Frame) -> dict[str, Any]:
        """Show ``frame`` without a move: every tile anew."""
        return self.tracker.reset(frame.board.exponents())

    def step(self, before: Frame, frame: Frame) -> dict[str, Any]:
        """The move from ``before`` to ``frame``: slides, merges and the spawn."""
        assert frame.action is not None  # a position after a move
        spawn = spawn_between(before.board, frame.action, frame.board)
        return self.tracker.slide(frame.action, spawn)


def _agent(record: dict[str, Any], form: str) -> str:
    agent = record.get("agent")
    return form.format(agent) if isinstance(agent, str) else ""


def record_title(record: dict[str, Any]) -> str:
    """ "2048 by AGENT", or "2048" when the record names no player."""
    return "2048" + _agent(record, " by {}")


def state_board(state: dict[str, Any]) -> Text:
    """The coloured board of a screen's state."""
    return board_text_2048(state["grid"])


def players_line(record: dict[str, Any], state: dict[str, Any]) -> str:
    """The score of a screen's state, and who played."""
    return f"score {state['score']}" + _agent(record, " by {}")


def replay_summary(record: dict[str, Any], last: Frame) -> str:
    """How the game ended, after "replayed N moves": who played, the score, the top tile."""
    return f"{_agent(record, ' by {}')}: score {last.score}, largest tile {last.board.max_tile()}"
