"""``boardai models``: the trained players boardai ships (the model store,
:mod:`boardai.learn.store`): list, show a card, verify, path, fetch, and compact a network."""

from __future__ import annotations

import argparse
from typing import Any

from boardai.cli._common import force_option, positive_float, positive_int
from boardai.games import GAMES, parts

EXAMPLES = """
boardai models
boardai models list --game 2048
boardai models show 2048-ntuple
boardai models verify
boardai models path 2048-ntuple
boardai models fetch 2048-ntuple
boardai models compact full.npz models/2048-ntuple.npz
boardai 2048 watch --agent ntuple:model=2048-ntuple
"""


def register(app: Any) -> None:
    group = app.group("models")
    group.set_defaults(func=run_list, game=None, kind=None)  # boardai models: the list
    group.formatter_class = argparse.RawDescriptionHelpFormatter
    group.epilog = "examples:\n" + "\n".join(f"  {c}" for c in EXAMPLES.strip().splitlines())

    p = app.command(
        "models list",
        help="the shipped models: kind, size, strength (the card's first figure), local file",
    )
    p.add_argument("--game", choices=list(GAMES), help="only this game's models")
    p.add_argument("--kind", help="only models of this kind (ntuple, dqn, othello-ntuple, ...)")
    p.set_defaults(func=run_list)

    p = app.command(
        "models show",
        help="a model's card: file, checksum, how it was trained, how strong it measured",
        examples="boardai models show 2048-ntuple",
    )
    p.add_argument("name", help="the model's name")
    p.set_defaults(func=run_show)

    p = app.command(
        "models verify",
        help="check the models' files against the manifest's sizes and sha256",
        examples="boardai models verify\nboardai models verify 2048-ntuple",
        description=(
            "Check each model file against the size and sha256 of the manifest. Exit 2, with\n"
            "one line per bad file, if a file is damaged, or missing where the manifest keeps\n"
            "the files (a checkout's models/), or missing but named here."
        ),
    )
    p.add_argument("names", nargs="*", metavar="NAME", help="these models (default: all)")
    p.set_defaults(func=run_verify)

    p = app.command(
        "models path",
        help="the local file of a model (verified)",
        examples="boardai models path 2048-ntuple",
    )
    p.add_argument("name", help="the model's name")
    p.set_defaults(func=run_path)

    p = app.command(
        "models fetch",
        help="download models into the user cache, checked against their sha256",
        examples="boardai models fetch 2048-ntuple\nboardai models fetch 2048-ntuple --force",
        description=(
            "Download models into the user cache (installs without the repository's models/),\n"
            "from the manifest's URL template ($BOARDAI_MODELS_URL overrides it), checking each\n"
            "against its sha256: a bad download is not kept. A verified copy is kept unless\n"
            "--force."
        ),
    )
    p.add_argument("names", nargs="+", metavar="NAME", help="the models")
    p.add_argument("--force", action="store_true", help="download even if a good copy is here")
    p.add_argument(
        "--timeout",
        type=positive_float,
        default=60.0,
        help="seconds to wait for the server (default 60)",
    )
    p.set_defaults(func=run_fetch)

    p = app.command(
        "models compact",
        help="write a 2048 n-tuple network in the compact format (int16, sparse; its training "
        "state with --keep-training)",
        examples=(
            "boardai models compact full.npz models/2048-ntuple.npz\n"
            "boardai models compact full.npz models/2048-ntuple.npz --bits 11 --drop-untouched\n"
            "boardai models compact full.npz c.npz --bits 9 --drop-untouched --encoding activity\n"
            "boardai models compact full.npz to-move.npz --bits 12 --keep-training"
        ),
        description=(
            "Write the compact form of a 2048 n-tuple network (boardai 2048 train ntuple): each\n"
            "block of 4,096 weights as int16 times its own scale, stored sparse, with the\n"
            "metadata and no training state (TC accumulators and restart pools, which\n"
            "resuming then starts afresh) unless --keep-training: then the TC accumulators\n"
            "in two bytes a weight and the restart pools, so that training resumed from the\n"
            "file goes on as from the full one. It prints the size and sha256 for the manifest.\n"
            "--bits below 16 rounds the weights coarser for a smaller file, and\n"
            "--drop-untouched stores none of the weights TC never updated; --encoding\n"
            "activity gives finer steps to the blocks training updated most (the games look\n"
            "them up most), coarser to the others: measure the result on the card's games\n"
            "before shipping it (docs/tour/models.md)."
        ),
    )
    p.add_argument("src", help="the full-precision model file")
    p.add_argument("out", help="the compact file to write")
    p.add_argument(
        "--bits",
        type=_bits,
        default=16,
        help="bits a weight: uniform makes each block's weights multiples of its largest / "
        "(2^(bits-1) - 1) (default 16: / 32767); activity takes its median step from it",
    )
    p.add_argument(
        "--encoding",
        choices=("uniform", "activity"),  # model_file.ENCODINGS, without importing numpy
        default="uniform",
        help="uniform (the default): each block's weights are multiples of its largest / "
        "(2^(bits-1) - 1); activity: multiples of a step that is --bits' for a block that "
        "training updated a median amount (by its TC accumulators), times sqrt(median / the "
        "block's), never finer than 16 bits: finer steps where games look weights up most "
        "(SRC must hold TC state; the same format, any boardai reads it)",
    )
    p.add_argument(
        "--drop-untouched",
        action="store_true",
        help="write as zero the weights that temporal coherence never updated (their TC "
        "accumulator is 0; SRC must be a training file of --tc)",
    )
    p.add_argument(
        "--keep-training",
        action="store_true",
        help="keep the training state: TC accumulators in two bytes a weight, restart pools "
        "(a file to resume training from without losing what TC had learned)",
    )
    force_option(p, "write over an OUT that exists (refused without it)")
    p.set_defaults(func=run_compact)


def _mb(size: int) -> str:
    return f"{size / 1e6:,.1f} MB"


def _where(e: Any) -> str:
    from boardai.learn import store

    path = store.local_file(e)
    if path is None:
        return "not downloaded"
    return "cache" if path.parent == store.cache_dir() else "here"


def headline(result: str) -> str:
    """The figure a strength line opens with, for the list (``models show`` prints it all):
    the text before its first ``;`` or parenthesis, e.g. ``166,424 ± 2,168 at 1-ply``."""
    cut = min((i for i in (result.find(";"), result.find(" (")) if i >= 0), default=len(result))
    return result[:cut].strip() or "(not measured)"


def described(description: str) -> str:
    """What a model is, from its manifest description: the text before the figures that a
    description may end with (``...: 264,778 average at 1-ply``). A card's figures come from
    its strength alone (``result``), which the list shows the head of, so that the list and
    the card never give two figures for one model.

    >>> described("2048 n-tuple network, 5x6, then TC: 264,778 average at 1-ply (20,000 games)")
    '2048 n-tuple network, 5x6, then TC'
    >>> described("Othello DQN, learned by self-play")
    'Othello DQN, learned by self-play'
    """
    import re

    return re.split(r":\s+(?=[-+]?[\d.])", description, maxsplit=1)[0].strip()


def run_list(args: argparse.Namespace) -> int:
    from rich.table import Table

    from boardai.cli._common import console
    from boardai.learn import store
    from boardai.report import folding

    out = console()
    found = store.entries(args.game, args.kind)
    if not found:
        what = " ".join(x for x in (args.game, args.kind) if x)
        out.print(f"no {what + ' ' if what else ''}models in {store.manifest().path}")
        return 0
    table = Table(title=f"models ({store.manifest().path})")
    # No game column (the kind and the name say it): the strength fits 80 columns unwrapped.
    for column in ("name", "kind", "size", "strength", "file"):
        table.add_column(column, justify="right" if column == "size" else "left")
    for e in found:
        table.add_row(e.name, e.kind, _mb(e.size), headline(e.strength.result), _where(e))
    out.print(folding(table))
    return 0


def run_show(args: argparse.Namespace) -> int:
    from boardai.cli._common import console
    from boardai.learn import store

    e = store.entry(args.name)
    path = store.local_file(e)
    what = described(e.description)
    lines = [
        f"{e.name}: {e.game} {e.kind}" + (f", {what}" if what else ""),
        f"file:       {e.file}, {e.size:,} bytes ({_mb(e.size)})",
        f"sha256:     {e.sha256}",
        f"local:      {path if path else f'not downloaded (boardai models fetch {e.name})'}",
        f"url:        {e.url or '(none)'}",
        f"trained:    from {e.trained_from or 'nothing'}, {e.cpu_hours:g} CPU-hours, "
        f"boardai {e.boardai_version or '?'}",
        "commands:",
        *(f"  {c}" for c in e.commands or ("(not recorded)",)),
        f"strength:   {e.strength.result or '(not measured)'}",
    ]
    s = e.strength
    if s.command:
        lines.append(f"measured:   {s.command}")
    if s.games or s.seeds:
        lines.append(f"            {s.games:,} games, seeds {s.seeds or '?'}")
    if e.notes:
        lines.append(f"notes:      {e.notes}")
    console().print("\n".join(lines), markup=False, soft_wrap=True)
    return 0


def run_verify(args: argparse.Namespace) -> int:
    import sys

    from boardai.cli._common import console
    from boardai.errors import UsageError
    from boardai.learn import store

    out = console()
    m = store.manifest()
    chosen = [store.entry(n) for n in args.names] if args.names else list(m.entries)
    bad = []
    for e in chosen:
        path = store.local_file(e)
        if path is None:
            if m.holds_files or args.names:
                bad.append(f"{e.name}: {e.file} is missing (run: boardai models fetch {e.name})")
            else:
                out.print(f"{e.name}: not downloaded")
            continue
        try:
            store.check(e, path)
        except UsageError as err:
            bad.append(f"{e.name}: {err}")
            continue
        out.print(f"{e.name}: ok ({path})", soft_wrap=True)
    for line in bad:
        print(f"boardai: error: {line}", file=sys.stderr)
    if not chosen:
        out.print(f"no models in {m.path}")
    return 2 if bad else 0


def run_path(args: argparse.Namespace) -> int:
    from boardai.learn import store

    print(store.path_of(args.name))
    return 0


class _Bar:
    """A pooch progress bar (``total``, ``update``, ``reset``, ``close``) drawn by rich."""

    def __init__(self, progress: Any, description: str) -> None:
        self._progress = progress
        self._task = progress.add_task(description, total=None)
        self._total: int | None = None

    @property
    def total(self) -> int | None:
        return self._total

    @total.setter
    def total(self, value: int) -> None:
        self._total = value or None  # 0: the server did not say
        self._progress.update(self._task, total=self._total)

    def update(self, n: int) -> None:
        self._progress.advance(self._task, n)

    def reset(self) -> None:
        self._progress.reset(self._task, total=self._total)

    def close(self) -> None:
        """Nothing to release (the Progress owns the display)."""


def run_fetch(args: argparse.Namespace) -> int:
    from rich.progress import (
        BarColumn,
        DownloadColumn,
        Progress,
        TextColumn,
        TransferSpeedColumn,
    )

    from boardai.cli._common import console
    from boardai.learn import store

    out, err = console(), console(stderr=True)
    entries = [store.entry(n) for n in args.names]  # every name is checked before downloading
    for e in entries:
        if err.is_terminal:
            columns = (TextColumn("{task.description}"), BarColumn(), DownloadColumn())
            with Progress(*columns, TransferSpeedColumn(), console=err, transient=True) as p:
                path = store.fetch(e.name, args.force, _Bar(p, e.name), args.timeout)
        else:
            path = store.fetch(e.name, args.force, timeout=args.timeout)
        out.print(f"{e.name}: {path}", soft_wrap=True)
    return 0


def _network_type(game: str) -> Any:
    """The n-tuple network class of a game's model files (UsageError: no such game)."""
    from boardai.errors import UsageError

    try:
        return parts(game).network.get()
    except ValueError as e:
        raise UsageError(f"a model of {e}") from None


def _bits(text: str) -> int:
    """argparse type: bits a compact weight, MIN_BITS..16."""
    from boardai.learn.model_file import MIN_BITS

    value = positive_int(text)
    if not MIN_BITS <= value <= 16:
        raise argparse.ArgumentTypeError(f"{value} is not in {MIN_BITS}..16")
    return value


def run_compact(args: argparse.Namespace) -> int:
    import os
    from pathlib import Path

    from boardai.cli._common import check_output, console, refuse_to_overwrite
    from boardai.learn.model_file import compact_model, read_meta
    from boardai.learn.store import sha256_of

    out = console()
    network_type = _network_type(read_meta(args.src)["game"])
    check_output(args.out, "OUT")  # before the minute of LZMA, not after
    if Path(args.out).resolve() != Path(args.src).resolve():  # that one: compact_model says so
        refuse_to_overwrite(args.out, "OUT", force=args.force, resume=None)
    with console(stderr=True).status(f"compacting {args.src} (LZMA: a minute for a 5x6 network)"):
        meta, change = compact_model(
            args.src,
            args.out,
            network_type,
            bits=args.bits,
            drop_untouched=args.drop_untouched,
            keep_training=args.keep_training,
            encoding=args.encoding,
        )
    size, before = os.path.getsize(args.out), os.path.getsize(args.src)
    zeroed = meta["compacted"].get("untouched_zeroed")
    out.print(
        f"wrote {args.out}: {_mb(size)} ({args.src}: {_mb(before)}), "
        f"largest weight change {change:.3g}"
        + ("" if zeroed is None else f", {zeroed:,} weights TC never updated written as 0"),
        soft_wrap=True,
    )
    out.print(
        f'for the manifest: size = {size}, sha256 = "{sha256_of(args.out)}"',
        markup=False,
        soft_wrap=True,
    )
    return 0
