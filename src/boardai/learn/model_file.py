"""N-tuple model files: a compressed ``.npz`` holding the weights, extra arrays (training state)
and a JSON metadata record, written atomically.

The metadata names the format (``"format": "boardai-ntuple"``), the patterns (hex strings),
the stage thresholds (an int per single-tile threshold, a list of exponents per combination
such as ``[14, 13]``) and the boardai version; callers add what they need (rules, episodes,
training options, rng and schedule state). Untouched weights are zeros, which compress to
almost nothing.

>>> import tempfile, pathlib
>>> from boardai.learn.ntuple import NTupleNetwork
>>> path = pathlib.Path(tempfile.mkdtemp()) / "m.npz"
>>> save_model(path, NTupleNetwork.create("0123,4567"), {"episodes": 0})
>>> net, meta, extra = load_model(path)
>>> net.patterns, meta["episodes"]
(((0, 1, 2, 3), (4, 5, 6, 7)), 0)
"""

from __future__ import annotations

import contextlib
import json
import os
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from boardai import __version__
from boardai.atomic import atomic_write
from boardai.errors import ModelFileError, UsageError
from boardai.learn.ntuple import NTupleNetwork, stages_to_json
from boardai.learn.patterns import pattern_names

FORMAT = "boardai-ntuple"
FORMAT_VERSION = 1
#: The format of Othello's n-tuple files (boardai.othello.ntuple_file), named here to tell a
#: user who gives one to a 2048 player which game it belongs to.
OTHELLO_FORMAT = "boardai-othello-ntuple"


def save_model(
    path: str | os.PathLike[str],
    network: NTupleNetwork,
    meta: dict[str, Any] | None = None,
    extra: dict[str, np.ndarray] | None = None,
) -> None:
    """Write ``network`` (+ ``meta`` JSON and ``extra`` arrays) to ``path`` atomically."""
    record = dict(meta or {})
    record.update(
        format=FORMAT,
        format_version=FORMAT_VERSION,
        boardai_version=__version__,
        patterns=pattern_names(network.patterns),
        index_order="first cell lowest",
        stages=stages_to_json(network.stages),
    )
    arrays: dict[str, Any] = {f"extra_{k}": np.asarray(v) for k, v in (extra or {}).items()}
    meta_bytes = np.frombuffer(json.dumps(record).encode("utf-8"), np.uint8)
    with atomic_write(path, "wb") as f:
        np.savez_compressed(f, meta=meta_bytes, weights=network.weights, **arrays)


def read_meta(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Only the metadata of a model file (reads no weights)."""
    with _open(path) as z:
        return _meta(z, path)


def load_model(
    path: str | os.PathLike[str],
) -> tuple[NTupleNetwork, dict[str, Any], dict[str, np.ndarray]]:
    """Read a model file: (network, metadata, extra arrays).

    Raises:
        ModelFileError: the file is missing, truncated, not an n-tuple model, or inconsistent.
    """
    with _open(path) as z:
        meta = _meta(z, path)
        try:
            weights = z["weights"]
            extra = {k[len("extra_") :]: z[k] for k in z.files if k.startswith("extra_")}
        except (KeyError, ValueError, OSError, EOFError, zipfile.BadZipFile) as e:
            raise ModelFileError(path, f"damaged model file ({type(e).__name__}: {e})") from None
    try:
        patterns = [tuple(int(ch, 16) for ch in p) for p in meta["patterns"]]
        network = NTupleNetwork(patterns, meta.get("stages", []), weights)
    except (KeyError, TypeError, ValueError, UsageError) as e:
        raise ModelFileError(path, f"inconsistent model file: {e}") from None
    return network, meta, extra


@contextlib.contextmanager
def _open(path: str | os.PathLike[str]) -> Iterator[Any]:
    p = Path(path)
    if not p.is_file():
        raise ModelFileError(path, "no such model file")
    with p.open("rb") as f:
        try:
            z = np.load(f, allow_pickle=False)
        except (ValueError, OSError, EOFError, zipfile.BadZipFile) as e:
            why = f"not a boardai n-tuple model (cannot read it as .npz: {e})"
            raise ModelFileError(path, why) from None
        if not hasattr(z, "files"):  # a plain .npy array
            raise ModelFileError(path, "not a boardai n-tuple model (an .npy array, not an .npz)")
        with z:
            yield z


def _meta(z: Any, path: str | os.PathLike[str]) -> dict[str, Any]:
    try:
        meta = json.loads(meta_text(z["meta"]))
    except KeyError:
        raise ModelFileError(path, "not a boardai n-tuple model (no metadata)") from None
    except (ValueError, OSError, EOFError, zipfile.BadZipFile) as e:
        raise ModelFileError(path, f"damaged metadata ({type(e).__name__}: {e})") from None
    if isinstance(meta, dict) and meta.get("format") == OTHELLO_FORMAT:
        raise ModelFileError(
            path, "an Othello n-tuple model, not a 2048 one (use it with boardai othello ...)"
        )
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ModelFileError(path, f"not a boardai n-tuple model (format is not {FORMAT!r})")
    if meta.get("index_order", "first cell lowest") != "first cell lowest":
        raise ModelFileError(path, f"unknown weight index order {meta['index_order']!r}")
    if meta.get("format_version", 0) > FORMAT_VERSION:
        raise ModelFileError(
            path,
            f"model format {meta['format_version']} is newer than this boardai reads "
            f"({FORMAT_VERSION})",
        )
    return meta


def meta_text(raw: np.ndarray) -> str:
    """The JSON text of a model file's ``meta`` array: UTF-8 bytes (2048 files) or a string
    array (Othello files)."""
    return str(raw) if raw.dtype.kind == "U" else bytes(raw).decode("utf-8")
