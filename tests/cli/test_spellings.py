"""One command-line scheme for both games (``boardai 2048 eval``, ``boardai othello match``),
the older spellings kept as hidden aliases: each runs the very same command, with the same
options and defaults, and no listing shows it."""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from boardai.cli import App, build_app, main
from tests.cli.test_doc_commands import COMMANDS, argv_of

#: Every spelling of the scheme before this one, and the command it now is.
OLD_TO_NEW = {
    "eval": "2048 eval",
    "compare": "2048 compare",
    "play": "2048 play",
    "watch": "2048 watch",
    "random": "2048 random",
    "train ntuple": "2048 train ntuple",
    "train dqn": "2048 train dqn",
    "train othello-ntuple": "othello train ntuple",
    "train othello-dqn": "othello train dqn",
    "bench engine": "2048 bench engine",
    "bench env": "2048 bench env",
    "bench search": "2048 bench search",
    "bench ntuple": "2048 bench ntuple",
    "perft othello": "othello perft",
}
#: What a command needs on its command line to parse at all.
REQUIRED = {
    "2048 eval": ["--agent", "greedy"],
    "2048 compare": ["--agents", "greedy", "random"],
    "2048 train ntuple": ["--out", "m.npz"],
    "othello train ntuple": ["--out", "m.npz"],
    "othello train dqn": ["--out", "m.pt"],
    "othello perft": ["5"],
}
#: What each listing shows (``sweep`` may join the top level).
LISTED = {
    "": {"2048", "othello", "models", "journal", "serve", "tui", "replay", "render"},
    "2048": {"play", "watch", "eval", "compare", "random", "train", "bench"},
    "2048 train": {"ntuple", "dqn"},
    "2048 bench": {"engine", "env", "search", "ntuple"},
    "othello": {
        "play",
        "watch",
        "match",
        "tournament",
        "gtp",
        "solve",
        "analyze",
        "train",
        "data",
        "perft",
    },
    "othello train": {"ntuple", "dqn", "fit"},
    "othello data": {"pack", "show", "label", "openings"},
    "journal": {"show", "merge"},
}


@pytest.fixture(scope="module")
def app() -> App:
    return build_app()


def listed(help_text: str) -> set[str]:
    """The sub-commands a ``--help`` lists (one a line, indented by four)."""
    return set(re.findall(r"^    (\S+)", help_text, re.M))


def spelled(app: App, argv: list[str]) -> Iterator[tuple[str, bool]]:
    """Each sub-command word of ``argv`` and whether its parser's ``--help`` lists it."""
    parser = app.parser
    for word in argv:
        tables = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not tables or word not in tables[0].choices:
            return
        yield word, word in {a.dest for a in tables[0]._choices_actions}
        parser = tables[0].choices[word]


def parsed(app: App, argv: list[str]) -> dict[str, object]:
    """The namespace ``argv`` parses to, less the names of the sub-commands taken."""
    args = vars(app.parser.parse_args(argv))
    return {k: v for k, v in args.items() if not k.endswith("command")}


@pytest.mark.parametrize(("old", "new"), OLD_TO_NEW.items())
def test_an_older_spelling_is_the_same_command_with_the_same_defaults(
    app: App, old: str, new: str
) -> None:
    rest = REQUIRED.get(new, [])
    before, now = parsed(app, [*old.split(), *rest]), parsed(app, [*new.split(), *rest])
    assert before == now and before["func"] is now["func"]
    assert app.find(old) is app.find(new)
    assert app.find(old).prog == f"boardai {new}"  # its usage line shows the new spelling
    assert [listed for _, listed in spelled(app, old.split())][-1] is False
    assert all(listed for _, listed in spelled(app, new.split()))


def test_an_older_spelling_takes_the_same_options(app: App) -> None:
    """Options given change the same values under both spellings."""
    argv = ["--agent", "heuristic", "--games", "7", "--seed", "3", "--workers", "1"]
    assert parsed(app, ["eval", *argv]) == parsed(app, ["2048", "eval", *argv])
    argv = ["--out", "m.npz", "--alpha", "0.5", "--stages", "3", "--resume"]
    assert parsed(app, ["train", "othello-ntuple", *argv]) == parsed(
        app, ["othello", "train", "ntuple", *argv]
    )


@pytest.mark.parametrize("group", LISTED)
def test_listings_show_the_scheme_and_no_alias(app: App, group: str) -> None:
    shown = listed((app.find(group) if group else app.parser).format_help())
    assert shown - {"sweep"} == LISTED[group]


def test_the_groups_of_older_spellings_say_where_their_commands_went(
    app: App, capsys: pytest.CaptureFixture[str]
) -> None:
    for group, new in (("train", "boardai 2048 train"), ("bench", "boardai 2048 bench")):
        text = app.find(group).format_help()
        assert "moved:" in text and new in text and not listed(text)
    assert main(["perft"]) == 0
    assert "moved: boardai othello perft" in capsys.readouterr().out


def test_a_mistyped_command_lists_only_the_scheme(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["evaluate"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "'2048', 'othello'" in err and "'eval'" not in err and "'train'" not in err


def test_each_command_lives_in_the_module_named_for_it(app: App) -> None:
    def leaves(parser: argparse.ArgumentParser, path: list[str]) -> Iterator[list[str]]:
        tables = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not tables:
            yield path
            return
        for a in tables[0]._choices_actions:  # the listed ones: the scheme
            yield from leaves(tables[0].choices[a.dest], [*path, a.dest])

    found = 0
    for path in leaves(app.parser, []):
        func = app.find(" ".join(path)).get_default("func")
        if path[0] in ("2048", "othello"):
            package = {"2048": "g2048"}.get(path[0], path[0])
            name = "_".join(path[1:]).replace("random", "random_games")
            assert func.__module__ == f"boardai.cli.{package}.{name}", path
        else:
            assert func.__module__ == f"boardai.cli.{path[0]}", path
        found += 1
    assert found >= 25


def test_docs_and_help_examples_use_the_scheme(app: App) -> None:
    """Every command the README, the tours and the ``--help`` examples show is spelled the new
    way (the benchmarks journal keeps the commands as they were run)."""
    old = [
        (source, c)
        for source, c in COMMANDS
        if source != "docs/journal/benchmarks-journal.md"
        and not all(listed for _, listed in spelled(app, argv_of(c)))
    ]
    assert not old
    assert any(
        source == "docs/journal/benchmarks-journal.md" and c.startswith("boardai eval")
        for source, c in COMMANDS
    )


def test_both_spellings_give_the_same_results(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outputs = []
    for command in (["random"], ["2048", "random"]):
        out = tmp_path / f"{len(outputs)}.json"
        assert main([*command, "--games", "300", "--seed", "5", "--json", str(out)]) == 0
        outputs.append(json.loads(out.read_text())["games"])
    assert outputs[0] == outputs[1] and len(outputs[0]) == 300
    counts = []
    for command in (["perft", "othello"], ["othello", "perft"]):
        out = tmp_path / "perft.json"
        assert main([*command, "5", "--json", str(out)]) == 0
        counts.append(json.loads(out.read_text())["leaves"])
    assert counts == [1396, 1396]
