"""The players ``boardai serve`` offers: what a page may ask for, by name, within bounds.

A page is untrusted: any web site the user visits can try to talk to the server. So a client
never builds a player from a free spec. It picks one of the players offered here:

- the built-in players registered as public (:meth:`boardai.spec.Registry.make_untrusted`),
  with only the options and bounds their registration allows (a shipped model by name, a
  search depth and time within a cap; never a path or a program);
- players the person who started the server adds with ``--add-player GAME NAME=SPEC``: any
  spec (a model file, a GTP engine), offered under ``NAME``; a client may adjust only the
  bounded options of the player behind it.

>>> offers = Offers()
>>> offers.make("2048", "expectimax:depth=2").name
'expectimax:depth=2'
>>> offers.make("othello", "gtp:cmd=sh")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
boardai.errors.UsageError: othello player 'gtp' is not offered here (players: ...)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boardai.errors import UsageError
from boardai.spec import Registry, describe_bounds, parse_spec

GAMES = ("2048", "othello")


def registry(game: str) -> Registry:
    """The player registry of ``game`` (``"2048"`` or ``"othello"``)."""
    if game == "2048":
        from boardai.g2048.agents import REGISTRY
    elif game == "othello":
        from boardai.othello.agents import REGISTRY
    else:
        raise UsageError(f"unknown game {game!r} (games: {', '.join(GAMES)})")
    return REGISTRY


def parse_added(game: str, text: str) -> tuple[str, str]:
    """``NAME=SPEC`` of ``--add-player`` checked against ``game``'s players: (name, spec)."""
    name, eq, spec = text.partition("=")
    name = name.strip()
    if not eq or not name or not name.replace("-", "").replace("_", "").isalnum():
        raise UsageError(
            f"--add-player {game} {text!r}: expected NAME=SPEC, NAME letters/digits/-_"
        )
    registry(game).check(spec)
    return name, spec.strip()


class Offers:
    """The players one server offers.

    Args:
        added: game -> {name: trusted spec} from the person running the server.
    """

    def __init__(self, added: Mapping[str, Mapping[str, str]] | None = None) -> None:
        self.added = {game: dict((added or {}).get(game, {})) for game in GAMES}

    def make(self, game: str, spec: str, seed: int | None = None) -> Any:
        """Build the player a client asks for (UsageError for anything not offered)."""
        if not isinstance(spec, str) or not spec.strip():
            raise UsageError("no player given")
        name, _ = parse_spec(spec)
        return registry(game).make_untrusted(spec, seed, base=self.added[game].get(name))

    def listing(self) -> dict[str, Any]:
        """Each game's players (name -> one line) and, under ``"options"``, what a client may
        set on each (``"depth=1..6, time=0.01..5"``). Players that cannot be built here (a
        learned player with no shipped model) are left out."""
        out: dict[str, Any] = {"options": {}}
        for game in GAMES:
            reg = registry(game)
            about = reg.describe()
            players: dict[str, str] = {}
            options: dict[str, str] = {}
            for name in reg.public_names():
                try:
                    reg.untrusted_options(name)
                except UsageError:
                    continue
                players[name] = about[name]
                options[name] = describe_bounds(reg.public_bounds(name))
            for name, spec in self.added[game].items():
                base, _ = parse_spec(spec)
                players[name] = f"{base} player offered by this server"
                bounds = reg.public_bounds(base) if base in reg.public_names() else {}
                options[name] = describe_bounds(bounds)
            out[game] = players
            out["options"][game] = options
        return out


#: Players whose first move compiles the searches the pages ask for, or loads them from numba's
#: cache (seconds, holding the GIL; compiled once a machine: boardai.jitref).
WARM_UP = {
    "othello": (
        "alphabeta:depth=1,eval=wpc",
        "alphabeta:depth=1,eval=classic",
        "alphabeta:depth=1,eval=ntuple",
    ),
    "2048": ("expectimax:depth=1", "ntuple:depth=2"),
}


def warm_up() -> None:
    """Compile the searches before the server answers anyone: compiling inside a request
    would stall every other client for seconds. A player that cannot be built (no shipped
    model) is skipped."""
    from boardai.errors import UsageError
    from boardai.g2048 import Game
    from boardai.othello import Board

    starts = {"2048": Game(seed=0).board, "othello": Board.initial()}
    for game, specs in WARM_UP.items():
        for spec in specs:
            try:
                player = registry(game).make(spec, seed=0)
            except UsageError:
                continue
            player.act(starts[game])
