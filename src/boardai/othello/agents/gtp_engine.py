"""``gtp:cmd=...``: an external engine that speaks GTP (e.g. ``gtp-rhino -l 3`` from Debian's
grhino), driven as a subprocess. A crashed, silent or confused engine raises
:class:`~boardai.othello.gtp.EngineError`, and a match scores the game as its loss."""

from __future__ import annotations

import contextlib
import math
import shlex
from dataclasses import dataclass
from typing import TYPE_CHECKING

from boardai.errors import UsageError
from boardai.othello.agents import REGISTRY
from boardai.othello.board import COLOR_NAMES, PASS, Board, parse_action
from boardai.othello.gtp import (
    EngineError,
    EngineRefusedError,
    EngineSlots,
    GTPClient,
    find_path,
    vertex,
)

if TYPE_CHECKING:
    from boardai.othello.clock import Clock


class TooManyEnginesError(UsageError):
    """Every engine slot of the server is taken (see :class:`~boardai.othello.gtp.EngineSlots`)."""


@dataclass
class GTPOptions:
    """Options of ``gtp``.

    Attributes:
        cmd: the engine's command line, e.g. ``gtp-rhino -l 3``.
        timeout: seconds the engine may take for one answer (a move included).
    """

    cmd: str = ""
    timeout: float = 30.0

    def __post_init__(self) -> None:
        if not self.cmd:
            raise ValueError("gtp needs cmd=COMMAND (e.g. gtp:cmd=gtp-rhino -l 3)")
        try:  # a quote left open would fail every game as the engine starts, not here
            argv = shlex.split(self.cmd)
        except ValueError as e:
            raise ValueError(f"cmd {self.cmd!r} is not a command line: {e}") from None
        if not argv:
            raise ValueError("gtp needs cmd=COMMAND (e.g. gtp:cmd=gtp-rhino -l 3)")
        if self.timeout <= 0:
            raise ValueError(f"timeout must be > 0, got {self.timeout}")


class GTPAgent:
    """Keeps the engine's board in step with the positions it is asked about: the moves since
    its last position are sent with ``play``, a new game with ``clear_board``.

    Attributes:
        engine_slots: where a server caps its engines (None: no cap): the engine holds a slot
            from its start until :meth:`close`; with none free, a move raises
            :class:`TooManyEnginesError`.
    """

    def __init__(self, opts: GTPOptions, name: str = "gtp") -> None:
        self.name = name
        self.opts = opts
        self.client: GTPClient | None = None
        self.board = Board.initial()
        self.engine_slots: EngineSlots | None = None
        self._slot: EngineSlots | None = None  # the slots a slot was taken from
        #: Whether this game's time settings were sent (None: the engine refused them, so
        #: it keeps no clock and is not told one again).
        self._clock_sent: bool | None = False

    def _engine(self) -> GTPClient:
        if self.client is None or self.client.proc.poll() is not None:
            if self._slot is None and self.engine_slots is not None:
                if not self.engine_slots.take():
                    raise TooManyEnginesError(
                        f"player {self.name!r}: this server runs at most "
                        f"{self.engine_slots.limit} engines at once, all busy: try again later"
                    )
                self._slot = self.engine_slots
            try:
                self.client = GTPClient(self.opts.cmd, self.opts.timeout)
                self.client.send("boardsize 8")
                self.client.send("clear_board")
            except BaseException:
                self.close()
                raise
            self.board = Board.initial()
            self._clock_sent = False
        return self.client

    def start(self) -> None:
        """Start the engine now and see that it answers (it is otherwise started by the first
        move it is asked for)."""
        self._engine()

    def reset(self) -> None:
        """Start a new game on the engine (a dead engine is restarted at the next move)."""
        if self.client is not None:
            try:
                self.client.send("clear_board")
            except EngineError:
                self.close()
        self.board = Board.initial()
        if self._clock_sent:
            self._clock_sent = False

    def reseed(self, seed: int) -> None:
        """Nothing to seed here: an engine's own randomness is its own."""

    def tell_clock(self, clock: Clock, color: int) -> None:
        """Send the game's ``time_settings`` (once a game) and ``time_left`` for ``color``, in
        whole seconds as GTP has them (rounded down); an engine that refuses them keeps no
        clock, and the match's clock alone counts its time."""
        if self._clock_sent is None:
            return
        engine = self._engine()
        try:
            if not self._clock_sent:
                engine.send(
                    f"time_settings {_secs(clock.main)} {_secs(clock.byo_yomi)} {clock.stones}"
                )
                self._clock_sent = True
            engine.send(f"time_left {COLOR_NAMES[color]} {_secs(clock.left)} {clock.left_stones}")
        except EngineRefusedError:
            self._clock_sent = None

    def act(self, state: Board) -> int:
        engine = self._engine()
        path = find_path(self.board, state)
        if path is None:
            engine.send("clear_board")
            self.board = Board.initial()
            path = find_path(self.board, state)
            if path is None and state != self.board:
                raise EngineError("cannot set up this position on a GTP engine (no move path)")
        for a in path or []:
            try:
                engine.send(f"play {COLOR_NAMES[self.board.to_move]} {vertex(a)}")
            except EngineRefusedError:
                if a != PASS:  # some engines (gtp-rhino) take passes as implied
                    raise
            self.board = self.board.play(a)
        answer = engine.send(f"genmove {COLOR_NAMES[state.to_move]}").split()
        try:
            action = parse_action(answer[0] if answer else "")
        except ValueError:
            raise EngineError(
                f"engine {self.opts.cmd!r} answered genmove with {answer!r}"
            ) from None
        if action not in state.legal_actions():
            raise EngineError(f"engine {self.opts.cmd!r} played illegal {vertex(action)}")
        self.board = state.play(action)
        return action

    def close(self) -> None:
        """Stop the engine process (a later move starts it again)."""
        client, self.client = self.client, None
        try:
            if client is not None:
                client.close()
        finally:
            slot, self._slot = self._slot, None
            if slot is not None:
                slot.give_back()

    def __del__(self) -> None:  # a player dropped unclosed still stops its engine
        with contextlib.suppress(Exception):
            self.close()


def _secs(seconds: float) -> int:
    return max(0, math.floor(seconds))


@REGISTRY.register("gtp", GTPOptions)
def make_gtp(opts: GTPOptions, seed: int | None) -> GTPAgent:
    """An external GTP engine run as a subprocess (cmd=COMMAND), with timeouts."""
    return GTPAgent(opts)


def start_engine(agent: object, spec: str) -> None:
    """Start ``agent``'s engine if it is a GTP one: an engine that cannot start or answer (a
    typo in its name, a bad flag) is then one line naming the player before any game, not a
    forfeit of every game of a match or a traceback in the middle of one.

    Raises:
        UsageError: the engine did not start or did not answer ``boardsize 8``.
    """
    if not isinstance(agent, GTPAgent):
        return
    try:
        agent.start()
    except EngineError as e:
        agent.close()
        raise UsageError(f"player {spec!r}: {e}") from None
