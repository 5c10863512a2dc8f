"""``boardai othello analyze FILE --agent SPEC``: each position's value and best move, as a
player sees them at its own limits."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from boardai.cli._common import json_option

if TYPE_CHECKING:
    from boardai.cli import App


def register(app: App) -> None:
    p = app.command(
        "othello analyze",
        help="each position's value for the side to move and the player's best move",
        description=(
            "Analyse Othello positions with a player at its own limits: for each position,\n"
            "its value for the side to move and the move the player chooses.\n\n"
            "FILE holds positions one a line in the FFO / obf format (64 characters a1..h8,\n"
            "X black, O white, - empty, a space, the side to move X or O), or board text as\n"
            "boardai prints it. Values are exact final disc differences where the search\n"
            "solved the position (unit 'discs'), else the player's evaluation (unit 'eval':\n"
            "wpc and classic in hundredths of their weights, the n-tuple network's in\n"
            "(-100, 100)). depth=0 gives the static evaluation of the position itself.\n"
            "Every bad line is reported, one line each, and nothing is analysed (exit 2)."
        ),
        examples=(
            "boardai othello analyze examples/positions.obf --agent alphabeta:depth=6\n"
            "boardai othello analyze examples/positions.obf --agent ntuple:depth=0   # static\n"
            "boardai othello analyze examples/positions.obf --agent ntuple:preset=strong "
            "--json a.json"
        ),
    )
    p.add_argument("file", metavar="FILE", help="positions, one a line (obf) or board text")
    p.add_argument(
        "--agent",
        default="alphabeta:depth=6,endgame=16",
        metavar="SPEC",
        help="the player whose view is shown (default: alphabeta:depth=6,endgame=16)",
    )
    json_option(p, "write each position's analysis as JSON")
    p.set_defaults(func=run)


def analysis(agent: Any, board: Any) -> dict[str, Any]:
    """The player's value of ``board`` for the side to move and its move: from its search
    where it has one (``analyse``), else its own evaluation (``evaluate``), else the move
    alone."""
    from boardai.othello.board import action_text

    if hasattr(agent, "analyse"):
        from boardai.othello.search import value_in_discs

        found = agent.analyse(board)
        value = value_in_discs(found.value)  # a finished game the search saw: its discs
        return {
            "move": action_text(found.action),
            "value": value,
            "unit": "discs" if found.exact or value != found.value else "eval",
            "depth": found.depth,
            "nodes": found.nodes,
        }
    move = action_text(agent.act(board))
    if hasattr(agent, "evaluate"):
        return {"move": move, "value": float(agent.evaluate(board)), "unit": "eval"}
    return {"move": move, "value": None, "unit": None}


def run(args: argparse.Namespace) -> int:
    import sys
    import time

    from boardai.cli._common import plural, write_json
    from boardai.cli.othello._positions import read_positions
    from boardai.errors import UsageError
    from boardai.othello.agents import make_agent

    errors: list[str] = []
    positions = read_positions(args.file, errors)
    if errors:
        for line in errors:
            print(f"boardai: error: {line}", file=sys.stderr)
        raise UsageError(f"{args.file}: {len(errors)} bad {plural(len(errors), 'line')}")
    agent = make_agent(args.agent)
    out = sys.stderr if args.json == "-" else sys.stdout  # stdout carries the JSON alone
    print(
        f"{len(positions)} {plural(len(positions), 'position')}; {args.agent}; "
        "value for the side to move",
        file=out,
        flush=True,
    )
    rows: list[dict[str, Any]] = []
    interrupted = False
    for i, pos in enumerate(positions, start=1):
        board = pos.board()
        agent.reset()  # each position on its own: no table from the last one
        start = time.perf_counter()
        try:
            row = analysis(agent, board)
        except KeyboardInterrupt:
            interrupted = True
            break
        row = {"line": pos.line, "empties": pos.empties, **row}
        row["seconds"] = time.perf_counter() - start
        rows.append(row)
        value = "-" if row["value"] is None else f"{row['value']:+8.2f} {row['unit']:<5}"
        print(
            f"#{i:<3} line {pos.line:<4} {pos.empties:2d} empties  {row['move']:>4}  {value}"
            f"  {row['seconds']:7.3f} s",
            file=out,
            flush=True,
        )
    if args.json:
        write_json(args.json, {"agent": args.agent, "positions": rows, "interrupted": interrupted})
    if interrupted:
        print(f"interrupted at #{len(rows) + 1}", file=out)
        return 130
    return 0
