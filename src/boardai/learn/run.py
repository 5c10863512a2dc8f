"""The shape every training run has, whatever it learns.

Each learner has a config dataclass (its fields documented with a docstring under each, which
the command line turns into flags) and a function

    train(config, out, *, resume=None, on_progress=None, should_stop=None) -> summary

that trains, writes checkpoints to ``out``, calls ``on_progress`` with a :class:`Progress`
event as it goes, and returns a summary dict holding at least ``unit``, ``done``, ``out`` and
``interrupted``. ``resume`` names a saved run to go on from. ``should_stop()`` is asked between
chunks of work: True saves a checkpoint and ends the run early (``interrupted``); a
:class:`StopFlag` makes Ctrl-C and SIGTERM ask that, so the state saved is a chunk's end. A
KeyboardInterrupt inside the run saves a checkpoint too, where the learner can, and goes on up.

A sweep builds configs from plain dicts with :func:`config_from_dict`:

>>> from dataclasses import dataclass
>>> @dataclass
... class Demo:
...     steps: int = 10
...     '''Steps in all.'''
...     rate: float = 0.5
...     '''Learning rate.'''
>>> config_from_dict(Demo, {"steps": 3, "rate": 0.25})
Demo(steps=3, rate=0.25)
>>> config_from_dict(Demo, {"stpes": 3})
Traceback (most recent call last):
ValueError: Demo has no option 'stpes' (options: steps, rate)
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import itertools
import math
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

C = TypeVar("C")


@dataclass(frozen=True)
class Progress:
    """One event of a training run.

    A run sends one ``start`` event once it has set up (loaded or built its model), then a
    ``step`` event after every chunk of work.
    """

    kind: Literal["start", "step"]
    """``start`` (set up, nothing trained yet in this call) or ``step`` (a chunk done)."""
    done: int
    """Units trained in all, a resumed run's earlier ones included."""
    total: int
    """Units the run trains to."""
    unit: str
    """What a unit is: ``episodes``, ``games`` or ``env steps``."""
    stats: Mapping[str, Any] | None = None
    """A report row when one is due (averages over the last report interval, an
    evaluation's results); None between reports."""
    saved: str | None = None
    """The checkpoint written at this event, if any."""
    detail: Any = None
    """The learner's own object for a richer report (its trainer at ``start``, the chunk of
    results at a ``step``); a generic caller ignores it."""


#: ``on_progress`` of :func:`train`.
ProgressHook = Callable[[Progress], None]
#: ``should_stop`` of :func:`train`.
StopCheck = Callable[[], bool]


def summary(
    unit: str, done: int, total: int, out: Any, interrupted: bool, **extra: Any
) -> dict[str, Any]:
    """The summary a :func:`train` returns: the keys every run has, then the learner's own.

    >>> summary("episodes", 5, 10, "m.npz", True, seconds=1.5)["interrupted"]
    True
    """
    return {
        "unit": unit,
        "done": done,
        "total": total,
        "out": str(out),
        "interrupted": interrupted,
        **extra,
    }


def stopping(should_stop: StopCheck | None) -> bool:
    """Whether the caller asks the run to stop now."""
    return should_stop is not None and should_stop()


#: What a command says at the first Ctrl-C of a :class:`StopFlag`.
STOPPING = "stopping after this chunk (Ctrl-C again to abort without saving)"


class StopFlag:
    """While inside, Ctrl-C (SIGINT) and SIGTERM set :attr:`set` instead of raising: a run's
    ``should_stop`` (``should_stop=flag``), so the chunk under way finishes whole and the state
    the run saves matches its count. A second Ctrl-C raises KeyboardInterrupt at once (stop
    without saving); a second SIGTERM does nothing (``timeout`` sends two, to the command and
    to its process group, and it must not cost the run its save).

    A signal the process ignores stays ignored (a pool worker's Ctrl-C: its parent stops it).
    Outside the main thread, where no handler can be set, nothing is taken over: the run
    stops on the KeyboardInterrupt as before.

    Args:
        on_stop: called at the first signal (a command's "stopping after this chunk").
        resend: on leaving, after a signal, deliver it again to the handler that was there
            before (a sweep's trial: the run has saved, and the sweep stops, or the pool's
            worker leaves, as the signal meant). Without it, a SIGTERM that came leaves
            SIGTERM ignored, as :func:`boardai.cli._common.sigterm_as_ctrl_c` does.
    """

    SIGNALS = ("SIGINT", "SIGTERM")

    def __init__(self, on_stop: Callable[[], None] | None = None, resend: bool = False) -> None:
        self.set = False
        self.signal: int | None = None  # the first signal that came
        self.on_stop = on_stop
        self.resend = resend
        self._old: dict[int, Any] = {}

    def __call__(self) -> bool:
        return self.set

    def _handler(self, signum: int, frame: Any) -> None:
        import signal

        if self.set:
            if signum == signal.SIGINT:
                raise KeyboardInterrupt
            return
        self.set, self.signal = True, signum
        if self.on_stop is not None:
            self.on_stop()

    def __enter__(self) -> StopFlag:
        import signal
        import threading

        if threading.current_thread() is threading.main_thread():
            for name in self.SIGNALS:
                signum = getattr(signal, name)
                if signal.getsignal(signum) != signal.SIG_IGN:
                    self._old[signum] = signal.signal(signum, self._handler)
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        import signal

        for signum, old in self._old.items():
            if signum == signal.SIGTERM and self.signal == signal.SIGTERM and not self.resend:
                old = signal.SIG_IGN  # as sigterm_as_ctrl_c leaves it, once one came
            signal.signal(signum, signal.SIG_DFL if old is None else old)
        if self.resend and self.signal is not None and kind is None:
            signal.raise_signal(self.signal)


def field_docs(cls: type) -> dict[str, str]:
    """The docstring written under each field of dataclass ``cls`` (and of the dataclasses it
    extends), by field name, on one line; ``metadata={"help": ...}`` takes precedence."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if not dataclasses.is_dataclass(klass) or klass is object:
            continue
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(klass)))
        except (OSError, TypeError, SyntaxError):  # no source (a frozen install): metadata only
            continue
        # The source found may not be the class's: Python 3.13 finds a class by its first line
        # in its module's file, which for a class made elsewhere (in a doctest) is other text.
        found = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == klass.__name__]
        if not found:
            continue
        for node, nxt in itertools.pairwise(found[0].body):
            if (
                isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Name)
                and isinstance(nxt, ast.Expr)
                and isinstance(nxt.value, ast.Constant)
                and isinstance(nxt.value.value, str)
            ):
                docs[node.target.id] = " ".join(nxt.value.value.split())
    for f in dataclasses.fields(cls):
        if "help" in f.metadata:
            docs[f.name] = str(f.metadata["help"])
    return docs


def field_default(f: dataclasses.Field[Any]) -> Any:
    """The default value of dataclass field ``f`` (None when it has none)."""
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return None


#: Annotation (as written) -> the Python types a value of it may have.
_SCALARS: dict[str, tuple[type, ...]] = {
    "int": (int,),
    "float": (float, int),
    "bool": (bool,),
    "str": (str,),
}


def _check_type(cls: type, name: str, annotation: str, value: Any) -> Any:
    """``value`` for a field annotated ``annotation`` (an int is a float too, and stays as
    given, as the config's own default may be); a value of another scalar type raises
    ValueError, and so does a float that is nan or infinite. Other annotations pass."""
    kinds = [k.strip() for k in annotation.split("|")]
    if value is None and "None" in kinds:
        return None
    scalars = [k for k in kinds if k in _SCALARS]
    if not scalars or len(scalars) + ("None" in kinds) != len(kinds):
        return value  # a structured field: its own validation reads it
    for kind in scalars:
        ok = isinstance(value, _SCALARS[kind]) and not (
            isinstance(value, bool) and kind in ("int", "float")
        )
        if ok:
            if isinstance(value, float) and not math.isfinite(value):  # TOML has nan and inf
                raise ValueError(f"{cls.__name__} option {name!r} must be a finite number")
            return value
    want = " or ".join(kinds)
    raise ValueError(f"{cls.__name__} option {name!r} must be {want}, got {value!r}")


def config_from_dict(cls: type[C], values: Mapping[str, Any]) -> C:
    """``cls(**values)`` for a config dataclass, checked first: an unknown key or a value of
    the wrong type raises ValueError in one line naming it (the config's own validation then
    checks ranges and combinations, also with ValueError)."""
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = [k for k in values if k not in fields]
    if unknown:
        raise ValueError(
            f"{cls.__name__} has no option {unknown[0]!r} (options: {', '.join(fields)})"
        )
    checked = {k: _check_type(cls, k, str(fields[k].type), v) for k, v in values.items()}
    return cls(**checked)
