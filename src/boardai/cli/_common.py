"""Small pieces the command modules share: argument types, the console, progress bars."""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import signal
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress

T = TypeVar("T")


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None


def _int_at_least(low: int, text: str) -> int:
    value = _integer(text)
    if value < low:
        raise argparse.ArgumentTypeError(f"{value} is not >= {low}")
    return value


def positive_int(text: str) -> int:
    """argparse type: an integer >= 1."""
    return _int_at_least(1, text)


def nonneg_int(text: str) -> int:
    """argparse type: an integer >= 0."""
    return _int_at_least(0, text)


def int_in(low: int, high: int) -> Callable[[str], int]:
    """argparse type: an integer in ``low..high``.

    >>> int_in(1, 12)("12"), int_in(1, 12).__name__
    (12, 'integer 1..12')
    """

    def parse(text: str) -> int:
        value = _integer(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is not in {low}..{high}")
        return value

    parse.__name__ = f"integer {low}..{high}"  # what argparse names in its errors
    return parse


def port_number(text: str) -> int:
    """argparse type: a TCP port, 0..65535 (0: the system picks a free one)."""
    value = _int_at_least(0, text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port (0..65535)")
    return value


def game_part(text: str) -> range:
    """argparse type: ``START:STOP``, the games START to STOP-1 of a run (START < STOP)."""
    start, sep, stop = text.partition(":")
    try:
        part = range(int(start), int(stop)) if sep else None
    except ValueError:
        part = None
    if part is None or part.start < 0 or not part:
        raise argparse.ArgumentTypeError(f"not START:STOP with 0 <= START < STOP: {text!r}")
    return part


def tile_value(text: str) -> int:
    """argparse type: a 2048 tile, a power of two from 4 up."""
    try:
        tile = int(text)
    except ValueError:
        tile = 0
    if tile < 4 or tile & (tile - 1):
        raise argparse.ArgumentTypeError(f"not a tile (4, 8, ..., 131072): {text!r}")
    return tile


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None


def finite_float(text: str) -> float:
    """argparse type: a number, not nan or inf (which would pass every range check)."""
    value = _number(text)
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return value


def nonneg_float(text: str) -> float:
    """argparse type: a finite number >= 0 (a delay, minutes between saves)."""
    value = finite_float(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is not >= 0")
    return value


def positive_float(text: str) -> float:
    """argparse type: a finite number > 0 (a time limit)."""
    value = finite_float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{value} is not > 0")
    return value


def int_band(text: str, top: int) -> tuple[int, int]:
    """argparse helper: ``LO-HI`` (or ``K``, for K-K) with 0 <= LO <= HI <= ``top``.

    >>> int_band("8-30", 60), int_band("12", 60)
    ((8, 30), (12, 12))
    """
    lo, sep, hi = text.strip().partition("-")
    try:
        band = (int(lo), int(hi) if sep else int(lo))
    except ValueError:
        band = None
    if band is None or not 0 <= band[0] <= band[1] <= top:
        raise argparse.ArgumentTypeError(f"not LO-HI with 0 <= LO <= HI <= {top}: {text!r}")
    return band


def probability(text: str) -> float:
    """argparse type: a float in [0, 1]."""
    value = _number(text)
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{value} is not in [0, 1]")
    return value


def default_workers() -> int:
    """All the cores this process may use."""
    from boardai.hardware import cores

    return cores()


#: The namespace attribute that marks a command with a :func:`workers_option`.
_WORKERS = "_workers_option"


def workers_option(p: argparse.ArgumentParser, help: str) -> argparse.Action:
    """``--workers N``: processes this machine starts for the command. :func:`boardai.cli.main`
    caps it, before the command runs, at the cores this process may use
    (:func:`cap_workers`): past them each process only costs memory (64 workers on 2 cores:
    about 10 GB) and time switching between them."""
    action = p.add_argument("--workers", type=positive_int, default=None, metavar="N", help=help)
    p.set_defaults(**{_WORKERS: True})
    return action


def cap_workers(args: argparse.Namespace) -> None:
    """Bring ``args.workers`` down to :func:`default_workers` (the cores this process may use)
    with a one-line warning on stderr, for a command with a :func:`workers_option`. A Ray
    cluster (``--cluster`` other than ``local``, which starts Ray here) is left as asked: its
    workers run on its nodes, which may have more cores than this one."""
    import sys

    if not getattr(args, _WORKERS, False) or args.workers is None:
        return
    if getattr(args, "cluster", None) not in (None, "", "local"):
        return
    cores = default_workers()
    if args.workers > cores:
        print(
            f"boardai: warning: --workers {args.workers} is more than the {cores} "
            f"{plural(cores, 'core')} this process may use: using {cores}",
            file=sys.stderr,
        )
        args.workers = cores


def plural(count: int, word: str, words: str | None = None) -> str:
    """``word``, or its plural when ``count`` is not 1 (``words``, else ``word`` + s).

    >>> f"1 {plural(1, 'position')}, 2 {plural(2, 'position')}, 3 {plural(3, 'match', 'matches')}"
    '1 position, 2 positions, 3 matches'
    """
    return word if count == 1 else (words or word + "s")


def interruptible(work: Callable[[], T]) -> T:
    """``work()`` (compiled code, which releases the GIL) in a thread of its own while this one
    waits, so that Ctrl-C and SIGTERM stop the command at once, not when the call returns
    (minutes, for a deep perft), and never inside numba's boxing of a tuple of arrays a
    kernel returns (that calls back into Python, and a KeyboardInterrupt raised there came out
    as a SystemError and its traceback; a lone array or a number does not). Only for work
    with nothing to keep: on Ctrl-C the thread (a daemon) is left to end with the process,
    and the KeyboardInterrupt goes on.

    >>> interruptible(lambda: 6 * 7)
    42
    """
    if threading.current_thread() is not threading.main_thread():
        return work()  # signals come to the main thread only: nothing to gain
    done: list[T] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            done.append(work())
        except BaseException as e:  # handed to the caller, as if raised there
            failed.append(e)

    worker = threading.Thread(target=run, name="boardai-work", daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(0.25)  # a signal's handler runs here, between waits
    if failed:
        raise failed[0]
    return done[0]


@contextlib.contextmanager
def sigterm_as_ctrl_c() -> Iterator[None]:
    """While inside, SIGTERM (``kill``, ``timeout``, a job scheduler) stops the work as Ctrl-C
    does: a KeyboardInterrupt in the main thread, so a training run saves its model and the
    command exits 130. Outside the main thread this does nothing.

    Only the first SIGTERM interrupts: the ones after it are ignored while the work stops, and
    after it, until the process ends (``timeout`` sends two, one to the command and one to its
    process group; a second KeyboardInterrupt would cut short the stopping of a pool of
    workers, and a second SIGTERM after it would kill the process with its exit code unsaid)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []

    def handler(signum: int, frame: Any) -> None:
        if not received:
            received.append(signum)
            raise KeyboardInterrupt

    old = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        # a handler inside (a training run's stop flag) that took a SIGTERM leaves it ignored
        stopping = received or signal.getsignal(signal.SIGTERM) == signal.SIG_IGN
        signal.signal(signal.SIGTERM, signal.SIG_IGN if stopping else old)


#: Whether the command under way writes its ``--json`` document to stdout (``--json`` with no
#: OUT, :func:`json_option`): its consoles then write to stderr, so stdout holds the JSON alone.
_data_on_stdout = False


def json_to_stdout(args: argparse.Namespace) -> None:
    """Note whether ``args``' command writes its JSON to stdout (see :func:`console`)."""
    global _data_on_stdout
    _data_on_stdout = getattr(args, "json", None) == "-"


def console(stderr: bool = False) -> Console:
    """A rich console: plain text when the output is not a terminal, and then long lines stay
    whole (a log read with grep, not at 80 columns); tables still fit the width. On stderr
    when asked, or when stdout carries the command's JSON (:func:`json_to_stdout`)."""
    from rich.console import Console

    out = Console(stderr=stderr or _data_on_stdout, highlight=False)
    out.soft_wrap = not out.is_terminal
    return out


def progress(*columns_extra: Any, transient: bool = False) -> Progress:
    """A progress bar on stderr: description, bar, done/total, rate extras, time left."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    class Bounded(Progress):
        """Progress whose count stops at its total: a run that works in chunks (a vector of
        boards, a batch of games) ends past it, and the bar read 20010/20000."""

        def update(self, task_id: Any, **kwargs: Any) -> None:
            super().update(task_id, **kwargs)
            with self._lock:
                task = self._tasks[task_id]
                if task.total is not None and task.completed > task.total:
                    task.completed = task.total

        def advance(self, task_id: Any, advance: float = 1) -> None:
            self.update(task_id, advance=advance)

    return Bounded(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        *columns_extra,
        TimeRemainingColumn(),
        console=console(stderr=True),
        transient=transient,
    )


#: Agent settings past which one move can take seconds or more (measured on a 2-core machine
#: that was busy with other work; a fast one is a few times quicker). Past them, commands that
#: play agents say so on stderr; a time budget (time_ms=, time=) bounds any of them.
#: 2048 expectimax: deeper than this with a prob_cut below SLOW_EXPECTIMAX_CUT (depth 12,
#: prob_cut 1e-5: about 10 s a move; the presets, 1e-3 and 1e-4, stay under a second).
SLOW_EXPECTIMAX_DEPTH = 6
SLOW_EXPECTIMAX_CUT = 1e-4
#: 2048 ntuple (the same search over the network, slower a leaf): besides the bound above,
#: deeper than this with a prob_cut below SLOW_NTUPLE_CUT (the shipped network, 2026-11-28:
#: depth 8 at its default 1e-4 0.4-0.8 s a move, depth 9 1.2 s, depth 10 2.6 s; preset=strong,
#: depth 8 at 0.005, 8-22 ms).
SLOW_NTUPLE_DEPTH = 8
SLOW_NTUPLE_CUT = 1e-3
#: Othello alpha-beta: deeper than this (depth 10: about 1 s a move in the middle game,
#: and each ply more about 3.3 times that) ...
SLOW_ALPHABETA_DEPTH = 10
#: ... or solving endgames exactly from more empty squares than this (18: about 20 s).
SLOW_ENDGAME = 16


def rough_duration(seconds: float) -> str:
    """ "about 3 min", "about 2 h", "more than a year": a duration to a user, roughly.

    >>> rough_duration(200), rough_duration(86400), rough_duration(230 * 86400)
    ('about 3 min', 'about 1 day', 'about 230 days')
    """
    for unit, size in (("day", 86400.0), ("h", 3600.0), ("min", 60.0)):
        if seconds >= size:
            if unit == "day" and seconds > 365 * size:
                return "more than a year"
            count = round(seconds / size)
            plural = "s" if unit == "day" and count != 1 else ""
            return f"about {count} {unit}{plural}"
    return f"about {seconds:.0f} s"


def slow_warning(game: str, spec: str) -> str | None:
    """A one-line warning if agent ``spec`` of ``game`` (a name in :data:`boardai.games.GAMES`)
    is set past the slow bounds above with no time budget, saying roughly how slow; None
    otherwise.

    >>> slow_warning("othello", "alphabeta:depth=14").split(" a move")[0]
    'alphabeta:depth=14: depth 14 with no time limit takes about 2 min'
    >>> slow_warning("2048", "expectimax:depth=3") is None
    True
    """
    from boardai.games import parts

    name, opts = parts(game).agents.get().options(spec)
    warning: str | None = parts(game).slow_warning(spec, name, opts)
    return warning


def slow_2048(spec: str, name: str, opts: Any) -> str | None:
    """:func:`slow_warning` of a 2048 player: a deep expectimax (or n-tuple search) with a
    small prob_cut."""
    if name in ("expectimax", "ntuple") and not opts.time_ms:
        depth = opts.depth or opts.max_depth
        cut = opts.prob_cut
        deep = depth > SLOW_EXPECTIMAX_DEPTH and cut < SLOW_EXPECTIMAX_CUT
        if deep or (name == "ntuple" and depth > SLOW_NTUPLE_DEPTH and cut < SLOW_NTUPLE_CUT):
            return (
                f"{spec}: depth {depth} with prob_cut {opts.prob_cut:g} and no time_ms can take "
                "seconds to minutes a move; time_ms=MS bounds it"
            )
    return None


def slow_othello(spec: str, name: str, opts: Any) -> str | None:
    """:func:`slow_warning` of an Othello player: a deep alpha-beta or a long exact endgame."""
    if name == "alphabeta" and not opts.time:
        if opts.depth > SLOW_ALPHABETA_DEPTH:
            each = rough_duration(0.8 * 3.3 ** (opts.depth - SLOW_ALPHABETA_DEPTH))
            return (
                f"{spec}: depth {opts.depth} with no time limit takes {each} a move mid-game "
                "(x3.3 a ply); time=SECONDS bounds it"
            )
        if opts.endgame > SLOW_ENDGAME:
            return (
                f"{spec}: solving endgames exactly from {opts.endgame} empty squares with no "
                "time limit can take minutes a move (18: about 20 s); time=SECONDS bounds it"
            )
    return None


def warn_if_slow(game: str, specs: list[str]) -> list[bool]:
    """Print :func:`slow_warning` of each spec on stderr (``boardai: warning: ...``); which
    specs were warned about."""
    import sys

    slow = []
    for spec in specs:
        warning = slow_warning(game, spec)
        if warning:
            print(f"boardai: warning: {warning}", file=sys.stderr)
        slow.append(warning is not None)
    return slow


#: The optional modules (of the ``plot`` extra) that write a plot, and a PNG or GIF picture.
PLOT, PICTURES = ("matplotlib",), ("PIL", "imageio")

#: The namespace attribute listing a command's output options: (dest, flag, is a folder,
#: the optional modules that write it, whether ``-`` means stdout, whether a missing folder
#: above it is made).
_OUTPUTS = "_output_options"


def output_option(
    p: argparse.ArgumentParser,
    *flags: str,
    folder: bool = False,
    needs: tuple[str, ...] = (),
    stdout: bool = False,
    make_folders: bool = True,
    **kwargs: Any,
) -> argparse.Action:
    """Add an option naming a file (or, with ``folder``, a folder) that the command writes.

    Before the command runs, :func:`boardai.cli.main` checks every such option given with
    :func:`check_output`, so a path that cannot be written fails in one line before the work,
    not after it. ``-`` is standard output where the option says so (``stdout``), and refused
    elsewhere (it would be a file called ``-``). So are the optional modules the file needs
    (``needs``, e.g. ``("matplotlib",)`` for a plot): one not installed is the CLI's "pip
    install" line before the work, not after hours of it. A missing folder above the file is
    made, unless ``make_folders`` is False: then it is one line (a picture of one position
    is no run whose folder may not be there yet; a mistyped folder is a mistake to say).
    """
    action = p.add_argument(*flags, **kwargs)
    known = list(p.get_default(_OUTPUTS) or [])
    entry = (action.dest, action.option_strings[0], folder, needs, stdout, make_folders)
    p.set_defaults(**{_OUTPUTS: [*known, entry]})
    return action


def check_outputs(args: argparse.Namespace) -> None:
    """:func:`check_output` (and :func:`require`) for each output option of ``args``'
    command that was given.

    Raises:
        UsageError: ``-`` for an option that writes no stdout, or a path not writable.
    """
    from boardai.errors import UsageError

    for dest, flag, folder, needs, stdout, make in getattr(args, _OUTPUTS, ()):
        value = getattr(args, dest, None)
        if value == "-" and not stdout:
            what = "a folder" if folder else "a file"
            raise UsageError(f"{flag} -: {flag} writes {what}, not stdout: give its name")
        if value and value != "-":
            require(*needs)
            check_output(value, flag, folder=folder, make_folders=make)


def require(*modules: str) -> None:
    """Raise ModuleNotFoundError (which :func:`boardai.cli.main` turns into its one line
    naming the extra to install) for the first of ``modules`` that is not installed; import
    nothing."""
    import importlib.util

    for name in modules:
        if importlib.util.find_spec(name) is None:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)


def check_output(
    path: str | Path, flag: str, folder: bool = False, make_folders: bool = True
) -> None:
    """Raise UsageError (one line) unless ``path`` can be written: a file's folder exists
    (it is made if missing, unless ``make_folders`` is False) and takes new files, as an
    atomic write needs; a device or pipe that exists is opened as it is, so it needs only to
    be writable.

    Nothing is left behind but the folders made: the probe file is removed at once.
    """
    from boardai.atomic import temporary_path
    from boardai.errors import UsageError

    p = Path(path)
    where = f"{flag} {path}"
    if p.is_dir() and not folder:
        raise UsageError(f"{where}: is a folder, not a file")
    if p.exists() and not p.is_dir() and folder:
        raise UsageError(f"{where}: is a file, not a folder")
    if p.exists() and not p.is_dir() and not p.is_file():  # /dev/null, a named pipe
        if not os.access(p, os.W_OK):
            raise UsageError(f"{where}: not writable")
        return
    directory = p if folder else (p.parent if str(p.parent) else Path("."))
    above = directory
    while not above.exists() and above != above.parent:
        above = above.parent
    if not above.is_dir():
        raise UsageError(f"{where}: {above} is not a folder")
    if not make_folders and not directory.is_dir():
        raise UsageError(f"{where}: folder {directory} does not exist")
    try:
        directory.mkdir(parents=True, exist_ok=True)
        probe = temporary_path(directory / (p.name or "out"))  # as atomic_write would make
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        raise UsageError(f"{where}: cannot write there ({e.strerror or e})") from None


def force_option(p: argparse.ArgumentParser, help: str | None = None) -> argparse.Action:
    """``--force``: write over what the command's output (``--out``) holds already."""
    return p.add_argument(
        "--force",
        action="store_true",
        help=help or "replace what --out holds already (refused without it, or --resume)",
    )


def refuse_to_overwrite(
    path: str | Path,
    flag: str = "--out",
    *,
    force: bool = False,
    resume: str | None = "--resume",
) -> None:
    """Raise UsageError (one line) if ``path`` holds something already, a file with data in
    it or a folder with files in it, unless ``force``: a run or a model is never replaced, or
    added to, unasked. ``resume`` is how the command goes on from it instead (None: it
    cannot), named in the message with ``--force``.

    A missing path, an empty file or folder (``mktemp``'s) and a device (``/dev/null``) pass.
    """
    from boardai.errors import UsageError

    p = Path(path)
    if force:
        return
    if p.is_dir():
        held = sorted(child.name for child in p.iterdir())
        if not held:
            return
        shown = ", ".join(held[:3]) + (", ..." if len(held) > 3 else "")
        what = f"holds a run already ({shown})"
    elif p.is_file():
        if p.stat().st_size == 0:
            return
        what = "exists already"
    else:
        return
    how = (
        f"give {resume} to go on from it, or --force to replace it"
        if resume
        else ("give --force to replace it, or another path")
    )
    raise UsageError(f"{flag} {path} {what}: {how}")


def resumed_out(args: argparse.Namespace) -> str | None:
    """The run to go on from: ``args.out``, with ``--resume``, when it is there (else a new
    run)."""
    return args.out if args.resume and Path(args.out).exists() else None


def json_option(p: argparse.ArgumentParser, what: str) -> argparse.Action:
    """``--json [OUT]``: write ``what`` as JSON to OUT, or with no OUT (or ``-``) to stdout
    (see :func:`write_json`)."""
    return output_option(
        p,
        "--json",
        metavar="OUT",
        nargs="?",
        const="-",
        stdout=True,
        help=f"{what} (- or no OUT: stdout)",
    )


def write_json(path: str | Path, data: Any) -> None:
    """Write ``data`` as indented JSON, atomically (``-``: to stdout)."""
    from boardai.atomic import atomic_write

    if path == "-":
        print(json.dumps(data, indent=1))
        return

    with atomic_write(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2)
        f.write("\n")
