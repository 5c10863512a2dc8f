"""Command-line flags made from a config dataclass: one flag per field, its name, type,
default and help taken from the field (its docstring), so a command holds no second copy.

Every flag defaults to None, so that a command can tell a value given (even the default
value) from one left out: a new run fills what is left out from the dataclass's defaults (or
a preset's), a resumed run from the saved run.

>>> import argparse
>>> from dataclasses import dataclass
>>> @dataclass
... class Demo:
...     steps: int = 10
...     '''Steps in all.'''
...     fast: bool = False
...     '''Go fast.'''
>>> p = argparse.ArgumentParser()
>>> names = add_config_flags(p, Demo)
>>> given(p.parse_args(["--steps", "3"]), names)
{'steps': 3}
>>> config(Demo, given(p.parse_args(["--fast"]), names))
Demo(steps=10, fast=True)
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import re
from collections.abc import Callable, Collection, Mapping
from typing import Any, Literal, TypeVar

from boardai.cli._common import finite_float
from boardai.learn.run import config_from_dict, field_default, field_docs

C = TypeVar("C")


def boolean(text: str) -> bool:
    """argparse type: true/false, yes/no, on/off or 1/0."""
    if text.lower() in ("1", "true", "yes", "on"):
        return True
    if text.lower() in ("0", "false", "no", "off"):
        return False
    raise argparse.ArgumentTypeError(f"{text!r} is not true or false")


_TYPES: dict[str, Callable[[str], Any]] = {"int": int, "float": finite_float, "str": str}


def _plain(doc: str) -> str:
    """A docstring as help text in the style of the other flags' (lower case, no final
    period): reST roles and literals as plain words, ``%`` escaped."""
    doc = re.sub(r":\w+:`~?([^`]+)`", r"\1", doc)
    doc = re.sub(r"``([^`]+)``", r"\1", doc).removesuffix(".")
    if doc[1:2].islower():  # "Learning rate" -> "learning rate", but "OTD: ..." stays
        doc = doc[0].lower() + doc[1:]
    return doc.replace("%", "%%")


def flag_name(name: str) -> str:
    """The flag of field ``name``: ``alpha_every`` -> ``--alpha-every``."""
    return "--" + name.replace("_", "-")


def add_config_flags(
    parser: argparse.ArgumentParser | argparse._ArgumentGroup,
    cls: type,
    *,
    exclude: Collection[str] = (),
    spelling: Mapping[str, str] | None = None,
    types: Mapping[str, Callable[[str], Any]] | None = None,
    metavars: Mapping[str, str] | None = None,
    bools: Literal["switch", "value"] = "switch",
    default_label: str = "default",
    older: Mapping[str, str] | None = None,
) -> list[str]:
    """Add a flag for each field of config dataclass ``cls`` (but ``exclude``) to ``parser``;
    returns the field names, the namespace attributes of the flags.

    Args:
        spelling: a flag other than the field's name (``{"lam": "--lambda"}``).
        types: an argparse type other than the annotation's (``{"episodes": positive_int}``).
        metavars: a metavar other than argparse's.
        bools: ``switch``: a bool field is ``--name`` (default False) or ``--no-name``
            (default True); ``value``: it takes a value (``--name false``), as where a preset
            may set either.
        default_label: the help ends with ``(LABEL: default)``; e.g. ``strong`` where the
            defaults are a preset's.
        older: older name -> field that takes a value (``{"batch": "batch_size"}``): a flag no
            help shows, its value under the older name, of the field's type (or ``types``').

    A field's ``metadata`` may carry ``choices`` (a flag choosing among them). The type of a
    field that is not int, float, str or bool (or one of them or None) is str: the config
    parses the text itself.
    """
    spelling, types, metavars, older = spelling or {}, types or {}, metavars or {}, older or {}
    docs = field_docs(cls)
    names = []
    for f in dataclasses.fields(cls):
        if f.name in exclude:
            continue
        olds = [old for old, new in older.items() if new == f.name]
        names += [f.name, *olds]
        default = field_default(f)
        annotation = str(f.type).replace(" | None", "")
        doc = _plain(docs.get(f.name, ""))
        kwargs: dict[str, Any] = {"dest": f.name, "default": None}
        flag = spelling.get(f.name, flag_name(f.name))
        if annotation == "bool" and bools == "switch":
            if default:
                flag = spelling.get(f.name, "--no-" + f.name.replace("_", "-"))
                off = f"turns this off (it is on by default): {doc}"
                parser.add_argument(flag, action="store_false", help=off, **kwargs)
            else:
                parser.add_argument(flag, action="store_true", help=doc, **kwargs)
            continue
        kwargs["type"] = types.get(f.name) or (
            boolean if annotation == "bool" else _TYPES.get(annotation, str)
        )
        if "choices" in f.metadata:
            kwargs["choices"] = list(f.metadata["choices"])
        elif f.name in metavars:
            kwargs["metavar"] = metavars[f.name]
        elif bools == "value":  # the form 2048 train dqn has always shown
            kwargs["metavar"] = annotation.upper()
        shown = "" if default in (None, "", ()) else f" ({default_label}: {default})"
        parser.add_argument(flag, help=doc + shown, **kwargs)
        for old in olds:
            hidden = {**kwargs, "dest": old, "type": types.get(old, kwargs["type"])}
            parser.add_argument(flag_name(old), help=argparse.SUPPRESS, **hidden)
    return names


def deferred(
    parser: argparse.ArgumentParser, add: Callable[[argparse.ArgumentParser], list[str]]
) -> None:
    """Call ``add(parser)`` (which adds config flags and returns their names) when
    ``parser`` is first used, to parse or to show help; the names go to ``args.config_flags``.

    So building the whole command tree imports no config module (and no game engine behind
    it), and ``boardai --help`` stays quick.
    """
    pending = [add]

    def ready() -> None:
        while pending:
            parser.set_defaults(config_flags=pending.pop()(parser))

    for name in ("parse_known_args", "format_help", "format_usage"):
        original = getattr(parser, name)

        def wrapper(*args: Any, _original: Any = original, **kwargs: Any) -> Any:
            ready()
            return _original(*args, **kwargs)

        setattr(parser, name, wrapper)


def preset_name(module: str) -> Callable[[str], str]:
    """argparse type: a preset's name, an old one (``module.PRESET_ALIASES``, imported as a
    command line is read) as today's, the one listed (argparse checks the choices after it)."""
    return lambda text: importlib.import_module(module).PRESET_ALIASES.get(text, text)


def given(args: argparse.Namespace, names: Collection[str]) -> dict[str, Any]:
    """The values of the flags ``names`` that the command line gave (None: left out)."""
    return {k: getattr(args, k) for k in names if getattr(args, k, None) is not None}


def config(cls: type[C], values: Mapping[str, Any]) -> C:
    """``cls`` from ``values`` (:func:`boardai.learn.run.config_from_dict`), a bad value
    raised as a one-line UsageError."""
    from boardai.errors import UsageError

    try:
        return config_from_dict(cls, values)
    except (TypeError, ValueError) as e:
        raise UsageError(str(e)) from None
