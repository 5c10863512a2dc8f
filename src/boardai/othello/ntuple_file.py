"""Othello n-tuple model files, in the one n-tuple format of :mod:`boardai.learn.model_file`:
the weights, a JSON metadata record (game, tuples, stages, output kind, training episodes,
options) and the training state a run resumes from: temporal coherence accumulators
(``tc_e``, ``tc_a``) and, for a run that plays the average of its weights, the weights it
trains (``train_weights``).
Files of the older Othello format (``boardai-othello-ntuple``) read the same.

The output kind (``output`` in the metadata: ``tanh`` or ``linear``, see
:mod:`boardai.othello.ntuple`) travels with the layout; a file without one, as every file
written before linear networks, is a ``tanh`` network."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from boardai.errors import ModelFileError
from boardai.learn import model_file
from boardai.othello.ntuple import NTupleNetwork


def save_network(
    path: str | os.PathLike[str],
    net: NTupleNetwork,
    meta: dict[str, Any] | None = None,
    arrays: dict[str, np.ndarray] | None = None,
) -> None:
    """Write ``net``, ``meta`` and training state ``arrays`` (shaped like the weights) to
    ``path`` atomically."""
    model_file.save_model(path, net, meta, arrays)


def load_network(path: str | os.PathLike[str]) -> NTupleNetwork:
    """The network of a model file (see :func:`load_model` for the metadata too)."""
    return load_model(path)[0]


def load_model(path: str | os.PathLike[str]) -> tuple[NTupleNetwork, dict[str, Any]]:
    """(network, metadata) of a model file.

    Raises:
        ModelFileError: missing, damaged, or not an Othello n-tuple model.
    """
    net, meta, _ = model_file.load_model(path, NTupleNetwork, with_extra=False)
    return net, meta


def load_arrays(path: str | os.PathLike[str]) -> dict[str, np.ndarray]:
    """The training state arrays of a model file besides its weights (empty if none).

    Raises:
        ModelFileError: the file is not a model, or an array does not fit the weights.
    """
    net, _, arrays = model_file.load_model(path, NTupleNetwork)
    for k, v in arrays.items():
        if v.shape != net.weights.shape:
            raise ModelFileError(Path(path), f"array {k!r} does not fit the weights")
    return {k: v.astype(np.float32) for k, v in arrays.items()}
