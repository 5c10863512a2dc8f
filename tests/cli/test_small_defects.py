"""The smaller defects of the command line: a progress bar past its total, "1 positions", a
folder made unasked, Ray's ``--address`` (a flag boardai has not), two figures for one model,
tables cut at the terminal's width, and PettingZoo missing as a bare ModuleNotFoundError."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest

from boardai.cli import main
from tests.cli.errors import one_error_line as _one_error_line


def test_a_progress_bar_stops_at_its_total(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A DQN run collects env steps 4 boards at a time: 62 steps end at 64, and the bar read
    64/62 (20010/20000 on a real run)."""
    pytest.importorskip("torch")
    argv = ["2048", "train", "dqn", "--net", "fc", "--planes", "12", "--hidden", "16"]
    argv += ["--fc-layers", "16", "--num-envs", "4", "--warmup", "32", "--batch-size", "16"]
    argv += ["--eval-games", "2", "--eval-every", "0", "--replay-size", "2000"]
    assert main([*argv, "--steps", "62", "--out", str(tmp_path / "run")]) == 0
    out, err = capsys.readouterr()
    assert "64 env steps" in out  # the run did go past it
    counts = re.findall(r"(\d+)/62\b", err)
    assert counts and all(int(c) <= 62 for c in counts), err
    assert "62/62" in err


def test_one_position_is_not_positions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    obf = tmp_path / "one.obf"
    obf.write_text("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X\n")
    assert main(["othello", "solve", str(obf)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1 position; score") and "total: 1 position " in out
    assert "1 positions" not in out


def test_render_does_not_make_a_missing_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("PIL")
    from boardai.g2048 import Game
    from boardai.records import write_records

    game = Game(seed=1)
    game.move(game.board.legal_actions()[0])
    records = tmp_path / "g.jsonl"
    write_records(records, [game.to_record()])
    missing = tmp_path / "typo" / "pics"
    for flag in ("--png", "--gif"):
        assert main(["render", str(records), flag, str(missing / "x.img")]) == 2
        line = _one_error_line(capsys)
        assert f"{flag} {missing / 'x.img'}: folder {missing} does not exist" in line
    assert not (tmp_path / "typo").exists()
    assert main(["render", str(records), "--png", str(tmp_path / "x.png")]) == 0


def test_joining_no_ray_cluster_names_no_address_flag(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ray's own words told the user to set an --address flag boardai does not have."""
    ray = pytest.importorskip("ray")

    def no_cluster(*args: object, **kwargs: object) -> None:
        raise ConnectionError(
            "Could not find any running Ray instance. Please specify the one to connect to by "
            "setting `--address` flag or `RAY_ADDRESS` environment variable."
        )

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", no_cluster)
    argv = ["2048", "eval", "--agent", "random", "--games", "2", "--cluster", "auto"]
    assert main(argv) == 2
    line = _one_error_line(capsys)
    assert "cannot join the Ray cluster at 'auto'" in line and "--address" not in line
    assert "ray start --head" in line and "--cluster HOST:PORT" in line

    def other(*args: object, **kwargs: object) -> None:
        raise ConnectionError("Found two clusters: set the `--address` flag to pick one.")

    monkeypatch.setattr(ray, "init", other)
    assert main([*argv[:-1], "10.0.0.1:6379"]) == 2
    line = _one_error_line(capsys)
    assert "set --cluster HOST:PORT to pick one" in line and "--address" not in line


def test_the_list_and_the_card_give_one_figure(capsys: pytest.CaptureFixture[str]) -> None:
    """The card opened with its description's figure (264,778 at 1-ply), the list with the
    strength's (264,272): now the strength is the one source of both."""
    from boardai.cli.models import described, headline
    from boardai.learn import store

    assert main(["models"]) == 0
    listed = " ".join(capsys.readouterr().out.split())
    for e in store.entries(None, None):
        figure = headline(e.strength.result)
        assert figure in listed
        assert main(["models", "show", e.name]) == 0
        first, *rest = capsys.readouterr().out.splitlines()
        assert first == f"{e.name}: {e.game} {e.kind}" + (
            f", {described(e.description)}" if e.description else ""
        )
        assert f"strength:   {e.strength.result}" in rest
        cut = e.description[len(described(e.description)) :]  # the description's figures
        for figure in re.findall(r"\d{1,3}(?:,\d{3})+|\d+\.\d+", cut):
            assert figure not in first, (e.name, figure)
    assert main(["models", "show", "2048-ntuple"]) == 0
    assert "264,778" not in capsys.readouterr().out.splitlines()[0]


def test_tables_fold_long_cells_instead_of_cutting_them() -> None:
    from rich.console import Console

    from boardai.g2048.stats import summarize
    from boardai.report import summary_table

    long = "ntuple:model=/home/someone/runs/2048/a/long/path/to/model-7.npz,depth=3"
    table = summary_table(summarize([100, 200], [10, 20]), "t", {"agent": long})
    narrow = Console(file=io.StringIO(), width=50)
    narrow.print(table)
    text = narrow.file.getvalue()  # type: ignore[attr-defined]
    assert "…" not in text
    cells = "".join(re.sub(r"[│┃┏┓┗┛━─┡┩└┘┌┐┳┻╇┬┴┼]", " ", text).split())
    assert long in cells, text


def test_pettingzoo_missing_says_which_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import boardai.othello.env as othello_env

    monkeypatch.setitem(sys.modules, "pettingzoo", None)  # as if not installed
    monkeypatch.setattr(othello_env, "_AEC", None)
    for make in (othello_env.env, othello_env.raw_env):
        with pytest.raises(ImportError) as e:
            make()
        assert str(e.value) == (
            "the PettingZoo env othello_v0 needs pettingzoo, which is not installed: "
            'pip install "boardai[othello]"'
        )
        assert "\n" not in str(e.value) and e.value.name == "pettingzoo"
