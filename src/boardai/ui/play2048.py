"""``boardai 2048 play``: a person plays 2048 in a plain terminal, one key per move."""

from __future__ import annotations

import sys
from typing import IO

from boardai.g2048 import Game
from boardai.ui.keys import cbreak, read_key

#: Keys that move: arrows, WASD and vi's hjkl.
MOVE_KEYS = {
    "up": 0,
    "w": 0,
    "k": 0,
    "right": 1,
    "d": 1,
    "l": 1,
    "down": 2,
    "s": 2,
    "j": 2,
    "left": 3,
    "a": 3,
    "h": 3,
}
HELP = "arrows / WASD / hjkl move   u undo   n new game   q quit"


def _screen(game: Game, best: int, note: str, clear: bool) -> str:
    head = "\x1b[H\x1b[2J" if clear else "\n"
    lines = [
        f"score {game.score}   best tile {game.board.max_tile()}   moves {game.moves}"
        f"   best score {best}",
        "",
        str(game.board),
        "",
        note or HELP,
    ]
    return head + "\n".join(lines) + "\n"


def play(
    seed: int | None = None, stdin: IO[str] | None = None, stdout: IO[str] | None = None
) -> int:
    """Run the game loop until the player quits or input ends; returns the last score."""
    stdin = stdin or sys.stdin
    out = stdout or sys.stdout
    clear = out.isatty()
    game = Game(seed=seed)
    started = 1
    best = 0
    note = ""
    with cbreak(stdin):
        while True:
            best = max(best, game.score)
            if game.is_over():
                note = (
                    f"game over: score {game.score}, best tile {game.board.max_tile()}"
                    "   n new game   u undo   q quit"
                )
            out.write(_screen(game, best, note, clear))
            out.flush()
            note = ""
            key = read_key(stdin)
            if key is None or key in ("q", "\x03", "\x04"):
                out.write(f"bye: score {game.score}, best tile {game.board.max_tile()}\n")
                return game.score
            key = key.lower() if len(key) == 1 else key
            if key in MOVE_KEYS:
                action = MOVE_KEYS[key]
                if action in game.board.legal_actions():
                    game.move(action)
                elif not game.is_over():
                    note = "that move changes nothing"
            elif key == "u":
                if not game.undo():
                    note = "nothing to undo"
            elif key == "n":
                game = Game(seed=None if seed is None else seed + started)  # seed, seed+1, ...
                started += 1
            elif key not in ("\n", "\r", " "):
                note = f"unknown key {key!r}: {HELP}"
