"""Compiled functions handed to compiled code as arguments, in a form numba's cache keeps.

The searches take their leaf evaluator as an argument, so one search serves every evaluator and
numba specialises it per evaluator. Passed as itself, a compiled function is typed by its
identity in this process: numba can compile that but not cache it (each process would add a
cache entry), so every process used to compile the searches afresh, 10-30 seconds before the
first move of ``boardai 2048 watch --agent ntuple:depth=2`` or the first page of
``boardai serve``. :func:`ref` wraps such a function in a :class:`Ref`, a value whose numba
type names the function by module, name and a digest of its module's source: the same in every
process, so the code compiled for it is cached like any other signature, and a changed
evaluator gets a new type and fresh code. Compiled code calls it with :func:`call`::

    @njit
    def search(evaluate, data, board):
        return call(evaluate, board, data)

    search(ref(evaluate_rows), data, board)

A :class:`Ref` is a compile-time constant: it carries nothing at run time, so passing one costs
nothing, and the call is a direct call that the compiler can inline. Only module-level compiled
functions can be named so (a nested one has no name another process could find).

The digest is of the function's module file, and for a boardai module of every boardai module
it imports (as boardai's numba caches are stamped, :mod:`boardai._jit_cache`); a function with
no file (typed into a REPL or a notebook, or ``python -c``) is digested by its code and the
code of the compiled functions of its module that it calls. A file outside boardai is digested
alone, and no digest covers the values of global arrays, which numba freezes into the code
when it compiles.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import sys
from pathlib import Path
from types import CodeType
from typing import Any

from numba import types
from numba.core import errors
from numba.core.registry import CPUDispatcher
from numba.extending import overload

from boardai import _jit_cache
from boardai.constant_types import register_constant

#: The functions referred to in this process, by their numba type's name (typing reads them).
_LIVE: dict[str, Any] = {}


class RefType(types.Type):
    """The numba type of a :class:`Ref`: the function's module, name and source digest."""

    def __init__(self, target: str) -> None:
        self.target = target
        super().__init__(name=f"ref({target})")


class Ref:
    """A module-level compiled function as a compile-time constant (make one with :func:`ref`).

    Calling it from Python calls the function."""

    def __init__(self, fn: Any, target: str) -> None:
        self.fn = fn
        self.numba_type = RefType(target)

    def __call__(self, *args: Any) -> Any:
        return self.fn(*args)

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        # by name: another process finds its own compiled function (and its own digest)
        return _by_name, (self.fn.py_func.__module__, self.fn.py_func.__qualname__)

    def __repr__(self) -> str:
        return f"Ref({self.numba_type.target})"


@functools.cache
def _file_digest(path: str) -> str:
    """A boardai module's digest covers the modules it imports too (:mod:`boardai._jit_cache`:
    its callees are compiled into whatever calls it); another file's, the file alone."""
    resolved = Path(path).resolve()
    if _jit_cache.in_package(str(resolved)):
        return _jit_cache.stamp(resolved).hex()[:12]
    with open(path, "rb") as f:
        return hashlib.blake2b(f.read(), digest_size=6).hexdigest()


def _code(code: CodeType) -> bytes:
    """A code object's instructions, names and constants (nested code too), without its file
    name and line numbers, which change from one session of a notebook to the next."""
    parts = [code.co_code, repr(code.co_names).encode(), repr(code.co_varnames).encode()]
    parts += [_code(c) if isinstance(c, CodeType) else repr(c).encode() for c in code.co_consts]
    return b"\0".join(parts)


def _names(code: CodeType) -> set[str]:
    names = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, CodeType):
            names |= _names(c)
    return names


def _code_digest(fn: Any, module: str) -> str:
    """For a function with no source file (a REPL, a notebook, ``python -c``): its code and
    that of the compiled functions of the same module that it calls, by name, in turn."""
    h = hashlib.blake2b(digest_size=6)
    todo, seen = [fn], set()
    while todo:
        f = todo.pop()
        if id(f) in seen:
            continue
        seen.add(id(f))
        h.update(_code(f.py_func.__code__))
        for name in sorted(_names(f.py_func.__code__)):
            g = f.py_func.__globals__.get(name)
            if isinstance(g, CPUDispatcher) and g.py_func.__module__ == module:
                todo.append(g)
    return "code-" + h.hexdigest()


def _digest(fn: Any, module: str) -> str:
    """The source digest of ``fn``'s module file, or of its code where it has no file."""
    path = getattr(sys.modules.get(module), "__file__", None)
    if path is not None:
        try:
            return _file_digest(str(path))
        except OSError:
            pass
    return _code_digest(fn, module)


@functools.cache
def _ref(fn: Any) -> Ref:
    if not isinstance(fn, CPUDispatcher):
        raise TypeError(f"ref: expected an @njit function, got {fn!r}")
    module, name = fn.py_func.__module__, fn.py_func.__qualname__
    if _attribute(sys.modules.get(module), name) is not fn:
        raise ValueError(f"ref: {module}.{name} is not a module-level @njit function")
    target = f"{module}.{name}@{_digest(fn, module)}"
    _LIVE[target] = fn
    return Ref(fn, target)


def _attribute(obj: Any, dotted: str) -> Any:
    """``obj.a.b`` for ``dotted`` "a.b"; None where a part is missing."""
    for part in dotted.split("."):
        obj = getattr(obj, part, None)
    return obj


def _by_name(module: str, name: str) -> Ref:
    return _ref(_attribute(importlib.import_module(module), name))


def ref(fn: Any) -> Any:
    """``fn`` (a module-level ``@njit`` function) as a :class:`Ref`; a :class:`Ref` or None
    as it is. The same function gives the same object, so callers may compare by identity.

    Raises:
        TypeError: ``fn`` is not a compiled function.
        ValueError: it is not reachable by its module and name.
    """
    if fn is None or isinstance(fn, Ref):
        return fn
    return _ref(fn)


register_constant(Ref, RefType)  # the function is in the type


def call(f: Ref, *args: Any) -> Any:
    """``f(*args)`` in compiled code, for ``f`` a :class:`Ref`."""
    raise NotImplementedError("call runs in compiled code only; call the Ref itself in Python")


@overload(call)
def _call(f, *args):  # type: ignore[no-untyped-def]  # numba: the same names as impl
    if not isinstance(f, RefType):
        raise errors.TypingError(
            f"call: expected a boardai.jitref.Ref (wrap the function with ref()), got {f}"
        )
    fn = _LIVE[f.target]

    def impl(f, *args):  # type: ignore[no-untyped-def]
        return fn(*args)

    return impl
