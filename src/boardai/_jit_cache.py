"""numba's cache, invalidated when a kernel's callees change too.

numba checks a cached function against its own source file only, but a kernel that calls
kernels of other modules compiles them into itself: after ``endgame.py`` changed, ``search.py``'s
solver kept running the old endgame code from its cache. Here a boardai function's cache is
stamped with the contents of its own file and of every boardai module that file imports,
directly or through others (imports read from the source, inside functions too: a safe
over-estimate of what it can call), so that a change to any of them recompiles it. Files
outside boardai keep numba's own rule.

Registered once by :mod:`boardai._jit`, ahead of numba's own locators of the same places.
"""

from __future__ import annotations

import ast
import functools
import hashlib
from pathlib import Path
from typing import Any

from numba.core import caching

#: The package's folder: only files below it get the dependency stamp.
ROOT = Path(__file__).resolve().parent


@functools.cache
def _content(path: Path) -> bytes:
    return hashlib.sha256(path.read_bytes()).digest()


def _module_file(name: str) -> Path | None:
    """The source file of boardai module ``name`` (``boardai.x.y``), if there is one."""
    parts = name.split(".")
    if parts[0] != "boardai":
        return None
    base = ROOT.joinpath(*parts[1:])
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


@functools.cache
def _imports(path: Path) -> frozenset[Path]:
    """The boardai modules ``path`` imports (its own source; ``from boardai.x import y``
    counts ``boardai.x`` and, where it is a module, ``boardai.x.y``)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_bytes())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    files = {_module_file(n) for n in names}
    return frozenset(f for f in files if f is not None and f != path)


@functools.cache
def dependencies(path: Path) -> tuple[Path, ...]:
    """``path`` and every boardai module it imports, directly or not, in a fixed order."""
    seen = {path}
    todo = [path]
    while todo:
        for dep in _imports(todo.pop()):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return tuple(sorted(seen))


def stamp(path: Path) -> bytes:
    """One digest of the contents of ``path`` and of its :func:`dependencies`."""
    h = hashlib.sha256()
    for dep in dependencies(path):
        h.update(str(dep.relative_to(ROOT)).encode())
        h.update(_content(dep))
    return h.digest()


def in_package(py_file: str) -> bool:
    try:
        return Path(py_file).resolve().is_relative_to(ROOT)
    except OSError:
        return False


def _with_dependencies(base: Any) -> Any:
    """``base`` (one of numba's file-backed locators) stamping boardai's files with
    :func:`stamp`; it declines other files, which ``base`` itself then serves."""

    class Locator(base):
        def get_source_stamp(self) -> Any:
            return stamp(Path(self._py_file).resolve())

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            if not in_package(py_file):
                return None
            return super().from_function(py_func, py_file)

    Locator.__name__ = Locator.__qualname__ = f"Boardai{base.__name__}"
    return Locator


_BASES = (
    caching.UserProvidedCacheLocator,
    caching.InTreeCacheLocator,
    caching.UserWideCacheLocator,
)
LOCATORS = tuple(_with_dependencies(base) for base in _BASES)


def register() -> None:
    """Put each of :data:`LOCATORS` just ahead of the numba locator it extends (once)."""
    classes: list[Any] = caching.CacheImpl._locator_classes
    for locator, base in zip(LOCATORS, _BASES, strict=True):
        if locator not in classes:
            classes.insert(classes.index(base), locator)
