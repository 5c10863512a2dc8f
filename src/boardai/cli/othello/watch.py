"""``boardai othello watch``: two Othello players play one game in the terminal, move by move."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from boardai.cli._common import nonneg_int, probability
from boardai.cli._watch import add_watch_options

if TYPE_CHECKING:
    from rich.panel import Panel

    from boardai.cli import App
    from boardai.othello.game import Game


def register(app: App) -> None:
    p = app.command(
        "othello watch",
        help="watch two Othello players play one game, the board redrawn in place",
        description=(
            "Two players play one game of Othello; on a terminal the board is drawn after every "
            "move (the last move and the discs it flipped marked), off a terminal only the end "
            "is printed. Ctrl-C stops the game where it stands (exit 130; --record keeps it)."
        ),
        examples=(
            "boardai othello watch                                  # ntuple:depth=4 against "
            "alphabeta:depth=6\n"
            "boardai othello watch --black ntuple:preset=strong --white 'gtp:cmd=gtp-rhino -l 3'\n"
            "boardai othello watch --black wpc --white random --delay 0 --record game.jsonl\n"
            "boardai othello watch --epsilon 0.05 --seed 3          # some random moves: another "
            "game each seed"
        ),
    )
    p.add_argument(
        "--black",
        default="ntuple:depth=4",
        metavar="SPEC",
        help="the black player, who moves first (default ntuple:depth=4)",
    )
    p.add_argument(
        "--white",
        default="alphabeta:depth=6",
        metavar="SPEC",
        help="the white player (default alphabeta:depth=6)",
    )
    p.add_argument(
        "--seed",
        type=nonneg_int,
        default=None,
        help="seed of the players' randomness and of --epsilon's moves (default: random)",
    )
    p.add_argument(
        "--epsilon",
        type=probability,
        default=0.0,
        help="probability of a uniformly random move on every ply (default 0: the players' "
        "own moves, so the same players play the same game)",
    )
    add_watch_options(p, delay=0.5)
    p.set_defaults(func=run)


def _screen(game: Game, line: str) -> Panel:
    from rich.console import Group
    from rich.panel import Panel
    from rich.text import Text

    from boardai.othello.board import COLOR_NAMES
    from boardai.ui.othello import board_text_othello, game_state_othello

    state = game_state_othello(game)
    black, white = state["counts"]["black"], state["counts"]["white"]
    turn = state["result"] if state["over"] else f"{COLOR_NAMES[game.board.to_move]} to move"
    head = Text(f"black {black}  white {white}   {turn}   moves {len(game.moves)}", style="bold")
    names = game.players or ("black", "white")
    return Panel(
        Group(head, board_text_othello(state), Text(line, style="dim")),
        title=f"{names[0]} (black) against {names[1]} (white)",
        expand=False,
    )


def run(args: argparse.Namespace) -> int:
    import numpy as np

    from boardai.agent import Closable
    from boardai.arena.play import IllegalMoveError, Turn, board_of, play
    from boardai.cli._common import warn_if_slow
    from boardai.cli._first_use import noting_compiles, warm_up
    from boardai.cli._watch import watch
    from boardai.errors import UsageError
    from boardai.othello import Board, Game
    from boardai.othello.agents import make_agent
    from boardai.othello.agents.gtp_engine import start_engine
    from boardai.othello.board import COLOR_NAMES, action_text
    from boardai.othello.contract_game import StateOthello
    from boardai.othello.gtp import EngineError

    specs = (args.black, args.white)
    slow = warn_if_slow("othello", list(specs))
    seeds = (None, None) if args.seed is None else (args.seed, args.seed + 1)
    players = []
    try:
        with noting_compiles():
            for spec, seed in zip(specs, seeds, strict=True):
                players.append(make_agent(spec, seed))
                start_engine(players[-1], spec)  # a bad engine says so before the first board
            # compile (or load) the searches off the clock: the times a move are their own
            warm_up(players, Board.initial(), seeds, skip=slow)
    except BaseException:
        for agent in players:
            if isinstance(agent, Closable):
                agent.close()
        raise
    game = Game(players=specs)
    think = [0.0, 0.0]
    plies = [0, 0]

    def noted(turn: Turn) -> str:
        think[turn.mover] += turn.seconds
        plies[turn.mover] += 1
        how = "at random" if turn.random else f"in {turn.seconds:.2f} s"
        return f"{COLOR_NAMES[turn.mover]} played {action_text(turn.action)} {how}"

    failed: EngineError | IllegalMoveError | None = None
    try:
        interrupted = watch(
            play(
                StateOthello(game),
                players,
                observe=board_of,
                epsilon=args.epsilon,
                rng=np.random.default_rng(args.seed),
            ),
            lambda line: _screen(game, line),
            noted,
            args.delay,
            waiting="thinking...",
            done="game over",
        )
    except (EngineError, IllegalMoveError) as e:  # a player failed mid-game: keep the record
        failed, interrupted = e, False
    finally:
        for agent in players:
            if isinstance(agent, Closable):  # an engine's process ends with the game
                agent.close()
    if not sys.stdout.isatty():
        print(game.board)
    black, white = game.board.discs()
    plied = f"{len(game.moves)} {'ply' if len(game.moves) == 1 else 'plies'}"
    each = ", ".join(
        f"{COLOR_NAMES[c]} {1000 * think[c] / max(plies[c], 1):.1f} ms a move" for c in (0, 1)
    )
    if game.is_over():
        w = game.board.winner()
        verdict = "a draw" if w is None else f"{COLOR_NAMES[w]} ({specs[w]}) wins"
        print(f"game over: {verdict}, black {black} - white {white}; {plied}, {each}")
    else:
        print(f"stopped: black {black} - white {white} after {plied}, {each}")
    if args.record:
        from boardai.records import write_records

        write_records(args.record, [game.to_record()])
    if failed is not None:
        raise UsageError(f"a player failed: {failed}")
    return 130 if interrupted else 0
