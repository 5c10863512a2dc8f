"""Run n-tuple TD training in chunks of episodes, save it, and resume it exactly.

>>> t = Trainer(TrainConfig(patterns="0123,4567", seed=1))
>>> chunk = t.train(20)
>>> t.episodes, len(chunk.scores), bool(chunk.scores.mean() > 0)
(20, 20, True)

Python only sets up: each chunk runs :func:`~boardai.g2048.train.episodes.train_episodes` in
compiled code, on ``threads`` Python threads at once (the kernels release the GIL). Threads
share one weight table and update it without locks (Hogwild, as multi-threaded TD programs
do); thread ``j`` of ``T`` plays episodes ``start + j, start + j + T, ...``. With one thread a
run is exactly reproducible, whatever the chunk sizes and however often it was resumed.
Threads gain wall-clock time only on idle cores: where other sessions keep the cores busy,
Linux's autogroup scheduler gives this process about the same CPU share whatever its number of
threads (``Chunk.moves_per_cpu_second`` then shows the work per core is unchanged).
"""

from __future__ import annotations

import math
import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from boardai.g2048.downgrade import downgrade_exponent
from boardai.g2048.ntuple import NTupleNetwork, stage_mask
from boardai.g2048.train.config import TrainConfig
from boardai.g2048.train.episodes import (
    METHODS,
    RECORD_MOVES,
    SCRATCH_ROWS,
    play_games,
    train_episodes,
)
from boardai.learn.model_file import load_model, save_model
from boardai.learn.ntuple import map_pages, tc_arrays, tc_state

#: Model kind written in the metadata, checked on resume and by the agent.
KIND = "2048-ntuple-td"


@dataclass
class Chunk:
    """Results of one chunk of episodes, in episode order."""

    first: int
    scores: np.ndarray
    max_tiles: np.ndarray
    moves: np.ndarray
    restarted: np.ndarray
    seconds: float
    cpu_seconds: float = 0.0

    @classmethod
    def join(cls, chunks: list[Chunk]) -> Chunk:
        """Consecutive chunks as one (arrays concatenated, times added)."""
        return cls(
            first=chunks[0].first,
            scores=np.concatenate([c.scores for c in chunks]),
            max_tiles=np.concatenate([c.max_tiles for c in chunks]),
            moves=np.concatenate([c.moves for c in chunks]),
            restarted=np.concatenate([c.restarted for c in chunks]),
            seconds=sum(c.seconds for c in chunks),
            cpu_seconds=sum(c.cpu_seconds for c in chunks),
        )

    @property
    def moves_per_second(self) -> float:
        """Training moves (each: play, learn) per second of wall time."""
        return float(self.moves.sum()) / self.seconds if self.seconds > 0 else 0.0

    @property
    def moves_per_cpu_second(self) -> float:
        """Training moves per CPU second of this process (all threads): steadier than wall
        time on a loaded machine."""
        return float(self.moves.sum()) / self.cpu_seconds if self.cpu_seconds > 0 else 0.0


class Trainer:
    """A network, its training configuration and state (episodes done, restart pools).

    Args:
        config: the hyperparameters.
        network: the network to train (a new one from ``config`` when None).
        episodes: episodes already done.
        state: extra arrays of a saved run (``tc_e``, ``tc_a``, ``pool``, ``pool_state``).

    ``tc`` holds the TC state, ``E`` and ``A`` side by side (:func:`~boardai.learn.ntuple.tc_state`;
    one zero pair without TC); files keep them as ``tc_e`` and ``tc_a``.
    """

    def __init__(
        self,
        config: TrainConfig,
        network: NTupleNetwork | None = None,
        episodes: int = 0,
        state: dict[str, np.ndarray] | None = None,
        seconds: float = 0.0,
    ) -> None:
        self.config = config
        state = state or {}
        if network is None:
            network = NTupleNetwork.create(config.patterns, config.stages)
            if config.optimistic:
                network.fill(config.optimistic)
        self.network = network
        self.episodes = episodes
        self.seconds = seconds
        #: Episodes still to play with the weights held while TC's state is measured
        #: (:meth:`warm_up_tc`), and the factor of every ``E`` at their end; a checkpoint
        #: keeps both.
        self.tc_warmup_left = 0
        self.tc_warmup_shrink = 1.0
        size = network.weights.shape[0]
        if config.tc:
            self.tc = tc_state(size, state)
        else:
            self.tc = tc_state(1)
        levels = max(1, len(config.restart_at))
        pool = state.get("pool", np.zeros((1, levels, config.pool_size), np.uint64))
        pool_state = state.get("pool_state", np.zeros((1, levels, 2), np.int64))
        if pool.ndim == 2:  # files before the carousel: one pool per thread
            pool, pool_state = pool[:, None, :], pool_state[:, None, :]
        self.pool, self.pool_state = pool, pool_state

    # -- files ----------------------------------------------------------------------------

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the model and everything needed to resume, atomically."""
        extra: dict[str, np.ndarray] = {"pool": self.pool, "pool_state": self.pool_state}
        if self.config.tc:
            extra.update(tc_arrays(self.tc))
        meta = {
            "kind": KIND,
            "episodes": self.episodes,
            "train_seconds": round(self.seconds, 3),
            "rules": {"p4": self.config.p4, "start_tiles": 2},
            "config": self.config.to_dict(),
            "rng": {
                "generator": "splitmix64 seed_stream",
                "seed": self.config.seed,
                "next_episode": self.episodes,
            },
            "schedule": {"alpha_now": self.alpha_at(self.episodes), "episodes": self.episodes},
        }
        if self.tc_warmup_left:
            meta["tc_warmup"] = {"left": self.tc_warmup_left, "shrink": self.tc_warmup_shrink}
        save_model(path, self.network, meta, extra)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Trainer:
        """Resume a run saved by :meth:`save` (raises ModelFileError for a foreign file).

        A compact file (``boardai models compact``) resumes from its weights, episode count and
        options, and from the training state it kept (``--keep-training``: the TC
        accumulators in two bytes a weight, the restart pools); what it did not keep starts
        afresh.
        """
        from boardai.errors import ModelFileError

        network, meta, extra = load_model(path, NTupleNetwork)
        if meta.get("kind") != KIND or "config" not in meta:
            raise ModelFileError(path, "not a 2048 n-tuple training file (no training state)")
        try:
            config = TrainConfig.from_dict(meta["config"])
        except (TypeError, ValueError) as e:
            raise ModelFileError(path, f"bad training options: {e}") from None
        packed = "tc_log_a" in extra  # a compact training file (tc_pack)
        weights_only = "compacted" in meta and "tc_e" not in extra and not packed
        keys = ("tc_log_a", "tc_ratio") if packed else ("tc_e", "tc_a")
        saved = [getattr(extra.get(k), "shape", None) for k in keys]
        if config.tc and not weights_only and saved != [network.weights.shape] * 2:
            raise ModelFileError(path, "temporal coherence state is missing or the wrong size")
        trainer = cls(
            config,
            network,
            int(meta.get("episodes", 0)),
            extra,
            float(meta.get("train_seconds", 0.0)),
        )
        warmup = meta.get("tc_warmup", {})
        trainer.tc_warmup_left = int(warmup.get("left", 0))
        trainer.tc_warmup_shrink = float(warmup.get("shrink", 1.0))
        return trainer

    def warm_up_tc(self, episodes: int) -> bool:
        """Have the next ``episodes`` episodes (at most as many as the network trained on)
        hold the weights and measure TC's state, where it starts afresh on a trained network
        (a compact file, or TC turned on); True if so.

        Fresh, every weight would learn at TC's full rate, and a trained network's settled
        weights then move ten or a hundred times as far as they did: the play it had learned
        is lost for a while (a 5x6 network resumed that way from 264,778 at 1-ply averaged
        137,545 in its first 6,843 training episodes). Measured first, each weight's rate
        ``|E| / A`` comes from the errors the trained network now makes there, noisy weights
        slow and coherent ones fast. Then every ``E`` is scaled by ``sqrt(episodes / trained)``
        (``trained``: the episodes the network trained on): where a weight's errors are
        noise, TC's rate falls as one over the square root of the errors it has seen, and
        the scaled rate is the one it would have reached had TC measured these errors
        over the whole training, not over the warm-up alone; where they keep one sign,
        ``E`` grows back as training goes on (docs/journal/benchmarks-journal.md, "What a
        resume costs", has the measurements).
        """
        if not (self.config.tc and episodes > 0 and self.episodes > 0) or self.tc.any():
            return False
        self.tc_warmup_left = min(episodes, self.episodes)  # no longer than it trained
        self.tc_warmup_shrink = math.sqrt(self.tc_warmup_left / self.episodes)
        return True

    def reconfigure(self, **changes: Any) -> None:
        """Change how training goes on (alpha, schedule, method, lambda, TC, restarts), e.g. to
        switch a run started with OTD to TC. Patterns, stages and seed cannot change.

        Raises:
            ValueError: a bad value, or a field that cannot change.
        """
        fixed = {"patterns", "stages", "seed", "p4", "pool_size"} & set(changes)
        if fixed:
            raise ValueError(f"a saved run keeps its {', '.join(sorted(fixed))}")
        config = TrainConfig.from_dict({**self.config.to_dict(), **changes})
        if config.restart_at != self.config.restart_at:  # the pools hold other boards
            levels = max(1, len(config.restart_at))
            self.pool = np.zeros((1, levels, config.pool_size), np.uint64)
            self.pool_state = np.zeros((1, levels, 2), np.int64)
        if config.tc and not self.config.tc:
            self.tc = tc_state(self.network.weights.shape[0])
        self.config = config

    def split_stages(self, stages: Any, keep_tc: bool = False) -> None:
        """Give a one-stage network stages, each starting from its trained weights, so that
        play is unchanged at first and each stage then learns its own part of the game:
        multi-stage weight promotion (Jaśkowski 2016) done once for every weight. With TC the
        first stage keeps its state and the later ones start afresh, at the full rate: their
        weights were settled on other parts of the game, and now have their own to learn.
        With ``keep_tc`` every stage starts from the first stage's TC state instead, at the
        rates the weights had reached, so that learning goes on as it was.

        Raises:
            ValueError: the network has stages already, or ``stages`` is empty.
        """
        old = self.network
        if old.n_stages > 1:
            raise ValueError("the network has stages already")
        network = NTupleNetwork(old.patterns, stages)
        if network.n_stages == 1:
            raise ValueError("no stages given")
        n = network.n_stages
        network.weights[:] = np.tile(old.weights, n)
        if self.config.tc:
            later = (
                np.tile(self.tc, (n - 1, 1)) if keep_tc else tc_state((n - 1) * old.weights.size)
            )
            self.tc = np.concatenate([self.tc, later])
        self.network = network
        self.config = replace(self.config, stages=network.stages)

    def add_patterns(self, spec: str) -> None:
        """Grow the network by the patterns of ``spec``, their weights (and TC state) zero, so
        that every board keeps its value and the new patterns learn on top of the trained ones.
        With TC the new weights learn at the full rate while the settled old ones stay slow.

        Raises:
            UsageError: a bad spec, or a pattern the network has already.
        """
        from boardai.errors import UsageError
        from boardai.g2048.patterns import parse_patterns, pattern_names

        old = self.network
        extra = parse_patterns(spec, "--add-patterns")
        # the same cells in another order read the same features (patterns.PATTERN_SETS)
        seen = [sorted(p) for p in old.patterns]
        dup = []
        for p in extra:
            if sorted(p) in seen:
                dup.append(p)
            seen.append(sorted(p))
        if dup:
            raise UsageError(f"pattern {pattern_names((dup[0],))[0]} is there already")
        network = NTupleNetwork(old.patterns + extra, old.stages)
        size_old, size_new = int(old.offsets[-1]), int(network.offsets[-1])

        def grown(a: np.ndarray) -> np.ndarray:
            out = np.zeros((network.n_stages * size_new, *a.shape[1:]), np.float32)
            for s in range(network.n_stages):  # stage-major: old tables first in each stage
                out[s * size_new : s * size_new + size_old] = a[s * size_old : (s + 1) * size_old]
            return out

        network.weights[:] = grown(old.weights)
        if self.config.tc:
            self.tc = grown(self.tc)
        self.network = network
        self.config = replace(self.config, patterns=",".join(pattern_names(network.patterns)))

    # -- training -------------------------------------------------------------------------

    def alpha_at(self, episode: int) -> float:
        """The learning rate of ``episode`` under the decay schedule."""
        c = self.config
        return c.alpha * c.alpha_decay ** (episode // c.alpha_every)

    def _pools(self, threads: int) -> None:
        rows, levels, size = self.pool.shape
        if rows < threads or size != self.config.pool_size:
            pool = np.zeros((threads, levels, self.config.pool_size), np.uint64)
            state = np.zeros((threads, levels, 2), np.int64)
            keep = min(rows, threads)
            n = min(size, self.config.pool_size)
            pool[:keep, :, :n] = self.pool[:keep, :, :n]
            state[:keep, :, 0] = np.minimum(self.pool_state[:keep, :, 0], n)
            state[:keep, :, 1] = self.pool_state[:keep, :, 1] % n
            self.pool, self.pool_state = pool, state

    def train(self, n_episodes: int, threads: int = 1, learn: bool = True) -> Chunk:
        """Play and learn from the next ``n_episodes`` episodes on ``threads`` threads.

        ``learn=False`` holds the weights: the episodes are played as training plays them and
        only TC's accumulators (and the restart pools) take in their errors. That measures a
        trained network's TC state where it was lost; episodes that :meth:`warm_up_tc` set
        aside are played so first.
        """
        if n_episodes < 1:
            raise ValueError(f"n_episodes must be >= 1, got {n_episodes}")
        if learn and self.tc_warmup_left:
            held = min(n_episodes, self.tc_warmup_left)
            parts = [self.train(held, threads, learn=False)]
            self.tc_warmup_left -= held
            if not self.tc_warmup_left:
                self.tc[:, 0] *= np.float32(self.tc_warmup_shrink)
            if n_episodes > held:
                parts.append(self.train(n_episodes - held, threads))
            return Chunk.join(parts)
        threads = max(1, min(threads, n_episodes))
        self._pools(threads)
        c = self.config
        first = self.episodes
        scores = np.zeros(n_episodes, np.int64)
        maxes = np.zeros(n_episodes, np.int64)
        moves = np.zeros(n_episodes, np.int64)
        restarted = np.zeros(n_episodes, np.bool_)
        data = self.network.data()
        for table in (self.network.weights, self.tc):  # mapped before the timed loop
            map_pages(table)
        masks = np.array([stage_mask(t) for t in c.restart_at], np.int64)

        def work(j: int) -> None:
            sel = slice(j, n_episodes, threads)
            # contiguous, so every thread count runs the same compiled kernel
            episodes = np.arange(first + j, first + n_episodes, threads, dtype=np.int64)
            out = [np.empty(len(episodes), a.dtype) for a in (scores, maxes, moves, restarted)]
            train_episodes(
                data,
                self.tc,
                c.tc,
                np.uint64(c.seed),
                episodes,
                METHODS[c.method],
                c.alpha if learn else 0.0,
                c.alpha_decay,
                c.alpha_every,
                c.lam,
                c.horizon,
                c.p4,
                c.restart,
                masks,
                self.pool[j],
                self.pool_state[j],
                *out,
                np.empty((SCRATCH_ROWS, self.network.n_lookups + 16), np.int64),
                downgrade_exponent(c.downgrade),
                RECORD_MOVES,
            )
            scores[sel], maxes[sel], moves[sel], restarted[sel] = out

        start = time.perf_counter()
        cpu_start = time.process_time()
        if threads == 1:
            work(0)
        else:
            with ThreadPoolExecutor(threads) as ex:
                list(ex.map(work, range(threads)))
        seconds = time.perf_counter() - start
        cpu_seconds = time.process_time() - cpu_start
        self.episodes += n_episodes
        self.seconds += seconds
        max_tiles = np.where(maxes > 0, np.left_shift(1, maxes), 0)
        return Chunk(first, scores, max_tiles, moves, restarted, seconds, cpu_seconds)

    def play(self, games: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Play seeded games ``0 .. games-1`` greedily, 1-ply, learning nothing (reading boards
        downgraded as the network was trained, like the ``ntuple`` player): per game the score,
        the largest tile's exponent and the moves (see
        :func:`~boardai.g2048.train.episodes.play_games`)."""
        c = self.config
        dg = downgrade_exponent(c.downgrade)
        return play_games(self.network.data(), np.uint64(seed), 0, games, c.p4, dg)


def summary_fields(chunk: Chunk) -> dict[str, Any]:
    """One report row: seed 004's average and max score (fresh games), moves/s, reach rates."""
    fresh = ~chunk.restarted
    scores = chunk.scores[fresh] if fresh.any() else chunk.scores
    tiles = chunk.max_tiles[fresh] if fresh.any() else chunk.max_tiles
    row: dict[str, Any] = {
        "episode": chunk.first + len(chunk.scores),
        "avg": round(float(scores.mean()), 1),
        "max": int(scores.max()),
        "moves_per_s": round(chunk.moves_per_second),
        "games": len(scores),
    }
    for tile in (2048, 4096, 8192, 16384, 32768):
        row[f"reach_{tile}"] = round(float((tiles >= tile).mean()), 4)
    # restarts: how the late game goes from the pooled boards (score gained from there)
    late = chunk.restarted
    row["restarts"] = int(late.sum())
    row["restart_avg"] = round(float(chunk.scores[late].mean()), 1) if late.any() else 0.0
    for tile in (16384, 32768):
        rate = float((chunk.max_tiles[late] >= tile).mean()) if late.any() else 0.0
        row[f"restart_reach_{tile}"] = round(rate, 4)
    return row
