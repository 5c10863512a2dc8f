"""N-tuple networks: symmetric images, values, TD updates, model files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from boardai.errors import ModelFileError
from boardai.othello import Board
from boardai.othello.ntuple import TUPLES, NTupleNetwork, symmetric_images, update
from boardai.othello.ntuple_file import load_model, save_network
from boardai.othello.train.ntuple import train_episodes


def test_symmetric_images() -> None:
    corner = symmetric_images(TUPLES["corner3x3"])
    assert len(corner) == 8 and {img[0] for img in corner} == {0, 7, 56, 63}
    assert len(symmetric_images(TUPLES["diag8"])) == 4


def test_value_is_symmetric_and_learns() -> None:
    net = NTupleNetwork.create("standard")
    b = Board.initial().play("d3")
    assert net.value(b.mover, b.opponent) == 0.0
    update(np.uint64(b.mover), np.uint64(b.opponent), *net.data(), 0.01)
    v = net.value(b.mover, b.opponent)
    assert v > 0
    # The same position mirrored (d3 -> c4 is the diagonal mirror) has the same value.
    m = Board.initial().play("c4")
    assert net.value(m.mover, m.opponent) == pytest.approx(v)


def test_training_is_seeded(tmp_path: Path) -> None:
    nets = [NTupleNetwork.create("small") for _ in range(2)]
    for net in nets:
        train_episodes(*net.data(), 20, 0.01, 0.1, np.uint64(7))
    assert np.array_equal(nets[0].weights, nets[1].weights)
    path = tmp_path / "m.npz"
    save_network(path, nets[0], {"episodes": 20})
    loaded, meta = load_model(path)
    assert meta["episodes"] == 20 and np.array_equal(loaded.weights, nets[0].weights)


def test_bad_model_files(tmp_path: Path) -> None:
    with pytest.raises(ModelFileError, match="no such model file"):
        load_model(tmp_path / "missing.npz")
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"junk")
    with pytest.raises(ModelFileError, match=r"junk\.npz"):
        load_model(junk)
