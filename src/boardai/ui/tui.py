"""``boardai tui``: a full-screen terminal app (Textual) for 2048, Othello and replays.

Three screens, switched with 1, 2 and 3: 2048 (arrows or WASD move, u undo, n new game,
h hint, space autoplay, + and - speed, p next player), Othello against a boardai player (arrows
move the cursor, enter or space plays, . passes when forced, u undo, n new game, c swap
colours, o next opponent, h hint, a autoplay: the hint player makes your moves, p next hint
player), and a replay of a record file (left and right step, home
and end jump, space plays, [ and ] pick the game). The screens draw the same
:mod:`boardai.ui.session` objects as the web app, in the same colours (:mod:`boardai.ui.theme`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Header, Static

from boardai.errors import UsageError
from boardai.games import GAMES, parts
from boardai.records import RecordSink
from boardai.ui.g2048 import Session2048, board_text_2048
from boardai.ui.othello import SessionOthello, board_text_othello
from boardai.ui.session import SessionReplay, keep

SPEEDS = (1, 2, 4, 8, 15, 30, 60)  # autoplay moves per second


class SafeSink(RecordSink):
    """A :class:`~boardai.records.RecordSink` that never takes the app down: a game it cannot
    write (a full disk, a folder gone) is counted in ``lost``, and ``error`` says why, for the
    screens to show and the command to report as it ends."""

    def __init__(self, path: str | None = None) -> None:
        super().__init__(path)
        self.error: str | None = None
        self.lost = 0

    def save(self, record: dict[str, Any]) -> None:
        try:
            super().save(record)
        except OSError as e:
            self.lost += 1
            games = "a game" if self.lost == 1 else f"{self.lost} games"
            self.error = f"{self.path}: {e.strerror or e}: {games} not saved"


#: What :meth:`BoardScreen.off_thread` returns when the work raised a UsageError.
FAILED = object()


def _next(names: list[str], current: str) -> str:
    """The name after ``current`` in ``names``, round the end."""
    return names[(names.index(current) + 1) % len(names)]


class BoardScreen(Screen[None]):
    """What the screens share: a status line, the board and a note below it; and slow work (a
    player thinking) run in a worker thread, one job at a time, so the screen stays live."""

    def __init__(self) -> None:
        super().__init__()
        self.busy = False
        self.note = ""
        self.timer: Timer | None = None  # autoplay's, or a replay's

    def stop(self) -> None:
        """Stop autoplay (or a replay playing)."""
        if self.timer:
            self.timer.stop()
            self.timer = None

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="status")
        yield Static(id="board")
        yield Static(id="note")
        # Compact, without the palette's key: every key of the busiest screen fits 80 columns.
        yield Footer(compact=True, show_command_palette=False)

    def show(
        self, status: str | None = None, board: Text | str | None = None, note: str | None = None
    ) -> None:
        """Draw the parts given; the others stay as they are."""
        for part, content in (("#status", status), ("#board", board), ("#note", note)):
            if content is not None:
                self.query_one(part, Static).update(content)

    async def off_thread(self, fn: Any, *args: Any) -> Any:
        """``fn(*args)`` in a worker thread, ``busy`` meanwhile (callers check it first): its
        result, or :data:`FAILED` after a UsageError, whose message becomes the note."""
        self.busy = True
        try:
            return await asyncio.to_thread(fn, *args)
        except UsageError as e:
            self.note = str(e)
            return FAILED
        finally:
            self.busy = False


class Screen2048(BoardScreen):
    """2048: play, hint, autoplay with a speed, undo."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("up,w", "move(0)", "up", show=False),
        Binding("right,d", "move(1)", "right", show=False),
        Binding("down,s", "move(2)", "down", show=False),
        Binding("left,a", "move(3)", "left", show=False),
        ("u", "undo", "undo"),
        ("n", "new", "new game"),
        ("h", "hint", "hint"),
        ("space", "autoplay", "autoplay"),
        ("plus,equals_sign", "speed(1)", "faster"),
        ("minus", "speed(-1)", "slower"),
        ("p", "player", "player"),
    ]

    @classmethod
    def for_app(cls, player: str | None, seed: int | None, sink: SafeSink) -> Screen2048:
        """The screen the app shows: hints and autoplay from ``player`` (None: the strongest
        player there is)."""
        from boardai.g2048.agents import agent_names

        players = _order(list(agent_names()), player, ("expectimax", "heuristic", "greedy"))
        return cls(players, seed, sink)

    def __init__(self, players: list[str], seed: int | None, sink: SafeSink) -> None:
        super().__init__()
        self.players = players
        self.player = players[0]
        self.seed = seed
        self.sink = sink
        self.session = Session2048(seed)
        self.best = 0
        self.speed = 3  # index into SPEEDS
        self.note = "arrows or WASD move; space autoplays"
        self.keep_playing = False

    def on_mount(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        s = self.session.state()
        self.best = max(self.best, s["score"])
        auto = f"autoplay {SPEEDS[self.speed]}/s" + (" (on)" if self.timer else "")
        note = self.note
        if s["over"]:
            note = f"Game over! score {s['score']}: n new game, u undo"
            keep(self.session, self.sink, "tui")
        elif s["won"] and not self.keep_playing:
            note = "You win! Keep playing (any move) or n for a new game"
            self.keep_playing = True
        if self.sink.error:
            note = f"{note}   ({self.sink.error})"
        self.show(
            f"score {s['score']}   best {self.best}   moves {s['moves']}   "
            f"player {self.player}   {auto}",
            board_text_2048(s["grid"]),
            note,
        )

    def _act(self, fn: Any, *args: Any) -> None:
        try:
            fn(*args)
            self.note = ""
        except UsageError as e:
            self.note = str(e)
        self.redraw()

    def action_move(self, action: int) -> None:
        if not self.busy:
            self._act(self.session.move, action)

    def action_undo(self) -> None:
        if not self.busy:
            self._act(self.session.undo)

    def action_new(self) -> None:
        self.stop()
        keep(self.session, self.sink, "tui")
        self.session = Session2048(None if self.seed is None else self.seed + 1)
        self.seed = None if self.seed is None else self.seed + 1
        self.keep_playing = False
        self.note = "new game"
        self.redraw()

    async def action_hint(self) -> None:
        if self.busy:
            return
        hint = await self.off_thread(self.session.hint, self.player)
        if hint is not FAILED:
            self.note = f"{self.player} suggests {hint['move']}"
            if hint["values"]:
                names = ("up", "right", "down", "left")
                shown = [
                    f"{n} {v:,.1f}"
                    for n, v in zip(names, hint["values"], strict=True)
                    if v is not None
                ]
                self.note += " (" + ", ".join(shown) + ")"
        self.redraw()

    def action_autoplay(self) -> None:
        if self.timer:
            self.stop()
        else:
            self.timer = self.set_interval(1 / SPEEDS[self.speed], self._tick)
        self.redraw()

    def action_speed(self, step: int) -> None:
        self.speed = min(len(SPEEDS) - 1, max(0, self.speed + step))
        if self.timer:
            self.stop()
            self.timer = self.set_interval(1 / SPEEDS[self.speed], self._tick)
        self.redraw()

    def action_player(self) -> None:
        self.player = _next(self.players, self.player)
        self.redraw()

    async def _tick(self) -> None:
        if self.busy:
            return
        if await self.off_thread(self.session.step, self.player) is FAILED:
            self.stop()
        if self.session.game.is_over():
            self.stop()
        self.redraw()


class ScreenOthello(BoardScreen):
    """Othello against a boardai player."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("up", "cursor(-8)", "up", show=False),
        Binding("down", "cursor(8)", "down", show=False),
        Binding("left", "cursor(-1)", "left", show=False),
        Binding("right", "cursor(1)", "right", show=False),
        ("enter,space", "play", "play"),
        ("full_stop", "pass", "pass"),
        ("u", "undo", "undo"),
        ("n", "new", "new"),
        ("c", "colour", "colours"),
        ("o", "opponent", "opponent"),
        ("h", "hint", "hint"),
        ("a", "autoplay", "auto"),
        ("p", "player", "player"),
    ]

    @classmethod
    def for_app(cls, player: str | None, seed: int | None, sink: SafeSink) -> ScreenOthello:
        """The screen the app shows: ``player`` the opponent and the hints' player (None: the
        strongest player there is)."""
        from boardai.othello.agents import agent_names

        opponents = _order(list(agent_names()), player, ("alphabeta", "wpc", "greedy"))
        return cls(opponents, opponents[0], seed, sink)

    def __init__(
        self, opponents: list[str], hint_player: str, seed: int | None, sink: SafeSink
    ) -> None:
        super().__init__()
        self.opponents = opponents
        self.opponent = opponents[0]
        #: Hints, and your moves under autoplay (two players to watch), come from this player.
        self.hint_player = hint_player
        self.human = "black"
        self.seed = seed
        self.sink = sink
        self.session: SessionOthello | None = None
        self.cursor = 19  # d3

    async def on_mount(self) -> None:
        await self.action_new()

    def redraw(self) -> None:
        if self.session is None:
            self.show(status="starting...")
            return
        s = self.session.state()
        your_turn = not s["over"] and s["to_move"] == s["human"]
        note = self.note or s["message"]
        if s["pass_forced"]:
            note = "you have no move: press . to pass"
        if s["over"]:
            keep(self.session, self.sink, "tui")
        if self.sink.error:
            note = f"{note}   ({self.sink.error})"
        auto = "   autoplay (on)" if self.timer else ""
        self.show(
            f"you: {s['human']} ({self.hint_player} hints{auto})   against {s['player']}   "
            f"black {s['counts']['black']}  white {s['counts']['white']}   "
            + (
                s["result"]
                if s["over"]
                else "your move"
                if your_turn
                else f"{s['to_move']} to move"
            ),
            board_text_othello(s, self.cursor if your_turn else None),
            note,
        )

    async def _run(self, fn: Any, *args: Any) -> Any:
        """``fn(*args)`` off the UI thread, saying so meanwhile: its result (None: busy, or
        refused)."""
        if self.busy:
            return None
        self.note = "thinking..."
        self.redraw()
        out = await self.off_thread(fn, *args)
        if out is FAILED:
            out = None
        else:
            self.note = ""
        self.redraw()
        return out

    def action_cursor(self, step: int) -> None:
        row, col = divmod(self.cursor, 8)
        if step in (-1, 1):
            col = (col + step) % 8
        else:
            row = (row + step // 8) % 8
        self.cursor = 8 * row + col
        self.redraw()

    async def action_play(self) -> None:
        if self.session is not None:
            await self._run(
                self.session.move, "abcdefgh"[self.cursor % 8] + str(self.cursor // 8 + 1)
            )

    async def action_pass(self) -> None:
        if self.session is not None:
            await self._run(self.session.move, "pass")

    async def action_undo(self) -> None:
        if self.session is not None:
            await self._run(self.session.undo)

    async def action_new(self) -> None:
        self.stop()
        if self.session is not None:
            keep(self.session, self.sink, "tui")
        session = await self._run(SessionOthello, self.human, self.opponent, self.seed)
        if session is not None:
            self.session = session
        self.redraw()

    async def action_colour(self) -> None:
        self.human = "white" if self.human == "black" else "black"
        await self.action_new()

    async def action_opponent(self) -> None:
        self.opponent = _next(self.opponents, self.opponent)
        await self.action_new()

    async def action_hint(self) -> None:
        if self.session is not None:
            hint = await self._run(self.session.hint, self.hint_player)
            if hint is not None:
                self.cursor = hint["action"] if hint["action"] < 64 else self.cursor
                self.note = f"{self.hint_player} suggests {hint['move']}"
                self.redraw()

    def action_player(self) -> None:
        self.hint_player = _next(self.opponents, self.hint_player)
        self.redraw()

    def action_autoplay(self) -> None:
        """The hint player makes your moves, two a second, until the game ends or ``a``."""
        if self.timer:
            self.stop()
        elif self.session is not None and not self.session.game.is_over():
            self.timer = self.set_interval(0.5, self._tick)
        self.redraw()

    async def _tick(self) -> None:
        if self.busy or self.session is None:
            return
        if await self.off_thread(self.session.step, self.hint_player) is FAILED:
            self.stop()  # refused (the game is over, its reply was stopped): the note says why
        else:
            self.note = ""
        if self.session.game.is_over():
            self.stop()
        self.redraw()


class ScreenReplay(BoardScreen):
    """Step through the games of a record file."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        ("left", "step(-1)", "back"),
        ("right", "step(1)", "forward"),
        ("home", "jump(0)", "start"),
        ("end", "jump(-1)", "end"),
        ("space", "play", "play"),
        ("left_square_bracket", "game(-1)", "last game"),
        ("right_square_bracket", "game(1)", "next game"),
    ]

    def __init__(self, records: list[dict[str, Any]], game: int = 0) -> None:
        super().__init__()
        self.records = records
        self.game = game
        self.session: SessionReplay | None = None

    def on_mount(self) -> None:
        self.load()

    def load(self) -> None:
        self.session = None
        if not self.records:
            self.note = "no record file: run 'boardai tui --replay FILE'"
        else:
            try:
                self.session = SessionReplay(self.records[self.game])
                self.note = ""
            except ValueError as e:
                self.note = f"game {self.game + 1}: {e}"
        self.redraw()

    def redraw(self) -> None:
        if self.session is None:
            self.show("", "", self.note)
            return
        s = self.session.state()
        record = self.records[self.game]
        # self.game is the 0-based index (--game K); people count games from 1
        where = f"game {self.game + 1} of {len(self.records)}"
        where += f"   position {s['index']}/{s['length'] - 1}"
        where += f"   after {s['move']}" if s["move"] else "   (start)"
        game = parts(s["of"])
        where += "   " + game.players_line(record, s)
        self.show(where, game.state_board(s), self.note)

    def action_step(self, step: int) -> None:
        if self.session is not None:
            target = self.session.index + step
            if 0 <= target < len(self.session.frames):
                self.session.seek(target)
            self.redraw()

    def action_jump(self, index: int) -> None:
        if self.session is not None:
            self.session.seek(index % len(self.session.frames))
            self.redraw()

    def action_game(self, step: int) -> None:
        if self.records:
            self.game = (self.game + step) % len(self.records)
            self.load()

    def action_play(self) -> None:
        if self.timer:
            self.stop()
        elif self.session is not None:
            self.timer = self.set_interval(0.15, self._tick)

    def _tick(self) -> None:
        if self.session is None or self.session.index >= len(self.session.frames) - 1:
            self.stop()
            return
        self.action_step(1)


def _order(names: list[str], first: str | None, preferred: tuple[str, ...]) -> list[str]:
    """``names`` with ``first`` (or the first preferred one there) at the front."""
    lead = first or next((p for p in preferred if p in names), names[0] if names else "random")
    return [lead, *[n for n in names if n != lead]]


def _mode_keys() -> list[Binding | tuple[str, str] | tuple[str, str, str]]:
    """One number key a game's screen, in :data:`boardai.games.GAMES`' order, then replay."""
    modes = [(name, game.title) for name, game in GAMES.items()] + [("replay", "replay")]
    return [
        Binding(str(k), f"switch_mode('{name}')", title, show=False)
        for k, (name, title) in enumerate(modes, 1)
    ]


class BoardApp(App[None]):
    """The terminal app: a screen for each game (keys 1, 2, ...), then replay; q quits.

    Args:
        players: game -> the player of its screen (a 2048 player for hints and autoplay,
            the Othello opponent; a game left out gets the strongest there is).
        seed: seeds the games.
        records: games to replay (from :func:`boardai.records.read_records`).
        game: the record to show first.
        record_path: finished games are appended here.
        start: the first screen, a game's name (``2048``, ``othello``) or ``replay``.

    Attributes:
        sink: where finished games go; its ``error`` says why some could not be saved.
    """

    TITLE = "boardai"
    CSS = """
    #status { padding: 0 1; }
    #board { padding: 1 1 0 1; width: auto; }
    #note { padding: 0 1; color: $warning; }
    """
    # The screens' own keys fill the footer; these are named in the header.
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        *_mode_keys(),
        Binding("q", "quit", "quit", show=False),
    ]
    SUB_TITLE = " · ".join(f"{b.key} {b.description}" for b in BINDINGS if isinstance(b, Binding))

    def __init__(
        self,
        players: Mapping[str, str] | None = None,
        seed: int | None = None,
        records: list[dict[str, Any]] | None = None,
        game: int = 0,
        record_path: str | None = None,
        start: str = "2048",
    ) -> None:
        super().__init__()
        sink = self.sink = SafeSink(record_path)
        chosen = players or {}
        self.screens_made: dict[str, Screen[None]] = {
            name: parts.tui_screen(chosen.get(name), seed, sink) for name, parts in GAMES.items()
        }
        self.screens_made["replay"] = ScreenReplay(records or [], game)
        self.first = start

    def on_mount(self) -> None:
        for name, screen in self.screens_made.items():
            self.install_screen(screen, name=f"{name}-screen")
            self.add_mode(name, f"{name}-screen")
        self.switch_mode(self.first)

    def on_unmount(self) -> None:
        for screen in self.screens_made.values():
            session = getattr(screen, "session", None)
            if session is not None and hasattr(screen, "sink"):
                keep(session, screen.sink, "tui")
