"""``ntuple``: a learned n-tuple network (see ``boardai othello train ntuple``), played 1-ply
or as the evaluation of an alpha-beta search."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from boardai.learn.store import shipped_model
from boardai.othello import probcut
from boardai.othello.agents import REGISTRY
from boardai.othello.board import Board
from boardai.spec import Range


@dataclass
class NTupleOptions:
    """Options of ``ntuple``.

    Attributes:
        model: a model file (``boardai othello train ntuple``) or a shipped model's name
            (``boardai models``); left out: the first shipped Othello n-tuple model.
        depth: 1 plays the move the network likes best; more searches with alpha-beta.
        time: seconds per move for the search (0: no limit).
        endgame: with depth > 1, solve exactly with this many empties or fewer (with a time
            budget, only from as many as it affords: 18 at 1 s).
        mpc: with depth > 1, multi-prob-cut's threshold (0 or left out: off; e.g. 1.5;
            see ``alphabeta``).
    """

    model: str = ""
    depth: int = 1
    time: float = 0.0
    endgame: int = 0
    mpc: float | None = None

    def __post_init__(self) -> None:
        if not 1 <= self.depth <= 60:
            raise ValueError(f"depth must be in 1..60, got {self.depth}")
        if self.mpc is not None:
            probcut.check_threshold(self.mpc)


class NTupleAgent:
    """1-ply: the move after which the opponent's value is lowest."""

    def __init__(self, model: str, name: str = "ntuple") -> None:
        from boardai.othello.ntuple_file import load_network

        self.name = name
        self.network = load_network(model)

    def reset(self) -> None:
        """Nothing to clear."""

    def reseed(self, seed: int) -> None:
        """Nothing to seed: greedy play draws nothing."""

    def act(self, state: Board) -> int:
        from boardai.othello.ntuple import greedy_action

        if state.is_terminal():
            raise ValueError("no legal move: the game is over")
        return int(
            greedy_action(np.uint64(state.mover), np.uint64(state.opponent), *self.network.data())
        )

    def evaluate(self, state: Board) -> float:
        """The network's value of ``state`` for the player to move, in (-1, 1)."""
        return self.network.value(state.mover, state.opponent)


@REGISTRY.register(
    "ntuple",
    NTupleOptions,
    public={  # shipped networks only; the time budget bounds the search
        "model": shipped_model("othello", "othello-ntuple"),
        "depth": Range(1, 20),
        "time": Range(0.01, 5, default=2.0),
        "endgame": Range(0, 16),
        "mpc": Range(0, probcut.MAX_THRESHOLD),
    },
)
def make_ntuple(opts: NTupleOptions, seed: int | None) -> object:
    """A learned n-tuple network, 1-ply or inside alpha-beta (depth > 1)."""
    from boardai.learn import store

    model, path = store.resolve_default(
        opts.model, "othello", "othello-ntuple", "boardai othello train ntuple"
    )
    if opts.depth == 1:
        return NTupleAgent(str(path), name=f"ntuple:model={model}")
    from boardai.othello.agents.alphabeta import AlphaBetaAgent, AlphaBetaOptions

    return AlphaBetaAgent(
        AlphaBetaOptions(
            depth=opts.depth,
            time=opts.time,
            endgame=opts.endgame,
            eval="ntuple",
            model=str(path),
            mpc=opts.mpc,
        )
    )
