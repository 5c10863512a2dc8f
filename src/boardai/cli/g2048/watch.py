"""``boardai 2048 watch``: a 2048 player plays one game in the terminal, move by move."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from boardai.cli._common import nonneg_float, nonneg_int, output_option

if TYPE_CHECKING:
    from rich.panel import Panel
    from rich.table import Table

    from boardai.cli import App
    from boardai.g2048.board import Board
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
    p.add_argument(
        "--delay",
        type=nonneg_float,
        default=0.02,
        help="seconds between moves (default 0.02; 0: full speed)",
    )
    output_option(p, "--record", metavar="FILE", help="write the game's replay record (JSON lines)")
    p.set_defaults(func=run)


def _board_table(board: Board) -> Table:
    from rich.table import Table
    from rich.text import Text

    from boardai.ui.theme import tile_colors

    t = Table(show_header=False, show_lines=True, box=None, padding=(0, 0), pad_edge=False)
    for _ in range(4):
        t.add_column(justify="center", width=8)
    for row in board.to_grid():
        cells = []
        for v in row:
            bg, fg = tile_colors(v)
            label = str(v) if v else "·"
            cells.append(Text(f"{label:^8}", style=f"bold {fg} on {bg}"))
        t.add_row(*cells)
    return t


def _screen(spec: str, game: Game, note: str) -> Panel:
    from rich.console import Group
    from rich.panel import Panel
    from rich.text import Text

    head = Text(
        f"score {game.score:,}   moves {game.moves:,}   max {game.board.max_tile():,}", style="bold"
    )
    return Panel(
        Group(head, _board_table(game.board), Text(note, style="dim")), title=spec, expand=False
    )


def run(args: argparse.Namespace) -> int:
    import sys
    import time

    from boardai.arena.play import Turn, play_2048
    from boardai.cli._common import console, warn_if_slow
    from boardai.g2048 import ACTION_NAMES, Game
    from boardai.g2048.agents import make_agent
    from boardai.g2048.render import board_text

    warn_if_slow("2048", [args.agent])
    agent = make_agent(args.agent, seed=args.seed)
    game = Game(seed=args.seed)
    agent.reset()
    out = console()
    live_screen = sys.stdout.isatty()
    interrupted = False
    note = "thinking (the first run compiles the search; later runs load it)..."
    think = 0.0

    def noted(turn: Turn) -> str:
        nonlocal think
        think += turn.seconds
        return f"{ACTION_NAMES[turn.action]:>5}   {1000 * think / game.moves:.2f} ms per move"

    try:
        if live_screen:
            from rich.live import Live

            with Live(_screen(args.agent, game, note), console=out, auto_refresh=False) as live:
                last_draw = 0.0
                for turn in play_2048(game, agent):
                    note = noted(turn)
                    now = time.perf_counter()
                    if args.delay > 0 or now - last_draw > 1 / 30:  # at most 30 frames a second
                        live.update(_screen(args.agent, game, note), refresh=True)
                        last_draw = now
                    if args.delay > 0:
                        time.sleep(args.delay)
                live.update(_screen(args.agent, game, note + "   game over"), refresh=True)
        else:
            for turn in play_2048(game, agent):
                noted(turn)
    except KeyboardInterrupt:
        interrupted = True
    if not live_screen:
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
