"""The table of per-game parts: the one place that knows which games there are.

Records, replay, render, the terminal and web apps and the commands above the engines are
written once; what differs between games (how a record is read and replayed, how a position is
drawn in text, in a picture and on a screen, which session plays it, its players) is a
:class:`GameParts` in :data:`GAMES`, keyed by the name records and messages carry. Every part
names its code as ``"module:attribute"`` and is imported when first used, so importing this
table imports no game (as Gymnasium's registry holds strings): a base module such as
:mod:`boardai.records` may look a game up here without depending on any game package.

A third game adds an engine, its players and one entry here.

>>> parts("othello").title
'Othello'
>>> sorted(GAMES)
['2048', 'othello']
>>> parts("chess")
Traceback (most recent call last):
  ...
ValueError: unknown game 'chess' (games: 2048, othello)
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Lazy:
    """A function or class named ``"module:attribute"`` (or ``"module:Class.method"``),
    imported when first called or asked for (:meth:`get`)."""

    target: str

    def get(self) -> Any:
        """The object ``target`` names (its module imported now, once)."""
        module, _, path = self.target.partition(":")
        found = importlib.import_module(module)
        for attribute in path.split("."):
            found = getattr(found, attribute)
        return found

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.get()(*args, **kwargs)


@dataclass(frozen=True)
class GameParts:
    """What is particular to one game above its engine.

    Attributes:
        name: the game's name in records, messages and commands (``"2048"``).
        title: the name in sentences (``"Othello"``).
        record_shapes: (key, JSON type, as said) of the record keys whose type its reader
            relies on: a hand-edited record is refused with a sentence, not a traceback.
        rules: its :class:`boardai.contract.Rules` (new game from a seed, turns with chance
            as a player, records, the compiled batch path).
        game: its ``Game`` class (``from_record`` reads a record, checking every move).
        frames: ``frames(game)``: every position of a loaded game as
            :class:`~boardai.records.Frame` (the start, then one per move).
        agents: its player registry (:class:`~boardai.spec.Registry`).
        network: the n-tuple network class of its model files.
        start: ``start()``: a start position (players are warmed up on it).
        warm_up: the players whose first move compiles the searches the web page asks for.
        slow_warning: ``slow_warning(spec, name, options)``: a line if a player is set to be
            very slow, else None.
        frame_text: ``frame_text(frame)``: a position as plain text.
        frame_screen: ``frame_screen(frame, previous)``: (headline, rich board) of a position.
        picture: ``picture(frame, previous, index)``: a position as an RGB picture.
        replay_state: ``replay_state(frame, previous, animation)``: what a screen draws of a
            replayed position.
        animator: ``animator(frame)``: what animates a replay from ``frame`` on (``reset(frame)``,
            ``step(before, frame)``), or None where moves are not animated.
        record_title: ``record_title(record)``: the game and who played it.
        state_board: ``state_board(state)``: the rich board of a screen's state.
        players_line: ``players_line(record, state)``: a screen's score or discs, with who.
        replay_summary: ``replay_summary(record, last)``: how a replayed game ended (after
            "replayed N moves").
        session: the class of a game played on a screen (``from_message``, ``move_message``).
        tui_screen: ``tui_screen(player, seed, sink)``: its screen in the terminal app.
    """

    name: str
    title: str
    record_shapes: tuple[tuple[str, type, str], ...]
    rules: Lazy
    game: Lazy
    frames: Lazy
    agents: Lazy
    network: Lazy
    start: Lazy
    warm_up: tuple[str, ...]
    slow_warning: Lazy
    frame_text: Lazy
    frame_screen: Lazy
    picture: Lazy
    replay_state: Lazy
    animator: Lazy
    record_title: Lazy
    state_board: Lazy
    players_line: Lazy
    replay_summary: Lazy
    session: Lazy
    tui_screen: Lazy


def _parts(
    name: str,
    title: str,
    shapes: tuple[tuple[str, type, str], ...],
    warm_up: tuple[str, ...],
    **code: str,
) -> GameParts:
    return GameParts(name, title, shapes, warm_up=warm_up, **{k: Lazy(v) for k, v in code.items()})


#: Every game, by its name in records.
GAMES: dict[str, GameParts] = {
    "2048": _parts(
        "2048",
        "2048",
        (("rules", dict, "an object"), ("start", list, "a list"), ("moves", list, "a list")),
        ("expectimax:depth=1", "ntuple:depth=2"),
        rules="boardai.g2048.contract_game:RULES",
        game="boardai.g2048.game:Game",
        frames="boardai.g2048.frames:frames",
        agents="boardai.g2048.agents:REGISTRY",
        network="boardai.g2048.ntuple:NTupleNetwork",
        start="boardai.ui.g2048:start",
        slow_warning="boardai.cli._common:slow_2048",
        frame_text="boardai.ui.g2048:frame_text",
        frame_screen="boardai.ui.g2048:frame_screen",
        picture="boardai.ui.g2048:picture",
        replay_state="boardai.ui.g2048:replay_state",
        animator="boardai.ui.g2048:Animator",
        record_title="boardai.ui.g2048:record_title",
        state_board="boardai.ui.g2048:state_board",
        players_line="boardai.ui.g2048:players_line",
        replay_summary="boardai.ui.g2048:replay_summary",
        session="boardai.ui.g2048:Session2048",
        tui_screen="boardai.ui.tui:Screen2048.for_app",
    ),
    "othello": _parts(
        "othello",
        "Othello",
        (("start", str, "a string"), ("moves", list, "a list")),
        (
            "alphabeta:depth=1,eval=wpc",
            "alphabeta:depth=1,eval=classic",
            "alphabeta:depth=1,eval=ntuple",
        ),
        rules="boardai.othello.contract_game:RULES",
        game="boardai.othello.game:Game",
        frames="boardai.othello.frames:frames",
        agents="boardai.othello.agents:REGISTRY",
        network="boardai.othello.ntuple:NTupleNetwork",
        start="boardai.othello.board:Board.initial",
        slow_warning="boardai.cli._common:slow_othello",
        frame_text="boardai.ui.othello:frame_text",
        frame_screen="boardai.ui.othello:frame_screen",
        picture="boardai.ui.othello:picture",
        replay_state="boardai.ui.othello:replay_state",
        animator="boardai.ui.othello:no_animator",
        record_title="boardai.ui.othello:record_title",
        state_board="boardai.ui.othello:state_board",
        players_line="boardai.ui.othello:players_line",
        replay_summary="boardai.ui.othello:replay_summary",
        session="boardai.ui.othello:SessionOthello",
        tui_screen="boardai.ui.tui:ScreenOthello.for_app",
    ),
}


def parts(name: Any) -> GameParts:
    """The parts of game ``name``.

    Raises:
        ValueError: no such game.
    """
    found = GAMES.get(name) if isinstance(name, str) else None
    if found is None:
        raise ValueError(f"unknown game {name!r} (games: {', '.join(GAMES)})")
    return found
