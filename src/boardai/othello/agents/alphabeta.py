"""``alphabeta``: negamax with alpha-beta, iterative deepening, move ordering, a transposition
table, an exact endgame solver and a time budget; the evaluation is pluggable."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, partial
from typing import Any, Literal

import numpy as np

from boardai.errors import UsageError
from boardai.learn import store
from boardai.othello import evaluation as E
from boardai.othello import probcut
from boardai.othello import search as S
from boardai.othello.agents import REGISTRY
from boardai.othello.board import Board
from boardai.spec import Choice, Range, check_move_time


@dataclass
class AlphaBetaOptions:
    """Options of ``alphabeta``.

    Attributes:
        depth: plies searched (the deepest iteration); 0: the evaluation of the position itself
            (``analyse``; the move played is a 1-ply search's).
        time: seconds per move (0: no limit); the search stops deepening when it runs out.
        endgame: solve exactly with this many empty squares or fewer (0: never); with a time
            budget, only from as many as it affords (18 at 1 s, see ``endgame_empties``).
        eval: leaf evaluation: ``wpc``, ``classic`` (mobility, corners, X-squares) or
            ``ntuple`` (a learned network, see ``model``).
        model: n-tuple model file or shipped model name for ``eval=ntuple`` (left out: the
            first shipped Othello n-tuple model).
        tt: the transposition table holds 2**tt entries.
        mpc: multi-prob-cut's threshold, in standard deviations of the shallow searches'
            error (0: off): larger cuts less and errs less (``boardai.othello.probcut``).
            Left out: off (no gain measured at equal time; ``probcut.DEFAULTS``).
        nodes: stop each move's search after about this many nodes (0: no limit): unlike
            ``time``, the same moves on any machine under any load.
    """

    depth: int = 4
    time: float = 0.0
    endgame: int = 12
    eval: Literal["wpc", "classic", "ntuple"] = "wpc"
    model: str | None = None
    tt: int = 18
    mpc: float | None = None
    nodes: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.depth <= 60:
            raise ValueError(f"depth must be in 0..60, got {self.depth}")
        check_move_time(self.time)
        if not 0 <= self.endgame <= 24:
            raise ValueError(f"endgame must be in 0..24, got {self.endgame}")
        if not 10 <= self.tt <= 26:
            raise ValueError(f"tt must be in 10..26, got {self.tt}")
        if self.mpc is not None:
            probcut.check_threshold(self.mpc)
        if self.nodes < 0:
            raise ValueError(f"nodes must be >= 0, got {self.nodes}")


#: The shipped network, fitted to disc differences, that orders the endgame solver's moves
#: where the player's own evaluation is not in discs (and for ``boardai othello solve``).
ORDER_MODEL = "othello-fit"


@cache
def _model_order(ref: str) -> tuple[Any, Any] | None:
    """:func:`boardai.othello.search.solver_order` of model ``ref`` (read once a process)."""
    from boardai.othello.ntuple_file import load_network

    return S.solver_order(load_network(store.path_of(ref) if store.is_name(ref) else ref))


def solver_order(
    network: Any = None, data: Any = None, model: str | None = ORDER_MODEL
) -> tuple[Any, Any] | None:
    """The endgame solver's move-ordering evaluation (:func:`boardai.othello.search.solver_order`):
    ``network``'s own (``data``: its search data, if built already) if it is valued in discs,
    else ``model``'s (a name or a file; None or a model not downloaded: none, and the solver
    orders its moves without one).

    Raises:
        UsageError: ``model`` is not a network valued in discs.
    """
    order = S.solver_order(network, data)
    if order is not None or model is None:
        return order
    from boardai.othello.ntuple_eval import own_scratch

    try:
        order = _model_order(model)
    except UsageError:
        if model == ORDER_MODEL:  # not downloaded: the solver does without
            return None
        raise
    if order is None:
        raise UsageError(f"{model}: not a network valued in discs (boardai othello train fit)")
    return order[0], own_scratch(order[1])  # a scratch array of each solver's own


def _evaluator(opts: AlphaBetaOptions) -> tuple[Any, Any, str, Any]:
    """The search evaluator, its data, the name of its multi-prob-cut fit for ``opts.eval``
    (a network by its scale: ``ntuple`` for a TD network, ``fitted`` for one fitted to disc
    differences, ``linear``), and the network (None for the hand-made evaluations)."""
    if opts.eval == "wpc":
        return E.evaluate_wpc, E.wpc_data(), "wpc", None
    if opts.eval == "classic":
        return E.evaluate_classic, E.CLASSIC_DATA, "classic", None
    from boardai.othello.ntuple_eval import evaluate_ntuple, search_data
    from boardai.othello.ntuple_file import load_network

    _, path = store.resolve_default(
        opts.model or "", "othello", "othello-ntuple", "boardai othello train ntuple"
    )
    network = load_network(path)
    fit = "ntuple" if network.output == "tanh" else "fitted"
    return evaluate_ntuple, search_data(network), fit, network


class AlphaBetaAgent:
    """Searches each move with :class:`boardai.othello.search.Searcher`."""

    def __init__(self, opts: AlphaBetaOptions, name: str = "alphabeta") -> None:
        self.name = name
        self.opts = opts
        evaluator, data, fit, network = _evaluator(opts)
        threshold = probcut.default(fit) if opts.mpc is None else opts.mpc
        mpc = probcut.table(fit, threshold)
        order = solver_order(network, data) if opts.endgame else None
        self.searcher = S.Searcher(evaluator, data, tt_bits=opts.tt, mpc=mpc, order=order)
        self.last: S.SearchResult | None = None
        #: A game clock's budget for each move (:meth:`limit_time`), over ``opts.time``.
        self.clock_limit: float | None = None

    def reset(self) -> None:
        """Clear the transposition table."""
        self.searcher.clear()

    def reseed(self, seed: int) -> None:
        """Nothing to seed: the search draws nothing."""

    def limit_time(self, seconds: float | None) -> None:
        """Spend at most ``seconds`` a move (a game clock's budget), or ``time`` where that is
        less (None: ``time`` alone)."""
        self.clock_limit = seconds

    def analyse(self, state: Board) -> S.SearchResult:
        """The search result (move, value, depth, nodes) for ``state``."""
        o = self.opts
        if o.depth == 0:  # the static evaluation; the move of a 1-ply search
            found = self.searcher.search(state.mover, state.opponent, 1)
            searcher = self.searcher
            value = searcher.evaluator(
                np.uint64(state.mover), np.uint64(state.opponent), searcher.data
            )
            return S.SearchResult(found.action, float(value), 0, found.nodes, False, 1)
        seconds = o.time if o.time > 0 else None
        if self.clock_limit is not None:
            seconds = self.clock_limit if seconds is None else min(seconds, self.clock_limit)
        return self.searcher.search(
            state.mover, state.opponent, o.depth, seconds, o.endgame, o.nodes or None
        )

    def act(self, state: Board) -> int:
        if state.is_terminal():
            raise ValueError("no legal move: the game is over")
        self.last = self.analyse(state)
        return self.last.action


@REGISTRY.register(
    "alphabeta",
    AlphaBetaOptions,
    public={  # the time budget bounds every search, the endgame solver's included
        "depth": Range(1, 20),
        "time": Range(0.01, 5, default=2.0),
        "endgame": Range(0, 16),
        "eval": Choice(("wpc", "classic", "ntuple")),
        "model": Choice(partial(store.names, game="othello", kind="othello-ntuple")),
        "tt": Range(10, 20),
        "mpc": Range(0, probcut.MAX_THRESHOLD),
    },
)
def make_alphabeta(opts: AlphaBetaOptions, seed: int | None) -> AlphaBetaAgent:
    """Negamax alpha-beta with deepening, TT, endgame solver; eval wpc/classic/ntuple."""
    return AlphaBetaAgent(opts)
