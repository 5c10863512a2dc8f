"""``boardai tui``: the full-screen terminal app for 2048, Othello and replays."""

from __future__ import annotations

import argparse

from boardai.cli._common import nonneg_int, output_option


def register(app: argparse.Namespace) -> None:
    p = app.command(
        "tui",
        help="play 2048 and Othello, and watch replays, in a full-screen terminal app",
        description=(
            "A full-screen terminal app. Keys 1, 2, 3 switch between 2048, Othello and the "
            "replay viewer; each screen lists its keys at the bottom; q quits."
        ),
        examples="""
boardai tui
boardai tui --player expectimax:depth=2 --opponent wpc
boardai tui --replay games.jsonl --game 3
boardai tui --othello --record games.jsonl
""",
    )
    p.add_argument("--player", metavar="SPEC", help="2048 player for hints and autoplay")
    p.add_argument(
        "--opponent", metavar="SPEC", help="Othello opponent (its options set its strength)"
    )
    p.add_argument("--seed", type=nonneg_int, default=None, help="seed for the first game")
    p.add_argument("--replay", metavar="FILE", help="open this record file in the replay screen")
    p.add_argument(
        "--game", type=int, default=0, metavar="K", help="with --replay: the game to show first"
    )
    p.add_argument("--othello", action="store_true", help="start on the Othello screen")
    output_option(
        p, "--record", metavar="FILE", help="append every finished game to this JSON-lines file"
    )
    p.set_defaults(func=run)


#: The flag that names each game's player on its screen (a game without one gets the
#: strongest player there is).
PLAYER_FLAGS = {"2048": "player", "othello": "opponent"}


def run(args: argparse.Namespace) -> int:
    from boardai.errors import UsageError
    from boardai.games import parts
    from boardai.records import pick, read_records
    from boardai.ui.tui import BoardApp

    players = {game: getattr(args, flag) for game, flag in PLAYER_FLAGS.items()}
    for game, spec in players.items():
        if spec:
            parts(game).agents.get().check(spec)
    records = read_records(args.replay) if args.replay else []
    if records:
        pick(records, args.game, args.replay)
    start = "replay" if args.replay else "othello" if args.othello else "2048"
    app = BoardApp(
        players={game: spec for game, spec in players.items() if spec},
        seed=args.seed,
        records=records,
        game=args.game % len(records) if records else 0,
        record_path=args.record,
        start=start,
    )
    app.run()
    if app.sink.error:  # shown on the screen too, but a game lost must outlive the screen
        raise UsageError(app.sink.error)
    return app.return_code or 0
