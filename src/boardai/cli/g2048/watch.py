"""``boardai 2048 watch``: a 2048 player plays one game in the terminal, move by move."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from boardai.cli._common import nonneg_int
from boardai.cli._watch import add_watch_options

if TYPE_CHECKING:
    from rich.panel import Panel

    from boardai.cli import App
    from boardai.g2048.game import Game


def register(app: App) -> None:
    p = app.command(
        "2048 watch",
        aliases=["watch"],
        help="watch a 2048 player play one game, the board redrawn in place",
        examples=(
            "boardai 2048 watch --agent expectimax\n"
            "boardai 2048 watch --agent expectimax:preset=strong --seed 3 --delay 0\n"
            "boardai 2048 watch --agent heuristic --delay 0.1 --record game.jsonl\n"
            "boardai 2048 watch --agent expectimax > final.txt   # not a terminal: the final "
            "board only"
        ),
    )
    p.add_argument(
        "--agent", default="expectimax", metavar="SPEC", help="the player (default expectimax)"
    )
    p.add_argument(
        "--seed", type=nonneg_int, default=None, help="seed of the game (default: random)"
    )
    add_watch_options(p, delay=0.02)
    p.set_defaults(func=run)


def _screen(spec: str, game: Game, note: str) -> Panel:
    from rich.console import Group
    from rich.panel import Panel
    from rich.text import Text

    from boardai.ui.g2048 import board_text_2048

    head = Text(
        f"score {game.score:,}   moves {game.moves:,}   max {game.board.max_tile():,}", style="bold"
    )
    board = board_text_2048(game.board.to_grid())
    return Panel(Group(head, board, Text(note, style="dim")), title=spec, expand=False)


def run(args: argparse.Namespace) -> int:
    from boardai.arena.play import Turn, board_of, play
    from boardai.cli._common import warn_if_slow
    from boardai.cli._first_use import noting_compiles, warm_up
    from boardai.cli._watch import watch
    from boardai.g2048 import ACTION_NAMES, Game
    from boardai.g2048.agents import make_agent
    from boardai.g2048.contract_game import State2048
    from boardai.g2048.render import board_text

    slow = warn_if_slow("2048", [args.agent])
    game = Game(seed=args.seed)
    with noting_compiles():
        agent = make_agent(args.agent, seed=args.seed)
        # compile (or load) the search off the clock: the ms a move are the moves' own
        warm_up([agent], game.board, [args.seed], skip=slow)
    think = 0.0

    def noted(turn: Turn) -> str:
        nonlocal think
        think += turn.seconds
        return f"{ACTION_NAMES[turn.action]:>5}   {1000 * think / game.moves:.2f} ms per move"

    interrupted = watch(
        play(State2048(game), [agent], observe=board_of),
        lambda note: _screen(args.agent, game, note),
        noted,
        args.delay,
        waiting="thinking...",
        done="game over",
    )
    if not sys.stdout.isatty():
        print(board_text(game.board, game.score))
    verdict = "stopped" if interrupted else "game over"
    print(
        f"{verdict}: score {game.score}, max tile {game.board.max_tile()}, {game.moves} moves, "
        f"{1000 * think / max(game.moves, 1):.2f} ms per move"
    )
    if args.record:
        from boardai.records import write_records

        rec = game.to_record()
        rec["agent"] = args.agent
        write_records(args.record, [rec])
    return 130 if interrupted else 0
