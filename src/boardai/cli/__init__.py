"""The ``boardai`` command.

One scheme for both games: what belongs to a game is under its name (``boardai 2048 eval``,
``boardai othello match``, ``boardai 2048 train ntuple``, ``boardai othello perft 9``); what
reads the game from a file or lets the user choose it stays at the top (``models``, ``serve``,
``tui``, ``replay``, ``render``).

Each command is a module of this package (or of its ``g2048`` and ``othello`` subpackages)
named for it, that defines ``register(app)`` and adds its command with :meth:`App.command`,
e.g. ``app.command("2048 train ntuple", ..., aliases=["train ntuple"])``. An alias is an
older spelling that keeps working, hidden: it is the very same parser (options, defaults,
``run``) under a second name, left out of every listing. The modules import only
argparse-level things at the top; the work they do (and its heavy imports) happens inside
their ``run`` functions, so ``boardai --help`` is instant.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import pkgutil
import sys
from collections.abc import Iterator, Sequence
from typing import Any, NoReturn

from boardai import __version__
from boardai.errors import UsageError

#: Command groups (``boardai 2048 train ...``) and their one-line help, in listing order.
GROUPS = {
    "2048": "the 2048 commands: play, watch, eval, compare, random, train, bench",
    "othello": (
        "the Othello commands: play, watch, match, tournament, gtp, solve, analyze, train, "
        "data, perft"
    ),
    "models": "the trained players boardai ships: list, show, verify, fetch, compact",
    "journal": "the --resume journals of long runs: show how far one got, merge a run's parts",
    "2048 train": "train a 2048 player (n-tuple TD, DQN)",
    "2048 bench": "measure speed (engine, env, search, n-tuple TD)",
    "othello train": "train an Othello player (n-tuple TD self-play, DQN)",
    "othello data": "Othello games as training data: pack, show, label, openings",
}
#: The groups of the older spellings, hidden, and where their commands went.
MOVED = {
    "train": "moved: boardai 2048 train ntuple|dqn, boardai othello train ntuple|dqn",
    "bench": "moved: boardai 2048 bench engine|env|search|ntuple",
    "perft": "moved: boardai othello perft DEPTH",
}

#: The optional dependencies (imported only by what uses them) and the extra that installs each.
EXTRAS = {
    "torch": "dqn",
    "pettingzoo": "othello",
    "textual": "tui",
    "fastapi": "web",
    "uvicorn": "web",
    "websockets": "web",
    "matplotlib": "plot",
    "imageio": "plot",
    "PIL": "plot",
    "ray": "ray",
}

_FORMATTER = argparse.RawDescriptionHelpFormatter


class Parser(argparse.ArgumentParser):
    """An argument parser whose mistakes are one line, as every other mistake of the command
    line is: ``boardai: error: WHAT (see PROG --help)``, exit code 2, no usage block."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"boardai: error: {message} (see {self.prog} --help)\n")


_SubParsers = argparse._SubParsersAction  # argparse.ArgumentParser's sub-command table


class _Names(dict[str, argparse.ArgumentParser]):
    """The sub-commands of a parser, by name: a hidden name (an alias) parses like any
    other but is left out of the list an "invalid choice" error shows, unless all are hidden
    (the group of an older spelling, ``boardai train``: then its names are the ones to show)."""

    def __init__(self) -> None:
        super().__init__()
        self.hidden: set[str] = set()

    def __iter__(self) -> Iterator[str]:
        every = list(dict.__iter__(self))
        return iter([name for name in every if name not in self.hidden] or every)


class App:
    """The argument parser tree that command modules add to."""

    def __init__(self) -> None:
        self.parser = Parser(
            prog="boardai",
            description="Play, train and benchmark AI players for 2048 and Othello.",
            epilog=(
                "Run 'boardai COMMAND --help' for a command's options and examples.\n"
                "Exit codes: 0 done; 2 a mistake in the command (told in one line: an option,\n"
                "an agent spec, a file that cannot be read or written); 130 stopped by Ctrl-C\n"
                "or SIGTERM (a training run saves its model first)."
            ),
            formatter_class=_FORMATTER,
        )
        self.parser.add_argument("--version", action="version", version=f"boardai {__version__}")
        self._root = _subcommands(self.parser, "command")
        self._groups: dict[str, _SubParsers[argparse.ArgumentParser]] = {}
        for name in GROUPS:  # the games first in the listing
            if " " not in name:
                self._group(name)

    def _group(self, path: str) -> _SubParsers[argparse.ArgumentParser]:
        """The sub-command table of group ``path`` ("2048 train"), made on first use."""
        if path not in self._groups:
            *above, name = path.split()
            container = self._group(" ".join(above)) if above else self._root
            if path in GROUPS:
                p = container.add_parser(name, help=GROUPS[path], description=GROUPS[path])
            elif path in MOVED:
                p = _hidden(
                    container,
                    name,
                    Parser(prog=f"boardai {path}", description=MOVED[path]),
                )
            else:
                raise KeyError(f"command group {path!r} is not in boardai.cli.GROUPS")
            p.set_defaults(func=lambda args, p=p: _print_help(p))
            self._groups[path] = _subcommands(p, f"{path.replace(' ', '_')}_command")
        return self._groups[path]

    def group(self, name: str) -> argparse.ArgumentParser:
        """The parser of command group ``name``, e.g. to run a command when none is given."""
        self._group(name)
        return self.find(name)

    def find(self, path: str) -> argparse.ArgumentParser:
        """The parser of command or group ``path`` ("2048 eval"; an alias, "eval", too)."""
        parser = self.parser
        for word in path.split():
            table = parser._subparsers._group_actions[0] if parser._subparsers else None
            if not isinstance(table, _SubParsers) or word not in table.choices:
                raise KeyError(f"no command {path!r}")
            parser = table.choices[word]
        return parser

    def command(
        self,
        path: str,
        help: str,
        examples: str = "",
        description: str | None = None,
        aliases: Sequence[str] = (),
    ) -> argparse.ArgumentParser:
        """Add the command ``path`` ("serve" or "2048 train ntuple") and return its parser.

        ``examples`` (one command a line) is shown under "examples:" in its ``--help``. Call
        ``parser.set_defaults(func=run)`` with ``run(args) -> int | None``. Each of
        ``aliases`` (an older spelling, "train ntuple") runs this same parser, unlisted.
        """
        *groups, name = path.split()
        container = self._group(" ".join(groups)) if groups else self._root
        epilog = (
            "examples:\n" + "\n".join(f"  {line}" for line in examples.strip().splitlines())
            if examples
            else None
        )
        parser = container.add_parser(
            name,
            help=help,
            description=description or help,
            epilog=epilog,
            formatter_class=_FORMATTER,
        )
        for alias in aliases:
            *above, last = alias.split()
            _hidden(self._group(" ".join(above)) if above else self._root, last, parser)
        return parser


def _subcommands(
    parser: argparse.ArgumentParser, dest: str
) -> _SubParsers[argparse.ArgumentParser]:
    """``parser``'s sub-command table, one that can hold hidden names."""
    table = parser.add_subparsers(dest=dest, metavar="COMMAND")
    table._name_parser_map = table.choices = _Names()
    return table


def _hidden(
    table: _SubParsers[argparse.ArgumentParser], name: str, parser: argparse.ArgumentParser
) -> argparse.ArgumentParser:
    """Put ``parser`` in ``table`` under ``name``, in no listing."""
    names = table.choices
    assert isinstance(names, _Names)
    if name in names:  # hidden ones too
        raise KeyError(f"command {name!r} is there already")
    names[name] = parser
    names.hidden.add(name)
    return parser


def _print_help(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 0


def _command_modules() -> Iterator[str]:
    """The modules that register commands: those of this package and its subpackages whose
    names do not start with ``_``."""
    for info in pkgutil.walk_packages(__path__, f"{__name__}."):
        if not info.ispkg and not any(p.startswith("_") for p in info.name.split(".")):
            yield info.name


def build_app() -> App:
    """The full parser: every command module registers its commands."""
    app = App()
    for name in sorted(_command_modules()):
        importlib.import_module(name).register(app)
    return app


def _interrupted(error: BaseException) -> bool:
    """Whether ``error`` is a Ctrl-C (or SIGTERM) that reached Python code a compiled kernel
    called back into (numba boxing a tuple of arrays it returns): the kernel reports the
    KeyboardInterrupt raised there as a SystemError caused by it."""
    seen: set[int] = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return False


class _PipeSafe:
    """Standard output that outlives its reader: once a write or flush finds the pipe closed
    (``boardai ... | head -1``), what follows goes to the null device, so the command runs to
    its end and writes its files (records, JSON, a model) instead of dying at a print with
    nothing saved. Everything else is the stream's own."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self.closed_pipe = False

    def _silence(self) -> None:
        self.closed_pipe = True
        with contextlib.suppress(OSError, ValueError, AttributeError):
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, self._stream.fileno())  # the buffer's rest, and exit's flush: nowhere
            os.close(null)

    def write(self, text: str) -> int:
        if not self.closed_pipe:
            try:
                return int(self._stream.write(text))
            except BrokenPipeError:
                self._silence()
        return len(text)

    def writelines(self, lines: Iterator[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        if not self.closed_pipe:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._silence()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def _pipe_safe_stdout() -> Iterator[_PipeSafe]:
    """``sys.stdout`` as a :class:`_PipeSafe` while inside (then the stream it was)."""
    stream = sys.stdout
    safe = _PipeSafe(stream)
    sys.stdout = safe
    try:
        yield safe
    finally:
        if sys.stdout is safe:
            sys.stdout = stream


def _parser_of(app: App, args: argparse.Namespace) -> argparse.ArgumentParser:
    """The parser of the command (or group) ``args`` were parsed for."""
    words: list[str] = []
    while (word := getattr(args, "_".join([*words, "command"]), None)) is not None:
        words.append(word)
    return app.find(" ".join(words)) if words else app.parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``boardai`` console script; returns the exit code."""
    with _pipe_safe_stdout() as stdout:
        try:
            return _main(argv)
        except BrokenPipeError:  # a write past the guard (a raw one): the reader has gone
            stdout._silence()
            return 0


def _main(argv: Sequence[str] | None) -> int:
    app = build_app()
    args, unknown = app.parser.parse_known_args(argv)
    if unknown:  # said by the command's own parser, whose --help lists what it takes
        _parser_of(app, args).error(f"unrecognized arguments: {' '.join(unknown)}")
    if not hasattr(args, "func"):
        app.parser.print_help()
        return 0
    from boardai.cli._common import cap_workers, check_outputs, json_to_stdout, sigterm_as_ctrl_c

    store = sys.modules.get("boardai.learn.store")
    if store is not None:  # a command run in-process after another: its own models only
        store.forget_resolved()
    json_to_stdout(args)
    try:
        check_outputs(args)
        cap_workers(args)
        with sigterm_as_ctrl_c():
            code = args.func(args)
    except UsageError as e:
        print(f"boardai: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nboardai: interrupted", file=sys.stderr)
        return 130
    except SystemError as e:
        if not _interrupted(e):
            raise
        print("\nboardai: interrupted", file=sys.stderr)
        return 130
    except ModuleNotFoundError as e:
        extra = EXTRAS.get((e.name or "").split(".")[0])
        if extra is None:  # not an optional dependency: a bug, show it all
            raise
        print(
            f"boardai: error: this needs {e.name}, which is not installed: "
            f'pip install "boardai[{extra}]"',
            file=sys.stderr,
        )
        return 2
    except OSError as e:
        if e.filename is None:  # names no file: not the environment's doing, show it all
            raise
        print(f"boardai: error: {e.filename}: {e.strerror or e}", file=sys.stderr)
        return 2
    return int(code or 0)


if __name__ == "__main__":  # python -m boardai.cli
    sys.exit(main())
