"""``boardai othello tournament``: a round robin between Othello players, with an Elo table."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from boardai.cli.othello.match import (
    check_players,
    journal_identity,
    match_options,
    play_pairing,
    write_game_records,
)

if TYPE_CHECKING:
    from boardai.cli import App


def register(app: App) -> None:
    p = app.command(
        "othello tournament",
        help="round robin between Othello players, with an Elo table",
        examples=(
            "boardai othello tournament --agents random greedy wpc alphabeta:depth=2\n"
            "boardai othello tournament --agents random wpc ntuple --games 400 --cluster local "
            "--resume t.jsonl\n"
            "boardai othello tournament --agents greedy wpc alphabeta:depth=2 --plot t.png"
        ),
    )
    from boardai.cli._common import PLOT, output_option

    p.add_argument("--agents", nargs="+", required=True, metavar="SPEC", help="two or more players")
    match_options(p)
    output_option(
        p,
        "--plot",
        metavar="FILE",
        needs=PLOT,
        help="write a PNG: the cross table of scores beside the Elo ratings",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from rich.table import Table

    from boardai.arena.match_results import elo_ratings
    from boardai.cli._common import console, write_json
    from boardai.errors import UsageError
    from boardai.report import folding

    names = list(dict.fromkeys(args.agents))
    if len(names) < 2:
        raise UsageError("a tournament needs at least two different players")
    from boardai.cli._arena import open_journal, part_of

    part_of(args)  # a bad --part is one line before any work
    check_players(names, getattr(args, "cluster", None), args.clock is not None)
    results = []
    scores: dict[tuple[int, int], tuple[float, int]] = {}
    journal = open_journal(args, journal_identity(args, "othello tournament", names))
    records: list[dict[str, Any]] | None = [] if args.record else None
    interrupted, stopped_in = False, 0
    try:
        pairs = [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))]
        for k, (i, j) in enumerate(pairs, 1):
            r, interrupted = play_pairing(
                names[i], names[j], args, f"{names[i]} vs {names[j]}", journal=journal,
                records=records,
            )  # fmt: skip
            if r.games:
                results.append(r)
                scores[(i, j)] = (r.score * r.games, r.games)
            if interrupted:  # Ctrl-C stops the tournament, not only this pairing
                stopped_in = k
                break
    finally:
        if journal is not None:
            journal.close()
    if not results:
        return 130 if interrupted else 0
    if interrupted:
        console(stderr=True).print(
            f"interrupted in pairing {stopped_in} of {len(pairs)}: the tables hold the games played"
        )
    elo = elo_ratings(names, scores)
    played = {k for pair in scores for k in pair}  # all, unless it was stopped early
    t = Table(title="tournament", title_justify="left")
    t.add_column("player")
    t.add_column("Elo", justify="right")
    t.add_column("score", justify="right")
    for k in sorted(range(len(names)), key=lambda k: -elo[k]):
        pts = sum(p if i == k else g - p for (i, j), (p, g) in scores.items() if k in (i, j))
        g = sum(g for (i, j), (_, g) in scores.items() if k in (i, j))
        if k in played:
            t.add_row(names[k], f"{elo[k]:.0f}", f"{pts / g:.3f}")
    out = console()
    out.print(folding(t))
    for r in results:
        out.print(f"{r.a} vs {r.b}: {r.score:.3f} ± {r.score_se:.3f} over {r.games} games")
    if records is not None:
        write_game_records(args, records)
    if args.json:
        write_json(
            args.json,
            {
                "elo": {names[k]: elo[k] for k in range(len(names)) if k in played},
                "matches": [r.to_dict() for r in results],
                "interrupted": interrupted,
            },
        )
    if args.plot:
        from boardai.arena.plots import write_tournament_plot

        try:
            write_tournament_plot(names, elo, scores, args.plot)
        except OSError as e:
            raise UsageError(f"{e.filename}: {e.strerror or e} (the plot is not saved)") from None
    return 130 if interrupted else 0
