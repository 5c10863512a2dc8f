"""``boardai 2048 play``: play 2048 yourself in the terminal."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from boardai.cli._common import nonneg_int

if TYPE_CHECKING:
    from boardai.cli import App


def register(app: App) -> None:
    p = app.command(
        "2048 play",
        aliases=["play"],
        help="play 2048 yourself in the terminal",
        description="Play 2048 in the terminal: arrows, WASD or hjkl move; u undo; n new; q quit.",
        examples=(
            "boardai 2048 play\n"
            "boardai 2048 play --seed 7      # the same start and spawns every time"
        ),
    )
    p.add_argument(
        "--seed", type=nonneg_int, default=None, help="seed for a fixed game (default: random)"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from boardai.ui.play2048 import play

    play(seed=args.seed)
    return 0
