"""Agent specs: ``name[:key=value,...]`` strings, parsed into typed options.

Each game keeps a :class:`Registry` of agent factories. A factory takes its options as a
dataclass; :meth:`Registry.make` parses the spec, converts each value to the field's type and
reports any mistake as one :class:`~boardai.errors.UsageError` line.

>>> from dataclasses import dataclass
>>> @dataclass
... class Opts:
...     depth: int = 2
...     prob: float = 1e-4
>>> reg = Registry("2048")
>>> @reg.register("search", Opts)
... def make_search(opts, seed):
...     return ("search", opts.depth, seed)
>>> reg.make("search:depth=3", seed=1)
('search', 3, 1)
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import types
import typing
from collections.abc import Callable
from typing import Any

from boardai.errors import UsageError


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
            return kind(raw)
        except ValueError:
            raise UsageError(
                f"{where}: {raw!r} is not {'an' if kind is int else 'a'} {kind.__name__}"
            ) from None
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

    def _load(self) -> None:
        if self._package is not None:
            package, self._package = self._package, None
            path = importlib.import_module(package).__path__
            for info in sorted(pkgutil.iter_modules(path), key=lambda m: m.name):
                if not info.name.startswith("_"):
                    importlib.import_module(f"{package}.{info.name}")

    def register(
        self, name: str, options: type[Any]
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Decorator: ``factory(options, seed) -> agent`` becomes agent ``name``."""

        def wrap(factory: Callable[..., Any]) -> Callable[..., Any]:
            doc = (factory.__doc__ or "").strip().splitlines()
            self._entries[name] = (options, factory, doc[0] if doc else "")
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

    def make(self, spec: str, seed: int | None = None) -> Any:
        """Build the agent ``spec`` names, called by that spec; ``seed`` seeds its randomness."""
        name, opts = self.options(spec)
        agent = self._entries[name][1](opts, seed)
        agent.name = spec.strip()
        return agent

    def check(self, spec: str) -> None:
        """Raise UsageError if ``spec`` is not a valid spec (builds nothing)."""
        self.options(spec)
