"""``boardai othello gtp``: serve a boardai player over GTP on stdin/stdout."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from boardai.cli._common import nonneg_int

if TYPE_CHECKING:
    from boardai.cli import App


def register(app: App) -> None:
    p = app.command(
        "othello gtp",
        help="serve an Othello player over GTP (stdin/stdout) for GUIs and other programs",
        examples=(
            "boardai othello gtp --agent alphabeta:depth=6\n"
            "printf 'genmove black\\nquit\\n' | boardai othello gtp --agent wpc"
        ),
    )
    p.add_argument("--agent", default="alphabeta:depth=6,time=1", metavar="SPEC", help="the player")
    p.add_argument("--seed", type=nonneg_int, default=None, help="seed of the player's randomness")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import sys

    from boardai.agent import Closable
    from boardai.othello.agents import make_agent
    from boardai.othello.agents.gtp_engine import start_engine
    from boardai.othello.gtp import GTPServer

    agent = make_agent(args.agent, args.seed)
    start_engine(agent, args.agent)  # one line on stderr, before the controller's first command
    try:
        GTPServer(agent, name=f"boardai {args.agent}").serve(sys.stdin, sys.stdout)
    finally:
        if isinstance(agent, Closable):  # a proxied engine quits with the server
            agent.close()
    return 0
