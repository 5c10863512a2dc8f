"""``boardai othello data label`` and :mod:`boardai.othello.train.label`: positions labelled by
a player's search, checked against the player asked position by position."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from boardai.cli import main
from boardai.othello.agents import make_agent
from boardai.othello.board import BLACK, Board
from boardai.othello.search import value_in_discs
from boardai.othello.train import label as L
from boardai.othello.train.fit import read_positions, write_positions

PLAYER = "alphabeta:depth=2,endgame=6"
LABELLER = "alphabeta:depth=2,endgame=0"


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    record = tmp_path_factory.mktemp("label") / "games.jsonl"
    argv = ["othello", "match", "--black", PLAYER, "--white", PLAYER, "--no-swap", "--games", "5"]
    assert main([*argv, "--random-plies", "4-10", "--seed", "9", "--record", str(record)]) == 0
    return record


def test_game_starts_cut_rows_by_game() -> None:
    assert L.game_starts(np.array([0, 0, 1, 1, 1, 2])).tolist() == [0, 2, 5, 6]
    assert L.game_starts(np.array([], np.int64)).tolist() == [0]


def test_labels_are_the_search_values_of_the_band_and_the_results_elsewhere(games: Path) -> None:
    data, _ = read_positions([games])
    got, summary = L.label([games], LABELLER, empties=(20, 40), mix=1.0, workers=1)
    inside = (data.empties >= 20) & (data.empties <= 40)
    assert summary["labelled"] == int(inside.sum()) > 0
    assert np.array_equal(got.label[~inside], data.label[~inside])
    agent = make_agent(LABELLER)
    assert data.game is not None
    last = None
    for row in np.flatnonzero(inside):
        if data.game[row] != last:  # a game's table starts empty, as the labeller's does
            agent.reset()
            last = data.game[row]
        board = Board.from_mover(int(data.mover[row]), int(data.opponent[row]), BLACK)
        assert got.label[row] == np.float32(value_in_discs(agent.analyse(board).value))


def test_a_finished_game_found_by_the_search_is_worth_its_discs() -> None:
    from boardai.othello.search import WIN_VALUE, terminal_value

    assert value_in_discs(terminal_value(np.uint64(0xFF), np.uint64(0))) == 64.0
    # the empty squares go to the winner
    assert value_in_discs(terminal_value(np.uint64(0x1), np.uint64(0x6))) == -62.0
    assert value_in_discs(12.5) == 12.5 and value_in_discs(-WIN_VALUE / 4) == -WIN_VALUE / 4


def test_mix_weighs_the_search_against_the_result(games: Path) -> None:
    data, _ = read_positions([games])
    search, _ = L.label([games], LABELLER, empties=(0, 60), mix=1.0)
    half, _ = L.label([games], LABELLER, empties=(0, 60), mix=0.5)
    none, _ = L.label([games], LABELLER, empties=(0, 60), mix=0.0)
    assert np.array_equal(none.label, data.label)
    expect = 0.5 * search.label.astype(np.float64) + 0.5 * data.label
    assert np.allclose(half.label, expect, atol=1e-4)


def test_the_labels_do_not_depend_on_the_workers(games: Path) -> None:
    one, _ = L.label([games], LABELLER, empties=(17, 60), workers=1)
    two, _ = L.label([games], LABELLER, empties=(17, 60), workers=2)
    assert np.array_equal(one.label, two.label)


def test_the_command_writes_a_positions_file_the_fitter_reads(games: Path, tmp_path: Path) -> None:
    out = tmp_path / "labelled.npz"
    argv = ["othello", "data", "label", str(games), "--agent", LABELLER, "--out", str(out)]
    assert main([*argv, "--empties", "30-60", "--workers", "1"]) == 0
    back, info = read_positions([out])
    want, _ = L.label([games], LABELLER, empties=(30, 60))
    assert info["files"][0]["kind"] == "positions"
    assert np.array_equal(back.label, want.label) and back.game is not None
    assert main([*argv, "--workers", "1"]) == 2  # --out exists: refused without --force


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (["--agent", "random"], "no search value"),
        (["--agent", "alphabeta:depth=x"], "depth"),
        (["--agent", LABELLER, "--empties", "40-20"], "not LO-HI"),
        (["--agent", LABELLER, "--mix", "2"], "not in [0, 1]"),
    ],
)
def test_mistakes_are_one_line(
    games: Path, tmp_path: Path, extra: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["othello", "data", "label", str(games), "--out", str(tmp_path / "x.npz"), *extra]
    try:
        code = main(argv)
    except SystemExit as e:
        code = int(e.code or 0)
    assert code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and says in err


def test_positions_without_games_are_refused(tmp_path: Path) -> None:
    b = Board.initial()
    path = tmp_path / "p.npz"
    write_positions(path, np.array([b.mover], np.uint64), np.array([b.opponent], np.uint64), [0])
    with pytest.raises(ValueError, match="carry no games"):
        L.label([path], LABELLER)


def _stop_after(calls: int) -> Callable[[int, int], None]:
    """An on_progress that stops the work (as Ctrl-C would) at its ``calls``-th call."""
    seen = [0]

    def on_progress(done: int, total: int) -> None:
        seen[0] += 1
        if seen[0] == calls:
            raise KeyboardInterrupt

    return on_progress


def test_a_stopped_labelling_goes_on_to_the_same_labels(games: Path, tmp_path: Path) -> None:
    whole, _ = L.label([games], LABELLER, empties=(17, 60))
    kept = tmp_path / "kept.partial.npz"
    with pytest.raises(KeyboardInterrupt):  # the first call comes before any game
        L.label([games], LABELLER, (17, 60), on_progress=_stop_after(3), checkpoint=kept)
    with np.load(kept) as z:
        assert z["done"].tolist() == [True, True, False, False, False]
    again, summary = L.label([games], LABELLER, (17, 60), checkpoint=kept)
    assert np.array_equal(again.label, whole.label)
    assert 0 < summary["resumed"] < summary["labelled"]


def test_a_labelling_keeps_its_games_every_few_minutes(games: Path, tmp_path: Path) -> None:
    kept = tmp_path / "kept.partial.npz"
    got, _ = L.label([games], LABELLER, (17, 60), checkpoint=kept, every=0.0)
    with np.load(kept) as z:  # written after each game (every=0), the last one included
        assert z["done"].all()
        inside = ~np.isnan(z["values"])
        assert np.array_equal(z["values"][inside].astype(np.float32), got.label[inside])


def test_a_checkpoint_of_other_work_is_refused(games: Path, tmp_path: Path) -> None:
    kept = tmp_path / "kept.partial.npz"
    with pytest.raises(KeyboardInterrupt):
        L.label([games], LABELLER, (17, 60), on_progress=_stop_after(2), checkpoint=kept)
    with pytest.raises(ValueError, match="another player or another band"):
        L.label([games], "alphabeta:depth=1,endgame=0", (17, 60), checkpoint=kept)
    with pytest.raises(ValueError, match="another player or another band"):
        L.label([games], LABELLER, (20, 60), checkpoint=kept)
    (tmp_path / "junk.npz").write_bytes(b"no zip")
    with pytest.raises(ValueError, match="not a labelling checkpoint"):
        L.label([games], LABELLER, (17, 60), checkpoint=tmp_path / "junk.npz")


def test_the_command_resumes_only_when_asked(
    games: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from boardai.cli.othello.data_label import partial_path

    out = tmp_path / "r.npz"
    argv = ["othello", "data", "label", str(games), "--agent", LABELLER, "--out", str(out)]
    argv += ["--workers", "1"]
    assert main([*argv, "--resume"]) == 2
    assert "nothing to go on from" in capsys.readouterr().err
    with pytest.raises(KeyboardInterrupt):
        L.label(
            [games], LABELLER, (17, 60), on_progress=_stop_after(2), checkpoint=partial_path(out)
        )
    assert main(argv) == 2
    assert "--resume goes on with them" in capsys.readouterr().err
    assert main([*argv, "--resume", "--force"]) == 2
    assert main([*argv, "--resume"]) == 0
    assert not partial_path(out).exists()
    want, _ = L.label([games], LABELLER, (17, 60))
    assert np.array_equal(read_positions([out])[0].label, want.label)
