"""Agent specs: ``name[:key=value,...]`` strings, parsed into typed options.

Each game keeps a :class:`Registry` of agent factories. A factory takes its options as a
dataclass; :meth:`Registry.make` parses the spec, converts each value to the field's type and
reports any mistake as one :class:`~boardai.errors.UsageError` line.

The registry is also the trust boundary. A person at the command line may ask for any player
with any option (a model path, a GTP engine command, a deep search). A network client (a page
talking to ``boardai serve``) may not: :meth:`Registry.make_untrusted` builds only the players
registered with ``public=`` bounds, lets the client set only the options named there, within
their :class:`Range` or :class:`Choice`, and fills the rest from the bounds' defaults, so no
client can name a path, run a program, or ask for unbounded work.

>>> from dataclasses import dataclass
>>> from types import SimpleNamespace as Player
>>> @dataclass
... class Opts:
...     depth: int = 2
...     prob: float = 1e-4
>>> reg = Registry("2048")
>>> @reg.register("search", Opts)
... def make_search(opts, seed):
...     return Player(depth=opts.depth, seed=seed)
>>> reg.make("search:depth=3", seed=1)
namespace(depth=3, seed=1, name='search:depth=3')
>>> @reg.register("capped", Opts, public={"depth": Range(1, 4)})
... def make_capped(opts, seed):
...     return Player(depth=opts.depth)
>>> reg.make_untrusted("capped:depth=4").depth
4
>>> reg.make_untrusted("capped:depth=9")
Traceback (most recent call last):
...
boardai.errors.UsageError: player 'capped:depth=9': depth must be in 1..4 here
>>> reg.public_names()
['capped']
"""

from __future__ import annotations

import dataclasses
import importlib
import math
import pkgutil
import threading
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from boardai.agent import Agent
from boardai.errors import UsageError

#: Held while a registry imports its players' modules and while a player is built for the
#: first time under its name (which imports and compiles what it needs). Imports from many
#: threads at once can see a half-initialised module or deadlock in the import machinery, as
#: a web server's first requests do; one lock for both games, whose players share modules.
_FIRST_USE = threading.RLock()


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``name[:key=value,...]`` into the name and a dict of raw values."""
    if not isinstance(spec, str) or not spec.strip():
        raise UsageError("empty agent spec: expected name[:key=value,...]")
    name, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    if rest.strip():
        for item in rest.split(","):
            key, eq, value = item.partition("=")
            key = key.strip()
            if not eq or not key:
                raise UsageError(f"agent spec {spec!r}: {item!r} is not key=value")
            if key in params:
                raise UsageError(f"agent spec {spec!r}: {key!r} is given twice")
            params[key] = value.strip()
    return name.strip(), params


def _convert(raw: str, kind: Any, where: str) -> Any:
    origin = typing.get_origin(kind)
    args = typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        if raw.lower() in ("none", "") and type(None) in args:
            return None
        for arg in args:
            if arg is not type(None):
                return _convert(raw, arg, where)
    if origin is typing.Literal:
        if raw in args:
            return raw
        raise UsageError(f"{where}: {raw!r} is not one of {', '.join(map(str, args))}")
    if kind is bool:
        if raw.lower() in ("1", "true", "yes", "on"):
            return True
        if raw.lower() in ("0", "false", "no", "off"):
            return False
        raise UsageError(f"{where}: {raw!r} is not true or false")
    if kind in (int, float, str):
        try:
            value = kind(raw)
        except ValueError:
            raise UsageError(
                f"{where}: {raw!r} is not {'an' if kind is int else 'a'} {kind.__name__}"
            ) from None
        if kind is float and not math.isfinite(value):  # nan would pass every range check
            raise UsageError(f"{where}: {raw!r} is not a finite number")
        return value
    raise TypeError(f"{where}: unsupported option type {kind!r}")


def build_options(cls: type[Any], params: dict[str, str], what: str) -> Any:
    """An instance of dataclass ``cls`` from raw string ``params``; errors name ``what``."""
    hints = typing.get_type_hints(cls)
    fields = {f.name for f in dataclasses.fields(cls)}
    values = {}
    for key, raw in params.items():
        if key not in fields:
            known = ", ".join(sorted(fields)) or "none"
            raise UsageError(f"{what}: unknown option {key!r} (options: {known})")
        values[key] = _convert(raw, hints[key], f"{what}: option {key}")
    try:
        return cls(**values)
    except (ValueError, TypeError) as e:  # __post_init__ checks ranges
        raise UsageError(f"{what}: {e}") from None


#: The longest time budget a player takes for one move, in seconds: a day. Longer is a slip
#: of the keyboard, and past about 1e18 ns the search's clock overflows.
MAX_MOVE_SECONDS = 86_400.0


def check_move_time(seconds: float, key: str = "time", scale: float = 1.0) -> None:
    """Raise ValueError unless a move's time budget, ``seconds * scale`` s, is in 0..a day.

    Args:
        seconds: the option's value.
        key: the option's name, for the message.
        scale: the option's unit in seconds (1e-3 for ``time_ms``).
    """
    most = MAX_MOVE_SECONDS / scale
    if not 0 <= seconds <= most:
        raise ValueError(f"{key} must be in 0..{most:.0f} (a day a move), got {seconds}")


@dataclass(frozen=True)
class Range:
    """Bounds of a number option for untrusted clients: ``lo <= value <= hi``.

    Args:
        lo: smallest value a client may give.
        hi: largest value a client may give.
        default: the value a client gets when it leaves the option out (None: the option's
            own default, which must then be safe: e.g. a time budget of 0, "no limit", is
            not, so a search's time gets a bounded default here).
    """

    lo: float
    hi: float
    default: float | None = None

    def default_value(self) -> float | None:
        """The default for clients."""
        return self.default

    def check(self, value: Any, key: str) -> None:
        """Raise UsageError unless ``value`` lies in the bounds."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise UsageError(f"{key} must be a number here")
        if not self.lo <= value <= self.hi:
            lo, hi = (_number(self.lo), _number(self.hi))
            raise UsageError(f"{key} must be in {lo}..{hi} here")


@dataclass(frozen=True)
class Choice:
    """The values of an option an untrusted client may pick from.

    Args:
        values: the allowed values, or a function giving them (looked up at each check, e.g.
            the names of the shipped models).
        default: the value a client gets when it leaves the option out, or a function giving
            it (None, or a function giving None: the option's own default).
    """

    values: Sequence[Any] | Callable[[], Sequence[Any]]
    default: Any = None

    def default_value(self) -> Any:
        """The default for clients now."""
        return self.default() if callable(self.default) else self.default

    def allowed(self) -> list[Any]:
        """The values allowed now."""
        return list(self.values() if callable(self.values) else self.values)

    def check(self, value: Any, key: str) -> None:
        """Raise UsageError unless ``value`` is one of the allowed values."""
        allowed = self.allowed()
        if value not in allowed:
            shown = ", ".join(map(str, allowed)) or "none here"
            raise UsageError(f"{key} must be one of: {shown}")


#: A bound on one option for untrusted clients.
Bound = Range | Choice


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def describe_bounds(bounds: Mapping[str, Bound]) -> str:
    """``key=lo..hi, key=a|b`` for a page to show what a client may set."""
    parts = []
    for key, bound in bounds.items():
        if isinstance(bound, Range):
            parts.append(f"{key}={_number(bound.lo)}..{_number(bound.hi)}")
        else:
            parts.append(f"{key}={'|'.join(map(str, bound.allowed()))}")
    return ", ".join(parts)


class Registry:
    """Named agent factories of one game.

    Args:
        game: the game's name, for messages.
        package: a package whose modules register the agents when imported; they are
            imported on first use, so listing or building agents needs no import list.
    """

    def __init__(self, game: str, package: str | None = None) -> None:
        self.game = game
        self._package = package
        self._entries: dict[str, tuple[type[Any], Callable[..., Any], str]] = {}
        self._public: dict[str, dict[str, Bound]] = {}
        self._loaded = package is None
        self._built: set[str] = set()

    def _load(self) -> None:
        if self._loaded:
            return
        with _FIRST_USE:
            if self._package is not None:
                path = importlib.import_module(self._package).__path__
                for info in sorted(pkgutil.iter_modules(path), key=lambda m: m.name):
                    if not info.name.startswith("_"):
                        importlib.import_module(f"{self._package}.{info.name}")
            # Only now: another thread that sees the flag finds every player registered.
            self._loaded = True

    def _build(self, name: str, opts: Any, seed: int | None) -> Any:
        factory = self._entries[name][1]
        if name in self._built:
            return factory(opts, seed)
        with _FIRST_USE:
            agent = factory(opts, seed)
            self._built.add(name)
        return agent

    def register(
        self, name: str, options: type[Any], public: Mapping[str, Bound] | None = None
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Decorator: ``factory(options, seed) -> agent`` becomes agent ``name``.

        Args:
            name: the player's name in specs.
            options: its options dataclass.
            public: None if the player may never be built for an untrusted client (it runs
                programs, reads files the client names, or has no bounded cost); else the
                options such a client may set, each with its bounds (``{}``: none, the
                defaults only). Every option a client cannot set keeps its default or the
                bound's default, so the defaults of a public player must be safe.
        """
        fields = {f.name for f in dataclasses.fields(options)}
        unknown = sorted(set(public or {}) - fields)
        if unknown:
            raise TypeError(f"player {name}: public bounds for unknown options {unknown}")

        def wrap(factory: Callable[..., Any]) -> Callable[..., Any]:
            doc = (factory.__doc__ or "").strip().splitlines()
            self._entries[name] = (options, factory, doc[0] if doc else "")
            if public is not None:
                self._public[name] = dict(public)
            else:
                self._public.pop(name, None)
            return factory

        return wrap

    def names(self) -> list[str]:
        """Registered agent names, sorted."""
        self._load()
        return sorted(self._entries)

    def describe(self) -> dict[str, str]:
        """Agent name -> first line of its factory's docstring."""
        self._load()
        return {name: entry[2] for name, entry in sorted(self._entries.items())}

    def options(self, spec: str) -> tuple[str, Any]:
        """Parse and check ``spec`` without building the agent: (name, options)."""
        self._load()
        name, params = parse_spec(spec)
        if name not in self._entries:
            raise UsageError(
                f"unknown {self.game} agent {name!r} (agents: {', '.join(self.names())})"
            )
        return name, build_options(self._entries[name][0], params, f"agent {spec!r}")

    def make(self, spec: str, seed: int | None = None) -> Agent[Any]:
        """Build the agent ``spec`` names, called by that spec; ``seed`` seeds its randomness."""
        name, opts = self.options(spec)
        agent = self._build(name, opts, seed)
        agent.name = spec.strip()
        return agent

    def check(self, spec: str) -> None:
        """Raise UsageError if ``spec`` is not a valid spec (builds nothing)."""
        self.options(spec)

    # -- untrusted clients ----------------------------------------------------------------

    def public_names(self) -> list[str]:
        """The players an untrusted client may ask for, sorted."""
        self._load()
        return sorted(self._public)

    def public_bounds(self, name: str) -> dict[str, Bound]:
        """What an untrusted client may set on player ``name`` (UsageError if not public)."""
        self._load()
        if name not in self._public:
            offered = ", ".join(self.public_names()) or "none"
            raise UsageError(
                f"{self.game} player {name!r} is not offered here (players: {offered})"
            )
        return dict(self._public[name])

    def untrusted_options(self, spec: str, base: str | None = None) -> tuple[str, Any]:
        """Parse a client's ``spec`` within the public bounds: (name, options).

        Args:
            spec: ``name[:key=value,...]`` from the client.
            base: a trusted spec the client's options go on top of (a player the person
                running the server offers under another name); its options may be anything,
                the client's only what the bounds of its player allow. None: ``spec``'s own
                name is the player.
        """
        self._load()
        name, params = parse_spec(spec)
        where = f"player {spec.strip()!r}"
        base_name, base_params = parse_spec(base) if base is not None else (name, {})
        if base is not None and base_name not in self._public:
            if base_name not in self._entries:
                raise UsageError(f"unknown {self.game} agent {base_name!r}")
            bounds: dict[str, Bound] = {}  # a trusted player with nothing a client may set
        else:
            bounds = self.public_bounds(base_name)
        options_type = self._entries[base_name][0]
        hints = typing.get_type_hints(options_type)
        values: dict[str, Any] = {}
        for key, bound in bounds.items():  # safe defaults first, the trusted base over them
            default = bound.default_value()
            if default is not None:
                values[key] = default
        for key, raw in base_params.items():
            values[key] = _convert(raw, hints[key], f"player {base!r}: option {key}")
        for key, raw in params.items():
            if key not in bounds:
                settable = ", ".join(bounds) or "none"
                raise UsageError(
                    f"{where}: option {key!r} cannot be set here (options: {settable})"
                )
            value = _convert(raw, hints[key], f"{where}: option {key}")
            bounds[key].check(value, f"{where}: {key}")
            values[key] = value
        try:
            opts = options_type(**values)
        except (ValueError, TypeError) as e:
            raise UsageError(f"{where}: {e}") from None
        for key, bound in bounds.items():  # what defaults and presets filled in, too
            value = getattr(opts, key)
            if key not in base_params and value is not None:
                bound.check(value, f"{where}: {key}")
        return base_name, opts

    def make_untrusted(
        self, spec: str, seed: int | None = None, base: str | None = None
    ) -> Agent[Any]:
        """Build the player a network client asks for, only within the public bounds (see
        :meth:`untrusted_options`); the agent is named by ``spec``."""
        name, opts = self.untrusted_options(spec, base)
        agent = self._build(name, opts, seed)
        agent.name = spec.strip()
        return agent
