"""``boardai 2048 bench env``: steps per second of the Gymnasium env and of the vector env."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from boardai.cli._common import json_option, positive_int

if TYPE_CHECKING:
    from boardai.cli import App


def register(app: App) -> None:
    p = app.command(
        "2048 bench env",
        aliases=["bench env"],
        help="steps per second of boardai/2048-v0 (single env and native vector env)",
        description=(
            "Random-policy steps per second. single_*: one env through gymnasium.make (with its\n"
            "checker wrappers) and unwrapped, with uniformly random actions (an illegal one is a\n"
            "no-op step) and with a random legal action drawn from info['action_mask'];\n"
            "vector_*: make_vec with --num-envs boards, random actions, exponents and onehot\n"
            "observations. Medians of --repeat runs, per second of wall time (_per_s) and of\n"
            "this process's CPU time (_per_cpu_s: the figure to trust on a loaded machine)."
        ),
        examples="boardai 2048 bench env\nboardai 2048 bench env --json --num-envs 1024 --repeat 5",
    )
    p.add_argument(
        "--steps",
        type=positive_int,
        default=200_000,
        help="single-env steps per run (default 200,000)",
    )
    p.add_argument(
        "--num-envs",
        type=positive_int,
        default=1024,
        help="boards in the vector env (default 1024)",
    )
    p.add_argument(
        "--vector-steps", type=positive_int, default=300, help="vector steps per run (default 300)"
    )
    p.add_argument(
        "--repeat",
        type=positive_int,
        default=3,
        help="timed runs; the median is reported (default 3)",
    )
    json_option(p, "write the figures as JSON")
    p.set_defaults(func=run)


def _single(env: Any, actions: Any, legal: bool) -> tuple[float, float]:
    import time

    import numpy as np

    _, info = env.reset(seed=0)
    u = np.random.default_rng(1).random(len(actions))
    t, c = time.perf_counter(), time.process_time()
    for k in range(len(actions)):
        if legal:
            mask = info["action_mask"]
            a = int(np.flatnonzero(mask)[int(u[k] * mask.sum())])
        else:
            a = int(actions[k])
        _, _, term, trunc, info = env.step(a)
        if term or trunc:
            _, info = env.reset()
    return len(actions) / (time.perf_counter() - t), len(actions) / (time.process_time() - c)


def _vector(envs: Any, actions: Any) -> tuple[float, float]:
    import time

    envs.reset(seed=0)
    envs.step(actions[0])
    t, c = time.perf_counter(), time.process_time()
    for row in actions:
        envs.step(row)
    return actions.size / (time.perf_counter() - t), actions.size / (time.process_time() - c)


def measure(steps: int, num_envs: int, vector_steps: int, repeat: int) -> dict[str, float]:
    """The benchmark itself: medians of ``repeat`` runs of each measurement."""
    import statistics

    import gymnasium as gym
    import numpy as np

    import boardai  # noqa: F401  (registers the env)

    rng = np.random.default_rng(0)
    actions = rng.integers(0, 4, steps)
    vec_actions = rng.integers(0, 4, (vector_steps, num_envs))
    made = gym.make("boardai/2048-v0", observation="exponents")
    raw = gym.make("boardai/2048-v0", observation="exponents").unwrapped
    onehot = gym.make("boardai/2048-v0").unwrapped
    runs: dict[str, list[float]] = {}
    vec = {
        k: gym.make_vec("boardai/2048-v0", num_envs=num_envs, observation=k)
        for k in ("exponents", "onehot")
    }
    _single(raw, actions[:100], False)  # compile or load the kernels outside the timing
    for _ in range(repeat):
        timings = {
            "single_make_random": _single(made, actions, False),
            "single_raw_random": _single(raw, actions, False),
            "single_raw_legal": _single(raw, actions, True),
            "single_raw_onehot": _single(onehot, actions, False),
            **{f"vector_{kind}": _vector(envs, vec_actions) for kind, envs in vec.items()},
        }
        for name, (wall, cpu) in timings.items():
            runs.setdefault(f"{name}_steps_per_s", []).append(wall)
            runs.setdefault(f"{name}_steps_per_cpu_s", []).append(cpu)
    out = {k: statistics.median(v) for k, v in runs.items()}
    out.update(num_envs=float(num_envs), steps=float(steps), repeat=float(repeat))
    return out


def run(args: argparse.Namespace) -> int:
    from boardai.cli._common import console, write_json

    figures = measure(args.steps, args.num_envs, args.vector_steps, args.repeat)
    if args.json == "-":  # the figures alone
        write_json("-", figures)
        return 0
    out = console()
    for key, value in figures.items():
        if key.endswith(("_per_s", "_per_cpu_s")):
            out.print(f"{key:34s} {value:>14,.0f}")
    out.print(
        f"(vector env: {int(figures['num_envs'])} boards; medians of {int(figures['repeat'])} runs)"
    )
    if args.json:
        write_json(args.json, figures)
    return 0
