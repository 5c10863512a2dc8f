"""``ntuple``: a learned n-tuple network (see ``boardai othello train ntuple``), played 1-ply
or as the evaluation of an alpha-beta search.

Presets (options given in the spec override them):

========  ==========================================  ======================================
preset    depth / time a move / endgame / model       meant for
========  ==========================================  ======================================
default   1-ply (no search), the first shipped        fast matches, training checks
          network (``othello-ntuple``)
strong    40 / 0.9 s / solve from 18 empties /        the strongest boardai player: play and
          ``othello-eval`` (an evaluation fitted      matches against engines (about 1 s a
          in discs: 0.635 against                     move; docs/benchmarks.md)
          ``othello-ntuple`` in the same search)
========  ==========================================  ======================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from boardai.learn.store import shipped_model
from boardai.othello import probcut
from boardai.othello.agents import REGISTRY
from boardai.othello.board import Board
from boardai.spec import Range, check_move_time

#: preset -> (depth, seconds a move, endgame empties)
PRESETS: dict[str, tuple[int, float, int]] = {
    "default": (1, 0.0, 0),
    "strong": (40, 0.9, 18),
}
#: preset -> the model it plays where the spec names none (else the first shipped network)
PRESET_MODELS: dict[str, str] = {"strong": "othello-eval"}


@dataclass
class NTupleOptions:
    """Options of ``ntuple``.

    Attributes:
        model: a model file (``boardai othello train ntuple`` or ``train fit``) or a shipped
            model's name (``boardai models``); left out: the preset's (``othello-eval`` for
            strong), else the first shipped Othello n-tuple model.
        preset: default or strong (see the module docstring); it fills depth, time and
            endgame where the spec leaves them out.
        depth: 1 plays the move the network likes best; more searches with alpha-beta; 0 is
            the network's value of the position itself (``othello analyze``), playing as 1.
        time: seconds per move for the search (0: no limit).
        endgame: with depth > 1, solve exactly with this many empties or fewer (with a time
            budget, only from as many as it affords: 18 at 1 s).
        mpc: with depth > 1, multi-prob-cut's threshold (0 or left out: off; e.g. 1.5;
            see ``alphabeta``).
        nodes: with depth > 1, stop each move's search after about this many nodes (0: no
            limit; see ``alphabeta``).
    """

    model: str = ""
    preset: Literal["default", "strong"] = "default"
    depth: int | None = None
    time: float | None = None
    endgame: int | None = None
    mpc: float | None = None
    nodes: int = 0

    def __post_init__(self) -> None:
        depth, time, endgame = PRESETS[self.preset]
        self.depth = depth if self.depth is None else self.depth
        self.time = time if self.time is None else self.time
        self.endgame = endgame if self.endgame is None else self.endgame
        if not 0 <= self.depth <= 60:
            raise ValueError(f"depth must be in 0..60, got {self.depth}")
        check_move_time(self.time)
        if self.mpc is not None:
            probcut.check_threshold(self.mpc)
        if self.nodes < 0:
            raise ValueError(f"nodes must be >= 0, got {self.nodes}")


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
    """A learned n-tuple network, 1-ply or inside alpha-beta (depth > 1; preset=strong)."""
    from boardai.learn import store

    # __post_init__ filled every option the preset gives.
    assert opts.depth is not None and opts.time is not None and opts.endgame is not None

    model, path = store.resolve_default(
        opts.model or PRESET_MODELS.get(opts.preset, ""),
        "othello",
        "othello-ntuple",
        "boardai othello train ntuple",
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
            model=model,  # as given (a name stays a name: what a --resume journal records)
            mpc=opts.mpc,
            nodes=opts.nodes,
        )
    )
