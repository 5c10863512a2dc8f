"""The one place numba options live.

Every compiled kernel in boardai is declared with :func:`njit` from this module, so caching
(``cache=True``: a second run loads machine code instead of compiling), the GIL release
(``nogil=True``: threads can run kernels side by side) and the error model are set once.
"""

from __future__ import annotations

from typing import Any

import numba

from boardai import _jit_cache

_jit_cache.register()

#: Options shared by every kernel. ``error_model="numpy"`` keeps division free of Python's
#: zero checks in hot loops; kernels never divide by a value that can be zero.
OPTIONS: dict[str, Any] = {"cache": True, "nogil": True, "error_model": "numpy"}


def njit(*args: Any, **kwargs: Any) -> Any:
    """``numba.njit`` with boardai's options; extra keyword arguments override them."""
    options = {**OPTIONS, **kwargs}
    if args and callable(args[0]):
        return numba.njit(**options)(args[0])
    return numba.njit(*args, **options)
