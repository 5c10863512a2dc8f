"""``boardai train ntuple``: TD learning of an n-tuple network for 2048."""

from __future__ import annotations

import argparse
from typing import Any

from boardai.cli._common import nonneg_int, output_option, positive_int, probability
from boardai.g2048.patterns import PATTERN_SETS

EXAMPLES = """
boardai train ntuple --patterns 4x6 --episodes 100000 --out model.npz
boardai train ntuple --patterns seed004 --episodes 69000 --out s4.npz --csv s4.csv --plot s4.png
boardai train ntuple --patterns 0123,4567 --episodes 2000 --out tiny.npz --report-every 500
boardai train ntuple --resume model.npz --episodes 200000 --out model.npz
boardai train ntuple --resume 2048-ntuple --alpha 0.01 --episodes 3000000 --out more.npz
boardai train ntuple --patterns 4x6 --tc --alpha 1.0 --stages 14 --restart 0.5 --out tc.npz
boardai train ntuple --patterns 4x6 --stages 14,14+13 --out staged.npz
boardai train ntuple --resume m.npz --stages 14,14+13 --restart 0.8 --restart-at 14 --out late.npz
boardai train ntuple --resume m.npz --downgrade 16384 --restart 0.8 --restart-at 14 --out dg.npz
"""

BENCH_EXAMPLES = """
boardai bench ntuple --patterns 4x6 --episodes 2000
boardai bench ntuple --model model.npz --episodes 300 --games 1000
boardai bench ntuple --model model.npz --episodes 0 --games 20 --depth 2
boardai bench ntuple --model 2048-ntuple --episodes 0 --games 1000 --seed 2024
"""


#: Options that may change when a run is resumed, with their defaults for a new run. Their
#: arguments default to None, so that a value given on the command line (even the default
#: value) overrides the saved one and an option left out keeps it.
RESUMABLE: dict[str, Any] = {
    "method": "backward",
    "alpha": 0.1,
    "alpha_decay": 1.0,
    "alpha_every": 10_000,
    "lam": 0.0,
    "horizon": 5,
    "tc": False,
    "restart": 0.0,
    "restart_at": (),
    "downgrade": 0,
}


def register(app: Any) -> None:
    p = app.command(
        "train ntuple",
        help="train an n-tuple network for 2048 by TD learning on afterstates (seed 004)",
        examples=EXAMPLES,
        description=(
            "Train an n-tuple network by TD learning on afterstates: greedy play by\n"
            "r + V(afterstate), updates from the end of each episode backwards (seed 004),\n"
            "or online. Every --report-every episodes it prints seed 004's report (average\n"
            "and max score, moves/s, tile reach table) and appends a CSV row; every\n"
            "--checkpoint-every episodes (and at Ctrl-C or SIGTERM, exit code 130) it saves --out."
        ),
    )
    p.add_argument(
        "--patterns",
        default="4x6",
        help=f"set name ({', '.join(PATTERN_SETS)}), hex lists like 0123,4567, or @file",
    )
    p.add_argument(
        "--episodes",
        type=positive_int,
        default=100_000,
        help="total episodes to reach (default: 100000)",
    )
    output_option(p, "--out", required=True, help="model file to write (.npz)")
    p.add_argument(
        "--resume",
        metavar="MODEL",
        help="continue a saved run, or a shipped model by name (boardai models); its patterns, "
        "stages and seed stay (--stages splits a one-stage network, every stage starting from "
        "its weights), and options of the learning rule given here (alpha, schedule, method, "
        "lambda, tc, restarts) override. A compact (shipped) model keeps weights, episode count "
        "and options only: its TC accumulators and restart pools start afresh",
    )
    p.add_argument(
        "--add-patterns",
        metavar="LIST",
        help="with --resume: grow the network by these patterns (hex lists), their weights "
        "starting at zero; try with --tc",
    )
    p.add_argument(
        "--method",
        choices=["backward", "backward-greedy", "online"],
        default=None,
        help="backward: seed 004's update from the end of each episode (default); "
        "backward-greedy: re-choose the next move with current weights; online: forward TD(0)",
    )
    p.add_argument(
        "--alpha",
        type=float,
        default=None,
        help="learning rate, split over the lookups (default: 0.1)",
    )
    p.add_argument(
        "--alpha-decay",
        type=float,
        default=None,
        help="multiply alpha by this every --alpha-every episodes",
    )
    p.add_argument(
        "--alpha-every",
        type=positive_int,
        default=None,
        help="episodes between decays (default: 10000)",
    )
    p.add_argument(
        "--lambda",
        dest="lam",
        type=probability,
        default=None,
        help="TD(lambda) (default: 0)",
    )
    p.add_argument(
        "--horizon",
        type=positive_int,
        default=None,
        help="longest n-step return in TD(lambda) (default: 5)",
    )
    p.add_argument(
        "--tc",
        action="store_true",
        default=None,
        help="temporal coherence learning (try --alpha 1.0)",
    )
    p.add_argument(
        "--optimistic", type=float, default=0.0, metavar="V", help="OTD: start every value at V"
    )
    p.add_argument(
        "--stages",
        default="",
        metavar="LIST",
        help="multi-stage: thresholds where new weights start, a tile exponent or tiles joined "
        "by + (largest first); e.g. 14,14+13: one stage below 16384, one from 16384, one from "
        "16384 with 8192 on the board",
    )
    p.add_argument(
        "--restart",
        type=float,
        default=None,
        metavar="P",
        help="start an episode from a late position of an earlier game with probability P",
    )
    p.add_argument(
        "--restart-at",
        default=None,
        metavar="LIST",
        help="with --restart: restart from the first boards where games reach these "
        "thresholds (the form of --stages; e.g. 14,14+13: the first 16384, and the first 16384 "
        "with 8192), a threshold at random, not from a random late board",
    )
    p.add_argument(
        "--downgrade",
        type=int,
        default=None,
        metavar="TILE",
        help="read boards whose largest tile is at least TILE (16384) downgraded, as the "
        "player ntuple:...,downgrade=TILE does: a board missing a smaller tile reads with the "
        "tiles above the gap halved (default: 0, off)",
    )
    p.add_argument(
        "--p4", type=probability, default=0.1, help="probability of a spawned 4 (default: 0.1)"
    )
    p.add_argument("--seed", type=nonneg_int, default=0, help="rng seed (default: 0)")
    p.add_argument(
        "--threads", type=positive_int, default=1, help="episodes in parallel on one shared table"
    )
    p.add_argument(
        "--report-every",
        type=positive_int,
        default=1000,
        help="episodes per report (default: 1000)",
    )
    p.add_argument(
        "--checkpoint-every",
        type=nonneg_int,
        default=10_000,
        help="episodes per save, 0: only at the end",
    )
    output_option(p, "--csv", help="write the report rows to this CSV file")
    output_option(p, "--plot", help="write the learning curve to this PNG file")
    p.add_argument("--quiet", action="store_true", help="no reach tables, just one line per report")
    p.set_defaults(func=run)

    b = app.command(
        "bench ntuple",
        help="n-tuple TD: training moves per second, and the 1-ply strength of a model",
        examples=BENCH_EXAMPLES,
    )
    b.add_argument("--patterns", default="4x6", help="patterns of a fresh network (default: 4x6)")
    b.add_argument(
        "--model",
        help="start from this model (a file or a shipped model's name; realistic, filled "
        "tables) and play --games with it",
    )
    b.add_argument(
        "--episodes",
        type=nonneg_int,
        default=1000,
        help="training episodes per timing (default: 1000)",
    )
    b.add_argument(
        "--repeat",
        type=positive_int,
        default=3,
        help="timings; the median is reported (default: 3)",
    )
    b.add_argument("--threads", type=positive_int, default=1, help="training threads (default: 1)")
    b.add_argument(
        "--games", type=nonneg_int, default=0, help="games to play with --model (default: 0)"
    )
    b.add_argument(
        "--depth",
        type=positive_int,
        default=1,
        help="1: greedy 1-ply; 2-4: expectimax over the network",
    )
    b.add_argument(
        "--seed", type=nonneg_int, default=2024, help="rng seed of the timed episodes and games"
    )
    output_option(b, "--json", help="also write the results to this JSON file")
    b.set_defaults(func=bench)


def _stages(args: argparse.Namespace) -> Any:
    from boardai.errors import UsageError
    from boardai.g2048.ntuple import parse_stages

    try:
        return parse_stages(args.stages)
    except UsageError as e:
        raise UsageError(f"--stages: {e}") from None


def _given(args: argparse.Namespace) -> dict[str, Any]:
    """The options of the learning rule that the command line sets."""
    from boardai.errors import UsageError
    from boardai.g2048.ntuple import parse_stages

    given = {k: getattr(args, k) for k in RESUMABLE if getattr(args, k) is not None}
    if "restart_at" in given:
        try:
            given["restart_at"] = parse_stages(given["restart_at"])
        except UsageError as e:
            raise UsageError(f"--restart-at: {e}") from None
    return given


def _config(args: argparse.Namespace) -> Any:
    from boardai.errors import UsageError
    from boardai.g2048.train.config import TrainConfig

    stages = _stages(args)
    try:
        return TrainConfig(
            **{**RESUMABLE, **_given(args)},
            patterns=args.patterns,
            stages=stages,
            optimistic=args.optimistic,
            p4=args.p4,
            seed=args.seed,
        )
    except ValueError as e:
        raise UsageError(str(e)) from None


def run(args: argparse.Namespace) -> int:
    from rich.progress import TextColumn

    from boardai.cli._common import console, progress
    from boardai.errors import UsageError
    from boardai.g2048.downgrade import downgrade_exponent, unread_stages
    from boardai.g2048.ntuple import format_stages
    from boardai.g2048.train.report import CsvLog, plot_curve, report_block
    from boardai.g2048.train.trainer import Chunk, Trainer

    out = console()
    if args.resume:
        from boardai.learn.model_file import read_meta
        from boardai.learn.store import resolve

        path = resolve(args.resume, "2048", "ntuple")
        trainer = Trainer.load(path)
        if "compacted" in read_meta(path):
            out.print(
                f"{args.resume} is a compact model: weights, episodes and options resume; its "
                "TC accumulators and restart pools (not kept) start afresh"
            )
        changes = {k: v for k, v in _given(args).items() if v != getattr(trainer.config, k)}
        if changes:
            try:
                trainer.reconfigure(**changes)
            except ValueError as e:
                raise UsageError(f"--resume {args.resume}: {e}") from None
        if args.add_patterns:
            trainer.add_patterns(args.add_patterns)
            changes["patterns"] = f"+{args.add_patterns}"
        stages = _stages(args)
        if stages and stages != trainer.config.stages:  # the same stages again: no-op
            try:
                trainer.split_stages(stages)
            except ValueError as e:
                raise UsageError(f"--resume {args.resume} --stages: {e}") from None
            changes["stages"] = args.stages
        what = f", now with {changes}" if changes else ""
        out.print(f"resuming {args.resume}: {trainer.episodes:,} episodes done{what}")
    else:
        if args.add_patterns:
            raise UsageError("--add-patterns grows a saved network: give --resume MODEL too")
        trainer = Trainer(_config(args))
    c = trainer.config
    mb = trainer.network.weights.nbytes * (3 if c.tc else 1) / 2**20
    out.print(
        f"n-tuple TD: patterns {c.patterns}, {trainer.network.n_lookups} lookups, "
        f"stages {format_stages(c.stages) or 'none'}, {mb:,.0f} MiB of weights, method {c.method}, "
        f"alpha {c.alpha}, seed {c.seed}"
    )
    unread = unread_stages(c.stages, downgrade_exponent(c.downgrade))
    if unread:
        out.print(
            f"note: with --downgrade {c.downgrade}, boards past stages {format_stages(unread)} "
            f"read downgraded, as earlier boards, unless they hold {unread[0][0]} different "
            "tiles: the weights of those stages stay almost unused"
        )
    log = CsvLog(args.csv, append=bool(args.resume)) if args.csv else None
    rows: list[dict[str, Any]] = log.rows if log else []
    last_save = trainer.episodes
    stop = _StopFlag()
    pieces: list[Chunk] = []
    step = 10 * args.threads  # episodes per compiled call, sized to about a second below
    with stop, progress(TextColumn("{task.fields[info]}")) as bar:
        task = bar.add_task("training", total=args.episodes, completed=trainer.episodes, info="")
        while trainer.episodes < args.episodes and not stop.set:
            n = min(
                step,
                args.report_every - trainer.episodes % args.report_every,
                args.episodes - trainer.episodes,
            )
            piece = trainer.train(n, args.threads)
            pieces.append(piece)
            # short compiled calls keep Ctrl-C and the progress bar responsive
            per_episode = piece.seconds / n
            step = max(args.threads, min(100_000, int(1.0 / max(per_episode, 1e-6))))
            chunk = Chunk.join(pieces)
            if trainer.episodes % args.report_every == 0 or trainer.episodes == args.episodes:
                pieces = []
                row, block = report_block(chunk, trainer, quiet=args.quiet)
                out.print(block)
                rows.append(row)
                if log:
                    log.write(row)
            bar.update(
                task, completed=trainer.episodes, info=f"{chunk.moves_per_second:,.0f} moves/s"
            )
            if args.checkpoint_every and trainer.episodes - last_save >= args.checkpoint_every:
                trainer.save(args.out)
                last_save = trainer.episodes
    if stop.set:
        trainer.save(args.out)
        out.print(f"interrupted: saved {trainer.episodes:,} episodes to {args.out}")
        return 130
    trainer.save(args.out)
    out.print(
        f"saved {args.out}: {trainer.episodes:,} episodes, {trainer.seconds:,.0f} s of training"
    )
    if args.plot:
        plot_curve(rows, args.plot, title=f"n-tuple TD, {c.patterns}")
        out.print(f"wrote {args.plot}")
    return 0


class _StopFlag:
    """Ctrl-C (or SIGTERM) sets a flag instead of raising, so a chunk always finishes whole
    (the saved state then matches the episode count); a second one raises as usual."""

    SIGNALS = ("SIGINT", "SIGTERM")

    def __init__(self) -> None:
        self.set = False
        self._old: dict[str, Any] = {}

    def _handler(self, signum: int, frame: Any) -> None:
        if self.set:
            raise KeyboardInterrupt
        self.set = True
        print("\nstopping after this chunk (Ctrl-C again to abort without saving)", flush=True)

    def __enter__(self) -> _StopFlag:
        import signal
        import threading

        if threading.current_thread() is threading.main_thread():
            for name in self.SIGNALS:
                self._old[name] = signal.signal(getattr(signal, name), self._handler)
        return self

    def __exit__(self, *exc: object) -> None:
        import signal

        for name, old in self._old.items():
            signal.signal(getattr(signal, name), old)


def bench(args: argparse.Namespace) -> int:
    import statistics

    import numpy as np

    from boardai.cli._common import console, write_json
    from boardai.g2048.stats import summarize
    from boardai.g2048.train.trainer import TrainConfig, Trainer
    from boardai.report import reach_table, summary_table

    out = console()
    if args.model:
        from boardai.learn.store import resolve

        base = Trainer.load(resolve(args.model, "2048", "ntuple"))
        base.config.seed = args.seed
    else:
        base = Trainer(TrainConfig(patterns=args.patterns, seed=args.seed))
    start_weights = base.network.weights.copy()
    result: dict[str, object] = {
        "patterns": base.config.patterns,
        "model": args.model,
        "threads": args.threads,
    }
    if args.episodes:
        base.train(1)  # compile (or load the compiled code) outside the timing
        rates: list[float] = []
        cpu_rates: list[float] = []
        for _ in range(args.repeat):
            base.network.weights[:] = start_weights
            base.episodes = 10**9  # fresh spawn streams, away from any training episodes
            chunk = base.train(args.episodes, args.threads)
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
            from boardai.errors import UsageError

            raise UsageError("--games needs --model (a trained network to play)")
        base.network.weights[:] = start_weights
        scores, maxes, moves, seconds = _play(args, base)
        tiles = np.where(maxes > 0, np.left_shift(1, maxes), 0)
        s = summarize(scores, moves)
        rate = f"{args.games / seconds:,.1f} games/s, {moves.sum() / seconds:,.0f} moves/s"
        title = f"{'1-ply' if args.depth == 1 else f'depth {args.depth}'} play, {args.model}"
        out.print(summary_table(s, title=title, extra={"speed": rate}))
        out.print(reach_table(tiles))
        result["games"] = s.to_dict()
        result["reach"] = {
            int(t): float((tiles >= t).mean()) for t in (2048, 4096, 8192, 16384, 32768)
        }
    if args.json:
        write_json(args.json, result)
    return 0


def _play(args: argparse.Namespace, trainer: Any) -> tuple[Any, Any, Any, float]:
    """Play ``args.games`` games (game g: seed ``args.seed + g``): scores, max exponents,
    moves, seconds. Depth 1 runs in compiled code; deeper runs the search move by move."""
    import time

    import numpy as np

    from boardai.g2048.downgrade import downgrade_exponent
    from boardai.g2048.train.episodes import play_games

    data = trainer.network.data()
    p4 = trainer.config.p4
    if args.depth == 1:  # downgrading as the network was trained, like the ntuple player
        dg = downgrade_exponent(trainer.config.downgrade)
        play_games(data, np.uint64(args.seed), 0, 1, p4, dg)  # compile outside the timing
        t0 = time.perf_counter()
        scores, maxes, moves = play_games(data, np.uint64(args.seed), 0, args.games, p4, dg)
        return scores, maxes, moves, time.perf_counter() - t0

    from boardai.cli._common import progress
    from boardai.g2048 import Game
    from boardai.g2048.agents import make_agent

    agent = make_agent(f"ntuple:model={args.model},depth={args.depth},p4={p4}")
    scores, maxes, moves = (np.zeros(args.games, np.int64) for _ in range(3))
    t0 = time.perf_counter()
    with progress() as bar:
        task = bar.add_task(f"depth {args.depth} games", total=args.games)
        for g in range(args.games):
            game = Game(seed=args.seed + g, p4=p4)
            agent.reset()
            while not game.is_over():
                game.move(agent.act(game.board))
            scores[g], moves[g] = game.score, game.moves
            maxes[g] = game.board.max_tile().bit_length() - 1
            bar.advance(task)
    return scores, maxes, moves, time.perf_counter() - t0
