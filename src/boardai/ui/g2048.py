"""2048 on a screen: the session of a game played in the terminal or web app, its board
in coloured text and in pictures, and its parts in :data:`boardai.games.GAMES` for replays.

>>> s = Session2048(seed=1)
>>> s.move(s.game.board.legal_actions()[0])
>>> s.hint("random")["action"] in s.game.board.legal_actions()
True
>>> s.state()["moves"]
1
>>> text = board_text_2048([[2, 0, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 2048]])
>>> "2048" in text.plain and len(text.plain.splitlines()) == 4 * CELL_H + 5
True
>>> from boardai.records import replay
>>> from boardai.g2048.game import Game
>>> frames = replay(Game(seed=1).to_record())
>>> frame_screen(frames[0], None)[0]
'score 0   max 2'
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from rich.text import Text

from boardai.errors import UsageError
from boardai.records import Frame
from boardai.ui import theme
from boardai.ui.pictures import with_caption
from boardai.ui.session import AgentCache, MakeAgent, Session, int_field
from boardai.ui.tiles import TileTracker

if TYPE_CHECKING:
    from boardai.g2048.board import Board as Board2048

#: Tile that wins 2048 (play goes on after it).
WIN_TILE = 2048
CELL_W, CELL_H = 8, 3  # a tile in the terminal, in characters


class Session2048(Session):
    """A game of 2048 on a screen.

    Args:
        seed: seeds the spawns (None: a fresh random game).
        grid: start from this position (4 rows of 4 tile values) instead of two spawned
            tiles; the record then carries it as ``start_grid``.
        p4: probability that a spawned tile is a 4.
        make: builds a player from a spec and a seed (default: any 2048 player; the web app
            passes only what its server offers, see :mod:`boardai.ui.web.players`).
        budget: what the players' memory is charged to (see :class:`AgentCache`).
    """

    kind = "2048"

    def __init__(
        self,
        seed: int | None = None,
        grid: Sequence[Sequence[int]] | None = None,
        p4: float = 0.1,
        make: MakeAgent[Board2048] | None = None,
        budget: Any = None,
    ) -> None:
        from boardai.g2048.agents import make_agent
        from boardai.g2048.board import Board
        from boardai.g2048.game import Game

        board = None
        if grid is not None:
            try:
                board = Board.from_grid(grid)
            except ValueError as e:
                raise UsageError(f"bad board: {e}") from None
        self.game = Game(seed, p4=p4, board=board)
        self.agents: AgentCache[Board2048] = AgentCache(make or make_agent, seed, budget)
        self.tracker = TileTracker(self.game.board.exponents())
        self.animation = self.tracker.reset(self.game.board.exponents())

    @classmethod
    def from_message(
        cls, msg: dict[str, Any], make: MakeAgent[Board2048], budget: Any = None
    ) -> Session2048:
        """The game a client's ``new`` message asks for: its ``seed`` and start ``board``."""
        seed = int_field(msg, "seed", 0, 2**63 - 1)
        return cls(seed, grid=msg.get("board"), make=make, budget=budget)

    def move_message(self, msg: dict[str, Any]) -> None:
        """Play the ``action`` of a client's ``move`` message."""
        action = msg.get("action")
        if not isinstance(action, (int, str)) or isinstance(action, bool):
            raise UsageError("'action' must be 0..3 or up, right, down, left")
        self.move(action)

    def move(self, action: int | str) -> None:
        """Play ``action`` (0..3 or up/right/down/left) for the person at the screen."""
        from boardai.g2048.board import ACTION_NAMES, parse_action

        try:
            a = parse_action(action)
        except ValueError as e:
            raise UsageError(str(e)) from None
        if a not in self.game.board.legal_actions():
            raise UsageError(f"{ACTION_NAMES[a]} is illegal here")
        self.game.move(a)
        step = self.game.steps[-1]
        self.animation = self.tracker.slide(a, (step.cell, step.value))

    def undo(self) -> None:
        """Take back the last move."""
        if not self.game.undo():
            raise UsageError("nothing to undo")
        self.animation = self.tracker.reset(self.game.board.exponents())

    def action_text(self, action: int) -> str:
        """``up``, ``right``, ``down`` or ``left``."""
        from boardai.g2048.board import ACTION_NAMES

        return ACTION_NAMES[action]

    def hint_refused(self) -> str | None:
        """A hint while moves are left."""
        return "the game is over: no move to hint" if self.game.is_over() else None

    def step(self, spec: str) -> None:
        """Let player ``spec`` make the next move (autoplay)."""
        from boardai.arena.play import IllegalMoveError, board_of, play
        from boardai.g2048.contract_game import State2048

        with self.agents.use(spec) as agent:
            if self.game.is_over():
                raise UsageError("the game is over")
            try:
                turn = next(play(State2048(self.game), [agent], observe=board_of))
            except IllegalMoveError as e:
                raise UsageError(f"player {spec!r}: {e}") from None
        step = self.game.steps[-1]
        self.animation = self.tracker.slide(turn.action, (step.cell, step.value))

    def record(self) -> dict[str, Any]:
        """The game's record (see :mod:`boardai.records`)."""
        return self.game.to_record()

    def fork(self) -> Session2048:
        """A copy to play a request on, sharing the players: kept if the request ends, left
        behind if it is cancelled (O(moves) list copies: microseconds)."""
        twin = copy.copy(self)
        game = twin.game = copy.copy(self.game)
        game.steps = list(game.steps)
        game._undo = list(game._undo)
        game.start = list(game.start)
        game.rng = copy.deepcopy(game.rng)
        twin.tracker = copy.deepcopy(self.tracker)
        return twin

    def state(self) -> dict[str, Any]:
        """What a screen draws: the board, score, whether it is won or over, the animation."""
        return {
            **board_state_2048(self.game.board, self.game.score, self.animation),
            "moves": self.game.moves,
            "can_undo": self.game.moves > 0,
            "seed": self.game.seed,
        }


def board_state_2048(board: Any, score: int, animation: dict[str, Any]) -> dict[str, Any]:
    """The part of a 2048 screen's state that the board alone decides."""
    return {
        "game": "2048",
        "grid": board.to_grid(),
        "score": score,
        "max_tile": board.max_tile(),
        "legal": board.legal_actions(),
        "won": board.max_tile() >= WIN_TILE,
        "over": board.is_terminal(),
        "animation": animation,
    }


def spawn_between(before: Board2048, action: int, after: Board2048) -> tuple[int, int] | None:
    """The (cell, tile value) spawned between two consecutive 2048 boards, if any."""
    slid, _ = before.slide(action)
    for cell, (e0, e1) in enumerate(zip(slid.exponents(), after.exponents(), strict=True)):
        if e0 == 0 and e1:
            return cell, 1 << e1
    return None


def board_text_2048(grid: list[list[int]]) -> Text:
    """A 2048 grid as coloured text: tiles ``CELL_W`` x ``CELL_H`` on the board colour."""
    board = f"on {theme.G2048['board']}"
    text = Text()
    gap_line = Text(" " * (4 * CELL_W + 5), style=board)
    text.append_text(gap_line)
    text.append("\n")
    for row in grid:
        for line in range(CELL_H):
            text.append(" ", style=board)
            for value in row:
                background, ink = theme.tile_colors(value)
                label = str(value) if value and line == CELL_H // 2 else ""
                text.append(label.center(CELL_W), style=f"bold {ink} on {background}")
                text.append(" ", style=board)
            text.append("\n")
        text.append_text(gap_line)
        text.append("\n")
    return text


def picture_2048(
    board: Any, score: int | None = None, move: str | None = None, index: int = 0
) -> np.ndarray:
    """A 2048 board with its score and the move that led to it."""
    from boardai.g2048.render import board_image

    img = board_image(board)
    head = f"score {score:,}" if score is not None else ""
    head += f"   largest tile {board.max_tile():,}"
    tail = f"move {index}: {move}" if move else "start"
    return with_caption(img, [head.strip(), tail], theme.G2048["page"], theme.G2048["text_dark"])


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
