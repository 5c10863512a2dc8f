"""n-tuple TD training: it learns, lambda returns match the reference, runs resume exactly,
and the command line trains, reports, saves and resumes."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from boardai.cli import main
from boardai.errors import ModelFileError
from boardai.g2048.kernels import max_exponent_fast, play_random_games
from boardai.g2048.ntuple import NTupleNetwork
from boardai.g2048.train.config import TrainConfig
from boardai.g2048.train.episodes import _lambda_return
from boardai.g2048.train.trainer import Trainer
from tests.naive import ntuple as naive

#: The command these tests run.
TRAIN = ["2048", "train", "ntuple"]

TINY = "0123,4567,0145"


def test_tiny_network_learns_well_above_random() -> None:
    trainer = Trainer(TrainConfig(patterns=TINY, seed=11))
    trainer.train(1500)
    learned = trainer.train(500)
    random_scores, _, _ = play_random_games(500, np.uint64(11), 0.1, 2, 0.1)
    assert random_scores.mean() < 1500
    assert learned.scores.mean() > 3 * random_scores.mean()
    assert (learned.max_tiles >= 512).mean() > 0.3


@pytest.mark.parametrize(
    "options",
    [
        {"method": "online"},
        {"method": "online-fast"},
        {"method": "online-fast", "tc": True, "alpha": 1.0},
        {"method": "backward-greedy"},
        {"lam": 0.5, "horizon": 3},
        {"tc": True, "alpha": 1.0},
        {"optimistic": 2000.0},
        {"stages": (8,)},
        {"stages": "8,8+7"},
        {"restart": 0.5, "pool_size": 50},
    ],
)
def test_every_method_learns(options) -> None:
    trainer = Trainer(TrainConfig(patterns=TINY, seed=5, **options))
    trainer.train(600)
    late = trainer.train(300)
    fresh = late.scores[~late.restarted]
    assert len(fresh) > 50
    assert fresh.mean() > 2000  # random play averages about 1,000


def test_restart_at_keeps_the_board_where_the_tile_first_appears() -> None:
    """Each fresh game that gets the tile pools one board, which holds the tile as its largest
    (a 512 needs a 256 first), and restarted episodes begin from those boards."""
    trainer = Trainer(TrainConfig(patterns=TINY, seed=2, restart=0.5, restart_at="8"))
    chunk = trainer.train(400)
    fresh_tiles = chunk.max_tiles[~chunk.restarted]
    assert 0 < (fresh_tiles < 256).sum() < len(fresh_tiles)  # some games never get there
    count = int(trainer.pool_state[0, 0, 0])
    assert count == (fresh_tiles >= 256).sum()
    assert {max_exponent_fast(b) for b in trainer.pool[0, 0, :count]} == {8}
    assert chunk.restarted.sum() > 100
    assert (chunk.max_tiles[chunk.restarted] >= 256).all()


def test_carousel_restarts_from_every_threshold() -> None:
    """Thresholds 256 and 256+128: each pool holds boards that reach its threshold, and the
    restarts start from both."""
    from boardai.g2048.ntuple import tile_presence

    trainer = Trainer(TrainConfig(patterns=TINY, seed=4, restart=0.6, restart_at="8,8+7"))
    chunk = trainer.train(600)
    counts = trainer.pool_state[0, :, 0]
    assert (counts > 20).all()
    first, second = (trainer.pool[0, k, : counts[k]] for k in range(2))
    assert all(tile_presence(b) >= 2**8 and max_exponent_fast(b) == 8 for b in first)
    assert all(tile_presence(b) >= 2**8 + 2**7 for b in second)
    # the first 256 often comes with a 128 on the board (a board in both pools), not always
    assert set(second.tolist()) - set(first.tolist())
    starts = chunk.restarted.sum()
    assert starts > 200
    assert (chunk.max_tiles[chunk.restarted] >= 256).all()


def test_old_single_pool_files_load_and_train(tmp_path) -> None:
    """Files from before the carousel kept one pool per thread (2-d arrays): they load as
    one level and go on training exactly the same."""
    from boardai.learn.model_file import load_model, save_model

    trainer = Trainer(TrainConfig(patterns=TINY, seed=6, restart=0.5, pool_size=30))
    trainer.train(60)
    trainer.save(tmp_path / "new.npz")
    network, meta, extra = load_model(tmp_path / "new.npz", NTupleNetwork)
    extra = {"pool": extra["pool"][:, 0, :], "pool_state": extra["pool_state"][:, 0, :]}
    save_model(tmp_path / "old.npz", network, meta, extra)
    old = Trainer.load(tmp_path / "old.npz")
    np.testing.assert_array_equal(old.pool, trainer.pool)
    np.testing.assert_array_equal(old.train(20).scores, trainer.train(20).scores)


def test_cli_reports_the_restarts_apart(tmp_path, capsys) -> None:
    """The line tells the restarted episodes' gain and reach; a CSV of an older version (no
    restart columns) keeps its columns when a run appends to it."""
    out, table = tmp_path / "m.npz", tmp_path / "log.csv"
    table.write_text("episode,avg\n100,1.0\n")
    args = [*TRAIN, "--patterns", TINY, "--out", str(out), "--quiet", "--csv"]
    more = ["--restart", "0.5", "--restart-at", "8", "--report-every", "300"]
    assert main([*args, str(tmp_path / "new.csv"), "--episodes", "300", *more]) == 0
    with (tmp_path / "new.csv").open() as f:
        (row,) = list(csv.DictReader(f))
    restarts, gain = int(row["restarts"]), float(row["restart_avg"])
    assert 50 < restarts < 200 and gain > 0 and float(row["restart_reach_16384"]) == 0
    text = " ".join(capsys.readouterr().out.split())  # undo the console's wrapping
    assert f"; {restarts} restarts: +{gain:,.0f}, 16384 0.0%, 32768 0.0%" in text
    from boardai.learn.csv_log import CsvLog

    log = CsvLog(table, append=True)
    log.write({"episode": 200, "avg": 2.0, "restarts": 5})
    assert table.read_text().splitlines() == ["episode,avg", "100,1.0", "200,2.0"]


def test_changing_the_restart_thresholds_empties_the_pools() -> None:
    trainer = Trainer(TrainConfig(patterns=TINY, seed=2, restart=0.5))
    trainer.train(100)
    assert trainer.pool_state[0, 0, 0] > 0
    trainer.reconfigure(restart_at="7")
    assert trainer.pool_state.sum() == 0 and not trainer.pool.any()
    trainer.train(200)
    count = int(trainer.pool_state[0, 0, 0])
    assert {max_exponent_fast(b) for b in trainer.pool[0, 0, :count]} == {7}


def test_chunks_do_not_matter() -> None:
    a = Trainer(TrainConfig(patterns=TINY, seed=3))
    a.train(40)
    b = Trainer(TrainConfig(patterns=TINY, seed=3))
    for n in (7, 13, 20):
        b.train(n)
    np.testing.assert_array_equal(a.network.weights, b.network.weights)


@pytest.mark.parametrize(
    "options",
    [
        {"method": "backward"},
        {"method": "online-fast", "tc": True},
        {"method": "online"},
        {"method": "backward-greedy"},
        {"lam": 0.5, "restart": 0.5, "restart_at": (7,)},
    ],
)
def test_a_record_that_grows_changes_nothing(monkeypatch, options) -> None:
    """An episode's record (the lookups, rewards, boards and values of its moves) starts at
    ``RECORD_MOVES`` and doubles when full; from 3 moves it doubles several times an episode,
    and the run is the same as one whose record never fills."""
    from boardai.g2048.train import trainer as trainer_module

    config = TrainConfig(patterns=TINY, seed=5, **options)
    whole = Trainer(config)
    whole_chunk = whole.train(30)
    monkeypatch.setattr(trainer_module, "RECORD_MOVES", 3)
    grown = Trainer(config)
    chunk = grown.train(30)
    np.testing.assert_array_equal(chunk.scores, whole_chunk.scores)
    np.testing.assert_array_equal(chunk.moves, whole_chunk.moves)
    assert chunk.moves.max() > 3 * 2**5  # the long episodes' records grew 5 times and more
    np.testing.assert_array_equal(grown.network.weights, whole.network.weights)
    np.testing.assert_array_equal(grown.tc, whole.tc)
    np.testing.assert_array_equal(grown.pool, whole.pool)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {
            "tc": True,
            "restart": 0.3,
            "pool_size": 20,
            "lam": 0.4,
            "alpha_decay": 0.5,
            "alpha_every": 15,
        },
    ],
)
def test_resume_equals_an_uninterrupted_run(tmp_path, options) -> None:
    config = {"patterns": TINY, "seed": 9, **options}
    straight = Trainer(TrainConfig(**config))
    whole = np.concatenate([straight.train(25).scores, straight.train(25).scores])
    first = Trainer(TrainConfig(**config))
    part = first.train(25).scores
    first.save(tmp_path / "m.npz")
    resumed = Trainer.load(tmp_path / "m.npz")
    assert resumed.episodes == 25
    rest = resumed.train(25).scores
    np.testing.assert_array_equal(np.concatenate([part, rest]), whole)
    np.testing.assert_array_equal(resumed.network.weights, straight.network.weights)
    if options:
        np.testing.assert_array_equal(resumed.tc, straight.tc)
        np.testing.assert_array_equal(resumed.pool, straight.pool)


def test_multi_stage_network_round_trips(tmp_path) -> None:
    """Stages 7 and 7+6 (128; 128 with 64) all learn, and the file keeps them exactly."""
    from boardai.g2048 import Board
    from boardai.learn.model_file import load_model, read_meta

    trainer = Trainer(TrainConfig(patterns=TINY, seed=6, stages="7,7+6"))
    trainer.train(300)
    net = trainer.network
    size = net.weights.size // 3
    assert net.stages == ((7,), (7, 6)) and net.n_stages == 3
    assert all(np.count_nonzero(net.weights[s * size : (s + 1) * size]) for s in range(3))
    trainer.save(tmp_path / "m.npz")
    meta = read_meta(tmp_path / "m.npz")
    assert meta["stages"] == [7, [7, 6]] and meta["config"]["stages"] == [7, [7, 6]]
    loaded, _, _ = load_model(tmp_path / "m.npz", NTupleNetwork)
    assert loaded.stages == net.stages
    np.testing.assert_array_equal(loaded.weights, net.weights)
    for cells in ([7, 6, 1], [7, 5, 1], [6, 6, 2], [8, 1]):  # stages 2, 1, 0, 2
        board = Board.from_exponents(cells + [0] * (16 - len(cells)))
        assert loaded.value(board) == net.value(board) != 0.0
    resumed = Trainer.load(tmp_path / "m.npz")
    assert resumed.config.stages == ((7,), (7, 6))
    resumed.train(20)
    trainer.train(20)
    np.testing.assert_array_equal(resumed.network.weights, trainer.network.weights)


def test_single_stage_files_keep_their_format(tmp_path) -> None:
    """Single-tile stages are stored as plain ints, as before combinations existed, and such
    files load."""
    from boardai.learn.model_file import load_model, read_meta, save_model

    save_model(tmp_path / "s.npz", NTupleNetwork.create("0123", stages=(9, 11)), {})
    assert read_meta(tmp_path / "s.npz")["stages"] == [9, 11]
    assert load_model(tmp_path / "s.npz", NTupleNetwork)[0].stages == ((9,), (11,))


def test_threads_share_one_table() -> None:
    trainer = Trainer(TrainConfig(patterns=TINY, seed=2))
    chunk = trainer.train(200, threads=2)
    assert trainer.episodes == 200 and (chunk.moves > 0).all()
    assert np.abs(trainer.network.weights).sum() > 0


def test_lambda_return_matches_reference() -> None:
    rng = np.random.default_rng(0)
    for _ in range(50):
        n = int(rng.integers(2, 12))
        rewards = rng.integers(0, 64, n).astype(np.int64)
        values = rng.normal(100, 30, n)
        lam = float(rng.uniform(0.05, 1.0))
        horizon = int(rng.integers(1, 8))
        for t in range(n - 1):
            got = _lambda_return(rewards, values, t, n, lam, horizon)
            want = naive.lambda_return(rewards.tolist(), values.tolist(), t, lam, horizon)
            assert got == pytest.approx(want, rel=1e-12, abs=1e-9)


def test_bad_config() -> None:
    with pytest.raises(ValueError):
        TrainConfig(method="sideways")
    with pytest.raises(ValueError):
        TrainConfig(lam=0.5, method="online")
    with pytest.raises(ValueError):
        TrainConfig(alpha=0)
    for bad in ("x", "16", "14,13"):
        with pytest.raises(ValueError, match="stage"):
            TrainConfig(restart=0.5, restart_at=bad)
    with pytest.raises(ValueError, match="need a restart probability"):
        TrainConfig(restart_at="14")
    for bad in (3, 12, 65536):
        with pytest.raises(ValueError, match="downgrade must be 0 or a tile"):
            TrainConfig(downgrade=bad)


def test_load_rejects_a_model_without_training_state(tmp_path) -> None:
    from boardai.learn.model_file import save_model

    save_model(tmp_path / "bare.npz", NTupleNetwork.create("0123"), {})
    with pytest.raises(ModelFileError, match=r"bare\.npz"):
        Trainer.load(tmp_path / "bare.npz")


def test_cli_trains_reports_and_resumes(tmp_path, capsys) -> None:
    out, table, png = tmp_path / "m.npz", tmp_path / "log.csv", tmp_path / "curve.png"
    common = [
        *TRAIN,
        "--patterns",
        TINY,
        "--out",
        str(out),
        "--csv",
        str(table),
        "--report-every",
        "100",
    ]
    assert main([*common, "--episodes", "200", "--checkpoint-every", "100"]) == 0
    text = capsys.readouterr().out
    assert "200  avg = " in text and "reached" in text
    lines = table.read_text().splitlines()  # a row past the saved 200, as a killed run leaves
    table.write_text("\n".join([*lines, lines[-1].replace("200", "250", 1)]) + "\n")
    assert main([*common, "--episodes", "300", "--resume", str(out), "--plot", str(png)]) == 0
    with table.open() as f:
        rows = list(csv.DictReader(f))
    assert [int(r["episode"]) for r in rows] == [100, 200, 300]
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert Trainer.load(out).episodes == 300


def test_cli_reports_whole_intervals_from_short_calls(tmp_path, capsys) -> None:
    """The command trains in calls of about a second (so Ctrl-C is quick), yet reports over
    whole intervals and learns exactly what one long call learns."""
    out = tmp_path / "m.npz"
    args = [*TRAIN, "--patterns", TINY, "--out", str(out), "--quiet"]
    assert main([*args, "--episodes", "400", "--report-every", "400"]) == 0
    one = Trainer(TrainConfig(patterns=TINY))
    chunk = one.train(400)
    assert np.array_equal(Trainer.load(out).network.weights, one.network.weights)
    text = capsys.readouterr().out
    assert f"400  avg = {chunk.scores.mean():,.0f}, max = {chunk.scores.max():,}" in text


def test_cli_errors(tmp_path, capsys) -> None:
    bad = tmp_path / "bad.npz"
    bad.write_text("not a model")
    assert main([*TRAIN, "--resume", str(bad), "--out", str(tmp_path / "m.npz")]) == 2
    assert "bad.npz" in capsys.readouterr().err
    assert main([*TRAIN, "--patterns", "zz", "--out", str(tmp_path / "m.npz")]) == 2
    assert "unknown pattern set 'zz'" in capsys.readouterr().err
    assert main([*TRAIN, "--stages", "x", "--out", str(tmp_path / "m.npz")]) == 2
    assert main([*TRAIN, "--stages", "14+13,14", "--out", str(tmp_path / "m.npz")]) == 2
    assert "must increase" in capsys.readouterr().err
    bad_at = ["--restart", "0.5", "--restart-at", "16384"]
    assert main([*TRAIN, *bad_at, "--out", str(tmp_path / "m.npz")]) == 2
    assert "--restart-at: stage '16384': exponents must be in 1..15" in capsys.readouterr().err
    assert main([*TRAIN, "--downgrade", "100", "--out", str(tmp_path / "m.npz")]) == 2
    assert "downgrade must be 0 or a tile from 4 to 32768, got 100" in capsys.readouterr().err
    assert (
        main(
            [
                "2048",
                "train",
                "ntuple",
                "--method",
                "online",
                "--lambda",
                "0.5",
                "--out",
                str(tmp_path / "m.npz"),
            ]
        )
        == 2
    )


def test_bench_command(tmp_path, capsys) -> None:
    model = tmp_path / "m.npz"
    Trainer(TrainConfig(patterns=TINY)).save(model)
    assert (
        main(
            [
                "2048",
                "bench",
                "ntuple",
                "--model",
                str(model),
                "--episodes",
                "20",
                "--repeat",
                "1",
                "--games",
                "20",
            ]
        )
        == 0
    )
    assert "moves per CPU second" in capsys.readouterr().out


def test_bench_method(tmp_path, capsys) -> None:
    bench = ["2048", "bench", "ntuple", "--patterns", "0123", "--episodes", "5", "--repeat", "1"]
    out = tmp_path / "b.json"
    assert main([*bench, "--method", "online", "--json", str(out)]) == 0
    assert json.loads(out.read_text())["method"] == "online"
    assert main([*bench, "--method", "sideways"]) == 2
    assert "choose from backward" in capsys.readouterr().err


def test_resume_can_switch_to_tc(tmp_path, capsys) -> None:
    out = tmp_path / "m.npz"
    base = [*TRAIN, "--patterns", "0123", "--out", str(out), "--report-every", "50"]
    assert main([*base, "--episodes", "50", "--optimistic", "1000"]) == 0
    assert main([*base, "--episodes", "100", "--resume", str(out), "--tc", "--alpha", "1.0"]) == 0
    assert "now with" in capsys.readouterr().out
    resumed = Trainer.load(out)
    assert resumed.config.tc and resumed.config.alpha == 1.0 and resumed.config.optimistic == 1000
    assert resumed.tc[:, 1].sum() > 0
    with pytest.raises(ValueError, match="keeps its patterns"):
        resumed.reconfigure(patterns="4567")


def test_resume_applies_options_given_even_at_their_default(tmp_path, capsys) -> None:
    """``--alpha 0.1`` (the default for a new run) on resume sets alpha back to 0.1; leaving
    an option out keeps the saved value."""
    out = tmp_path / "m.npz"
    base = [*TRAIN, "--patterns", "0123", "--out", str(out), "--report-every", "50"]
    assert main([*base, "--episodes", "50", "--alpha", "0.01", "--restart", "0.5"]) == 0
    assert main([*base, "--episodes", "100", "--resume", str(out), "--alpha", "0.1"]) == 0
    assert "now with {'alpha': 0.1}" in capsys.readouterr().out
    config = Trainer.load(out).config
    assert config.alpha == 0.1 and config.restart == 0.5
    assert main([*base, "--episodes", "150", "--resume", str(out)]) == 0
    assert "now with" not in capsys.readouterr().out
    assert Trainer.load(out).config.alpha == 0.1
    assert main([*base, "--episodes", "200", "--resume", str(out), "--downgrade", "16384"]) == 0
    assert "now with {'downgrade': 16384}" in capsys.readouterr().out
    assert Trainer.load(out).config.downgrade == 16384


def test_split_stages_starts_every_stage_from_the_trained_weights(tmp_path, capsys) -> None:
    """Resuming with --stages copies the one-stage weights into every stage, so every board
    keeps its value (TC state: the first stage keeps it, the others start at the full rate);
    then the stages learn apart, and a second split is refused."""
    from boardai.g2048 import Board

    out = tmp_path / "m.npz"
    base = [*TRAIN, "--patterns", TINY, "--out", str(out), "--report-every", "100"]
    assert main([*base, "--episodes", "200", "--tc", "--alpha", "0.5"]) == 0
    before = Trainer.load(out)
    boards = [Board.from_exponents(c + [0] * (16 - len(c))) for c in ([7, 6, 1], [5, 3], [8, 1])]
    assert main([*base, "--episodes", "200", "--resume", str(out), "--stages", "7"]) == 0
    split = Trainer.load(out)
    assert split.config.stages == ((7,),) and split.network.n_stages == 2
    size = before.network.weights.size
    for s in range(2):
        part = slice(s * size, (s + 1) * size)
        np.testing.assert_array_equal(split.network.weights[part], before.network.weights)
        np.testing.assert_array_equal(
            split.tc[part], before.tc if s == 0 else np.zeros_like(before.tc)
        )
    assert [split.network.value(b) for b in boards] == [before.network.value(b) for b in boards]
    split.train(200)
    w = split.network.weights
    assert not np.array_equal(w[:size], w[size:])  # the stages learn apart
    assert main([*base, "--episodes", "300", "--resume", str(out), "--stages", "8"]) == 2
    assert "stages already" in capsys.readouterr().err
    assert main([*base, "--episodes", "300", "--resume", str(out), "--stages", "7"]) == 0


def test_split_stages_can_keep_the_tc_rates(tmp_path, capsys) -> None:
    """With --split-tc keep every stage starts from the first stage's TC state (the rates its
    weights had reached), not at the full rate; --split-tc without a split is refused."""
    out, split = tmp_path / "m.npz", tmp_path / "split.npz"
    base = [*TRAIN, "--patterns", TINY, "--report-every", "100"]
    assert main([*base, "--out", str(out), "--episodes", "200", "--tc", "--alpha", "0.5"]) == 0
    before = Trainer.load(out)
    assert np.count_nonzero(before.tc) > 0
    again = [*base, "--out", str(split), "--episodes", "200", "--resume", str(out)]
    assert main([*again, "--split-tc", "keep"]) == 2  # no --stages: nothing to split
    capsys.readouterr()
    assert main([*again, "--stages", "7", "--split-tc", "keep"]) == 0
    assert "now with {'stages': '7', 'split_tc': 'keep'}" in capsys.readouterr().out
    trainer = Trainer.load(split)
    size = before.network.weights.size
    for s in range(2):
        np.testing.assert_array_equal(trainer.tc[s * size : (s + 1) * size], before.tc)


def test_add_patterns_grows_the_network_keeping_every_value(tmp_path, capsys) -> None:
    """--add-patterns appends zero tables (in every stage, TC state too): values stay, the new
    patterns then learn, and the grown file resumes like any other."""
    from boardai.g2048 import Board

    out = tmp_path / "m.npz"
    first = [*TRAIN, "--patterns", "0123,4567", "--out", str(out)]
    base = [*first, "--report-every", "100", "--stages", "7"]
    assert main([*base, "--episodes", "200", "--tc", "--alpha", "0.5"]) == 0
    before = Trainer.load(out)
    grow = ["--resume", str(out), "--add-patterns", "0145"]
    assert main([*first, "--episodes", "200", *grow]) == 0
    grown = Trainer.load(out)
    assert grown.network.patterns == ((0, 1, 2, 3), (4, 5, 6, 7), (0, 1, 4, 5))
    assert grown.config.patterns == "0123,4567,0145" and grown.network.n_stages == 2
    boards = [Board.from_exponents(c + [0] * (16 - len(c))) for c in ([7, 6, 1], [5, 3], [8, 1])]
    assert [grown.network.value(b) for b in boards] == [before.network.value(b) for b in boards]
    old, new = int(before.network.offsets[-1]), int(grown.network.offsets[-1])
    for s in range(2):
        w = grown.network.weights[s * new : (s + 1) * new]
        np.testing.assert_array_equal(w[:old], before.network.weights[s * old : (s + 1) * old])
        assert not w[old:].any()
        a = grown.tc[s * new : (s + 1) * new, 1]
        assert a[:old].any() and not a[old:].any()
    grown.train(100)
    assert grown.network.weights[old:new].any()  # the new pattern learns
    assert main([*first, "--episodes", "300", *grow]) == 2  # 0145 is there now
    assert "there already" in capsys.readouterr().err
    again = ["--resume", str(out), "--add-patterns", "5410"]  # its cells in another order
    assert main([*first, "--episodes", "300", *again]) == 2
    assert "pattern 5410 is there already" in capsys.readouterr().err
    assert main([*base, "--episodes", "10", "--add-patterns", "0145"]) == 2
    assert main([*first, "--episodes", "300", "--resume", str(out), "--add-patterns", "00"]) == 2
    assert "--add-patterns: pattern '00' repeats a cell" in capsys.readouterr().err


def _reference_episode(
    tables, patterns, seed: int, dg: int, alpha: float, method: str = "backward"
) -> tuple[int, int]:
    """One TD(0) episode spelled out over the plain network: greedy play by
    ``r + V(afterstate)``, the afterstate read downgraded from ``2**dg`` up when ``dg > 0``;
    ``backward``: updates from the last afterstate back after the game; ``online``: each
    afterstate towards the next move's ``r + V`` as soon as that move is chosen (before it is
    played), its error from its value now; ``online-fast``: the same with its error from the
    value it had when it was chosen. The spawns come from the episode's rng stream as the
    trainer draws them. Returns the score and how many afterstates read downgraded."""
    from boardai.g2048 import Board
    from boardai.g2048.kernels import spawn, start_board
    from boardai.rng import seed_stream, splitmix64

    step = alpha / (8 * len(patterns))

    def learn(x, target, value=None):
        error = target - (naive.value(x, patterns, tables) if value is None else value)
        naive.update(x, patterns, tables, np.float32(step * error))

    state, _ = splitmix64(seed_stream(np.uint64(seed), np.uint64(0)))  # the restart draw
    lo, state = start_board(state, 2, 0.1)
    board = Board._make(int(lo))
    afters, rewards, played = [], [], []  # played: r + V when the move was chosen
    downgraded = 0
    while board.legal_actions():
        best = None
        for a in board.legal_actions():
            after, r = board.slide(a)
            x = naive.downgrade(after.exponents(), dg) if dg else after.exponents()
            q = r + naive.value(x, patterns, tables)
            if best is None or q > best[0]:
                best = (q, after, r, x)
        q, after, r, x = best
        if afters and method == "online":
            learn(afters[-1], q)
        elif afters and method == "online-fast":
            learn(afters[-1], q, played[-1] - rewards[-1])
        afters.append(x)
        rewards.append(r)
        played.append(q)
        downgraded += x != after.exponents()
        state, bits = splitmix64(state)
        board = Board._make(int(spawn(np.uint64(after.lo), bits, 0.1)))
    if method == "online":
        learn(afters[-1], 0.0)
    elif method == "online-fast":
        learn(afters[-1], 0.0, played[-1] - rewards[-1])
    else:
        values = [0.0] * len(afters)
        for t in range(len(afters) - 1, -1, -1):
            learn(afters[t], 0.0 if t == len(afters) - 1 else rewards[t + 1] + values[t + 1])
            values[t] = naive.value(afters[t], patterns, tables)
    return sum(rewards), downgraded


@pytest.mark.parametrize(
    ("downgrade", "method"),
    [(0, "backward"), (8, "backward"), (32, "backward"), (0, "online"), (8, "online-fast")],
)
def test_an_episode_matches_the_reference(downgrade: int, method: str) -> None:
    """The compiled episode (play, downgrading, TD(0) by each method) against the spelled-out
    one, from random weights: the same score, and the same weights after learning."""
    trainer = Trainer(
        TrainConfig(patterns="0123,4567,0145", seed=3, downgrade=downgrade, method=method)
    )
    net = trainer.network
    net.weights[:] = np.random.default_rng(4).normal(size=net.weights.size).astype(np.float32)
    tables = [
        [
            {i: float(net.weights[net.offsets[p] + i]) for i in range(16 ** len(pat))}
            for p, pat in enumerate(net.patterns)
        ]
    ]
    dg = downgrade.bit_length() - 1 if downgrade else 0
    score, downgraded = _reference_episode(
        tables, net.patterns, 3, dg, trainer.config.alpha, method
    )
    assert (downgraded > 0) == (downgrade > 0)
    chunk = trainer.train(1)
    assert chunk.scores[0] == score
    for p in range(len(net.patterns)):
        block = net.weights[net.offsets[p] : net.offsets[p + 1]]
        want = np.array([tables[0][p][i] for i in range(len(block))])
        np.testing.assert_allclose(block, want, rtol=1e-4, atol=1e-5)


def _relaid(weights: np.ndarray, old: NTupleNetwork, new: NTupleNetwork) -> np.ndarray:
    """``old``'s weights where ``new`` (the same patterns, each with its cells in another
    order) keeps them: entry by entry, every assignment of values to a pattern's cells."""
    out = np.empty_like(weights)
    for p, (a, b) in enumerate(zip(old.patterns, new.patterns, strict=True)):
        values = np.indices((16,) * len(a)).reshape(len(a), -1)  # values[i]: cell a[i]'s
        at_a = sum(values[i] << (4 * i) for i in range(len(a)))
        at_b = sum(values[a.index(cell)] << (4 * i) for i, cell in enumerate(b))
        out[new.offsets[p] + at_b] = weights[old.offsets[p] + at_a]
    return out


@pytest.mark.parametrize(
    "options", [{}, {"method": "online-fast"}, {"tc": True, "alpha": 1.0}, {"stages": (8,)}]
)
def test_the_order_of_a_patterns_cells_moves_its_weights_and_nothing_else(options) -> None:
    a = Trainer(TrainConfig(patterns=TINY, seed=8, **options))
    b = Trainer(TrainConfig(patterns="3012,6457,5014", seed=8, **options))  # TINY's, reordered
    ca, cb = a.train(200), b.train(200)
    assert ca.scores.tolist() == cb.scores.tolist() and ca.moves.tolist() == cb.moves.tolist()
    per_stage = [np.split(t.network.weights, t.network.n_stages) for t in (a, b)]
    for wa, wb in zip(*per_stage, strict=True):
        assert np.array_equal(_relaid(wa, a.network, b.network), wb)
    assert not np.array_equal(a.network.weights, b.network.weights)  # they did move


def test_tc_warmup_holds_the_weights_and_measures_tc(tmp_path) -> None:
    """A compact TC model resumes with its TC state measured first: the warm-up episodes
    leave every weight as it was and fill E and A; then E is scaled by sqrt(warm-up / trained)
    and training goes on exactly as a run that played those episodes with learn=False would,
    and a checkpoint taken during the warm-up goes on warming up."""
    from boardai.learn.model_file import compact_model

    config = TrainConfig(patterns=TINY, tc=True, alpha=1.0, seed=4)
    trained = Trainer(config)
    trained.train(40)
    trained.save(tmp_path / "full.npz")
    compact_model(tmp_path / "full.npz", tmp_path / "c.npz", NTupleNetwork)

    warm = Trainer.load(tmp_path / "c.npz")
    before = warm.network.weights.copy()
    assert not warm.tc.any() and warm.warm_up_tc(30) and warm.tc_warmup_left == 30
    warm.train(20)
    np.testing.assert_array_equal(warm.network.weights, before)
    assert warm.tc[:, 1].any() and warm.tc_warmup_left == 10
    warm.save(tmp_path / "mid.npz")
    mid = Trainer.load(tmp_path / "mid.npz")
    assert mid.tc_warmup_left == 10 and mid.tc_warmup_shrink == warm.tc_warmup_shrink
    mid.train(25)  # 10 held, then 15 learning
    assert not np.array_equal(mid.network.weights, before)

    plain = Trainer.load(tmp_path / "c.npz")
    plain.train(30, learn=False)
    plain.tc[:, 0] *= np.float32(np.sqrt(30 / 40))  # as if measured over all 40 it trained on
    plain.train(15)
    np.testing.assert_array_equal(mid.network.weights, plain.network.weights)
    np.testing.assert_array_equal(mid.tc, plain.tc)
    assert not plain.warm_up_tc(30)  # its TC state is no longer fresh
    short = Trainer.load(tmp_path / "c.npz")
    assert short.warm_up_tc(10**6) and short.tc_warmup_left == 40  # no longer than it trained


def test_cli_resume_of_a_compact_tc_model_warms_up(tmp_path, capsys) -> None:
    from boardai.learn.model_file import compact_model

    out = tmp_path / "m.npz"
    base = [*TRAIN, "--patterns", "0123", "--report-every", "20", "--tc", "--alpha", "1.0"]
    assert main([*base, "--episodes", "40", "--out", str(out)]) == 0
    compact_model(out, tmp_path / "c.npz", NTupleNetwork)
    again = [*base, "--resume", str(tmp_path / "c.npz"), "--episodes", "60"]
    assert main([*again, "--out", str(tmp_path / "w.npz"), "--tc-warmup", "15"]) == 0
    assert "the next 15 episodes play with the weights held" in capsys.readouterr().out
    assert main([*again, "--out", str(tmp_path / "n.npz"), "--tc-warmup", "0"]) == 0
    assert "weights held" not in capsys.readouterr().out
    held, fresh = Trainer.load(tmp_path / "w.npz"), Trainer.load(tmp_path / "n.npz")
    assert held.episodes == fresh.episodes == 60
    assert not np.array_equal(held.network.weights, fresh.network.weights)
