"""Othello n-tuple model files: a compressed ``.npz`` with the weights and a JSON metadata
record (format, tuples, training episodes, options), written atomically; a run with temporal
coherence also keeps its accumulators (``tc_e``, ``tc_a``) so that it can resume."""

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
    path: str | os.PathLike[str],
    net: NTupleNetwork,
    meta: dict[str, Any] | None = None,
    tc: tuple[np.ndarray, np.ndarray] | None = None,
) -> None:
    """Write ``net``, ``meta`` (and the temporal coherence arrays ``tc``) to ``path``
    atomically."""
    record = {
        **(meta or {}),
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "boardai_version": __version__,
        "tuples": ",".join(net.names),
    }
    arrays = {} if tc is None else {"tc_e": tc[0], "tc_a": tc[1]}
    with atomic_write(path, "wb") as f:
        np.savez_compressed(f, weights=net.weights, meta=np.array(json.dumps(record)), **arrays)


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


def load_tc(path: str | os.PathLike[str]) -> tuple[np.ndarray, np.ndarray] | None:
    """The temporal coherence arrays ``(E, A)`` of a model file, or None if it has none."""
    net = load_network(path)
    with np.load(Path(path), allow_pickle=False) as data:
        if "tc_e" not in data.files:
            return None
        e, a = data["tc_e"], data["tc_a"]
    if e.shape != net.weights.shape or a.shape != net.weights.shape:
        raise ModelFileError(Path(path), "temporal coherence arrays do not fit the weights")
    return e.astype(np.float32), a.astype(np.float32)
