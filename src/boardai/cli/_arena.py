"""Options of the commands that play many games: where they play (``--cluster``), the
journal they resume from (``--resume``), and which of the run's games (``--part``)."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from boardai.cli._common import default_workers, game_part, output_option

if TYPE_CHECKING:
    from boardai.arena.backends import Backend
    from boardai.arena.journal import Journal


def add_arena_options(p: argparse.ArgumentParser, partial: bool = False) -> None:
    """--cluster and --resume (``partial``: say that a game cut short goes on, as 2048's do)."""
    p.add_argument(
        "--cluster",
        metavar="ADDRESS",
        default=None,
        help="play on Ray: 'local' starts Ray here (--workers CPUs), 'auto' joins the cluster "
        "of `ray start`, else the head's HOST:PORT (needs boardai[ray])",
    )
    output_option(
        p,
        "--resume",
        metavar="FILE",
        help="journal of the finished games (JSON lines): written as they finish; if FILE "
        "exists, play only the games it lacks (more --games than it names extends the run)"
        + (
            "; a game cut short goes on from its last position (saved in FILE.partial/ every 30 s "
            "and when the run stops)"
            if partial
            else ""
        ),
    )
    p.add_argument(
        "--part",
        metavar="START:STOP",
        type=game_part,
        default=None,
        help="play only games START to STOP-1 of the run (a game is the same on any machine): "
        "split a run over machines that share no cluster, each part with its own --resume "
        "file, then put them together with `boardai journal merge`",
    )


def part_of(args: argparse.Namespace) -> range | None:
    """The ``--part`` of a run of ``args.games`` games (None: all of them).

    Raises:
        UsageError: the part reaches past the run's games.
    """
    part: range | None = getattr(args, "part", None)
    if part is not None and part.stop > args.games:
        from boardai.errors import UsageError

        raise UsageError(
            f"--part {part.start}:{part.stop} reaches past the run's {args.games} games "
            f"(--games {args.games}: games 0 to {args.games - 1})"
        )
    return part


def games_to_show(games: int, part: range | None, done: Iterable[int]) -> int:
    """How many games a run's progress bar counts: all ``games``, or with a ``part`` those of
    the part and the journal's games ``done`` already."""
    if part is None:
        return games
    return len(part) + sum(1 for i in done if i < games and i not in part)


def where_to_play(args: argparse.Namespace) -> tuple[Backend | None, int]:
    """The backend (None: the local default) and the workers the games are cut for."""
    if not getattr(args, "cluster", None):
        return None, args.workers or default_workers()
    from boardai.arena.ray_backend import RayBackend
    from boardai.cli._common import console

    backend = RayBackend(
        args.cluster,
        args.workers if args.cluster == "local" else None,
        notify=console(stderr=True).print,
    )
    return backend, args.workers or backend.cpus()


def open_journal(args: argparse.Namespace, header: dict[str, Any]) -> Journal | None:
    """The ``--resume`` journal of this run (None without one). Called once the players have
    been built here: the header also names the models they read, with their checksums, so that
    the run is not resumed with other weights under the same name or path."""
    if not getattr(args, "resume", None):
        return None
    from boardai.arena.journal import Journal
    from boardai.learn import store

    models = store.resolved_models()
    return Journal.open(args.resume, {**header, "models": models} if models else header)
