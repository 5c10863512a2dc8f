"""Deep Q-learning's game-free half: the Q update and the loop both games' DQN trainers run.

A game's DQN is a :class:`DQNTrainer` subclass that adds only what is its own: how it plays
and stores transitions, the targets it learns, its evaluations, log rows and checkpoints; its
``DQNConfig`` extends :class:`DQNHyperparameters`, the ones both DQNs have, named alike.
:class:`QLearner` holds the online and target networks and the optimiser (a gradient step on
a TD loss, the target network's updates, the learning rate); :func:`best_next_value` is a
target's bootstrap value, Double DQN or not.

>>> import torch
>>> q = torch.tensor([[1.0, 5.0, 2.0], [0.0, 1.0, 2.0]])
>>> legal = torch.tensor([[True, False, True], [False, False, False]])
>>> best_next_value(q, legal).tolist(), best_next_value(q, legal, chooser=-q).tolist()
([2.0, 0.0], [1.0, 0.0])
>>> learner = QLearner(torch.nn.Linear(2, 3), "adam", 0.1, target_update="hard", period=1)
>>> x = torch.ones(1, 2)
>>> loss = learner.step(learner.net(x)[:, 0], torch.tensor([1.0]))
>>> learner.sync_target()  # a copy every update (period 1)
>>> learner.updates, torch.equal(learner.target(x), learner.net(x))
(1, True)
"""

from __future__ import annotations

import copy
import math
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from boardai.atomic import atomic_write
from boardai.learn.run import Progress, ProgressHook, StopCheck, stopping, summary

#: TD losses of :class:`QLearner`.
LOSSES = ("huber", "mse")
#: Target-network updates of :class:`QLearner`: Polyak (``tau``), a copy every ``period``
#: updates, or none (the online network is its own target).
TARGET_UPDATES = ("soft", "hard", "none")


def require(checks: list[tuple[bool, str]]) -> None:
    """Raise ValueError with the reason of the first check that fails (a config's own)."""
    for ok, why in checks:
        if not ok:
            raise ValueError(why)


@dataclass
class DQNHyperparameters:
    """What both games' DQNs share (each field's docstring is its ``--help`` line)."""

    #: The least value of options (a game's config adds its own).
    AT_LEAST: ClassVar[dict[str, int]] = {"warmup": 0, "seed": 0} | dict.fromkeys(
        ("batch_size", "replay_size", "train_every", "target_period", "eval_games"), 1
    )

    gamma: float = 0.99
    """Discount of the bootstrap value."""
    lr: float = 3e-4
    """Learning rate."""
    batch_size: int = 128
    """Minibatch size."""
    replay_size: int = 200_000
    """Transitions kept in the replay buffer."""
    warmup: int = 5_000
    """Transitions stored before learning starts."""
    train_every: int = 4
    """Moves played (summed over the boards played at once) per gradient step."""
    target_period: int = 2_000
    """Gradient steps between hard copies of the online network into the target network."""
    loss: str = "huber"
    """TD loss: huber or mse."""
    double: bool = True
    """Double DQN: the online net picks the next action, the target net values it."""
    augment: bool = False
    """Learn each sample in a random one of the board's 8 images (rotations, mirrors)."""
    eps_start: float = 0.1
    """Exploration's epsilon at the start (a constant exploration's only one)."""
    eps_end: float = 0.001
    """Exploration's epsilon at the end of its decay."""
    eval_games: int = 100
    """Games per evaluation (per match, where it plays several)."""
    seed: int = 0
    """Seed of the games, the exploration and the network's first weights."""

    def __post_init__(self) -> None:
        checks = [
            (0.0 <= self.gamma <= 1.0, "gamma must be in [0, 1]"),
            (self.lr > 0, f"lr must be > 0, got {self.lr}"),
            (self.loss in LOSSES, "loss must be huber or mse"),
            (
                0.0 <= self.eps_start <= 1.0 and 0.0 <= self.eps_end <= 1.0,
                "eps_start and eps_end must be in [0, 1]",
            ),
        ]
        require(checks)
        for name, low in self.AT_LEAST.items():
            if (value := getattr(self, name)) < low:
                raise ValueError(f"{name} must be >= {low}, got {value}")


def best_next_value(q: Any, legal: Any, chooser: Any = None) -> Any:
    """Per row, ``q`` of the best legal action, picked by ``chooser``'s values (Double DQN:
    the online network picks, the target network values) or by ``q``'s own; 0 for a row with
    no legal action."""
    import torch

    pick_by = q if chooser is None else chooser
    pick = pick_by.masked_fill(~legal, torch.finfo(pick_by.dtype).min).argmax(1, keepdim=True)
    v = q.gather(1, pick).squeeze(1)
    return torch.where(legal.any(1), v, torch.zeros_like(v))


class QLearner:
    """An online Q network, its target network (a copy) and their optimiser.

    Args:
        net: the online network (on its device; the target is a copy of it).
        optimizer: ``adam`` or ``rmsprop``.
        lr: the learning rate.
        loss: ``huber`` or ``mse``.
        l2: L2 penalty (lambda/2 * |theta|^2) added to the loss.
        grad_clip: clip the gradient norm to this (0: no clipping).
        target_update: ``soft``, ``hard`` or ``none`` (:data:`TARGET_UPDATES`).
        tau: the soft update's rate.
        period: updates between hard copies.
    """

    def __init__(
        self,
        net: Any,
        optimizer: str,
        lr: float,
        *,
        loss: str = "huber",
        l2: float = 0.0,
        grad_clip: float = 0.0,
        target_update: str = "hard",
        tau: float = 0.005,
        period: int = 1,
    ) -> None:
        import torch

        self.net = net
        self.target = copy.deepcopy(net).requires_grad_(False)
        opt = {"adam": torch.optim.Adam, "rmsprop": torch.optim.RMSprop}[optimizer]
        self.opt = opt(net.parameters(), lr=lr)
        self.loss, self.l2, self.grad_clip = loss, l2, grad_clip
        self.target_update, self.tau, self.period = target_update, tau, period
        self.updates = 0

    def bootstrap_net(self) -> Any:
        """The network targets bootstrap from: the target network, or the online one when
        ``target_update`` is ``none``."""
        return self.net if self.target_update == "none" else self.target

    def set_lr(self, lr: float) -> None:
        """Set the optimiser's learning rate (a schedule's, or a resumed run's new one)."""
        for group in self.opt.param_groups:
            group["lr"] = lr

    def step(self, q: Any, y: Any) -> float:
        """One gradient step on the loss of predictions ``q`` (with their graph) against
        targets ``y``; counts it in :attr:`updates` and returns the loss. The target network
        is updated by :meth:`sync_target`, not here."""
        import torch
        import torch.nn.functional as F

        loss = F.smooth_l1_loss(q, y) if self.loss == "huber" else F.mse_loss(q, y)
        if self.l2 > 0:
            loss = loss + 0.5 * self.l2 * sum((p * p).sum() for p in self.net.parameters())
        self.opt.zero_grad(set_to_none=True)
        loss.backward()
        if self.grad_clip > 0:
            torch.nn.utils.clip_grad_norm_(self.net.parameters(), self.grad_clip)
        self.opt.step()
        self.updates += 1
        return float(loss.item())

    def sync_target(self) -> None:
        """The target network's update after a gradient step (:data:`TARGET_UPDATES`)."""
        import torch

        if self.target_update == "soft":
            with torch.no_grad():
                for pt, p in zip(self.target.parameters(), self.net.parameters(), strict=True):
                    pt.lerp_(p, self.tau)
        elif self.target_update == "hard" and self.updates % self.period == 0:
            self.copy_target()

    def copy_target(self) -> None:
        """Make the target network a copy of the online one."""
        self.target.load_state_dict(self.net.state_dict())


def preset_values(
    presets: dict[str, dict[str, Any]], aliases: dict[str, str], name: str
) -> tuple[str, dict[str, Any]]:
    """The name and values of preset ``name`` among ``presets`` (an old name in ``aliases`` is
    read as today's); ValueError naming the presets for an unknown one.

    >>> preset_values({"small": {"hidden": 8}}, {"seed9": "small"}, "seed9")
    ('small', {'hidden': 8})
    """
    name = aliases.get(name, name)
    if name not in presets:
        raise ValueError(f"unknown preset {name!r} (choose from {', '.join(presets)})")
    return name, dict(presets[name])


def write_checkpoint(path: Any, data: dict[str, Any]) -> None:
    """Write a checkpoint atomically, as plain data (numpy arrays become tensors, see
    :mod:`boardai.learn.torch_file`)."""
    from boardai.learn import torch_file

    with atomic_write(path, "wb") as f:
        torch_file.save(data, f)


class Cadence:
    """Something due every ``every`` units (0: never), counted from ``done``.

    >>> c = Cadence(100, done=250)
    >>> c.due(299), c.due(305), c.due(350), c.due(400)
    (False, True, False, True)
    """

    def __init__(self, every: int, done: int) -> None:
        self.every = every
        self.next = (done // every + 1) * every if every else None

    def due(self, done: int) -> bool:
        """Whether ``done`` reached the next multiple; the multiple after it is next (a chunk
        that passed two makes the next call due as well)."""
        if self.next is None or done < self.next:
            return False
        self.next += self.every
        return True


class DQNTrainer:
    """The loop of a DQN run; a game's trainer fills in what is its own.

    A subclass builds its :class:`QLearner` after ``super().__init__`` (which seeds torch and
    :attr:`rng`), sets :attr:`unit` and implements:

    - :attr:`done`: units trained in all, a resumed run's earlier ones included;
    - :meth:`play`: play and learn one chunk, yielding each time :attr:`done` moved;
    - :meth:`report`: at each yield, evaluate, log and save where due: the report row (None
      when none was due) and the path saved (None when nothing was);
    - :meth:`save_run`: save the run to go on from (at a stop, and where it reports);
    - :meth:`finish`: the run's last work (a final evaluation, a save) and its summary;
    - :meth:`begin` (optional): this call's counters, set up before the loop.
    """

    #: What :attr:`done` counts (``env steps``, ``games``).
    unit: ClassVar[str]
    #: Whether a Ctrl-C inside :meth:`train` goes on up once the run is saved (else the run
    #: ends as a stopped one, through :meth:`finish`).
    ctrl_c_raises: ClassVar[bool] = True

    def __init__(self, out: str | os.PathLike[str], seed: int, threads: int) -> None:
        import torch

        self.out = Path(out)
        torch.set_num_threads(threads)
        torch.manual_seed(seed)
        self.rng = np.random.default_rng(seed)
        self.best_score = -math.inf
        self.started: float | None = None  # when :meth:`train` began (None: not yet)

    @property
    def done(self) -> int:
        raise NotImplementedError

    def begin(self) -> None:
        pass

    def play(self) -> Iterator[None]:
        raise NotImplementedError

    def report(self, total: int) -> tuple[dict[str, Any] | None, str | None]:
        raise NotImplementedError

    def save_run(self) -> None:
        raise NotImplementedError

    def finish(self, total: int, interrupted: bool) -> dict[str, Any]:
        raise NotImplementedError

    def keep_if_best(self, score: float, save: Any) -> None:
        """Call ``save()`` when ``score`` beats every evaluation's before (the best network)."""
        if score > self.best_score:
            self.best_score = score
            save()

    def train(
        self,
        total: int,
        minutes: float | None = None,
        on_progress: ProgressHook | None = None,
        should_stop: StopCheck | None = None,
    ) -> dict[str, Any]:
        """Train until :attr:`done` reaches ``total`` (or ``minutes`` of wall time); returns
        :meth:`finish`'s summary with :func:`boardai.learn.run.summary`'s keys.

        ``on_progress`` gets a ``start`` event (``detail``: this trainer), then a ``step``
        event each time :meth:`play` yields (``stats``: the report row, where one was due).
        ``should_stop()`` is asked before each chunk: True saves and ends the run
        (``interrupted``); so does Ctrl-C, which then goes on up if :attr:`ctrl_c_raises`.
        """
        self.started = time.perf_counter()
        self.begin()
        if on_progress is not None:
            on_progress(Progress("start", self.done, total, self.unit, detail=self))
        interrupted = False
        try:
            while self.done < total:
                if minutes is not None and time.perf_counter() - self.started > 60 * minutes:
                    break
                if stopping(should_stop):
                    interrupted = True
                    break
                for _ in self.play():
                    row, saved = self.report(total)
                    if on_progress is not None:
                        on_progress(Progress("step", self.done, total, self.unit, row, saved))
                    if self.done >= total:
                        break
        except KeyboardInterrupt:
            if self.ctrl_c_raises:
                self.save_run()
                raise
            interrupted = True
        if interrupted:  # saved before finish's work, which a second Ctrl-C may cut short
            self.save_run()
        return {
            **self.finish(total, interrupted),
            **summary(self.unit, self.done, total, self.out, interrupted),
        }
