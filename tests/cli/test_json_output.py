"""Every ``--json`` takes an optional OUT: with none (or ``-``) stdout holds the JSON document
alone (the report for people goes to stderr), so ``boardai ... --json | jq`` works; with OUT,
the report prints as usual and the same document goes to the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boardai.cli import main

OBF = "--XXXXX--OOOXX-O-OOOOXXOOOOOOXOOOXXOOOXXOOOOOXXOXXX-OOOOOO--XXXX X;\n"
SWEEP = """trainer = "2048-ntuple"
[base]
patterns = "0123"
episodes = 20
[grid]
alpha = [0.1, 0.05]
[eval]
games = 4
"""

COMMANDS = {
    "2048 eval": (
        ["2048", "eval", "--agent", "random", "--games", "3", "--workers", "1"],
        "summary",
    ),
    "2048 compare": (
        ["2048", "compare", "--agents", "random", "greedy", "--games", "2", "--workers", "1"],
        "runs",
    ),
    "2048 random": (["2048", "random", "--games", "5"], "summary"),
    "othello match": (
        [
            "othello",
            "match",
            "--black",
            "random",
            "--white",
            "wpc",
            "--games",
            "2",
            "--workers",
            "1",
        ],
        "score",
    ),
    "othello tournament": (
        ["othello", "tournament", "--agents", "random", "wpc", "--games", "2", "--workers", "1"],
        "elo",
    ),
    "othello solve": (["othello", "solve", "{tmp}/p.obf"], "positions"),
    "othello analyze": (
        ["othello", "analyze", "{tmp}/p.obf", "--agent", "alphabeta:depth=1"],
        "positions",
    ),
    "othello perft": (["othello", "perft", "4"], "leaves"),
    "2048 bench engine": (
        ["2048", "bench", "engine", "--games", "20", "--repeat", "1", "--py-boards", "200"],
        "slides_per_s",
    ),
    "2048 bench env": (
        ["2048", "bench", "env", "--steps", "500", "--vector-steps", "5", "--repeat", "1"],
        "single_raw_random_steps_per_s",
    ),
    "2048 bench ntuple": (
        ["2048", "bench", "ntuple", "--patterns", "0123", "--episodes", "20", "--repeat", "1"],
        "training_moves_per_s",
    ),
    "sweep": (["sweep", "{tmp}/s.toml", "--out", "{tmp}/sw", "--workers", "1"], "trials"),
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_json_goes_to_stdout_alone_or_to_a_file(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "p.obf").write_text(OBF)
    (tmp_path / "s.toml").write_text(SWEEP)
    template, key = COMMANDS[command]
    argv = [a.replace("{tmp}", str(tmp_path)) for a in template]
    assert main([*argv, "--json"]) == 0
    alone = json.loads(capsys.readouterr().out)  # stdout is the JSON and nothing else
    path = tmp_path / "out.json"
    if command == "sweep":  # a second sweep into the same folder would skip nothing: anew
        argv[argv.index("--out") + 1] = str(tmp_path / "sw2")
    assert main([*argv, "--json", str(path)]) == 0
    text = capsys.readouterr().out
    assert text.strip() and not text.lstrip().startswith("{")  # the report, for people
    assert key in alone and set(json.loads(path.read_text())) == set(alone)
    assert not (tmp_path / "-").exists() and not Path("-").exists()
