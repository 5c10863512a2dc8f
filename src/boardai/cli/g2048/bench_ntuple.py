"""``boardai 2048 bench ntuple``: n-tuple TD training speed, and the strength of a model."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from boardai.cli._common import json_option, nonneg_int, positive_int, probability

if TYPE_CHECKING:
    from boardai.cli import App

EXAMPLES = """
boardai 2048 bench ntuple --patterns 4x6 --episodes 2000
boardai 2048 bench ntuple --patterns 4x6 --episodes 5000 --method online
boardai 2048 bench ntuple --model model.npz --episodes 300 --games 1000
boardai 2048 bench ntuple --model model.npz --episodes 0 --games 100 --depth 2
boardai 2048 bench ntuple --model 2048-ntuple --episodes 0 --games 10 --depth 6 --prob-cut 0.01
boardai 2048 bench ntuple --model 2048-ntuple --episodes 0 --games 1000 --seed 2024
"""


def register(app: App) -> None:
    p = app.command(
        "2048 bench ntuple",
        aliases=["bench ntuple"],
        help="n-tuple TD: training moves per second, and the 1-ply strength of a model",
        examples=EXAMPLES,
    )
    p.add_argument("--patterns", default="4x6", help="patterns of a fresh network (default: 4x6)")
    p.add_argument(
        "--model",
        help="start from this model (a file or a shipped model's name; realistic, filled "
        "tables) and play --games with it",
    )
    p.add_argument(
        "--episodes",
        type=nonneg_int,
        default=1000,
        help="training episodes per timing (default: 1000)",
    )
    p.add_argument(
        "--repeat",
        type=positive_int,
        default=3,
        help="timings; the median is reported (default: 3)",
    )
    p.add_argument("--threads", type=positive_int, default=1, help="training threads (default: 1)")
    p.add_argument(
        "--method",
        help="TD method of the timed training, as train ntuple's --method (backward, "
        "backward-greedy, online, online-fast; default: backward, or the model's)",
    )
    p.add_argument(
        "--games", type=nonneg_int, default=0, help="games to play with --model (default: 0)"
    )
    p.add_argument(
        "--depth",
        type=positive_int,
        default=1,
        help="1: greedy 1-ply (default); 2-12: expectimax over the network, as the "
        "ntuple:depth=D player",
    )
    p.add_argument(
        "--prob-cut",
        type=probability,
        default=1e-4,
        help="with --depth 2 or more: the search's probability cut-off, as the player's "
        "prob_cut (default: 1e-4)",
    )
    p.add_argument(
        "--seed", type=nonneg_int, default=2024, help="rng seed of the timed episodes and games"
    )
    json_option(p, "also write the results as JSON (to stdout: the lines above go to stderr)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import statistics
    from functools import partial

    import numpy as np

    from boardai.cli._common import console, interruptible, write_json
    from boardai.errors import UsageError
    from boardai.g2048.stats import summarize
    from boardai.g2048.tables import reach_table
    from boardai.g2048.train.trainer import TrainConfig, Trainer
    from boardai.report import summary_table

    out = console()  # (on stderr when the JSON goes to stdout: see console())
    if args.model:
        from boardai.learn.store import resolve

        base = Trainer.load(resolve(args.model, "2048", "ntuple"))
        base.config.seed = args.seed
    else:
        base = Trainer(TrainConfig(patterns=args.patterns, seed=args.seed))
    if args.method:
        from boardai.g2048.train.episodes import METHODS

        if args.method not in METHODS:
            raise UsageError(f"--method {args.method!r}: choose from {', '.join(METHODS)}")
        try:
            base.reconfigure(method=args.method)  # TrainConfig's checks (lambda: backward only)
        except ValueError as e:
            raise UsageError(f"--method {args.method}: {e}") from None
    start_weights = base.network.weights.copy()
    result: dict[str, object] = {
        "patterns": base.config.patterns,
        "model": args.model,
        "threads": args.threads,
        "method": base.config.method,
    }
    if args.episodes:
        base.train(1)  # compile (or load the compiled code) outside the timing
        rates: list[float] = []
        cpu_rates: list[float] = []
        for _ in range(args.repeat):
            base.network.weights[:] = start_weights
            base.episodes = 10**9  # fresh spawn streams, away from any training episodes
            chunk = interruptible(partial(base.train, args.episodes, args.threads))
            rates.append(chunk.moves_per_second)
            cpu_rates.append(chunk.moves_per_cpu_second)
            out.print(
                f"{args.episodes:,} episodes, {int(chunk.moves.sum()):,} moves: "
                f"{chunk.moves_per_second:,.0f} moves/s, "
                f"{chunk.moves_per_cpu_second:,.0f} moves per CPU second"
            )
        result["training_moves_per_s"] = rates
        result["training_moves_per_cpu_s"] = cpu_rates
        out.print(
            f"training: median {statistics.median(rates):,.0f} moves/s, "
            f"{statistics.median(cpu_rates):,.0f} moves per CPU second, over {args.repeat} runs"
        )
    if args.games:
        if not args.model:
            raise UsageError("--games needs --model (a trained network to play)")
        base.network.weights[:] = start_weights
        scores, maxes, moves, seconds = _play(args, base)
        tiles = np.where(maxes > 0, np.left_shift(1, maxes), 0)
        s = summarize(scores, moves)
        rate = f"{args.games / seconds:,.1f} games/s, {moves.sum() / seconds:,.0f} moves/s"
        title = "1-ply" if args.depth == 1 else f"depth {args.depth}, prob_cut {args.prob_cut:g}"
        title += f" play, {args.model}"
        out.print(summary_table(s, title=title, extra={"speed": rate}))
        out.print(reach_table(tiles))
        result["depth"] = args.depth
        if args.depth > 1:
            result["prob_cut"] = args.prob_cut
        result["games"] = s.to_dict()
        result["play_seconds"] = seconds
        result["play_moves_per_s"] = float(moves.sum() / seconds)
        result["reach"] = {
            int(t): float((tiles >= t).mean()) for t in (2048, 4096, 8192, 16384, 32768)
        }
    if args.json:
        write_json(args.json, result)
    return 0


def _play(args: argparse.Namespace, trainer: Any) -> tuple[Any, Any, Any, float]:
    """Play ``args.games`` games (game g: spawn stream g of ``args.seed``): scores, max
    exponents, moves, seconds, all in compiled code (deeper than 1: the ``ntuple`` player's
    search, :meth:`~boardai.g2048.agents.expectimax.ExpectimaxAgent.play_games`)."""
    import time
    from functools import partial

    import numpy as np

    from boardai.cli._common import interruptible, progress

    p4 = trainer.config.p4
    # the compiled calls in a thread of their own: Ctrl-C stops them at once
    if args.depth == 1:
        trainer.play(1, args.seed)  # compile outside the timing

        def timed() -> tuple[Any, Any, Any, float]:
            t0 = time.perf_counter()
            scores, maxes, moves = trainer.play(args.games, args.seed)
            return scores, maxes, moves, time.perf_counter() - t0

        return interruptible(timed)

    from boardai.g2048.agents import make_agent
    from boardai.g2048.agents.expectimax import ExpectimaxAgent

    spec = f"ntuple:model={args.model},depth={args.depth},p4={p4},prob_cut={args.prob_cut}"
    agent = make_agent(spec)
    assert isinstance(agent, ExpectimaxAgent)  # depth >= 2: the search over the network
    agent.play_games(args.seed, 0)  # compile outside the timing
    scores, maxes, moves = (np.zeros(args.games, np.int64) for _ in range(3))
    seconds = 0.0
    with progress() as bar:
        task = bar.add_task(f"depth {args.depth} games", total=args.games)
        for g in range(args.games):  # one call a game: a bar that moves, Ctrl-C between games
            t0 = time.perf_counter()
            s, m, n = interruptible(partial(agent.play_games, args.seed, 1, first=g))
            seconds += time.perf_counter() - t0
            scores[g], maxes[g], moves[g] = s[0], m[0], n[0]
            bar.advance(task)
    return scores, maxes, moves, seconds
