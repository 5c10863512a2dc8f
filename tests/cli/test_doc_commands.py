"""Every ``boardai`` command the docs show parses with today's command line.

The README, the tours, docs/benchmarks.md and each command's own ``--help`` examples are full of
command lines; a renamed or removed option would leave them stale without any test noticing
(the tour once named ``--restart-tile`` after it had become ``--restart-at``). This parses each
one with the real parser (options, choices and types; nothing runs).
"""

from __future__ import annotations

import argparse
import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest

from boardai.cli import App, build_app

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
WRAPPERS = {"nice", "nohup", "time", "-n"}


def doc_commands(text: str) -> Iterator[str]:
    """The ``boardai ...`` command lines in the fenced code blocks of a Markdown text."""
    for block in re.findall(r"```[^\n]*\n(.*?)```", text, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            line = line.strip().removeprefix("$ ")
            for part in re.split(r"&&|\|", line):
                part = part.split(" #")[0].strip()
                words = part.split()
                while words and (words[0] in WRAPPERS or words[0].lstrip("-").isdigit()):
                    words = words[1:]
                if words[:1] == ["boardai"]:
                    yield " ".join(words)


def help_examples(parser: argparse.ArgumentParser, seen: set[int] | None = None) -> Iterator[str]:
    """The example lines of ``parser``'s ``--help`` and of all its subcommands' (each once,
    though an alias, an older spelling, reaches it twice)."""
    seen = set() if seen is None else seen
    if id(parser) in seen:
        return
    seen.add(id(parser))
    for line in (parser.epilog or "").splitlines():
        if line.strip().startswith("boardai "):
            yield line.strip()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from help_examples(sub, seen)


def argv_of(command: str) -> list[str]:
    words = shlex.split(command, comments=True)[1:]
    for i, word in enumerate(words):  # drop a redirection and what follows it
        if word.startswith((">", "2>", "<")):
            return words[:i]
    return words


def all_commands() -> list[tuple[str, str]]:
    found = [(p.relative_to(ROOT).as_posix(), c) for p in DOCS for c in doc_commands(p.read_text())]
    found += [("--help examples", c) for c in help_examples(build_app().parser)]
    return found


COMMANDS = all_commands()


@pytest.fixture(scope="module")
def app() -> App:
    return build_app()


def test_the_docs_show_many_commands() -> None:
    """The extraction finds the commands (a broken regex would make the test below vacuous)."""
    sources = {source for source, _ in COMMANDS}
    assert len(COMMANDS) > 100
    assert {"README.md", "docs/benchmarks.md", "--help examples"} <= sources
    assert any(c.startswith("boardai 2048 train ntuple") for _, c in COMMANDS)


@pytest.mark.parametrize(("source", "command"), COMMANDS, ids=[c for _, c in COMMANDS])
def test_doc_command_parses(
    app: App, source: str, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = argv_of(command)
    if {"-h", "--help", "--version"} & set(argv):
        pytest.skip("prints and exits")
    try:
        app.parser.parse_args(argv)
    except SystemExit:
        pytest.fail(f"{source}: {command!r} does not parse: {capsys.readouterr().err.strip()}")


def test_a_stale_option_fails(app: App, capsys: pytest.CaptureFixture[str]) -> None:
    """The check can fail: an option that does not exist is caught."""
    with pytest.raises(SystemExit):
        app.parser.parse_args(argv_of("boardai 2048 train ntuple --out m.npz --restart-tile 16384"))
    assert "--restart-tile" in capsys.readouterr().err


def test_extraction_handles_prompts_wrappers_and_continuations() -> None:
    text = (
        "```console\n$ nice -n 10 boardai eval --agent random \\\n    --games 3 > out.txt  # c\n"
        "pip install -e . && boardai watch --agent expectimax\n```\n"
    )
    assert list(doc_commands(text)) == [
        "boardai eval --agent random --games 3 > out.txt",
        "boardai watch --agent expectimax",
    ]
    assert argv_of("boardai eval --agent random --games 3 > out.txt") == [
        "eval",
        "--agent",
        "random",
        "--games",
        "3",
    ]
