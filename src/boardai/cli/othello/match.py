"""``boardai othello match``: two Othello players, double games (Othello League style); and
what ``boardai othello tournament`` shares with it: the options, the pairing, the table."""

from __future__ import annotations

import argparse
import math
from typing import TYPE_CHECKING, Any

from boardai.cli._arena import add_arena_options
from boardai.cli._common import (
    json_option,
    nonneg_int,
    output_option,
    positive_int,
    probability,
    workers_option,
)

if TYPE_CHECKING:
    from rich.table import Table

    from boardai.arena.journal import Journal
    from boardai.arena.match_results import GameOutcome, MatchResult
    from boardai.cli import App


def match_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--games", type=positive_int, default=100, help="games per pairing (default 100)"
    )
    p.add_argument(
        "--epsilon",
        type=probability,
        default=0.0,
        help="probability of a random move on every ply (Othello League: 0.1; default 0)",
    )
    p.add_argument("--seed", type=nonneg_int, default=0, help="seed (default 0)")
    workers_option(p, "worker processes (default: all cores); results do not depend on it")
    json_option(p, "write the results as JSON")
    output_option(
        p,
        "--record",
        metavar="FILE",
        help="write every game's replay record (JSON lines: boardai replay, render, tui "
        "--replay and the web page's Replay tab open it)",
    )
    p.add_argument(
        "--clock",
        type=clock_spec,
        metavar="MAIN[+BYO/STONES]",
        help="a game clock for each player: MAIN seconds for the game, then (optionally) "
        "Canadian byo-yomi, STONES moves in every BYO seconds; a search gets each move's share "
        "(its own time= is the most), a GTP engine is sent time_settings and time_left, and a "
        "player whose clock runs out loses the game (default: no clock)",
    )
    add_arena_options(p)


def clock_spec(text: str) -> tuple[float, float, int]:
    """argparse type: ``MAIN`` or ``MAIN+BYO/STONES`` seconds (main time, then STONES moves in
    each period of BYO seconds) -> (main, byo_yomi, stones).

    >>> clock_spec("60"), clock_spec("0+10/5"), clock_spec("30.5+2/1")
    ((60.0, 0.0, 0), (0.0, 10.0, 5), (30.5, 2.0, 1))
    """
    main, plus, rest = text.partition("+")
    byo, slash, stones = rest.partition("/")
    try:
        clock = (float(main), float(byo) if plus else 0.0, int(stones) if plus else 0)
        if plus and not slash:
            raise ValueError
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: a clock is MAIN or MAIN+BYO/STONES (seconds; e.g. 60 or 30+5/1)"
        ) from None
    main_s, byo_s, n = clock
    if not (math.isfinite(main_s) and math.isfinite(byo_s)) or main_s < 0 or byo_s < 0 or n < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: a clock's seconds and moves are >= 0")
    if main_s <= 0 and (byo_s <= 0 or n <= 0):
        raise argparse.ArgumentTypeError(f"{text!r}: a clock needs main time or byo-yomi")
    if plus and (byo_s <= 0 or n <= 0):
        raise argparse.ArgumentTypeError(f"{text!r}: byo-yomi needs BYO > 0 and STONES > 0")
    return clock


def random_plies_range(text: str) -> tuple[int, int]:
    """argparse type: ``LO-HI`` (or ``K``, for K-K), the random plies each game opens with,
    0 <= LO <= HI <= 60.

    >>> random_plies_range("8-30"), random_plies_range("12")
    ((8, 30), (12, 12))
    """
    from boardai.arena.match import MAX_RANDOM_PLIES
    from boardai.cli._common import int_band

    return int_band(text, MAX_RANDOM_PLIES)


def register(app: App) -> None:
    p = app.command(
        "othello match",
        help="play double games between two Othello players: score ± standard error",
        examples=(
            "boardai othello match --black alphabeta:depth=4 --white wpc --games 1000 "
            "--epsilon 0.1\n"
            "boardai othello match --black ntuple:model=runs/nt.npz --white wpc --games 200\n"
            "boardai othello match --black wpc --white 'gtp:cmd=gtp-rhino -l 3' --games 20\n"
            "boardai othello match --black ntuple --white wpc --games 10000 --cluster auto "
            "--resume m.jsonl\n"
            "boardai othello match --black alphabeta:depth=6,endgame=16 "
            "--white alphabeta:depth=6,endgame=16 --random-plies 8-30 --no-swap --games 2000 "
            "--record data/games.jsonl --resume data/journal.jsonl\n"
            "boardai othello match --black ntuple:preset=strong --white alphabeta:depth=60 "
            "--clock 60 --games 20"
        ),
    )
    p.add_argument("--black", required=True, metavar="SPEC", help="player A (black in odd games)")
    p.add_argument("--white", required=True, metavar="SPEC", help="player B")
    p.add_argument(
        "--no-swap",
        dest="swap",
        action="store_false",
        help="A always plays black (default: colours alternate, pairs share a seed)",
    )
    p.add_argument(
        "--random-plies",
        type=random_plies_range,
        metavar="LO-HI",
        help="open each game with k uniformly random legal plies, k drawn from LO..HI by the "
        "game's seed (both games of a pair open alike); records say k (training data: "
        "boardai othello data pack)",
    )
    match_options(p)
    p.set_defaults(func=run)


def check_players(specs: list[str], cluster: str | None = None, clock: bool = False) -> None:
    """Build each player once here: a bad spec or model file, or an engine that does not
    start, is one line before any game. An engine is started here unless the games play on a
    cluster other than a local one (``cluster``), whose machines may be the only ones that
    have it. A slow player is warned about unless a game clock (``clock``) bounds its moves."""
    from boardai.agent import Closable
    from boardai.cli._common import warn_if_slow
    from boardai.othello.agents import make_agent
    from boardai.othello.agents.gtp_engine import start_engine

    if not clock:
        warn_if_slow("othello", specs)
    for s in specs:
        agent = make_agent(s, 0)
        try:
            if cluster in (None, "local"):
                start_engine(agent, s)
        finally:
            if isinstance(agent, Closable):
                agent.close()


def play_pairing(
    a: str,
    b: str,
    args: argparse.Namespace,
    label: str,
    swap: bool = True,
    journal: Journal | None = None,
    records: list[dict[str, Any]] | None = None,
) -> tuple[MatchResult, bool]:
    """Play the games of A against B; returns their result and whether Ctrl-C (or SIGTERM)
    stopped them (the result then holds the games finished). With ``records``, each game's
    replay record is appended there, in game order, naming its players."""
    from rich.progress import TextColumn

    from boardai.arena.journal import dataclass_codec, pairing
    from boardai.arena.match import run_match
    from boardai.arena.match_results import GameOutcome, summarize
    from boardai.cli._arena import games_to_show, part_of, where_to_play
    from boardai.cli._common import progress

    backend, workers = where_to_play(args)
    part = part_of(args)
    played = None if journal is None else journal.part(pairing(a, b), dataclass_codec(GameOutcome))
    points = [0.0, 0]
    with progress(TextColumn("score {task.fields[score]:.3f}")) as bar:
        shown = games_to_show(args.games, part, played.done if played is not None else ())
        task = bar.add_task(label, total=shown, score=0.0)

        def on_game(o: GameOutcome) -> None:
            points[0] += o.score
            points[1] += 1
            bar.update(task, advance=1, score=points[0] / points[1])

        done = run_match(
            a,
            b,
            args.games,
            epsilon=args.epsilon,
            seed=args.seed,
            workers=workers,
            swap=swap,
            on_game=on_game,
            backend=backend,
            journal=played,
            part=part,
            keep_records=records is not None,
            random_plies=getattr(args, "random_plies", None),
            clock=getattr(args, "clock", None),
        )
    if records is not None:
        records += game_records(args.epsilon, done.results)
    if done.interrupted:
        from boardai.cli._common import console, plural

        console(stderr=True).print(
            f"interrupted: {len(done.results)} {plural(len(done.results), 'game')} played"
        )
    return summarize(a, b, done.results, done.seconds, args.epsilon), done.interrupted


def game_records(epsilon: float, outcomes: list[GameOutcome]) -> list[dict[str, Any]]:
    """The replay records the ``outcomes`` of a match keep (naming their players by colour,
    as :func:`~boardai.arena.match.play_game` plays them), with their game index and epsilon
    (a game played before records were kept has none)."""
    return [
        {**o.record, "index": o.index, "epsilon": epsilon} for o in outcomes if o.record is not None
    ]


def write_game_records(args: argparse.Namespace, records: list[dict[str, Any]]) -> None:
    """``--record``: the games' records, one a line (a failure is one line, the results above
    shown)."""
    from boardai.errors import UsageError
    from boardai.records import write_records

    try:
        write_records(args.record, records)
    except OSError as e:
        raise UsageError(f"{e.filename}: {e.strerror or e} (the records are not saved)") from None


def match_table(r: MatchResult) -> Table:
    from rich.table import Table

    from boardai.report import folding

    t = Table(title=f"{r.a} vs {r.b}", show_header=False, title_justify="left")
    t.add_column("what")
    t.add_column("value", justify="right")
    t.add_row("games", f"{r.games:,}")
    t.add_row(f"wins / draws / losses ({r.a})", f"{r.wins} / {r.draws} / {r.losses}")
    t.add_row("score (win 1, draw 0.5)", f"{r.score:.3f} ± {r.score_se:.3f}")
    t.add_row("average disc difference", f"{r.disc_diff:+.1f}")
    t.add_row("epsilon", f"{r.epsilon}")
    t.add_row("moves per second", f"{r.moves_per_second:,.0f}")
    for name, mean, slowest in ((r.a, r.a_seconds_a_move, r.a_slowest),
                                (r.b, r.b_seconds_a_move, r.b_slowest)):  # fmt: skip
        if not math.isnan(mean):
            t.add_row(f"seconds a move ({name})", f"{mean:.3f} (slowest {slowest:.2f})")
    if r.forfeits:
        t.add_row("forfeits", f"{len(r.forfeits)} (first: {r.forfeits[0]})")
    return folding(t)


def journal_identity(args: argparse.Namespace, command: str, players: list[str]) -> dict[str, Any]:
    """What a journal of this command must match to be resumed."""
    identity = {
        "command": command,
        "players": players,
        "seed": args.seed,
        "games": args.games,
        "epsilon": args.epsilon,
        "swap": getattr(args, "swap", True),
    }
    if getattr(args, "record", None):  # its games keep their records (named only then, so
        identity["records"] = True  # the journals of runs without --record resume as before)
    if getattr(args, "random_plies", None) is not None:  # (likewise)
        identity["random_plies"] = list(args.random_plies)
    if getattr(args, "clock", None) is not None:  # (likewise)
        identity["clock"] = list(args.clock)
    return identity


def run(args: argparse.Namespace) -> int:
    from boardai.cli._arena import open_journal, part_of
    from boardai.cli._common import console, write_json

    part_of(args)  # a bad --part is one line before any work
    check_players([args.black, args.white], getattr(args, "cluster", None), args.clock is not None)
    if args.random_plies is not None and args.swap and args.black == args.white:
        import sys

        print(  # a deterministic player then plays each pair's game twice, move for move
            "boardai: warning: one player on both sides with colours swapped may play the same "
            "game twice from each pair's opening; --no-swap gives every game its own",
            file=sys.stderr,
        )
    journal = open_journal(args, journal_identity(args, "othello match", [args.black, args.white]))
    records: list[dict[str, Any]] | None = [] if args.record else None
    try:
        r, interrupted = play_pairing(
            args.black, args.white, args, "games", swap=args.swap, journal=journal, records=records
        )
    finally:
        if journal is not None:
            journal.close()
    if not r.games:
        return 130 if interrupted else 0
    console().print(match_table(r))
    if records is not None:
        write_game_records(args, records)
    if args.json:
        write_json(
            args.json,
            {**r.to_dict(), "seed": args.seed, "swap": args.swap, "interrupted": interrupted},
        )
    return 130 if interrupted else 0
