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


#: Where a file a command reads is looked for: the tours and the README are read from the
#: repository's root.
TOURS = [ROOT / "README.md", *sorted((ROOT / "docs" / "tour").glob("*.md"))]
#: A file name in an option's value: a path, a spec's ``model=PATH`` or a patterns ``@FILE``.
FILE_WORD = re.compile(r"(?:^|model=|@)([^,:=@\s]+\.(?:obf|toml|jsonl|json|npz|pt|txt|csv))(?=,|$)")
#: Files the text says are the reader's own, with where it says so.
READERS_OWN = {
    "big.toml": "cluster.md: a sweep file of the reader's, as examples/sweep-*.toml",
    "my_patterns.txt": "ntuple.md: the reader's patterns, one a line",
    "nt.npz": "ui.md: an Othello network the reader trained (othello.md: runs/othello/nt.npz)",
}


def files_of(app: App, command: str) -> tuple[list[str], list[str]]:
    """The files ``command`` reads and the paths it writes (files or folders), from its parsed
    options: a written one is an option :func:`boardai.cli._common.output_option` made (or a
    positional ``out``); a read one any other value naming a file."""
    from boardai.cli._common import _OUTPUTS

    args = app.parser.parse_args(argv_of(command))
    outputs = {entry[0] for entry in getattr(args, _OUTPUTS, None) or []} | {"out"}
    reads: list[str] = []
    writes: list[str] = []
    for dest, value in vars(args).items():
        values = value if isinstance(value, list | tuple) else [value]
        for word in (v for v in values if isinstance(v, str)):
            if dest in outputs:
                writes.append(word)
            else:
                reads += FILE_WORD.findall(word)
    return reads, writes


def unmade_reads(app: App, text: str) -> list[str]:
    """The files the commands of ``text`` read that are neither in the repository nor written
    by an earlier command of the text (into a folder it writes, too)."""
    written: list[str] = []
    missing = []
    for command in doc_commands(text):
        if {"-h", "--help", "--version"} & set(argv_of(command)):
            continue
        reads, writes = files_of(app, command)
        for path in reads:
            made = any(path == w or path.startswith(w.rstrip("/") + "/") for w in written)
            if not (made or (ROOT / path).exists() or path in READERS_OWN):
                missing.append(f"{path} ({command})")
        written += writes
    return missing


@pytest.mark.parametrize("doc", TOURS, ids=[p.name for p in TOURS])
def test_every_file_a_tour_command_reads_ships_or_is_made_before(app: App, doc: Path) -> None:
    """``boardai othello solve positions.obf`` named a file that did not ship: a command the
    README or a tour shows reads files of the repository (examples/, models/) or of a command
    shown before it (a --record, an --out), so it runs as written from the repository's root."""
    assert unmade_reads(app, doc.read_text()) == []


def test_a_file_no_command_made_is_caught(app: App) -> None:
    text = (
        "```\nboardai 2048 eval --agent greedy --games 3 --record games.jsonl\n"
        "boardai replay games.jsonl --game 1\nboardai replay other.jsonl\n"
        "boardai 2048 train dqn --out runs/dqn\n"
        "boardai 2048 eval --agent dqn:model=runs/dqn/best.pt,lookahead=1 --games 1\n"
        "boardai 2048 eval --agent ntuple:model=gone.npz,depth=2 --games 1\n"
        "boardai othello solve examples/positions.obf\nboardai othello solve p.obf\n```\n"
    )
    assert unmade_reads(app, text) == [
        "other.jsonl (boardai replay other.jsonl)",
        "gone.npz (boardai 2048 eval --agent ntuple:model=gone.npz,depth=2 --games 1)",
        "p.obf (boardai othello solve p.obf)",
    ]
