"""A 2048 DQN training run: ``train(config, out)`` (the shape of :mod:`boardai.learn.run`)
over :class:`~boardai.g2048.train.dqn.DQNTrainer`.

>>> import tempfile
>>> config = DQNRun(net="fc", planes=12, hidden=16, num_envs=2, warmup=20, batch_size=8,
...                 eval_games=2, eval_every=0, replay_size=500, steps=60)
>>> summary = train(config, tempfile.mkdtemp())
>>> summary["done"] >= 60, summary["interrupted"]
(True, False)
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boardai.g2048.train.dqn import PRESET_ALIASES, PRESETS, DQNConfig, DQNTrainer
from boardai.hardware import cores
from boardai.learn.dqn import preset_values
from boardai.learn.run import ProgressHook, StopCheck, config_from_dict


@dataclass
class DQNRun(DQNConfig):
    """A run: the hyperparameters (:class:`DQNConfig`, saved in its checkpoints) and how long
    to train."""

    steps: int = 1_000_000
    """Total env steps to train to (a resumed run's included)."""
    minutes: float | None = None
    """Stop after this many minutes of wall time."""
    tensorboard: str = ""
    """Write TensorBoard logs to this folder ('': none)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.steps < 1:
            raise ValueError(f"steps must be >= 1, got {self.steps}")
        # No update is made before the warm-up (and a batch) is in the replay buffer: a run
        # that stops there saves an untrained network as its best.pt.
        learns_from, name = self.warmup, "warmup"
        if self.fit_mode != "episodes" and self.batch_size > self.warmup:
            learns_from, name = self.batch_size, "batch_size"
        if self.steps <= learns_from:
            raise ValueError(
                f"steps ({self.steps}) must be more than the {learns_from} transitions collected "
                f"before learning starts ({name}): it would learn nothing"
            )
        if self.minutes is not None and not self.minutes > 0:
            raise ValueError(f"minutes must be > 0, got {self.minutes}")

    def hyperparameters(self) -> DQNConfig:
        """The hyperparameters alone, as checkpoints keep them."""
        names = [f.name for f in dataclasses.fields(DQNConfig)]
        return DQNConfig(**{k: getattr(self, k) for k in names})


def preset_run(name: str, **values: Any) -> DQNRun:
    """The run of preset ``name`` (:data:`~boardai.g2048.train.dqn.PRESETS`) with ``values``
    over it (ValueError for an unknown preset or a bad value); an old name is read as today's."""
    return config_from_dict(DQNRun, {**preset_values(PRESETS, PRESET_ALIASES, name)[1], **values})


#: The options that shape the network: a resumed run cannot change them (its weights would
#: not fit).
FIXED_ON_RESUME = ("net", "planes", "channels", "hidden", "fc_layers", "lookahead_input")


def _plain(kwargs: dict[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple | list) else v for k, v in kwargs.items()}


def fit_here(saved: dict[str, Any]) -> dict[str, Any]:
    """A saved run's config with its torch threads cut to the cores here: a run begun on a
    bigger machine goes on, or is evaluated, on this one."""
    fitted = dict(saved)
    if "threads" in fitted:
        fitted["threads"] = min(int(fitted["threads"]), cores())
    return fitted


def resumed_config(resume: str | os.PathLike[str], **values: Any) -> DQNRun:
    """The run saved in checkpoint ``resume`` with ``values`` over its hyperparameters
    (ValueError naming the option for a change the checkpoint's network, or the replay
    buffer it holds, cannot take)."""
    from boardai.g2048.qnet import held_replay_size, load_checkpoint
    from boardai.g2048.qnetworks import NET_ALIASES

    state = load_checkpoint(Path(resume))
    saved = fit_here(state["config"])
    config = config_from_dict(DQNRun, {**saved, **values})
    net = (config.net, _plain(config.net_kwargs()))
    saved_name = NET_ALIASES.get(state.get("net_name", ""), state.get("net_name"))
    if net != (saved_name, _plain(state.get("net_kwargs") or {})):
        changed = [k for k in FIXED_ON_RESUME if k in saved and getattr(config, k) != saved[k]]
        raise ValueError(
            f"{', '.join(changed) or 'the network'} cannot change on a resumed run: its "
            f"checkpoint's network is {state.get('net_name')} {state.get('net_kwargs')}"
        )
    held = held_replay_size(state, config.replay_size)
    if held is not None:
        raise ValueError(
            f"replay_size cannot change on a resumed run whose checkpoint holds its replay "
            f"buffer (of {held} transitions)"
        )
    return config


def train(
    config: DQNRun,
    out: str | os.PathLike[str],
    *,
    resume: str | os.PathLike[str] | None = None,
    on_progress: ProgressHook | None = None,
    should_stop: StopCheck | None = None,
) -> dict[str, Any]:
    """Train to ``config.steps`` env steps, writing ``checkpoint.pt``, ``best.pt``,
    ``log.csv`` and ``curve.png`` to the folder ``out``.

    Args:
        resume: a checkpoint (``OUT/checkpoint.pt``) to go on from with ``config``'s
            hyperparameters (:func:`resumed_config`: the saved ones with changes).
        on_progress: gets a ``start`` event (``detail``: the trainer), then a ``step`` event
            after every step of the loop (``stats``: the new log row, where one was written).
        should_stop: asked before every step: True stops, evaluates and saves.

    Returns:
        :meth:`DQNTrainer.train`'s summary, with ``unit`` (env steps), ``done``, ``total``
        and ``out``; Ctrl-C ends the run the same way, ``interrupted`` True.
    """
    board = config.tensorboard or None
    trainer = DQNTrainer(config.hyperparameters(), Path(out), tensorboard=board)
    if resume is not None:
        trainer.load(Path(resume))
    return trainer.train(
        config.steps, config.minutes, on_progress=on_progress, should_stop=should_stop
    )
