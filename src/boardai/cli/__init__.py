"""The ``boardai`` command.

Subcommands live in the modules of this package: each module defines ``register(app)`` and
adds its commands with :meth:`App.command`, e.g. ``app.command("train ntuple", ...)``. The
modules import only argparse-level things at the top; the work they do (and its heavy
imports) happens inside their ``run`` functions, so ``boardai --help`` is instant.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from boardai import __version__
from boardai.errors import UsageError

#: Command groups (``boardai train ...``) and their one-line help.
GROUPS = {
    "train": "train a player (n-tuple TD, DQN, Othello)",
    "bench": "measure speed (engine, search, ...)",
    "othello": "Othello: play, matches, tournaments, GTP",
    "perft": "count the positions a move generator reaches (a correctness and speed check)",
    "models": "the trained players boardai ships: list, show, verify, fetch, compact",
}

_FORMATTER = argparse.RawDescriptionHelpFormatter


class App:
    """The argument parser tree that command modules add to."""

    def __init__(self) -> None:
        self.parser = argparse.ArgumentParser(
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
        self._root = self.parser.add_subparsers(dest="command", metavar="COMMAND")
        self._groups: dict[str, argparse._SubParsersAction[argparse.ArgumentParser]] = {}

    def _group(self, name: str) -> argparse._SubParsersAction[argparse.ArgumentParser]:
        if name not in self._groups:
            if name not in GROUPS:
                raise KeyError(f"command group {name!r} is not in boardai.cli.GROUPS")
            p = self._root.add_parser(name, help=GROUPS[name], description=GROUPS[name])
            p.set_defaults(func=lambda args, p=p: _print_help(p))
            self._groups[name] = p.add_subparsers(dest=f"{name}_command", metavar="COMMAND")
        return self._groups[name]

    def group(self, name: str) -> argparse.ArgumentParser:
        """The parser of command group ``name``, e.g. to run a command when none is given."""
        self._group(name)
        return self._root.choices[name]

    def command(
        self, path: str, help: str, examples: str = "", description: str | None = None
    ) -> argparse.ArgumentParser:
        """Add the command ``path`` ("play" or "train ntuple") and return its parser.

        ``examples`` (one command a line) is shown under "examples:" in its ``--help``. Call
        ``parser.set_defaults(func=run)`` with ``run(args) -> int | None``.
        """
        *groups, name = path.split()
        container = self._group(groups[0]) if groups else self._root
        epilog = (
            "examples:\n" + "\n".join(f"  {line}" for line in examples.strip().splitlines())
            if examples
            else None
        )
        return container.add_parser(
            name,
            help=help,
            description=description or help,
            epilog=epilog,
            formatter_class=_FORMATTER,
        )


def _print_help(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 0


def build_app() -> App:
    """The full parser: every module of this package registers its commands."""
    app = App()
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            module = importlib.import_module(f"{__name__}.{info.name}")
            module.register(app)
    return app


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``boardai`` console script; returns the exit code."""
    app = build_app()
    args = app.parser.parse_args(argv)
    if not hasattr(args, "func"):
        app.parser.print_help()
        return 0
    from boardai.cli._common import check_outputs, sigterm_as_ctrl_c

    try:
        check_outputs(args)
        with sigterm_as_ctrl_c():
            code = args.func(args)
    except UsageError as e:
        print(f"boardai: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nboardai: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as e:
        if e.filename is None:  # names no file: not the environment's doing, show it all
            raise
        print(f"boardai: error: {e.filename}: {e.strerror or e}", file=sys.stderr)
        return 2
    return int(code or 0)


if __name__ == "__main__":  # python -m boardai.cli
    sys.exit(main())
