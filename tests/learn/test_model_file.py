"""Model files: round trip, metadata, and clear errors for damaged or foreign files."""

from __future__ import annotations

import json
import math
import zipfile

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardai.errors import ModelFileError, UsageError
from boardai.g2048.ntuple import NTupleNetwork
from boardai.learn.model_file import load_model, read_meta, save_model


def _net() -> NTupleNetwork:
    net = NTupleNetwork.create("0123,45", stages=(11,))
    net.weights[::7] = np.arange(len(net.weights[::7]), dtype=np.float32)
    return net


def test_round_trip(tmp_path) -> None:
    path = tmp_path / "m.npz"
    save_model(path, _net(), {"episodes": 12}, {"pool": np.arange(3, dtype=np.uint64)})
    net, meta, extra = load_model(path, NTupleNetwork)
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
    assert path.stat().st_size < 400_000  # 64 MiB of zeros: under 1/150 of it


def test_truncated_file(tmp_path) -> None:
    path = tmp_path / "m.npz"
    save_model(path, _net(), {})
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ModelFileError, match=r"m\.npz"):
        load_model(path, NTupleNetwork)


def test_foreign_files(tmp_path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    other = tmp_path / "other.npz"
    np.savez(other, x=np.zeros(3))
    wrong = tmp_path / "wrong.npz"
    np.savez(wrong, meta=np.frombuffer(json.dumps({"format": "something"}).encode(), np.uint8))
    empty = tmp_path / "empty.npz"
    empty.write_bytes(b"")
    for path in (text, other, wrong, empty, tmp_path / "missing.npz"):
        with pytest.raises(ModelFileError, match=path.name) as caught:
            load_model(path, NTupleNetwork)
        assert "pickle" not in str(caught.value)  # numpy's hint to unpickle is not passed on
    for path in (text, empty):
        with pytest.raises(ModelFileError, match=r"not an \.npz file"):
            load_model(path, NTupleNetwork)


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
        load_model(bad, NTupleNetwork)


def _trained(tmp_path, tc: bool = False):
    from boardai.g2048.train.trainer import TrainConfig, Trainer

    t = Trainer(TrainConfig(patterns="0123,4567", stages=((11,),), tc=tc, alpha=1.0 if tc else 0.1))
    t.train(30)
    path = tmp_path / "full.npz"
    t.save(path)
    return t, path


def test_compact_round_trip(tmp_path) -> None:
    from boardai.learn.model_file import compact_model

    trainer, full = _trained(tmp_path)
    _, err = compact_model(full, tmp_path / "c.npz", NTupleNetwork)
    net, meta2, extra = load_model(tmp_path / "c.npz", NTupleNetwork)
    assert meta2["format_version"] == 2 and meta2["weights_encoding"] == "int16-sparse"
    with zipfile.ZipFile(tmp_path / "c.npz") as z:  # shipped once: LZMA, smaller than deflate
        assert {i.compress_type for i in z.infolist()} == {zipfile.ZIP_LZMA}
    with zipfile.ZipFile(full) as z:  # checkpoints: deflate, faster
        assert {i.compress_type for i in z.infolist()} == {zipfile.ZIP_DEFLATED}
    assert meta2["episodes"] == 30 and meta2["compacted"]["dropped"] == ["pool", "pool_state"]
    assert extra == {} and net.stages == trainer.network.stages
    w = trainer.network.weights
    step = max(float(np.abs(w).max()), 1e-30) / 32767
    assert err <= step and float(np.abs(net.weights - w).max()) == err
    assert net.weights.dtype == np.float32 and not net.weights[w == 0].any()
    assert (np.abs(w[net.weights == 0]) <= step / 2).all()  # only tiny weights drop to zero
    plain = NTupleNetwork.create("0123")  # all zeros: scale 1, nothing stored
    save_model(tmp_path / "z.npz", plain, {}, precision="int16")
    assert not load_model(tmp_path / "z.npz", NTupleNetwork)[0].weights.any()


def test_compact_error_is_half_a_step_per_block(tmp_path) -> None:
    """Across chunk boundaries, and for a last block cut short: every weight moves by at most
    half its block's step (and float32's rounding), and zeros stay zeros."""
    from boardai.learn.model_file import BLOCK

    net = NTupleNetwork.create("012345,0123,45")  # 16^6 + 16^4 + 16^2: several chunks, a stub
    rng = np.random.default_rng(5)
    hit = rng.choice(net.weights.size, 200_000, replace=False)
    net.weights[hit] = rng.standard_normal(hit.size).astype(np.float32) * 10.0 ** rng.integers(
        -3, 4, hit.size
    )
    save_model(tmp_path / "c.npz", net, {}, precision="int16")
    back = load_model(tmp_path / "c.npz", NTupleNetwork)[0].weights
    w = net.weights
    pad = -w.size % BLOCK
    step = np.abs(np.concatenate([w, np.zeros(pad, np.float32)])).reshape(-1, BLOCK).max(axis=1)
    bound = np.repeat(step / 32767, BLOCK)[: w.size] / 2 + np.abs(w) * 1e-6  # + float32 rounding
    assert (np.abs(back - w) <= bound).all() and not back[w == 0].any()


@settings(max_examples=25, deadline=None)
@given(
    bits=st.sampled_from([2, 8, 12, 13, 16]),
    scale=st.sampled_from([1e-3, 1.0, 1e3, 1e5]),
    seed=st.integers(0, 2**32 - 1),
)
def test_compact_bits(tmp_path_factory, bits: int, scale: float, seed: int) -> None:
    """With ``bits``, each weight becomes the nearest multiple of its block's largest weight /
    (2^(bits-1) - 1): checked against that rule written out weight by weight on a few blocks."""
    from boardai.learn.model_file import BLOCK

    net = NTupleNetwork.create("0123,45")  # 65,536 + 256 weights: 17 blocks, the last short
    rng = np.random.default_rng(seed)
    hit = rng.choice(net.weights.size, 3_000, replace=False)
    net.weights[hit] = (rng.standard_normal(hit.size) * scale).astype(np.float32)
    path = tmp_path_factory.mktemp("bits") / "c.npz"
    save_model(path, net, {}, precision="int16", bits=bits)
    back = load_model(path, NTupleNetwork)[0].weights
    assert read_meta(path).get("weights_bits", 16) == bits
    w = net.weights
    for b in (0, 7, w.size // BLOCK):
        block = w[b * BLOCK : (b + 1) * BLOCK]
        top = float(np.abs(block).max())
        s = np.float32(top / (2 ** (bits - 1) - 1)) if top else np.float32(1.0)
        expect = [float(np.float32(np.rint(x / s)) * s) for x in block]
        assert back[b * BLOCK : (b + 1) * BLOCK].tolist() == expect


def test_compact_fewer_bits_smaller(tmp_path) -> None:
    net = NTupleNetwork.create("012345")
    rng = np.random.default_rng(1)
    hit = rng.choice(net.weights.size, 100_000, replace=False)
    net.weights[hit] = (rng.standard_normal(hit.size) * 1000).astype(np.float32)
    save_model(tmp_path / "a.npz", net, {}, precision="int16")
    save_model(tmp_path / "b.npz", net, {}, precision="int16", bits=12)
    b = load_model(tmp_path / "b.npz", NTupleNetwork)[0].weights
    top = float(np.abs(net.weights).max())
    assert float(np.abs(b - net.weights).max()) <= top / 2047 / 2 * (1 + 1e-6)
    assert (tmp_path / "b.npz").stat().st_size < 0.9 * (tmp_path / "a.npz").stat().st_size
    for bad in (1, 17, 12.5):
        with pytest.raises(UsageError, match="bits"):
            save_model(tmp_path / "x.npz", net, {}, precision="int16", bits=bad)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="bits"):
        save_model(tmp_path / "x.npz", net, {}, bits=12)


def test_compact_drop_untouched(tmp_path) -> None:
    """--drop-untouched: every weight TC never updated is written as 0, every other weight as
    the plain compact file writes it; a file without TC state is refused."""
    from boardai.learn.model_file import compact_model

    trainer, full = _trained(tmp_path, tc=True)
    w = trainer.network.weights
    touched = trainer.tc[:, 1] != 0
    w[~touched] = 0.5  # weights TC never saw, as an earlier training without TC leaves them
    trainer.save(full)
    compact_model(full, tmp_path / "plain.npz", NTupleNetwork)
    meta, _ = compact_model(full, tmp_path / "d.npz", NTupleNetwork, drop_untouched=True)
    assert 0 < touched.sum() < touched.size
    assert meta["compacted"]["untouched_zeroed"] == int((~touched).sum())
    plain = load_model(tmp_path / "plain.npz", NTupleNetwork)[0].weights
    dropped = load_model(tmp_path / "d.npz", NTupleNetwork)[0].weights
    assert not dropped[~touched].any() and plain[~touched].all()
    assert np.array_equal(dropped[touched], plain[touched])
    assert (tmp_path / "d.npz").stat().st_size < (tmp_path / "plain.npz").stat().st_size
    (tmp_path / "no_tc").mkdir()
    _, no_tc = _trained(tmp_path / "no_tc")
    with pytest.raises(UsageError, match="no TC state"):
        compact_model(no_tc, tmp_path / "e.npz", NTupleNetwork, drop_untouched=True)


def test_compact_damaged(tmp_path) -> None:
    from boardai.learn.model_file import compact_model

    _, full = _trained(tmp_path)
    compact_model(full, tmp_path / "c.npz", NTupleNetwork)
    with np.load(tmp_path / "c.npz") as z:
        arrays = {k: z[k] for k in z.files}
    arrays["weights_values"] = arrays["weights_values"][:-1]
    np.savez(tmp_path / "bad.npz", **arrays)
    with pytest.raises(ModelFileError, match=r"bad\.npz: damaged model file.*bitmap"):
        load_model(tmp_path / "bad.npz", NTupleNetwork)
    with pytest.raises(UsageError, match="precision"):
        save_model(tmp_path / "x.npz", _net(), {}, precision="float8")


def test_compact_resumes_weights_only(tmp_path) -> None:
    from boardai.g2048.train.trainer import Trainer
    from boardai.learn.model_file import compact_model

    _, full = _trained(tmp_path, tc=True)
    compact_model(full, tmp_path / "c.npz", NTupleNetwork)
    resumed = Trainer.load(tmp_path / "c.npz")
    assert resumed.episodes == 30 and resumed.config.tc
    assert not resumed.tc.any()  # TC starts afresh
    resumed.train(5)
    resumed.save(tmp_path / "again.npz")  # a resumed compact model saves at full precision
    meta = read_meta(tmp_path / "again.npz")
    assert meta["format_version"] == 1 and "weights_encoding" not in meta
    with zipfile.ZipFile(tmp_path / "again.npz") as z:
        assert "extra_tc_e.npy" in z.namelist()


def test_compact_keeps_training_state(tmp_path) -> None:
    """--keep-training: the compact file keeps the TC state (two bytes a weight, read back
    within a 127th of each rate and 9% of each A, never-updated weights exactly) and the
    restart pools; a run resumed from it has them, trains on, and saves at full precision."""
    from boardai.g2048.train.trainer import Trainer
    from boardai.learn.model_file import compact_model

    trainer, full = _trained(tmp_path, tc=True)
    meta, _ = compact_model(full, tmp_path / "k.npz", NTupleNetwork, keep_training=True)
    assert meta["compacted"]["dropped"] == []
    with zipfile.ZipFile(tmp_path / "k.npz") as z:
        names = z.namelist()
    assert "extra_tc_log_a.npy" in names and "extra_tc_e.npy" not in names
    resumed = Trainer.load(tmp_path / "k.npz")
    seen = trainer.tc[:, 1] > 0
    assert 0 < seen.sum() < seen.size
    np.testing.assert_array_equal(resumed.tc[:, 1] > 0, seen)
    e, a = trainer.tc[seen, 0], trainer.tc[seen, 1]
    e2, a2 = resumed.tc[seen, 0], resumed.tc[seen, 1]
    np.testing.assert_allclose(a2, a, rtol=0.091)
    np.testing.assert_allclose(e2 / a2, e / a, atol=0.5 / 127 + 1e-6)
    np.testing.assert_array_equal(resumed.pool, trainer.pool)
    np.testing.assert_array_equal(resumed.pool_state, trainer.pool_state)
    resumed.train(5)
    resumed.save(tmp_path / "again.npz")
    assert read_meta(tmp_path / "again.npz")["format_version"] == 1
    compact_model(full, tmp_path / "p.npz", NTupleNetwork)
    assert (tmp_path / "p.npz").stat().st_size < (tmp_path / "k.npz").stat().st_size


UNIFORM_V2 = {  # float32 weights of files written before the "activity" encoding: sha256
    11: "355a513db2ac5695d7e656155732c01ed0cfd5b008eb94ae33106c58fc697c57",
    16: "83f121a164389845e245e54cf5e800bae91de90f453903446be5a0e0d9bd2201",
}


@pytest.mark.parametrize("bits", sorted(UNIFORM_V2))
def test_uniform_files_written_before_load_the_same(tmp_path, bits: int) -> None:
    """Uniform compact files (version 2) written before there was another encoding (by commit
    86e8b49's code) load to the same float32 weights, and a uniform file written now holds the
    same arrays."""
    import hashlib
    from pathlib import Path

    old = Path(__file__).parent / "data" / f"uniform_v2_{bits}bits.npz"
    weights = load_model(old, NTupleNetwork)[0].weights
    assert hashlib.sha256(weights.tobytes()).hexdigest() == UNIFORM_V2[bits]
    net = NTupleNetwork.create("0123,45")  # the network the files hold
    rng = np.random.default_rng(57)
    hit = rng.choice(net.weights.size, 1500, replace=False)
    net.weights[hit] = (
        rng.standard_normal(hit.size) * 10.0 ** rng.integers(-1, 4, hit.size)
    ).astype(np.float32)
    save_model(tmp_path / "now.npz", net, {"episodes": 57}, precision="int16", bits=bits)
    with np.load(old) as a, np.load(tmp_path / "now.npz") as b:
        assert sorted(a.files) == sorted(b.files)
        for key in a.files:
            if key != "meta":
                np.testing.assert_array_equal(a[key], b[key])
                assert a[key].dtype == b[key].dtype
    fields = ("format_version", "weights_encoding", "weights_block", "weights_bits")
    assert {k: read_meta(old).get(k) for k in fields} == {
        k: read_meta(tmp_path / "now.npz").get(k) for k in fields
    }


def test_compact_activity_damaged(tmp_path) -> None:
    """Damaged arrays of an "activity" file are refused as one line naming the file."""
    from boardai.learn.model_file import compact_model

    _, full = _trained(tmp_path, tc=True)
    compact_model(full, tmp_path / "c.npz", NTupleNetwork, bits=9, encoding="activity")
    with np.load(tmp_path / "c.npz") as z:
        arrays = {k: z[k] for k in z.files}
    meta = json.loads(bytes(arrays["meta"]).decode())
    for name, change, why in (
        ("short.npz", {"weights_values": arrays["weights_values"][:-1]}, "bitmap"),
        ("wide.npz", {"weights_values": arrays["weights_values"].astype(np.int32)}, "not int16"),
        ("scales.npz", {"weights_scales": arrays["weights_scales"][:-1]}, "do not fit"),
        (
            "enc.npz",
            {"meta": _meta_bytes({**meta, "weights_encoding": "int16-sparse-cube"})},
            "unknown weight encoding",
        ),
    ):
        np.savez(tmp_path / name, **{**arrays, **change})
        with pytest.raises(ModelFileError, match=rf"{name}: damaged model file.*{why}") as e:
            load_model(tmp_path / name, NTupleNetwork)
        assert "\n" not in str(e.value)
    with pytest.raises(UsageError, match="encoding must be one of uniform, activity"):
        save_model(tmp_path / "x.npz", _net(), {}, precision="int16", encoding="cube")
    with pytest.raises(UsageError, match="compact"):
        save_model(tmp_path / "x.npz", _net(), {}, encoding="activity")


def _meta_bytes(meta: dict) -> np.ndarray:
    return np.frombuffer(json.dumps(meta).encode("utf-8"), np.uint8)


def _activity_reference(w: np.ndarray, use: np.ndarray, bits: int) -> list[float]:
    """The "activity" scales written out block by block (see ``_activity_scales``)."""
    from boardai.learn.model_file import BLOCK

    blocks = range(0, len(w), BLOCK)
    top = [max(abs(float(x)) for x in w[i : i + BLOCK]) for i in blocks]
    u = [sum(abs(float(x)) for x in use[i : i + BLOCK]) for i in blocks]
    held = [b for b, t in enumerate(top) if t > 0]
    if not held:
        return [1.0] * len(top)
    positive = [u[b] for b in held if u[b] > 0]
    least = min(positive) if positive else 1.0
    u = [max(x, least) for x in u]
    step = float(np.median([top[b] for b in held])) / (2 ** (bits - 1) - 1)
    mid = float(np.median([u[b] for b in held]))
    return [
        float(np.float32(max(step * math.sqrt(mid / u[b]), top[b] / 32767))) if top[b] else 1.0
        for b in range(len(top))
    ]


@settings(max_examples=30, deadline=None)
@given(
    bits=st.sampled_from([2, 8, 11, 16]),
    use=st.lists(st.sampled_from([0.0, 1e-3, 1.0, 7.0, 1e4]), min_size=17, max_size=17),
    zero_blocks=st.sets(st.integers(0, 16), max_size=16),
    seed=st.integers(0, 2**32 - 1),
)
def test_compact_activity_scales(
    tmp_path_factory, bits: int, use: list, zero_blocks: set, seed: int
) -> None:
    """``encoding="activity"``: each block's scale is the median uniform scale of ``bits``
    times sqrt(median use / the block's use), never finer than its largest / 32767 (checked
    against the rule written out block by block); every weight moves by at most half its
    block's scale, and the file is a uniform one (format version 2), so any reader of
    version 2 reads it."""
    from boardai.learn.model_file import BLOCK

    net = NTupleNetwork.create("0123,45")  # 65,536 + 256 weights: 17 blocks, the last short
    rng = np.random.default_rng(seed)
    net.weights[:] = rng.standard_normal(net.weights.size) * 10.0 ** rng.integers(-2, 4)
    for b in zero_blocks:
        net.weights[b * BLOCK : (b + 1) * BLOCK] = 0
    activity = np.repeat(np.array(use, np.float32) / BLOCK, BLOCK)[: net.weights.size]
    path = tmp_path_factory.mktemp("act") / "c.npz"
    save_model(path, net, {}, precision="int16", bits=bits, encoding="activity", activity=activity)
    meta = read_meta(path)
    assert meta["format_version"] == 2 and meta["weights_encoding"] == "int16-sparse"
    assert meta["weights_scaled_by"] == "activity"
    with np.load(path) as z:
        scales = z["weights_scales"]
    expect = _activity_reference(net.weights, activity, bits)
    np.testing.assert_allclose(scales, expect, rtol=1e-5)
    back = load_model(path, NTupleNetwork)[0].weights
    bound = np.repeat(scales, BLOCK)[: back.size] / 2 + np.abs(net.weights) * 1e-6
    assert (np.abs(back - net.weights) <= bound).all()


def test_compact_activity(tmp_path) -> None:
    """compact_model's "activity" steps come from the TC accumulators: the blocks training
    updated most get the finest steps; without TC state it is refused."""
    from boardai.learn.model_file import BLOCK, compact_model

    trainer, full = _trained(tmp_path, tc=True)
    meta, err = compact_model(full, tmp_path / "a.npz", NTupleNetwork, bits=8, encoding="activity")
    assert meta["format_version"] == 2 and meta["weights_scaled_by"] == "activity"
    use = np.add.reduceat(
        trainer.tc[:, 1].astype(np.float64), np.arange(0, trainer.tc.shape[0], BLOCK)
    )
    top = np.maximum.reduceat(
        np.abs(trainer.network.weights), np.arange(0, use.size * BLOCK, BLOCK)
    )
    with np.load(tmp_path / "a.npz") as z:
        scales = z["weights_scales"]
    held = (top > 0) & (use > 0)
    relative = scales[held] / top[held]  # finer (smaller) where training updated more
    order = np.argsort(use[held])
    assert relative[order[-1]] < relative[order[0]]
    back = load_model(tmp_path / "a.npz", NTupleNetwork)[0].weights
    assert float(np.abs(back - trainer.network.weights).max()) == err
    (tmp_path / "no_tc").mkdir()
    _, no_tc = _trained(tmp_path / "no_tc")
    with pytest.raises(UsageError, match=r"no TC state.*activity"):
        compact_model(no_tc, tmp_path / "e.npz", NTupleNetwork, encoding="activity")
    with pytest.raises(UsageError, match="activity"):
        save_model(tmp_path / "x.npz", _net(), {}, precision="int16", encoding="activity")
