"""N-tuple networks: symmetric images, values, TD updates, model files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardai.errors import ModelFileError, UsageError
from boardai.othello import Board
from boardai.othello.ntuple import (
    TUPLES,
    NTupleNetwork,
    feature_index,
    symmetric_images,
    update,
    update_tc,
)
from boardai.othello.ntuple_file import load_model, save_network
from boardai.othello.train.ntuple import train_episodes
from tests.naive import othello_counts as naive_counts


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
        train_episodes(net, 20, 0.01, 0.1, np.uint64(7))
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


def test_systematic_sets_cover_every_placement() -> None:
    from boardai.othello.ntuple import TUPLE_SETS, parse_tuples

    net = NTupleNetwork.create("all2x2")
    assert len(net.names) == 10 and net.weights.size == 10 * 81
    images = {frozenset(int(s) for s in row if s >= 0) for row in net.squares}
    squares = {
        frozenset({8 * r + c, 8 * r + c + 1, 8 * r + c + 8, 8 * r + c + 9})
        for r in range(7)
        for c in range(7)
    }
    assert images == squares
    lines = {
        frozenset(int(s) for s in row if s >= 0) for row in NTupleNetwork.create("all4").squares
    }
    assert frozenset({0, 9, 18, 27}) in lines and frozenset({7, 14, 21, 28}) in lines
    assert len(lines) == 2 * 8 * 5 + 2 * 5 * 5  # rows, columns, both diagonal directions
    # Sets and tuples mix; a tuple named twice is kept once.
    mixed = parse_tuples("all2x2,r2x2_a1,corner3x3")
    assert mixed == [*TUPLE_SETS["all2x2"].split(","), "corner3x3"]


def test_alpha_schedule() -> None:
    from boardai.othello.train.ntuple_trainer import NTupleConfig, alpha_at

    const = NTupleConfig(episodes=100, alpha=0.01, alpha_end=None)
    assert alpha_at(const, 0) == alpha_at(const, 100) == 0.01
    default = NTupleConfig(episodes=100)  # 0.001 -> 0.0002, geometric
    assert alpha_at(default, 50) == pytest.approx(0.001 * 0.2**0.5)
    lin = NTupleConfig(episodes=100, alpha=0.01, alpha_end=0.002, alpha_schedule="linear")
    assert alpha_at(lin, 50) == pytest.approx(0.006) and alpha_at(lin, 100) == pytest.approx(0.002)
    with pytest.raises(ValueError, match="schedule"):
        alpha_at(NTupleConfig(alpha_end=0.001, alpha_schedule="cosine"), 10)


def test_resume_continues_the_schedule(tmp_path: Path) -> None:
    from boardai.othello.train.ntuple_trainer import NTupleConfig, train

    config = NTupleConfig(
        episodes=1000,
        tuples="small",
        alpha=0.01,
        alpha_end=0.001,
        alpha_schedule="exp",
        eval_every=500,
        eval_games=2,
        keep_checkpoints=True,
    )
    train(config, tmp_path / "straight.npz")
    at500 = load_model(tmp_path / "straight.at500.npz")[1]
    assert at500["episodes"] == 500 and (tmp_path / "straight.at1000.npz").exists()
    config_half = NTupleConfig(**{**config.__dict__, "episodes": 500})
    train(config_half, tmp_path / "resumed.npz")
    meta = train(config, tmp_path / "resumed.npz", resume=tmp_path / "resumed.npz")
    assert meta["episodes"] == 1000 and meta["alpha_now"] == pytest.approx(0.001)
    a, b = load_model(tmp_path / "straight.npz")[0], load_model(tmp_path / "resumed.npz")[0]
    assert np.array_equal(a.weights, b.weights)


def test_a_tiny_run_learns(tmp_path: Path) -> None:
    """2,000 self-play games of the systematic 2x2 squares beat random clearly more often
    than the untrained network (which plays the first legal move)."""
    from boardai.arena.match import play_match
    from boardai.othello.train.ntuple_trainer import NTupleConfig, train

    zero = tmp_path / "zero.npz"
    save_network(zero, NTupleNetwork.create("all2x2"))
    config = NTupleConfig(
        episodes=2000, tuples="all2x2", alpha=0.01, alpha_end=0.002, eval_every=2000, eval_games=2
    )
    train(config, tmp_path / "m.npz")
    before = play_match(f"ntuple:model={zero}", "random", 200, epsilon=0.1, seed=3).score
    after = play_match(
        f"ntuple:model={tmp_path / 'm.npz'}", "random", 200, epsilon=0.1, seed=3
    ).score
    assert after > max(before + 0.1, 0.7)


def test_update_tc_matches_a_plain_reference() -> None:
    rng = np.random.default_rng(0)
    net = NTupleNetwork.create("small")
    e = rng.normal(size=net.weights.size).astype(np.float32)
    a = (np.abs(e) + rng.random(net.weights.size)).astype(np.float32)
    a[::3] = 0  # never updated: full rate
    e[::3] = 0
    net.weights[:] = rng.normal(size=net.weights.size)
    w_ref, e_ref, a_ref = net.weights.copy(), e.copy(), a.copy()
    b = Board.initial().play("d3").play("c5")
    for i in range(net.n_images):  # the plain loop: one image after another
        j = int(
            net.offsets[0, i]
            + feature_index(np.uint64(b.mover), np.uint64(b.opponent), net.squares, i)
        )
        rate = abs(float(e_ref[j])) / float(a_ref[j]) if a_ref[j] > 0 else 1.0
        w_ref[j] += np.float32(0.05 * rate)
        e_ref[j] += np.float32(-0.5)
        a_ref[j] += np.float32(0.5)
    tc = np.stack([e, a], axis=1)
    update_tc(np.uint64(b.mover), np.uint64(b.opponent), *net.data(), tc, 0.05, -0.5)
    assert np.allclose(net.weights, w_ref, atol=1e-6)
    assert np.array_equal(tc[:, 0], e_ref) and np.array_equal(tc[:, 1], a_ref)
    assert not np.array_equal(net.weights, w_ref - w_ref)  # something moved


def test_tc_run_resumes_and_learns(tmp_path: Path) -> None:
    from boardai.othello.ntuple_file import load_arrays
    from boardai.othello.train.ntuple_trainer import NTupleConfig, train

    config = NTupleConfig(
        episodes=1000,
        tuples="small",
        alpha=0.02,
        alpha_end=None,
        tc=True,
        eval_every=500,
        eval_games=2,
    )
    train(config, tmp_path / "straight.npz")
    train(NTupleConfig(**{**config.__dict__, "episodes": 500}), tmp_path / "resumed.npz")
    train(config, tmp_path / "resumed.npz", resume=tmp_path / "resumed.npz")
    a, b = load_model(tmp_path / "straight.npz")[0], load_model(tmp_path / "resumed.npz")[0]
    assert np.array_equal(a.weights, b.weights)
    arrays = load_arrays(tmp_path / "straight.npz")
    tc = arrays["tc_e"], arrays["tc_a"]
    assert (tc[1] > 0).sum() > 1000
    # Rates |E|/A fell below 1 where errors changed sign.
    seen = tc[1] > 0
    assert (np.abs(tc[0][seen]) / tc[1][seen]).mean() < 0.9
    assert np.array_equal(load_arrays(tmp_path / "resumed.npz")["tc_a"], tc[1])


def test_averaged_run_plays_the_average_and_resumes(tmp_path: Path) -> None:
    from boardai.othello.ntuple_file import load_arrays
    from boardai.othello.train.ntuple_trainer import NTupleConfig, train

    config = NTupleConfig(
        episodes=1500,
        tuples="small",
        alpha=0.01,
        alpha_end=None,  # a constant rate: the partial run below has a different length
        average=1000,
        eval_every=500,
        eval_games=2,
    )
    train(config, tmp_path / "straight.npz")
    train(NTupleConfig(**{**config.__dict__, "episodes": 1000}), tmp_path / "resumed.npz")
    train(config, tmp_path / "resumed.npz", resume=tmp_path / "resumed.npz")
    for name in ("straight.npz", "resumed.npz"):
        played = load_model(tmp_path / name)[0].weights
        trained = load_arrays(tmp_path / name)["train_weights"]
        if name == "straight.npz":
            first = played, trained
        else:
            assert np.array_equal(played, first[0]) and np.array_equal(trained, first[1])
    played, trained = first
    # The average lags the trained weights: same direction, smaller, not equal.
    assert not np.array_equal(played, trained)
    assert 0.3 < np.abs(played).sum() / np.abs(trained).sum() < 1.0
    assert np.corrcoef(played, trained)[0, 1] > 0.9
    meta = load_model(tmp_path / "straight.npz")[1]
    assert all("score_vs_wpc_trained" in e for e in meta["evals"])
    assert (tmp_path / "straight.train.npz").exists()


def _reference_value(net: NTupleNetwork, p: int, o: int) -> float:
    """The staged value the plain way (:func:`tests.naive.othello_counts.tuple_sum`), tanh'd."""
    return float(np.tanh(naive_counts.tuple_sum(net, p, o)))


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 5), st.integers(0, 2**32 - 1), st.integers(0, 60))
def test_staged_values_match_a_plain_reference(stages: int, seed: int, plies: int) -> None:
    rng = np.random.default_rng(seed)
    net = NTupleNetwork.create("small", stages=stages)
    net.weights[:] = rng.normal(scale=0.1, size=net.weights.size)
    b = Board.initial()
    for _ in range(plies):  # a random game position
        if b.is_terminal():
            break
        b = b.play(int(rng.choice(b.legal_actions())))
    assert net.value(b.mover, b.opponent) == pytest.approx(
        _reference_value(net, b.mover, b.opponent), abs=1e-5
    )
    # An update moves only the current stage's tables.
    before = net.weights.copy()
    update(np.uint64(b.mover), np.uint64(b.opponent), *net.data(), 0.01)
    table = net.weights.size // stages
    changed = {int(j) // table for j in np.flatnonzero(net.weights != before)}
    discs = bin(b.mover | b.opponent).count("1")
    assert changed == {min((discs - 4) * stages // 61, stages - 1)}


def test_staged_network_round_trips_and_resumes(tmp_path: Path) -> None:
    from boardai.othello.train.ntuple_trainer import NTupleConfig, train

    config = NTupleConfig(
        episodes=600, tuples="small", stages=3, alpha_end=None, eval_every=300, eval_games=2
    )
    train(config, tmp_path / "straight.npz")
    train(NTupleConfig(**{**config.__dict__, "episodes": 300}), tmp_path / "resumed.npz")
    train(config, tmp_path / "resumed.npz", resume=tmp_path / "resumed.npz")
    a, meta = load_model(tmp_path / "straight.npz")
    b = load_model(tmp_path / "resumed.npz")[0]
    assert a.stages == 3 and meta["stages"] == 3
    assert np.array_equal(a.weights, b.weights)
    table = a.weights.size // 3
    for s in range(3):  # every phase of the game learned something
        assert np.abs(a.weights[s * table : (s + 1) * table]).sum() > 0


def test_bad_stages() -> None:
    from boardai.errors import UsageError

    with pytest.raises(UsageError, match="stages must be in"):
        NTupleNetwork.create("small", stages=0)


def _old_format_file(path: Path, net: NTupleNetwork, meta: dict, **arrays: np.ndarray) -> Path:
    """A file as boardai wrote Othello networks before the one n-tuple format: its own
    format name, the metadata as a string array, training arrays without a prefix."""
    import json

    record = {**meta, "format": "boardai-othello-ntuple", "format_version": 1}
    np.savez_compressed(path, weights=net.weights, meta=np.array(json.dumps(record)), **arrays)
    return path


def test_files_from_before_stages_load_as_one_stage(tmp_path: Path) -> None:
    net = NTupleNetwork.create("small")
    net.weights[:] = np.arange(net.weights.size, dtype=np.float32)
    old = _old_format_file(tmp_path / "old.npz", net, {"tuples": "small"})  # session-2 files
    loaded = load_model(old)[0]
    assert loaded.stages == 1 and np.array_equal(loaded.weights, net.weights)


def test_old_format_files_load_with_their_training_state(tmp_path: Path) -> None:
    from boardai.learn.model_file import read_meta
    from boardai.othello.ntuple_file import load_arrays

    net = NTupleNetwork.create("small", stages=2)
    rng = np.random.default_rng(1)
    net.weights[:] = rng.normal(size=net.weights.size).astype(np.float32)
    tc_e = rng.normal(size=net.weights.size).astype(np.float32)
    meta = {"tuples": "corner3x3,edge2x,line2,diag8", "stages": 2, "episodes": 7}
    old = _old_format_file(tmp_path / "old.npz", net, meta, tc_e=tc_e)
    loaded, got = load_model(old)
    assert np.array_equal(loaded.weights, net.weights) and got["episodes"] == 7
    assert list(load_arrays(old)) == ["tc_e"] and np.array_equal(load_arrays(old)["tc_e"], tc_e)
    # Written again, it is in the one format of every game, and reads back the same.
    save_network(tmp_path / "new.npz", loaded, got, load_arrays(old))
    assert read_meta(tmp_path / "new.npz")["format"] == "boardai-ntuple"
    assert read_meta(tmp_path / "new.npz")["game"] == "othello"
    assert np.array_equal(load_model(tmp_path / "new.npz")[0].weights, net.weights)
    assert np.array_equal(load_arrays(tmp_path / "new.npz")["tc_e"], tc_e)


def test_othello_networks_compact_like_2048_ones(tmp_path: Path) -> None:
    from boardai.learn.model_file import compact_model

    net = NTupleNetwork.create("small", stages=3)
    net.weights[:] = np.random.default_rng(2).normal(size=net.weights.size).astype(np.float32)
    save_network(tmp_path / "full.npz", net, {"episodes": 3}, {"tc_a": np.abs(net.weights)})
    meta, change = compact_model(tmp_path / "full.npz", tmp_path / "c.npz", NTupleNetwork)
    back = load_model(tmp_path / "c.npz")[0]
    assert meta["compacted"]["dropped"] == ["tc_a"] and meta["weights_encoding"] == "int16-sparse"
    assert back.stages == 3 and 0 < change <= np.abs(net.weights).max() / 32767
    assert np.abs(back.weights - net.weights).max() == pytest.approx(change)


def test_linear_networks_round_trip_and_old_layouts_are_tanh(tmp_path: Path) -> None:
    from boardai.othello.ntuple import DISC_CLIP, greedy_action
    from boardai.othello.ntuple_eval import evaluate_ntuple, search_data

    net = NTupleNetwork.create("corner3x3,diag8", stages=2, output="linear")
    net.weights = np.random.default_rng(0).normal(0, 8, net.weights.size).astype(np.float32)
    path = tmp_path / "lin.npz"
    save_network(path, net)
    back, meta = load_model(path)
    assert back.output == "linear" and meta["output"] == "linear"
    assert np.array_equal(back.weights, net.weights)
    layout = {"tuples": "corner3x3,diag8", "stages": 2}  # a file from before output kinds
    assert NTupleNetwork.from_layout(layout, net.weights.copy()).output == "tanh"
    with pytest.raises(UsageError, match="output"):
        NTupleNetwork.create("small", output="relu")
    b = Board.initial().play("d3").play("c5")
    raw = net.raw_value(b.mover, b.opponent)
    assert net.value(b.mover, b.opponent) == pytest.approx(min(max(raw, -DISC_CLIP), DISC_CLIP))
    got = evaluate_ntuple(np.uint64(b.mover), np.uint64(b.opponent), search_data(net))
    assert got == pytest.approx(min(max(raw, -DISC_CLIP), DISC_CLIP), abs=1e-4)
    # 1-ply play follows the disc values (the compiled tanh path sees them scaled by 1/64).
    squares, offsets, weights = net.data()
    assert not weights.flags.writeable and np.array_equal(weights * 64, net.weights)
    children = {a: b.play(a) for a in b.legal_actions()}
    best = min(children, key=lambda a: net.raw_value(children[a].mover, children[a].opponent))
    a = greedy_action(np.uint64(b.mover), np.uint64(b.opponent), squares, offsets, weights)
    assert int(a) == best
