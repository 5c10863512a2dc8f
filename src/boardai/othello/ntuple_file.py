"""Othello n-tuple model files: a compressed ``.npz`` with the weights and a JSON metadata
record (format, tuples, training episodes, options), written atomically."""

from __future__ import annotations

import json
import os
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from boardai import __version__
from boardai.atomic import atomic_write
from boardai.errors import ModelFileError, UsageError
from boardai.othello.ntuple import NTupleNetwork

FORMAT = "boardai-othello-ntuple"
FORMAT_VERSION = 1


def save_network(
    path: str | os.PathLike[str], net: NTupleNetwork, meta: dict[str, Any] | None = None
) -> None:
    """Write ``net`` and ``meta`` to ``path`` atomically."""
    record = {
        **(meta or {}),
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "boardai_version": __version__,
        "tuples": ",".join(net.names),
    }
    with atomic_write(path, "wb") as f:
        np.savez_compressed(f, weights=net.weights, meta=np.array(json.dumps(record)))


def load_network(path: str | os.PathLike[str]) -> NTupleNetwork:
    """The network of a model file (see :func:`load_model` for the metadata too)."""
    return load_model(path)[0]


def load_model(path: str | os.PathLike[str]) -> tuple[NTupleNetwork, dict[str, Any]]:
    """(network, metadata) of a model file.

    Raises:
        ModelFileError: missing, damaged, or not an Othello n-tuple model.
    """
    p = Path(path)
    if not p.is_file():
        raise ModelFileError(p, "no such model file")
    try:
        with np.load(p, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            weights = data["weights"]
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, json.JSONDecodeError) as e:
        raise ModelFileError(p, f"not a readable model file ({e})") from None
    if meta.get("format") != FORMAT:
        raise ModelFileError(p, f"not an Othello n-tuple model (format {meta.get('format')!r})")
    try:
        net = NTupleNetwork.create(meta["tuples"])
    except (KeyError, UsageError) as e:
        raise ModelFileError(p, f"bad tuples in metadata ({e})") from None
    if weights.shape != net.weights.shape or weights.dtype != np.float32:
        raise ModelFileError(p, f"weights {weights.shape} do not fit tuples {meta['tuples']!r}")
    net.weights = weights.copy()
    return net, meta
