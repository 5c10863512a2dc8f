"""Othello n-tuple model files: a compressed ``.npz`` with the weights and a JSON metadata
record (format, tuples, training episodes, options), written atomically; a run with temporal
coherence keeps its accumulators (``tc_e``, ``tc_a``) and a run that plays the average of its
weights keeps the weights it trains (``train_weights``), so that it can resume."""

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
from boardai.learn.model_file import FORMAT as G2048_FORMAT
from boardai.learn.model_file import meta_text
from boardai.othello.ntuple import NTupleNetwork

FORMAT = "boardai-othello-ntuple"
FORMAT_VERSION = 1


def save_network(
    path: str | os.PathLike[str],
    net: NTupleNetwork,
    meta: dict[str, Any] | None = None,
    arrays: dict[str, np.ndarray] | None = None,
) -> None:
    """Write ``net``, ``meta`` and training state ``arrays`` (shaped like the weights) to
    ``path`` atomically."""
    record = {
        **(meta or {}),
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "boardai_version": __version__,
        "tuples": ",".join(net.names),
        "stages": net.stages,
    }
    saved: dict[str, Any] = {"weights": net.weights, "meta": np.array(json.dumps(record))}
    saved.update({k: v for k, v in (arrays or {}).items() if v is not None})
    with atomic_write(path, "wb") as f:
        np.savez_compressed(f, **saved)


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
            meta = json.loads(meta_text(data["meta"]))
            weights = data["weights"]
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, json.JSONDecodeError) as e:
        raise ModelFileError(p, f"not a readable model file ({e})") from None
    fmt = meta.get("format") if isinstance(meta, dict) else None
    if fmt == G2048_FORMAT:
        raise ModelFileError(
            p, "a 2048 n-tuple model, not an Othello one (use it with boardai eval, play or watch)"
        )
    if fmt != FORMAT:
        raise ModelFileError(p, f"not an Othello n-tuple model (format {fmt!r})")
    try:
        net = NTupleNetwork.create(meta["tuples"], int(meta.get("stages", 1)))
    except (KeyError, TypeError, ValueError, UsageError) as e:
        raise ModelFileError(p, f"bad tuples or stages in metadata ({e})") from None
    if weights.shape != net.weights.shape or weights.dtype != np.float32:
        raise ModelFileError(p, f"weights {weights.shape} do not fit tuples {meta['tuples']!r}")
    net.weights = weights.copy()
    return net, meta


def load_arrays(path: str | os.PathLike[str]) -> dict[str, np.ndarray]:
    """The training state arrays of a model file besides its weights (empty if none).

    Raises:
        ModelFileError: the file is not a model, or an array does not fit the weights.
    """
    net = load_network(path)
    with np.load(Path(path), allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files if k not in ("weights", "meta")}
    for k, v in arrays.items():
        if v.shape != net.weights.shape:
            raise ModelFileError(Path(path), f"array {k!r} does not fit the weights")
    return {k: v.astype(np.float32) for k, v in arrays.items()}
