"""``boardai othello play``: a person against an AI in the terminal (seed 002's battle)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from boardai.cli._common import nonneg_int, output_option

if TYPE_CHECKING:
    from rich.console import Console

    from boardai.agent import Agent
    from boardai.cli import App
    from boardai.othello.board import Board
    from boardai.othello.game import Game

HELP = "moves: d3 (column a-h, row 1-8) | undo | eval | moves | quit"


def register(app: App) -> None:
    p = app.command(
        "othello play",
        help="play Othello against an AI in the terminal",
        examples=(
            "boardai othello play --ai alphabeta:depth=6\n"
            "boardai othello play --ai wpc --color white --record game.jsonl"
        ),
    )
    p.add_argument("--ai", default="alphabeta:depth=6,time=1", metavar="SPEC", help="the AI player")
    p.add_argument("--color", choices=["black", "white"], default="black", help="your colour")
    p.add_argument("--seed", type=nonneg_int, default=None, help="seed of the AI's randomness")
    output_option(
        p,
        "--record",
        metavar="FILE",
        help="write the game's replay record at the end (JSON lines, as every --record)",
    )
    p.set_defaults(func=run)


def _show(game: Game, out: Console) -> None:
    """The board: in colour on a terminal (the last move and its flips marked, the legal
    moves dotted), else as text with ``*`` on the legal moves."""
    board = game.board
    if out.is_terminal:
        from boardai.ui.othello import board_text_othello, game_state_othello

        out.print(board_text_othello(game_state_othello(game), legal_moves=True))
        b, w = board.discs()
        out.print(f"black {b}  white {w}", highlight=False, markup=False)
        return
    legal = board.legal_moves_mask()
    lines = ["  a b c d e f g h"]
    for r in range(8):
        cells = []
        for c in range(8):
            sq = 8 * r + c
            cells.append(
                "X"
                if board.black >> sq & 1
                else "O"
                if board.white >> sq & 1
                else "*"
                if legal >> sq & 1
                else "."
            )
        lines.append(f"{r + 1} " + " ".join(cells))
    b, w = board.discs()
    lines.append(f"X black {b}  O white {w}   (* = legal)")
    out.print("\n".join(lines), highlight=False, markup=False)


def _evaluation(ai: Agent[Board], board: Board) -> str:
    from boardai.othello import evaluation as E

    if hasattr(ai, "analyse"):
        r = ai.analyse(board)
        kind = "exact disc difference" if r.exact else f"depth {r.depth}"
        return f"{r.value:+.0f} for the side to move ({kind}, best {board.action_text(r.action)})"
    if hasattr(ai, "evaluate"):
        return f"{ai.evaluate(board):+.3f} for the side to move (network value in -1..1)"
    import numpy as np

    v = E.wpc(np.uint64(board.mover), np.uint64(board.opponent), E.WPC_WEIGHTS)
    return f"{v:+.0f} for the side to move (WPC)"


def run(args: argparse.Namespace) -> int:
    from boardai.agent import Closable
    from boardai.arena.play import board_of, play
    from boardai.cli._common import console, warn_if_slow
    from boardai.cli._first_use import noting_compiles, warm_up
    from boardai.errors import UsageError
    from boardai.othello import BLACK, WHITE, Game
    from boardai.othello.agents import make_agent
    from boardai.othello.agents.gtp_engine import start_engine
    from boardai.othello.board import COLOR_NAMES, PASS, Board, action_text
    from boardai.othello.contract_game import StateOthello
    from boardai.othello.gtp import EngineError

    out = console()
    slow = warn_if_slow("othello", [args.ai])
    with noting_compiles():
        ai = make_agent(args.ai, args.seed)
        start_engine(ai, args.ai)  # a bad engine says so before the first board
        # compile (or load) the search before the first board, not after the person's move
        warm_up([ai], Board.initial(), [args.seed], skip=slow)
    failed: EngineError | None = None
    me = BLACK if args.color == "black" else WHITE
    game = Game(players=("you", args.ai) if me == BLACK else (args.ai, "you"))
    players = (None, ai) if me == BLACK else (ai, None)  # None: the person
    out.print(f"You play {COLOR_NAMES[me]} against {args.ai}. {HELP}", markup=False)
    try:
        while not game.is_over():
            for turn in play(StateOthello(game), players, observe=board_of):
                out.print(f"AI plays {action_text(turn.action)}", markup=False)
            if game.is_over():
                break
            board = game.board
            _show(game, out)
            if board.legal_actions() == [PASS]:
                out.print("You have no move: pass.")
                game.play(PASS)
                continue
            try:
                text = input(f"{COLOR_NAMES[me]} > ").strip().lower()
            except EOFError:
                out.print("\nbye")
                break
            if text in ("quit", "q", "exit"):
                break
            if not text:  # Enter alone: the board again
                continue
            if text == "undo":
                if not game.undo_turn(me):
                    out.print("nothing to undo")
                continue
            if text in ("eval", "e"):
                out.print(_evaluation(ai, board), markup=False)
                continue
            if text in ("moves", "m", "?", "help"):
                out.print(
                    f"legal: {', '.join(action_text(a) for a in board.legal_actions())}. {HELP}",
                    markup=False,
                )
                continue
            try:
                game.play(text)
            except ValueError as e:
                out.print(str(e), markup=False)
    except KeyboardInterrupt:
        out.print("\ninterrupted")
    except EngineError as e:  # the engine died or timed out mid-game: keep the record
        failed = e
    if isinstance(ai, Closable):  # an engine's process ends with the game
        ai.close()
    if game.is_over():
        _show(game, out)
        w = game.board.winner()
        verdict = "draw" if w is None else "you win" if w == me else "the AI wins"
        out.print(f"Game over: {verdict} ({game.board.score(me):+d} discs for you).")
    if args.record:
        from boardai.records import write_records

        write_records(args.record, [game.to_record()])
        out.print(f"record written to {args.record}")
    if failed is not None:
        raise UsageError(f"the AI failed: {failed}")
    return 0
