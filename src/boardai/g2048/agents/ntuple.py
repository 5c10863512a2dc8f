"""``ntuple``: play by a trained n-tuple network (``boardai 2048 train ntuple``).

``ntuple:model=m.npz`` plays greedily by ``r + V(afterstate)`` (1-ply, in compiled code, exact
for every tile); ``ntuple:model=m.npz,depth=2`` (or 3) runs the expectimax search of
:mod:`boardai.g2048.search` with the network as its leaf evaluation (``reward_weight=1``).
``model=`` also takes a shipped model's name (``boardai models``); left out, it is the first
shipped 2048 n-tuple model.

Presets (options given in the spec override them):

========  ===========================  ==================================================
preset    depth / prob_cut             meant for
========  ===========================  ==================================================
default   1-ply / (1e-4 when deeper)   fast play, training checks
strong    8 / 0.005                    the strongest setting measured: the shipped network
                                       made 32768 in 34.7% of 300 games, 467,127 on
                                       average, at about 27 ms a move (docs/benchmarks.md)
========  ===========================  ==================================================

>>> import tempfile, pathlib
>>> from boardai.g2048 import Game
>>> from boardai.g2048.train.trainer import TrainConfig, Trainer
>>> path = pathlib.Path(tempfile.mkdtemp()) / "m.npz"
>>> Trainer(TrainConfig(patterns="0123,4567")).save(path)
>>> agent = make_agent(f"ntuple:model={path},depth=2")
>>> g = Game(seed=3)
>>> agent.act(g.board) in g.board.legal_actions()
True
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

import numpy as np

from boardai.g2048.agents import MAX_SEARCH_DEPTH, REGISTRY, make_agent  # noqa: F401 (doctest)
from boardai.g2048.board import Board
from boardai.learn.store import shipped_model
from boardai.spec import Choice, Range, check_move_time

#: preset -> (depth, probability cut-off)
PRESETS: dict[str, tuple[int, float]] = {
    "default": (1, 1e-4),
    "strong": (8, 0.005),
}


@dataclass
class NTupleOptions:
    """Options of ``ntuple``; unset ones come from the preset.

    Attributes:
        model: a model file written by ``boardai 2048 train ntuple``, or a shipped model's name
            (``boardai models``); left out: the first shipped 2048 n-tuple model.
        preset: default or strong (see the module docstring); it fills depth and prob_cut
            where the spec leaves them out.
        depth: 1 plays by ``r + V(afterstate)``; 2..12 searches that many max layers by
            expectimax with the network at the leaves (with ``time_ms``: the deepest it may
            reach).
        time_ms: a time budget per move: deepen 1, 2, ... up to ``depth`` while the next depth
            is expected to fit (0: no budget, always ``depth``).
        prob_cut: the search evaluates, rather than expands, chance nodes reached with a lower
            probability (depth >= 2; 0 expands everything).
        table_bits: log2 of the search's transposition table slots (depth >= 2).
        p4: the probability of a 4 that the search assumes.
        downgrade: 0, or a tile (16384): boards whose largest tile is at least this are valued
            as the earlier boards they resemble (:mod:`boardai.g2048.downgrade`); the player
            then plays through the search, at depth 1 too. Left out: as the network was
            trained (``boardai 2048 train ntuple --downgrade``; 0 for most networks).
    """

    model: str = ""
    preset: Literal["default", "strong"] = "default"
    depth: int | None = None
    time_ms: float = 0.0
    prob_cut: float | None = None
    table_bits: int = 18
    p4: float = 0.1
    downgrade: int | None = None

    def __post_init__(self) -> None:
        depth, cut = PRESETS[self.preset]
        self.depth = depth if self.depth is None else self.depth
        self.prob_cut = cut if self.prob_cut is None else self.prob_cut
        if not 1 <= self.depth <= MAX_SEARCH_DEPTH:
            raise ValueError(f"depth must be in 1..{MAX_SEARCH_DEPTH}, got {self.depth}")
        check_move_time(self.time_ms, "time_ms", 1e-3)
        if self.time_ms and self.depth == 1:
            raise ValueError("time_ms needs depth >= 2 (the deepest search it may reach)")
        if not 0.0 <= self.prob_cut < 1.0:
            raise ValueError(f"prob_cut must be in [0, 1), got {self.prob_cut}")
        if not 10 <= self.table_bits <= 26:
            raise ValueError(f"table_bits must be in 10..26, got {self.table_bits}")
        if not 0.0 <= self.p4 <= 1.0:
            raise ValueError(f"p4 must be in [0, 1], got {self.p4}")
        from boardai.g2048.downgrade import downgrade_exponent

        downgrade_exponent(self.downgrade or 0)  # raises for a bad tile


@lru_cache(maxsize=4)
def _load(path: str, mtime: float) -> tuple[Any, int]:
    """The network of a model file, shared by every agent of this process (read-only), and the
    downgrade tile it was trained with (0: none)."""
    from boardai.g2048.ntuple import NTupleNetwork
    from boardai.learn.model_file import load_model

    network, meta, _ = load_model(path, NTupleNetwork)
    network.weights.flags.writeable = False
    return network, int(meta.get("config", {}).get("downgrade", 0))


def _loaded(p: str) -> tuple[Any, int]:
    """:func:`_load` of the file ``p`` (a path, already resolved)."""
    from boardai.errors import ModelFileError

    try:
        mtime = os.path.getmtime(p)
    except OSError:
        raise ModelFileError(p, "no such model file") from None
    return _load(os.path.abspath(p), mtime)


def load_network(path: str | os.PathLike[str]) -> Any:
    """The :class:`~boardai.g2048.ntuple.NTupleNetwork` of a model file or shipped model name
    (cached per process)."""
    from boardai.learn import store

    return _loaded(os.fspath(store.resolve(os.fspath(path), "2048", "ntuple")))[0]


class NTupleAgent:
    """Greedy 1-ply play by an n-tuple network: the move maximising ``r + V(afterstate)``."""

    memoryless = True  # the move depends on the position alone (boardai.agent.memoryless)

    def __init__(self, network: Any, name: str = "ntuple") -> None:
        self.name = name
        self.network = network
        self.data = network.data()

    def reset(self) -> None:
        """Nothing to clear."""

    def reseed(self, seed: int) -> None:
        """Nothing to seed: greedy play draws nothing."""

    def value(self, state: Board) -> float:
        """The network's value of ``state`` seen as an afterstate."""
        return self.network.value(state)

    def act(self, state: Board) -> int:
        from boardai.g2048.ntuple_play import greedy_move

        action = int(greedy_move(np.uint64(state.lo), np.uint64(state.hi), self.data, 0)[0])
        if action < 0:
            raise ValueError("no legal move: the game is over")
        return action


#: The search's leaf cache, 4,096 slots (96 KiB, within L2): about half the leaves of a search
#: over a network repeat, and a repeat then costs a probe, not 40 scattered loads
#: (docs/journal/benchmarks-journal.md, "a leaf cache and batched leaves": 1.36x at depth 3
#: alone, 1.72x with the batched leaves; larger caches gain less, and for the hand-made
#: heuristic it gains nothing).
LEAF_BITS = 12

#: Searches deeper than 3 keep 65,536 leaves (1.5 MiB): the cache outlives each search, and the
#: next move's deep search meets many of its leaves again (measured with the depth-6 preset:
#: 12% less time a move at depth 6 with prob_cut=0.01; nothing gained or lost at
#: depths 2-3).
DEEP_LEAF_BITS, DEEP_FROM = 16, 4


@REGISTRY.register(
    "ntuple",
    NTupleOptions,
    public={  # shipped networks only; depth 3 is a few milliseconds a move
        "model": shipped_model("2048", "ntuple"),
        "depth": Range(1, 3),
        "time_ms": Range(0, 1000),
        "prob_cut": Range(1e-4, 0.5),
        "table_bits": Range(10, 20),
        "p4": Range(0, 1),
        "downgrade": Choice((0, 8192, 16384, 32768)),
    },
)
def make_ntuple(opts: NTupleOptions, seed: int | None) -> Any:
    """A trained n-tuple network: 1-ply greedy, or expectimax with depth=2..12 (time_ms=100: a
    budget a move; prob_cut=0.03: deep only on crowded boards, depth 6 in under 1 ms a
    move; preset=strong: depth 8 at prob_cut 0.005, about 27 ms a move); downgrade=16384
    values late boards as earlier ones."""
    from boardai.learn import store

    # __post_init__ filled every option the preset gives.
    assert opts.depth is not None and opts.prob_cut is not None
    model, path = store.resolve_default(opts.model, "2048", "ntuple", "boardai 2048 train ntuple")
    # The file as resolve_default found it: resolved once, so a --resume journal names the
    # model as given (a shipped name), not also the file's place on this machine.
    network, trained_downgrade = _loaded(os.fspath(path))
    tile = trained_downgrade if opts.downgrade is None else opts.downgrade
    spec = f"ntuple:model={model}" + (f",depth={opts.depth}" if opts.depth > 1 else "")
    if opts.time_ms:
        spec += f",time_ms={opts.time_ms:g}"
    if tile:
        spec += f",downgrade={tile}"
    elif opts.depth == 1:
        return NTupleAgent(network, name=spec)
    from boardai.g2048.agents.expectimax import ExpectimaxAgent, ExpectimaxOptions
    from boardai.g2048.downgrade import downgrade_exponent
    from boardai.g2048.ntuple_play import evaluate_leaf, evaluate_leaves, search_data

    search_opts = ExpectimaxOptions(
        preset="fast",
        depth=opts.depth,
        time_ms=opts.time_ms,
        prob_cut=opts.prob_cut,
        table_bits=opts.table_bits,
        p4=opts.p4,
    )
    data = search_data(network.data(), downgrade_exponent(tile) if tile else 0)
    return ExpectimaxAgent(
        search_opts,
        evaluate_leaf,
        data,
        reward_weight=1.0,
        name=spec,
        leaf_bits=DEEP_LEAF_BITS if opts.depth >= DEEP_FROM else LEAF_BITS,
        batch=evaluate_leaves,
    )
