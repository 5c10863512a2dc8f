"""A tiny third game for the contract's conformance test: one pile, two players, chance.

The pile starts with 3, 4 or 5 stones (a chance node, uniform). A player takes 1 or 2; after
each take the pile may grow by one stone (a chance node: probability 1/4, at most twice a
game). Whoever takes the last stone wins. Nothing of it lives in ``src``: a game needs only
an engine (here, these few lines), its contract implementation and players.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardai.contract import CHANCE, TERMINAL
from boardai.rng import Stream, game_stream, player_stream

GROW = 0.25
MAX_GROWS = 2
STARTS = (3, 4, 5)


class NimState:
    def __init__(self, seed: int | None, index: int) -> None:
        self.seed, self.index = seed, index
        self.chance = Stream(0 if seed is None else game_stream(seed, index))
        self.pile = -1  # not dealt yet: the first node is chance
        self.mover = 0
        self.grows = 0
        self.chance_next = True
        self.moves: list[int] = []

    def turn(self) -> int:
        if self.chance_next:
            return CHANCE
        return TERMINAL if self.pile == 0 else self.mover

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.chance_next:
            return []
        if self.pile < 0:
            return [(n, 1 / len(STARTS)) for n in STARTS]
        return [(0, 1 - GROW), (1, GROW)]

    def legal_actions(self) -> list[int]:
        if self.chance_next:
            return [o for o, _ in self.chance_outcomes()]
        return [] if self.pile == 0 else [a for a in (1, 2) if a <= self.pile]

    def sample_chance(self) -> int:
        if not self.chance_next:
            raise ValueError("not a chance node")
        bits = Stream(self.chance.state).next()
        return draw(self.pile < 0, bits)

    def apply(self, action: int) -> None:
        if action not in self.legal_actions():
            raise ValueError(f"{action} is not legal here")
        self.moves.append(action)
        if self.chance_next:
            self.chance.next()
            if self.pile < 0:
                self.pile = action
            else:
                self.pile += action
                self.grows += action
            self.chance_next = False
            return
        self.pile -= action
        if self.pile > 0:
            self.mover = 1 - self.mover
            self.chance_next = self.grows < MAX_GROWS

    def is_over(self) -> bool:
        return self.turn() == TERMINAL

    def outcome(self) -> tuple[float, ...]:
        if not self.is_over():
            return (0.0, 0.0)
        return (1.0, -1.0) if self.mover == 0 else (-1.0, 1.0)

    def to_record(self) -> dict[str, Any]:
        return {"game": "nim", "seed": self.seed, "index": self.index, "moves": list(self.moves)}


def draw(start: bool, bits: int) -> int:
    """The chance outcome 64 random bits give: a start pile, or a stone grown (1) or not."""
    if start:
        return STARTS[((bits >> 32) * len(STARTS)) >> 32]
    return 1 if (bits & 0xFFFF_FFFF) < GROW * 2**32 else 0


class NimRules:
    name = "nim"
    players = 2

    def new(self, seed: int, index: int = 0) -> NimState:
        return NimState(seed, index)

    def from_record(self, record: dict[str, Any]) -> NimState:
        if record.get("game") != "nim":
            raise ValueError("not a nim record")
        state = NimState(record["seed"], record["index"])
        for a in record["moves"]:
            state.apply(a)
        return state

    def key(self, state: Any) -> Any:
        return (state.pile, state.mover, state.grows, state.chance_next)

    def play_random(self, seed: int, first: int, n: int) -> np.ndarray:
        """The batch path: the same games as plain integer arithmetic, no states."""
        out = np.zeros((n, 2))
        for g in range(n):
            chance = Stream(game_stream(seed, first + g))
            picks = Stream(player_stream(seed, first + g))
            pile, mover, grows = draw(True, chance.next()), 0, 0
            while True:
                pile -= (1, 2)[picks.integers(2 if pile >= 2 else 1)]
                if pile == 0:
                    break
                mover = 1 - mover
                if grows < MAX_GROWS:
                    grown = draw(False, chance.next())
                    pile += grown
                    grows += grown
            out[g] = (1.0, -1.0) if mover == 0 else (-1.0, 1.0)
        return out


RULES = NimRules()
