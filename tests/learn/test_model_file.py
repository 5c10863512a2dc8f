"""Model files: round trip, metadata, and clear errors for damaged or foreign files."""

from __future__ import annotations

import json
import zipfile

import numpy as np
import pytest

from boardai.errors import ModelFileError
from boardai.learn.model_file import load_model, read_meta, save_model
from boardai.learn.ntuple import NTupleNetwork


def _net() -> NTupleNetwork:
    net = NTupleNetwork.create("0123,45", stages=(11,))
    net.weights[::7] = np.arange(len(net.weights[::7]), dtype=np.float32)
    return net


def test_round_trip(tmp_path) -> None:
    path = tmp_path / "m.npz"
    save_model(path, _net(), {"episodes": 12}, {"pool": np.arange(3, dtype=np.uint64)})
    net, meta, extra = load_model(path)
    assert net.patterns == _net().patterns and net.stages == ((11,),)
    np.testing.assert_array_equal(net.weights, _net().weights)
    assert (
        meta["episodes"] == 12 and meta["format"] == "boardai-ntuple" and "boardai_version" in meta
    )
    np.testing.assert_array_equal(extra["pool"], np.arange(3))
    assert read_meta(path)["patterns"] == ["0123", "45"] and read_meta(path)["stages"] == [11]


def test_untouched_weights_compress(tmp_path) -> None:
    path = tmp_path / "m.npz"
    save_model(path, NTupleNetwork.create("012345"), {})
    assert path.stat().st_size < 100_000  # 64 MiB of zeros


def test_truncated_file(tmp_path) -> None:
    path = tmp_path / "m.npz"
    save_model(path, _net(), {})
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ModelFileError, match=r"m\.npz"):
        load_model(path)


def test_foreign_files(tmp_path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    other = tmp_path / "other.npz"
    np.savez(other, x=np.zeros(3))
    wrong = tmp_path / "wrong.npz"
    np.savez(wrong, meta=np.frombuffer(json.dumps({"format": "something"}).encode(), np.uint8))
    for path in (text, other, wrong, tmp_path / "missing.npz"):
        with pytest.raises(ModelFileError, match=path.name):
            load_model(path)


def test_inconsistent_weights(tmp_path) -> None:
    path = tmp_path / "m.npz"
    save_model(path, _net(), {})
    with zipfile.ZipFile(path) as z:
        meta = z.read("meta.npy")
    bad = tmp_path / "bad.npz"
    with zipfile.ZipFile(bad, "w") as z:
        z.writestr("meta.npy", meta)
        with z.open("weights.npy", "w") as f:
            np.save(f, np.zeros(5, np.float32))
    with pytest.raises(ModelFileError, match=r"bad\.npz"):
        load_model(bad)
