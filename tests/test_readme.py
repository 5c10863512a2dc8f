"""The README's commands are the ones CI runs, its Python examples run, and what it says of the
envs' masks and the example positions holds (the commands' options and files:
tests/cli/test_doc_commands.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text().strip().splitlines()[-1]
    assert ci in (ROOT / "README.md").read_text()


def test_readme_python_examples_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})


#: The ways the README and the environment tour say to reach an env's mask.
MASK_CALLS = {
    "env.unwrapped.action_masks()": True,
    'env.get_wrapper_attr("action_masks")()': True,
    "env.action_masks()": False,  # said not to work on a gymnasium.make env
}


def test_the_mask_calls_the_docs_name_do_what_they_say() -> None:
    """The README said masks were in ``env.action_masks()``, which fails on the env
    ``gymnasium.make`` returns (its wrappers do not pass the method on)."""
    import gymnasium as gym
    import numpy as np

    import boardai  # noqa: F401  (registers the envs)

    texts = [(ROOT / p).read_text() for p in ("README.md", "docs/tour/env-dqn.md")]
    named = {c for t in texts for c in re.findall(r"`(env\.[^`]*action_masks[^`]*)`", t)}
    assert named and named <= set(MASK_CALLS)
    for name in ("boardai/2048-v0", "boardai/Othello-v0"):
        env = gym.make(name)
        _, info = env.reset(seed=3)
        for call, works in MASK_CALLS.items():
            if works:
                mask = eval(call, {"env": env})
                assert mask.dtype == np.bool_ and np.array_equal(mask, info["action_mask"] == 1)
            else:
                with pytest.raises(AttributeError):
                    eval(call, {"env": env})
        env.close()


def test_the_example_positions_solve_in_seconds(tmp_path: Path) -> None:
    """``boardai othello solve examples/positions.obf`` (the README's, and the command's
    --help's) runs: every position is solved exactly."""
    import json

    from boardai.cli import main

    out = tmp_path / "solved.json"
    argv = ["othello", "solve", str(ROOT / "examples/positions.obf"), "--json", str(out)]
    assert main([*argv, "--empties-max", "20"]) == 0
    solved = json.loads(out.read_text())
    assert len(solved["positions"]) == 5 and not solved["interrupted"]
    assert all(p["score"] is not None and p["move"] for p in solved["positions"])


@pytest.mark.slow
def test_the_example_positions_are_what_their_script_writes(tmp_path: Path) -> None:
    """examples/positions.obf comes from boardai's own games (examples/make_positions.py)."""
    import runpy

    script = runpy.run_path(str(ROOT / "examples" / "make_positions.py"))
    lines = [script["obf"](script["position"](seed, n)) for seed, n in script["WANTED"]]
    shipped = (ROOT / "examples" / "positions.obf").read_text().splitlines()
    assert [line.split(" ;")[0] for line in shipped if not line.startswith(";")] == lines


def _readme_command(start: str) -> tuple[list[str], str]:
    """The README's command line that begins ``start``: its argv (without ``boardai``) and its
    comment."""
    for line in (ROOT / "README.md").read_text().splitlines():
        if line.startswith(start):
            command, _, comment = line.partition("#")
            return command.split()[1:], comment.strip()
    raise AssertionError(f"no README line starts {start!r}")


def test_the_figures_of_the_readme_cheap_commands_hold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Run as written, ``othello perft 7`` and ``2048 random --games 10000 --seed 1`` give the
    figures their comments give."""
    import json

    from boardai.cli import main

    argv, comment = _readme_command("boardai othello perft 7 ")
    assert comment == "55,092"
    assert main(argv) == 0
    assert "= 55,092 " in capsys.readouterr().out
    argv, comment = _readme_command("boardai 2048 random --games 10000 --seed 1 ")
    assert "about 1,090 points" in comment
    assert main([*argv, "--json", str(tmp_path / "r.json")]) == 0
    assert round(json.loads((tmp_path / "r.json").read_text())["summary"]["mean"], -1) == 1090
