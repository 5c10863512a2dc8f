"""The players ``boardai serve`` offers: what a page may ask for, by name, within bounds.

A page is untrusted: any web site the user visits can try to talk to the server. So a client
never builds a player from a free spec. It picks one of the players offered here:

- the built-in players registered as public (:meth:`boardai.spec.Registry.make_untrusted`),
  with only the options and bounds their registration allows (a shipped model by name, a
  search depth and time within a cap; never a path or a program);
- players the person who started the server adds with ``--add-player GAME NAME=SPEC``: any
  spec (a model file, a GTP engine), offered under ``NAME``; a client may adjust only the
  bounded options of the player behind it.

>>> offers = Offers()
>>> offers.make("2048", "expectimax:depth=2").name
'expectimax:depth=2'
>>> offers.make("othello", "gtp:cmd=sh")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
boardai.errors.UsageError: othello player 'gtp' is not offered here (players: ...)
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import numpy as np

from boardai.errors import UsageError
from boardai.games import GAMES as TABLE
from boardai.games import parts
from boardai.othello.gtp import EngineSlots
from boardai.spec import Choice, Registry, describe_bounds, parse_spec

#: The games a server offers players of.
GAMES = tuple(TABLE)
#: External engines (``--add-player ... gtp:cmd=...``) running at once, server-wide, by default.
MAX_ENGINES = 8
#: Bytes of the idle players' tables (transposition tables, search caches) kept for all
#: sockets together, by default. A player asking for a 2^20-slot table holds 24 to 56 MiB.
PLAYER_MEMORY = 256 * 1024 * 1024


def footprint(agent: object, depth: int = 2) -> int:
    """Bytes of the numpy arrays a player holds as attributes, or its parts' attributes
    ``depth`` levels down (its tables; arrays inside tuples, such as shared network weights,
    are not counted). Views count their base once.

    >>> class Player: pass
    >>> p = Player(); p.table = np.zeros(1000, np.uint64); p.view = p.table[:10]
    >>> footprint(p)
    8000
    """
    seen: set[int] = set()
    total = 0
    stack = [(agent, 0)]
    while stack:
        obj, level = stack.pop()
        attrs = getattr(obj, "__dict__", None)
        if not isinstance(attrs, dict):
            continue
        for value in list(attrs.values()):
            if isinstance(value, np.ndarray):
                base = value
                while isinstance(base.base, np.ndarray):
                    base = base.base
                if id(base) not in seen:
                    seen.add(id(base))
                    total += base.nbytes
            elif level < depth and not isinstance(value, type) and hasattr(value, "__dict__"):
                stack.append((value, level + 1))
    return total


class PlayerBudget:
    """The memory of the players that sockets keep between requests, bounded server-wide.

    Each session keeps the players it used (:class:`~boardai.ui.session.AgentCache`); the
    idle ones are charged here by their tables' size (:func:`footprint`), and when the total
    is over ``limit`` the least recently used, whichever socket keeps it, is let go (built
    again if asked for). Players thinking are not charged: at most one per search thread.

    Args:
        limit: bytes of idle players' tables kept in all.
    """

    def __init__(self, limit: int = PLAYER_MEMORY) -> None:
        self.limit = limit
        self.total = 0
        self._idle: OrderedDict[tuple[int, str], tuple[weakref.ref[Any], int]] = OrderedDict()
        self._lock = threading.Lock()

    def idle(self, cache: Any, spec: str, agent: object) -> None:
        """``cache`` keeps ``agent`` (built from ``spec``) idle: charge it, let older go."""
        size = footprint(agent)
        victims: list[tuple[weakref.ref[Any], str]] = []
        with self._lock:
            key = (id(cache), spec)
            self._discard(key)
            if size:
                self._idle[key] = (weakref.ref(cache), size)
                self.total += size
            while self.total > self.limit and len(self._idle) > 1:
                (_, old), (ref, _) = next(iter(self._idle.items()))
                self._discard(next(iter(self._idle)))
                victims.append((ref, old))
        for ref, old in victims:  # outside the lock: a cache's drop takes its own
            owner = ref()
            if owner is not None:
                owner.drop(old)

    def lent(self, cache: Any, spec: str) -> None:
        """``cache``'s player ``spec`` is in use (or gone): no longer charged."""
        with self._lock:
            self._discard((id(cache), spec))

    def forget(self, cache: Any) -> None:
        """``cache`` closed: none of its players is charged any more."""
        with self._lock:
            for key in [k for k in self._idle if k[0] == id(cache)]:
                self._discard(key)

    def _discard(self, key: tuple[int, str]) -> None:
        entry = self._idle.pop(key, None)
        if entry is not None:
            self.total -= entry[1]


def registry(game: str) -> Registry:
    """The player registry of ``game`` (a name in :data:`boardai.games.GAMES`)."""
    try:
        found: Registry = parts(game).agents.get()
    except ValueError as e:
        raise UsageError(str(e)) from None
    return found


def parse_added(game: str, text: str) -> tuple[str, str]:
    """``NAME=SPEC`` of ``--add-player`` checked against ``game``'s players: (name, spec)."""
    name, eq, spec = text.partition("=")
    name = name.strip()
    if not eq or not name or not name.replace("-", "").replace("_", "").isalnum():
        raise UsageError(
            f"--add-player {game} {text!r}: expected NAME=SPEC, NAME letters/digits/-_"
        )
    registry(game).check(spec)
    return name, spec.strip()


class Offers:
    """The players one server offers.

    Args:
        added: game -> {name: trusted spec} from the person running the server.
        max_engines: external engines (GTP) running at once; a game whose player would start
            one more gets an error instead.
        player_memory: bytes of idle players' tables kept for all sockets (:class:`PlayerBudget`).
    """

    def __init__(
        self,
        added: Mapping[str, Mapping[str, str]] | None = None,
        max_engines: int = MAX_ENGINES,
        player_memory: int = PLAYER_MEMORY,
    ) -> None:
        self.added = {game: dict((added or {}).get(game, {})) for game in GAMES}
        self.engines = EngineSlots(max_engines)
        self.budget = PlayerBudget(player_memory)

    def make(self, game: str, spec: str, seed: int | None = None) -> Any:
        """Build the player a client asks for (UsageError for anything not offered)."""
        if not isinstance(spec, str) or not spec.strip():
            raise UsageError("no player given")
        name, _ = parse_spec(spec)
        agent = registry(game).make_untrusted(spec, seed, base=self.added[game].get(name))
        if hasattr(agent, "engine_slots"):  # an external engine: counted against the cap
            agent.engine_slots = self.engines
        return agent

    def listing(self) -> dict[str, Any]:
        """Each game's players (name -> one line) and, under ``"options"``, what a client may
        set on each (``"depth=1..6, time=0.01..5"``). Players that cannot be built here (a
        learned player with no shipped model) are left out."""
        out: dict[str, Any] = {"options": {}}
        for game in GAMES:
            reg = registry(game)
            about = reg.describe()
            players: dict[str, str] = {}
            options: dict[str, str] = {}
            for name in reg.public_names():
                try:
                    reg.untrusted_options(name)
                    _check_model(reg.public_bounds(name).get("model"))
                except UsageError:
                    continue
                players[name] = about[name]
                options[name] = describe_bounds(reg.public_bounds(name))
            for name, spec in self.added[game].items():
                base, params = parse_spec(spec)
                if not _model_usable(params.get("model")):
                    continue
                players[name] = f"{base} player offered by this server"
                bounds = reg.public_bounds(base) if base in reg.public_names() else {}
                options[name] = describe_bounds(bounds)
            out[game] = players
            out["options"][game] = options
        return out


def _check_model(bound: Any) -> None:
    """Raise UsageError if the shipped model a player gets by default is missing or fails
    its checksum (checked once per unchanged file: a stat afterwards)."""
    if isinstance(bound, Choice):
        name = bound.default_value()
        if isinstance(name, str) and not _model_usable(name):
            raise UsageError(f"model {name!r} is not usable here")


def _model_usable(ref: str | None) -> bool:
    """Whether ``model=ref`` of a player can be loaded: a manifest name whose file is there
    and verifies (a path is the server owner's to keep right)."""
    from boardai.learn import store

    if not ref or not store.is_name(ref):
        return True
    try:
        store.path_of(ref)
    except (UsageError, OSError):
        return False
    return True


def warm_up() -> None:
    """Compile the searches the pages ask for (each game's ``warm_up`` players), or load them
    from numba's cache, before the server answers anyone: compiling inside a request would
    stall every other client for seconds (holding the GIL; compiled once a machine:
    boardai.jitref). A player that cannot be built (no shipped model) is skipped."""
    for game in TABLE.values():
        start = None
        for spec in game.warm_up:
            try:
                player = registry(game.name).make(spec, seed=0)
            except UsageError:
                continue
            start = game.start() if start is None else start
            player.act(start)
