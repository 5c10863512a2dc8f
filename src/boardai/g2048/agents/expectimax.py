"""``expectimax``: depth-limited expectimax in compiled code (see :mod:`boardai.g2048.search`).

Presets (options given in the spec override them):

========  =====================================================  =========================
preset    depth (max layers)                                     meant for
========  =====================================================  =========================
fast      2                                                      tests, quick looks
default   distinct tiles - 1, clamped to 2..4; cut-off 1e-3      a few ms a move
strong    distinct tiles - 1, at least 4 (nneonneo's setting);   long strength runs
          cut-off 1e-4
========  =====================================================  =========================

>>> from boardai.g2048 import Game
>>> agent = make_agent("expectimax:preset=fast")
>>> g = Game(seed=5)
>>> agent.act(g.board) in g.board.legal_actions()
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from boardai.g2048.agents import MAX_SEARCH_DEPTH, REGISTRY, make_agent  # noqa: F401 (doctest)
from boardai.g2048.board import Board
from boardai.spec import Choice, Range, check_move_time

if TYPE_CHECKING:
    import numpy as np

#: preset -> (min depth, max depth, probability cut-off, table bits). Strong's table has room
#: for its 100,000-odd chance nodes a move in 262,144 slots (6 MiB): 4M slots (80 MiB) miss
#: the cache on every probe and take 1.16x the time a move, for the same move in 545 of 553
#: positions (docs/journal/benchmarks-journal.md).
PRESETS: dict[str, tuple[int, int, float, int]] = {
    "fast": (2, 2, 1e-3, 16),
    "default": (2, 4, 1e-3, 18),
    "strong": (4, 12, 1e-4, 18),
}


@dataclass
class ExpectimaxOptions:
    """Options of ``expectimax``; unset ones come from the preset.

    Attributes:
        preset: fast, default or strong (see the module docstring).
        depth: a fixed depth in max layers (1..12); unset: adaptive, the number of distinct
            tiles minus one, clamped to min_depth..max_depth.
        min_depth: smallest adaptive depth.
        max_depth: largest adaptive depth.
        prob_cut: evaluate, rather than expand, chance nodes reached with a lower probability
            (0 expands everything to the depth limit).
        time_ms: a time budget per move: deepen 1, 2, ... up to the depth while the next depth
            is expected to fit (0: no budget).
        table_bits: log2 of the transposition table's slots.
        p4: the probability of a 4 that the search assumes.
        smoothness: weight of a smoothness penalty added to nneonneo's row heuristic (rank
            differences of neighbouring tiles; 0, his tuned set, by default).
    """

    preset: Literal["fast", "default", "strong"] = "default"
    depth: int | None = None
    min_depth: int | None = None
    max_depth: int | None = None
    prob_cut: float | None = None
    time_ms: float = 0.0
    table_bits: int | None = None
    p4: float = 0.1
    smoothness: float = 0.0

    def __post_init__(self) -> None:
        lo, hi, cut, bits = PRESETS[self.preset]
        self.min_depth = lo if self.min_depth is None else self.min_depth
        self.max_depth = max(hi, self.min_depth) if self.max_depth is None else self.max_depth
        self.prob_cut = cut if self.prob_cut is None else self.prob_cut
        self.table_bits = bits if self.table_bits is None else self.table_bits
        for key in ("depth", "min_depth", "max_depth"):
            value = getattr(self, key)
            if value is not None and not 1 <= value <= MAX_SEARCH_DEPTH:
                raise ValueError(f"{key} must be in 1..{MAX_SEARCH_DEPTH}, got {value}")
        if self.min_depth > self.max_depth:
            raise ValueError(f"min_depth {self.min_depth} is above max_depth {self.max_depth}")
        if not 0.0 <= self.prob_cut < 1.0:
            raise ValueError(f"prob_cut must be in [0, 1), got {self.prob_cut}")
        check_move_time(self.time_ms, "time_ms", 1e-3)
        if not 10 <= self.table_bits <= 26:
            raise ValueError(f"table_bits must be in 10..26, got {self.table_bits}")
        if not 0.0 <= self.p4 <= 1.0:
            raise ValueError(f"p4 must be in [0, 1], got {self.p4}")
        if not 0 <= self.smoothness <= 1e6:  # larger overflows the search's sums
            raise ValueError(f"smoothness must be in 0..1e6, got {self.smoothness}")


class ExpectimaxAgent:
    """Plays the move of highest expected value under a depth-limited expectimax search.

    Args:
        opts: the options.
        evaluator: an ``@njit`` afterstate evaluator (default: nneonneo's row heuristic).
        data: its data.
        reward_weight: 0 for heuristics, 1 for afterstate values (see the search's docstring).
        name: the spec it was built from.
        leaf_bits: log2 of the slots of the search's leaf cache (0: none; worth it for a dear
            evaluator, see :mod:`boardai.g2048.search`).
        batch: the evaluator's batch form (see :mod:`boardai.g2048.search`; default: one
            evaluation after another).
    """

    # the move depends on the position alone (boardai.agent.memoryless); with time_ms, on the
    # clock too, which a game cut short and resumed meets no differently
    memoryless = True

    def __init__(
        self,
        opts: ExpectimaxOptions,
        evaluator: Any = None,
        data: Any = None,
        reward_weight: float = 0.0,
        name: str = "expectimax",
        leaf_bits: int = 0,
        batch: Any = None,
    ) -> None:
        from boardai.g2048 import heuristic, search
        from boardai.jitref import ref

        self.name = name
        self.opts = opts
        if evaluator is None:
            weights = heuristic.RowWeights(smoothness=opts.smoothness) if opts.smoothness else None
            evaluator, data = heuristic.evaluate_rows, heuristic.row_table_data(weights)
        # as references, which the compiled search caches code for (boardai.jitref)
        self.evaluator, self.data, self.reward_weight = ref(evaluator), data, reward_weight
        self.batch = ref(batch)
        # __post_init__ filled every option the preset gives.
        assert opts.min_depth is not None and opts.max_depth is not None
        assert opts.prob_cut is not None and opts.table_bits is not None
        self._depths = (opts.min_depth, opts.max_depth)
        self._prob_cut = opts.prob_cut
        self.table = search.Table(opts.table_bits, leaf_bits)
        self.last: search.SearchResult | None = None

    def depth_for(self, state: Board) -> int:
        """The depth this agent searches ``state`` to."""
        if self.opts.depth is not None:
            return self.opts.depth
        import numpy as np

        from boardai.g2048.search import approximate_board, depth_by_distinct

        lo, hi = self._depths
        return int(depth_by_distinct(np.uint64(approximate_board(state.lo, state.hi)), lo, hi))

    def reset(self) -> None:
        """Nothing carries over between moves (each search starts a new table generation)."""

    def reseed(self, seed: int) -> None:
        """Nothing to seed: the search draws nothing."""

    def play_games(
        self, seed: int, games: int, first: int = 0
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Play games ``first .. first + games - 1`` in one compiled loop, each move the one
        :meth:`act` would choose, game ``g`` on spawn stream ``g`` of ``seed`` (the streams of
        the 1-ply benchmark, not the arena's games): per game the score, the largest tile's
        exponent and the moves (:func:`~boardai.g2048.search_games.play_searched`).

        Raises:
            ValueError: the agent has a time budget (its moves depend on the clock).
        """
        import numpy as np

        from boardai.g2048 import search
        from boardai.g2048.search_games import play_searched

        o = self.opts
        if o.time_ms > 0:
            raise ValueError("a time budget's moves depend on the clock: play them with act")
        t = self.table
        lgen = t.leaf_tag(self.evaluator, self.batch, self.data) if t.leaf_bits else 0
        depth = o.depth if o.depth is not None else 0
        lo, hi = self._depths
        stats = np.zeros(search.N_STATS, np.int64)
        scores, maxes, moves, gen = play_searched(
            np.uint64(seed), first, games, depth, lo, hi, self.evaluator, self.batch,
            self.data, float(self.reward_weight), float(self._prob_cut), float(o.p4),
            t.view(t.generation, lgen), stats,
        )  # fmt: skip
        t.generation = int(gen)
        return scores, maxes, moves

    def act(self, state: Board) -> int:
        from boardai.g2048.search import search

        o = self.opts
        self.last = search(
            state,
            self.depth_for(state),
            evaluator=self.evaluator,
            data=self.data,
            batch=self.batch,
            reward_weight=self.reward_weight,
            prob_cut=self._prob_cut,
            p4=o.p4,
            table=self.table,
            time_budget=o.time_ms / 1000.0 if o.time_ms > 0 else None,
        )
        return self.last.action


@REGISTRY.register(
    "expectimax",
    ExpectimaxOptions,
    public={  # depth 6 takes well under a second; strong's depth 12 does not
        "preset": Choice(tuple(PRESETS)),
        "depth": Range(1, 6),
        "min_depth": Range(1, 6),
        "max_depth": Range(1, 6),
        "prob_cut": Range(1e-4, 0.5),
        "time_ms": Range(0, 5000),
        "table_bits": Range(10, 20),
        "p4": Range(0, 1),
        "smoothness": Range(0, 100),
    },
)
def make_expectimax(opts: ExpectimaxOptions, seed: int | None) -> ExpectimaxAgent:
    """Expectimax search over nneonneo's row heuristic (presets fast, default, strong)."""
    return ExpectimaxAgent(opts)
