"""Torch files that hold data, never code: what boardai writes and how it reads them back.

``torch.load`` unpickles, and a pickle can run any code while it loads. boardai reads torch
files only with ``weights_only=True`` (tensors, dicts, lists, tuples, str, int, float, bool,
None), and writes only those: :func:`plain` turns numpy arrays and scalars into tensors and
Python numbers before a save. Files written before that hold numpy arrays; :func:`load`
reads them through a short allow-list of numpy's array-rebuilding functions, which make
arrays of numbers and call nothing else.

>>> import io, numpy as np
>>> buf = io.BytesIO()
>>> save({"counts": np.arange(3), "n": np.int64(2)}, buf)
>>> _ = buf.seek(0)
>>> data = load(buf, "x.pt")
>>> data["counts"].tolist(), type(data["n"]).__name__
([0, 1, 2], 'int')
"""

from __future__ import annotations

import pickle
import re
from pathlib import Path
from typing import IO, Any

import numpy as np

from boardai.errors import ModelFileError


def plain(obj: Any) -> Any:
    """``obj`` with numpy arrays as tensors and numpy scalars as Python numbers (recursing
    into dicts, lists and tuples), so that ``torch.load(weights_only=True)`` reads it."""
    import torch

    if isinstance(obj, np.ndarray):
        return torch.from_numpy(np.ascontiguousarray(obj).copy())
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, dict):
        return {k: plain(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [plain(v) for v in obj]
    if isinstance(obj, tuple):
        return tuple(plain(v) for v in obj)
    return obj


def save(data: Any, f: IO[bytes]) -> None:
    """``torch.save`` of :func:`plain` ``(data)`` to the open file ``f``."""
    import torch

    torch.save(plain(data), f)


def _numpy_globals() -> list[Any]:
    """What pickles of numeric numpy arrays and scalars name (older boardai checkpoints)."""
    try:
        from numpy._core import multiarray
    except ImportError:  # numpy 1.x
        from numpy.core import multiarray  # type: ignore[no-redef]

    dtypes = {type(np.dtype(c)) for c in "?bBhHiIlLqQefdgFDG"}
    return [multiarray._reconstruct, multiarray.scalar, np.ndarray, np.dtype, *dtypes]


def load(source: str | Path | IO[bytes], name: object) -> Any:
    """The data of a torch file, read without running code from it.

    Raises:
        ModelFileError: naming ``name``, if the file is not a torch file of plain data
            (for example a pickle that would import something to build itself).
    """
    import torch

    try:
        with torch.serialization.safe_globals(_numpy_globals()):
            return torch.load(source, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError as e:
        found = re.search(r"GLOBAL ([\w.]+)", str(e))
        what = f" (it names {found.group(1)})" if found else ""
        raise ModelFileError(
            name, f"holds more than plain data{what}: refused without running it"
        ) from None
    except Exception as e:  # torch raises many kinds for a damaged file
        raise ModelFileError(name, f"not a readable torch file ({type(e).__name__})") from None
