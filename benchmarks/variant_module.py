"""Import a copy of a source file as a module of its own, for benchmarks that compare versions
of one module side by side in one process.

The copy lives in a fresh temporary folder: numba names its cache files by the source file, so
a package file imported under another module name would leave cache entries that other
processes importing the package's own module then fail to load; and a new folder means a new
cache, so every version is compiled in this process and they compare alike (machine code loaded
from numba's cache can run a few percent off the same code compiled here).
"""

from __future__ import annotations

import importlib.util
import sys
import tempfile
from pathlib import Path
from types import ModuleType


def import_source(source: str, name: str) -> ModuleType:
    """``source`` (a module's text) imported as module ``name`` from a temporary folder."""
    path = Path(tempfile.mkdtemp(prefix="variant_")) / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
