"""GTP (the Go Text Protocol, as Othello engines such as ``gtp-rhino`` speak it) for Othello:
a server that lets any boardai player be driven by GUIs and other programs (under a game clock
too: ``time_settings`` and ``time_left``, :mod:`boardai.othello.clock`), and a client that
drives an external engine as a subprocess, with timeouts so a crashed or silent engine never
hangs a match.

Moves are vertices like ``D3`` (column letter, row number; a1 is the top left as in
:mod:`boardai.othello.board`) or ``PASS``; colours are ``black``/``white`` (``b``/``w``).
"""

from __future__ import annotations

import contextlib
import math
import queue
import shlex
import subprocess
import threading
import time
from collections.abc import Callable
from typing import IO, Any

from boardai.othello.board import BLACK, PASS, WHITE, Board, action_text, parse_action
from boardai.othello.clock import Clock, give_budget

PROTOCOL_VERSION = "2"
COLOURS = (BLACK, WHITE)


class EngineError(RuntimeError):
    """The external engine failed: it died, timed out, or answered with an error or nonsense."""


class EngineRefusedError(EngineError):
    """The engine answered a command with ``?`` (it is still running)."""


def parse_color(text: str) -> int:
    """``black``/``b`` -> BLACK, ``white``/``w`` -> WHITE."""
    t = text.strip().lower()
    if t in ("b", "black"):
        return BLACK
    if t in ("w", "white"):
        return WHITE
    raise ValueError(f"unknown colour {text!r}")


def parse_command(line: str) -> tuple[str, str, list[str]] | None:
    """(id, command in lower case, arguments) of a GTP command line; None for a blank or
    comment line."""
    words = line.split("#", 1)[0].split()
    ident = ""
    if words and words[0].isdigit():
        ident, words = words[0], words[1:]
    if not words:
        return None
    return ident, words[0].lower(), words[1:]


def vertex(action: int) -> str:
    """GTP vertex of an action: ``D3`` or ``PASS``."""
    return "PASS" if action == PASS else action_text(action).upper()


# -- server ----------------------------------------------------------------------------------


class GTPServer:
    """Answers GTP commands for one boardai player (:meth:`handle` one line, :meth:`serve` a
    stream)."""

    def __init__(self, agent: Any, name: str = "boardai") -> None:
        self.agent = agent
        self.name = name
        self.history: list[Board] = [Board.initial()]
        #: Lengths of :attr:`history` at which a pass was put in for a controller that skipped
        #: it: ``undo`` takes that pass back with the move after it.
        self.implicit: set[int] = set()
        self.commands: dict[str, Callable[[list[str]], str]] = {
            "protocol_version": lambda a: PROTOCOL_VERSION,
            "name": lambda a: self.name,
            "version": lambda a: _version(),
            "known_command": lambda a: "true" if a and a[0] in self.commands else "false",
            "list_commands": lambda a: "\n".join(sorted(self.commands)),
            "boardsize": self._boardsize,
            "clear_board": self._clear,
            "komi": lambda a: "",
            "play": self._play,
            "genmove": self._genmove,
            "undo": self._undo,
            "showboard": lambda a: "\n" + str(self.board),
            "final_score": self._final_score,
            "time_settings": self._time_settings,
            "time_left": self._time_left,
            "quit": lambda a: "",
        }
        #: The game clock of each colour, once ``time_settings`` set one (None: no limit).
        self.clocks: dict[int, Clock] | None = None

    @property
    def board(self) -> Board:
        return self.history[-1]

    def handle(self, line: str) -> str | None:
        """The full response (``= ...`` or ``? ...``, ending in a blank line) to one command line;
        None for a blank or comment line. An engine the player drives failing is a ``?`` answer:
        the controller hears why, and the server goes on."""
        parsed = parse_command(line)
        if parsed is None:
            return None
        ident, command, args = parsed
        try:
            if command not in self.commands:
                raise ValueError("unknown command")
            result = self.commands[command](args)
            return f"={ident} {result}".rstrip() + "\n\n"
        except (ValueError, EngineError) as e:
            return f"?{ident} {e}\n\n"

    def serve(self, inp: IO[str], out: IO[str]) -> None:
        """Answer commands from ``inp`` until ``quit`` or the end of input."""
        for line in inp:
            response = self.handle(line)
            if response is None:
                continue
            out.write(response)
            out.flush()
            parsed = parse_command(line)
            if parsed is not None and parsed[1] == "quit":  # the command, not an argument
                return

    def _boardsize(self, args: list[str]) -> str:
        if args != ["8"]:
            raise ValueError("unacceptable size")
        return ""

    def _clear(self, args: list[str]) -> str:
        self.history = [Board.initial()]
        self.implicit.clear()
        self.agent.reset()
        if self.clocks is not None:  # a new game starts with full clocks
            first = self.clocks[BLACK]
            self.clocks = {c: Clock(first.main, first.byo_yomi, first.stones) for c in COLOURS}
        return ""

    def _time_settings(self, args: list[str]) -> str:
        try:
            main, byo_yomi, stones = float(args[0]), float(args[1]), int(args[2])
        except (IndexError, ValueError):
            raise ValueError("syntax error: time_settings MAIN BYO_YOMI STONES") from None
        if len(args) != 3 or not (math.isfinite(main) and math.isfinite(byo_yomi)):
            raise ValueError("syntax error: time_settings MAIN BYO_YOMI STONES")
        if main < 0 or byo_yomi < 0 or stones < 0:
            raise ValueError("time_settings: times and stones must be >= 0")
        if byo_yomi > 0 and stones == 0:  # GTP: no time limit
            self.clocks = None
        else:
            self.clocks = {c: Clock(main, byo_yomi, stones) for c in COLOURS}
        return ""

    def _time_left(self, args: list[str]) -> str:
        if len(args) != 3:
            raise ValueError("syntax error: time_left COLOUR TIME STONES")
        color = parse_color(args[0])
        try:
            left, stones = float(args[1]), int(args[2])
        except ValueError:
            raise ValueError("syntax error: time_left COLOUR TIME STONES") from None
        if not math.isfinite(left) or stones < 0:
            raise ValueError("time_left: a time and stones >= 0")
        if self.clocks is None:  # a controller that sends no time_settings: main time only
            self.clocks = {c: Clock(max(left, 0.0)) for c in COLOURS}
        clock = self.clocks[color]
        clock.left, clock.left_stones = max(left, 0.0), stones
        return ""

    def _play(self, args: list[str]) -> str:
        if len(args) != 2:
            raise ValueError("syntax error: play COLOUR VERTEX")
        color = parse_color(args[0])
        board = self.board
        if board.to_move != color:
            # the other side must pass first (GTP lets a controller skip explicit passes)
            if board.legal_actions() == [PASS]:
                board = board.play(PASS)
            else:
                raise ValueError(f"illegal move: it is not {args[0]}'s turn")
        try:
            after = board.play(parse_action(args[1]))
        except ValueError as e:
            raise ValueError(f"illegal move ({e})") from None
        self._push(board, after)
        return ""

    def _genmove(self, args: list[str]) -> str:
        if len(args) != 1:
            raise ValueError("syntax error: genmove COLOUR")
        color = parse_color(args[0])
        board = self.board
        if board.is_terminal():
            return "PASS"
        if board.to_move != color:
            if board.legal_actions() != [PASS]:
                raise ValueError(f"it is not {args[0]}'s turn")
            board = board.play(PASS)
        clock = self.clocks[color] if self.clocks is not None else None
        give_budget(self.agent, clock, board)
        start = time.perf_counter()
        action = int(self.agent.act(board))  # may fail: the history is then left as it was
        if clock is not None:
            clock.spent(time.perf_counter() - start)
        after = board.play(action)
        self._push(board, after)
        return vertex(action)

    def _push(self, board: Board, after: Board) -> None:
        """Add the move from ``board`` to ``after``; ``board`` is not the current one where the
        other side's pass was skipped: that pass goes in first."""
        if board is not self.board:
            self.history.append(board)
            self.implicit.add(len(self.history))
        self.history.append(after)

    def _undo(self, args: list[str]) -> str:
        if len(self.history) < 2:
            raise ValueError("cannot undo")
        self.history.pop()
        if len(self.history) in self.implicit:  # the pass the controller skipped goes too
            self.implicit.discard(len(self.history))
            self.history.pop()
        return ""

    def _final_score(self, args: list[str]) -> str:
        b = self.board
        d = b.score(BLACK)
        return "0" if d == 0 else f"B+{d}" if d > 0 else f"W+{-d}"


def _version() -> str:
    from boardai import __version__

    return __version__


# -- client ----------------------------------------------------------------------------------


class GTPClient:
    """Drives an external GTP engine (a subprocess) with a timeout on every answer.

    Args:
        command: the engine's command line (a string, split like a shell would).
        timeout: seconds to wait for each answer (``genmove`` included).
    """

    def __init__(self, command: str | list[str], timeout: float = 10.0) -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        self.timeout = timeout
        self.label = " ".join(self.argv)
        try:
            self.proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except OSError as e:
            raise EngineError(f"cannot start engine {self.label!r}: {e.strerror or e}") from None
        self._lines: queue.Queue[str | None] = queue.Queue()
        # The reader holds the pipe and the queue, not the client: a client nobody holds any
        # more is collected (and its engine stopped by __del__) while its reader still waits.
        assert self.proc.stdout is not None
        threading.Thread(target=_read, args=(self.proc.stdout, self._lines), daemon=True).start()

    def send(self, command: str, timeout: float | None = None) -> str:
        """Send one command; return the answer's text (without ``=``).

        Raises:
            EngineError: the engine is dead, timed out (it is then killed), or answered ``?``.
        """
        if self.proc.poll() is not None:
            raise EngineError(
                f"engine {self.label!r} is not running (exit code {self.proc.returncode})"
            )
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(command + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise EngineError(f"engine {self.label!r} died (cannot send {command!r})") from None
        wait = self.timeout if timeout is None else timeout
        lines: list[str] = []
        while True:
            try:
                line = self._lines.get(timeout=wait)
            except queue.Empty:
                self.close()
                raise EngineError(
                    f"engine {self.label!r} did not answer {command!r} within {wait:g} s"
                ) from None
            if line is None:
                self._lines.put(None)  # stays at the end: later commands fail at once
                raise EngineError(f"engine {self.label!r} died while answering {command!r}")
            line = line.rstrip("\r\n")
            if not line.strip():
                if lines:
                    break
                continue
            lines.append(line)
        head = lines[0]
        if head.startswith("?"):
            raise EngineRefusedError(
                f"engine {self.label!r} refused {command!r}: {head[1:].strip()}"
            )
        if not head.startswith("="):
            raise EngineError(f"engine {self.label!r} answered {command!r} with {head!r}")
        text = head[1:].lstrip("0123456789").strip()
        return "\n".join([text, *lines[1:]]).strip()

    def close(self) -> None:
        """Ask the engine to quit, and kill it if it does not within a second."""
        if self.proc.poll() is None:
            with contextlib.suppress(OSError, ValueError):
                assert self.proc.stdin is not None
                self.proc.stdin.write("quit\n")
                self.proc.stdin.flush()
            try:
                self.proc.wait(1.0)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout):
            with contextlib.suppress(OSError, ValueError):
                if f is not None:
                    f.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()


def _read(stdout: IO[str], lines: queue.Queue[str | None]) -> None:
    """Put each line of an engine's output in ``lines``, then None at its end."""
    with contextlib.suppress(ValueError, OSError):
        for line in stdout:
            lines.put(line)
    lines.put(None)  # end of output: the engine died or closed its output


class EngineSlots:
    """How many external engines may run at once (a server's cap): each running engine holds a
    slot from its start until it is closed.

    >>> slots = EngineSlots(1)
    >>> slots.take(), slots.take(), slots.running
    (True, False, 1)
    >>> slots.give_back(); slots.take()
    True
    """

    def __init__(self, limit: int) -> None:
        if limit < 0:
            raise ValueError(f"engine limit must be >= 0, got {limit}")
        self.limit = limit
        self.running = 0
        self._lock = threading.Lock()

    def take(self) -> bool:
        """Take a slot; False if all are taken."""
        with self._lock:
            if self.running >= self.limit:
                return False
            self.running += 1
            return True

    def give_back(self) -> None:
        """Give a taken slot back."""
        with self._lock:
            self.running = max(0, self.running - 1)


def find_path(start: Board, goal: Board, max_plies: int = 12) -> list[int] | None:
    """The actions leading from ``start`` to ``goal`` in at most ``max_plies`` plies, if any.

    Discs never leave the board, so only squares occupied in ``goal`` are tried: the search
    follows the goal's new discs and stays small.
    """
    occupied = goal.black | goal.white
    if (start.black | start.white) & ~occupied:
        return None
    return _find(start, goal, occupied, max_plies)


def _find(start: Board, goal: Board, occupied: int, plies: int) -> list[int] | None:
    if start == goal:
        return []
    missing = (occupied & ~(start.black | start.white)).bit_count()
    if plies < missing:
        return None
    for a in start.legal_actions():
        if a != PASS and not occupied >> a & 1:
            continue
        rest = _find(start.play(a), goal, occupied, plies - 1)
        if rest is not None:
            return [a, *rest]
    return None
