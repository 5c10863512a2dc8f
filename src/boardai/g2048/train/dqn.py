"""Deep Q-learning for 2048 (PyTorch): one loop for streamed updates and episode fits.

Read it top to bottom: :class:`DQNConfig` (every hyperparameter, documented), the presets,
then :class:`DQNTrainer`, what 2048's DQN adds to :mod:`boardai.learn.dqn`'s trainer (the
loop, the gradient step, the target network): ``collect`` (vector env, exploration),
``update`` (n-step targets over masked next moves), ``fit_episodes`` (fits on batches of whole
episodes), ``evaluate`` (greedy games), ``save``/``load`` (atomic checkpoints) and the loop's
``play``/``report``/``finish`` (evaluations, log rows, checkpoints and the curve).

The replay buffer stores packed boards (16 bytes a state), not observations: the network's
encoding is made when a batch is sampled, and the next state's legal mask is stored beside
it, so a target never takes the max over an illegal move.

>>> import tempfile
>>> cfg = DQNConfig(net="fc", planes=12, hidden=16, num_envs=2, warmup=20, batch_size=8,
...                 eval_games=2, eval_every=0, replay_size=500)
>>> result = DQNTrainer(cfg, tempfile.mkdtemp()).train(60)
>>> result["env_steps"] >= 60
True
"""

from __future__ import annotations

import dataclasses
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from boardai.g2048.qnet import (
    CHECKPOINT_FORMAT,
    CHECKPOINT_VERSION,
    encode_input,
    held_replay_size,
    load_checkpoint,
    q_forward,
)
from boardai.hardware import check_device, check_threads, resolve_device
from boardai.learn.csv_log import CsvLog
from boardai.learn.dqn import (
    TARGET_UPDATES,
    Cadence,
    DQNHyperparameters,
    QLearner,
    best_next_value,
    preset_values,
    require,
    write_checkpoint,
)
from boardai.learn.dqn import DQNTrainer as Trainer


@dataclass
class DQNConfig(DQNHyperparameters):
    """Hyperparameters of a DQN run: the shared ones (:class:`DQNHyperparameters`) and
    2048's own (each field's docstring is its ``--help`` line)."""

    net: str = "afterstate"
    """network: action-cnn (a CNN Q(s,a) with the action as an input), fc (dense layers), conv
    (two 2x2 convolutions), strong (dueling pair convolutions), afterstate
    (Q = r + V(afterstate))"""
    planes: int = 16
    """one-hot planes of the board input (preset shaped-conv: 12)"""
    channels: int = 32
    """convolution channels (conv, strong)"""
    hidden: int = 128
    """width of the dense layer (conv, strong)"""
    fc_layers: str = "256,256"
    """fc net: widths of its hidden layers, comma-separated"""
    lookahead_input: bool = False
    """fc net: read the boards two moves ahead (20 boards one-hot; preset lookahead-mlp)"""
    reward: str = "log2"
    """env reward: score, log2 or shaped (a log reward with a per-move penalty and bonuses for
    tiles from 512; preset shaped-conv)"""
    reward_scale: float = 1.0
    """rewards are multiplied by this before learning"""
    move_penalty: float = 0.0
    """per-move penalty of the shaped reward (e.g. 1.5)"""
    num_envs: int = 16
    """boards played side by side (one batched forward pass picks all their moves)"""
    target_update: str = "soft"
    """target network: soft (Polyak, tau), hard (copy every target_period updates), none"""
    tau: float = 0.005
    """soft target update rate"""
    l2: float = 0.0
    """L2 penalty (lambda/2 * |theta|^2)"""
    grad_clip: float = 10.0
    """clip the gradient norm to this (0: no clipping)"""
    n_step: int = 3
    """n-step returns"""
    exploration: str = "linear"
    """constant, linear, exponential, lai_robbins or entropy"""
    eps_decay: float = 50_000
    """env steps of the linear decay, or the exponential decay's time constant"""
    eta: float = 0.8
    """Lai-Robbins eta"""
    nu: float = 0.01
    """Lai-Robbins nu"""
    alpha: float = 1.0
    """entropy strategy alpha"""
    greedy_every: int = 0
    """make every k-th episode fully greedy (preset action-cnn: 10; 0: never)"""
    fit_mode: str = "stream"
    """stream (one update per train_every steps) or episodes (collect whole episodes, then
    fit on the newest plus older transitions for some epochs)"""
    episodes_per_fit: int = 20
    """episodes mode: episodes collected between fits"""
    fit_newest: int = 1_000
    """episodes mode: newest transitions in each fit"""
    fit_older: int = 2_000
    """episodes mode: older transitions sampled into each fit"""
    fit_epochs: int = 100
    """episodes mode: epochs over each fit set (the write-up used 100; 4 learned far faster per
    CPU second here: the labels are refreshed every 48 updates, not every 1,200)"""
    eval_every: int = 100_000
    """env steps between greedy evaluations (0: only at the end)"""
    save_every: int = 100_000
    """env steps between checkpoints"""
    save_replay: bool = False
    """store the replay buffer in checkpoints, so that a resumed run keeps its experience"""
    keep_snapshots: bool = False
    """at each evaluation also write step-<env steps>.pt (no replay), to pick a network later
    on more games than the training's evaluations play; only when the network changed since
    the last snapshot (not during a resumed run's warm-up, which makes no updates)"""
    p4: float = 0.1
    """probability that a spawned tile is a 4"""
    device: str = "cpu"
    """torch device: cpu, cuda, cuda:1, ... (auto: cuda when available)"""
    threads: int = 1
    """torch CPU threads"""

    AT_LEAST = DQNHyperparameters.AT_LEAST | {"l2": 0, "greedy_every": 0, "fit_epochs": 1}
    AT_LEAST |= dict.fromkeys(("n_step", "num_envs", "channels", "hidden", "episodes_per_fit"), 1)

    def __post_init__(self) -> None:
        from boardai.g2048.qnetworks import NET_ALIASES, NETS
        from boardai.learn.schedules import STRATEGIES

        super().__post_init__()
        # old names (checkpoints keep them) read as today's
        self.net = NET_ALIASES.get(self.net, self.net)
        self.fit_mode = FIT_MODE_ALIASES.get(self.fit_mode, self.fit_mode)

        checks = [
            (self.net in NETS, f"net must be one of {', '.join(NETS)}"),
            (self.reward in ("score", "log2", "shaped"), "reward must be score, log2 or shaped"),
            (self.target_update in TARGET_UPDATES, "target_update must be soft, hard or none"),
            (self.exploration in STRATEGIES, f"exploration must be one of {', '.join(STRATEGIES)}"),
            (self.fit_mode in ("stream", "episodes"), "fit_mode must be stream or episodes"),
            (0.0 < self.tau <= 1.0, "tau must be in (0, 1]"),
            (2 <= self.planes <= 18, "planes must be in 2..18"),
            (
                all(w.strip().isdigit() and int(w) > 0 for w in self.fc_layers.split(",")),
                "fc_layers must be positive widths separated by commas",
            ),
            (not self.lookahead_input or self.net == "fc", "lookahead_input needs the fc net"),
            (not self.augment or self.net == "afterstate", "augment needs the afterstate net"),
            (
                self.net != "afterstate" or self.reward in ("score", "log2"),
                "the afterstate net needs reward score or log2",
            ),
            # what the trainer would otherwise refuse with a traceback, or never notice
            (0.0 <= self.p4 <= 1.0, f"p4 must be in [0, 1], got {self.p4}"),
            (self.eps_decay > 0, f"eps_decay must be > 0, got {self.eps_decay}"),
            (
                self.eval_every >= 0 and self.save_every >= 0,
                "eval_every and save_every must be >= 0 (0: only at the end)",
            ),
            (
                min(self.fit_newest, self.fit_older) >= 0 and self.fit_newest + self.fit_older > 0,
                "fit_newest and fit_older must be >= 0, and not both 0",
            ),
            (
                self.fit_mode != "stream" or max(self.warmup, self.batch_size) <= self.replay_size,
                f"warmup ({self.warmup}) and batch_size ({self.batch_size}) must not exceed "
                f"replay_size ({self.replay_size}): the buffer never fills that far, so no "
                "update would ever run",
            ),
            (
                self.fit_mode != "episodes" or self.warmup <= self.replay_size,
                f"warmup ({self.warmup}) must not exceed replay_size ({self.replay_size}): the "
                "buffer never fills that far, so no fit would ever run",
            ),
        ]
        require(checks)
        check_threads(self.threads)
        check_device(self.device, auto=True)

    def net_kwargs(self) -> dict[str, Any]:
        """Keyword arguments of :func:`boardai.g2048.qnetworks.build_net` for this config."""
        if self.net == "action-cnn":
            return {}
        if self.net == "fc":
            return {
                "planes": self.planes,
                "hidden": tuple(int(w) for w in self.fc_layers.split(",")),
                "input_kind": "lookahead2" if self.lookahead_input else "onehot",
            }
        return {"planes": self.planes, "channels": self.channels, "hidden": self.hidden}


#: Presets: the setups of three DQN write-ups boardai grew from, named for what they are
#: (``action-cnn``: a CNN Q(s,a) with the action as an input, fitted on batches of whole
#: episodes; ``lookahead-mlp``: Keras-RL's dense net over the boards two moves ahead;
#: ``shaped-conv``: a convolutional DQN on 12 planes with a shaped reward and entropy
#: exploration); ``dueling`` (a dueling Q net over pair convolutions) and ``strong`` (the
#: defaults: the afterstate Q net), the best found here. (The Keras-RL write-up left its
#: target period, warm-up and memory size unstated; the values here are Keras-RL's Atari
#: example's.)
PRESETS: dict[str, dict[str, Any]] = {
    "action-cnn": {
        "net": "action-cnn",
        "reward": "score",
        "reward_scale": 1.0,
        "gamma": 1.0,
        "lr": 1e-3,
        "loss": "mse",
        "double": False,
        "n_step": 1,
        "target_update": "none",
        "exploration": "constant",
        "eps_start": 0.1,
        "greedy_every": 10,
        "fit_mode": "episodes",
        "replay_size": 50_000,
        "warmup": 5_000,
        "batch_size": 250,
        "episodes_per_fit": 20,
        "fit_newest": 1_000,
        "fit_older": 2_000,
        "fit_epochs": 100,
        "save_replay": True,
        "grad_clip": 0.0,
    },
    "lookahead-mlp": {
        "net": "fc",
        "lookahead_input": True,
        "planes": 16,
        "fc_layers": "1024,512,256",
        "reward": "score",
        "reward_scale": 1.0,
        "gamma": 0.99,
        "lr": 2.5e-4,
        "loss": "huber",
        "double": False,
        "n_step": 1,
        "target_update": "hard",
        "target_period": 10_000,
        "exploration": "constant",
        "eps_start": 0.05,
        "num_envs": 1,
        "train_every": 4,
        "batch_size": 32,
        "replay_size": 100_000,
        "warmup": 5_000,
    },
    "shaped-conv": {
        "net": "conv",
        "planes": 12,
        "channels": 128,
        "hidden": 256,
        "reward": "shaped",
        "gamma": 0.99,
        "lr": 1e-3,
        "batch_size": 128,
        "replay_size": 10_000,
        "warmup": 128,
        "num_envs": 1,
        "train_every": 1,
        "target_update": "soft",
        "tau": 0.001,
        "loss": "huber",
        "l2": 1e-5,
        "double": False,
        "n_step": 1,
        "exploration": "entropy",
        "alpha": 1.0,
    },
    "dueling": {"net": "strong", "eps_start": 1.0, "eps_end": 0.01, "eps_decay": 150_000},
    "strong": {},
}


#: Old names of the presets (the write-ups' numbers), still accepted and never listed.
PRESET_ALIASES = {"seed000": "action-cnn", "seed001": "lookahead-mlp", "seed003": "shaped-conv"}
#: Old names of the fit modes (checkpoints keep them).
FIT_MODE_ALIASES = {"seed000": "episodes"}


def preset_config(name: str, **overrides: Any) -> DQNConfig:
    """The config of preset ``name`` (or its old name) with ``overrides`` applied."""
    return DQNConfig(**{**preset_values(PRESETS, PRESET_ALIASES, name)[1], **overrides})


#: The seed of a run's evaluations: games ``0 .. eval_games-1`` of it, so that ``boardai 2048
#: eval --seed 1000000`` of a saved model plays the games of the run's log.
EVAL_SEED = 10**6


class DQNTrainer(Trainer):
    """Trains a Q network on ``boardai/2048-v0`` and writes logs and checkpoints to ``out``
    (the loop and the Q update: :mod:`boardai.learn.dqn`).

    Args:
        config: the hyperparameters.
        out: run folder: ``checkpoint.pt``, ``best.pt``, ``log.csv``, ``curve.png``.
        tensorboard: folder for TensorBoard logs (None: none).
    """

    unit = "env steps"
    ctrl_c_raises = False  # a Ctrl-C ends the run as a stop does: evaluated and saved

    def __init__(
        self, config: DQNConfig, out: str | Path, tensorboard: str | Path | None = None
    ) -> None:
        import torch

        from boardai.g2048.qnetworks import build_net
        from boardai.g2048.vector_env import Game2048VectorEnv
        from boardai.learn.replay import NStep, ReplayBuffer
        from boardai.learn.schedules import Strategy

        super().__init__(out, config.seed, config.threads)
        self.cfg = cfg = config
        self.out.mkdir(parents=True, exist_ok=True)
        self.device = torch.device(resolve_device(cfg.device))
        self.learner = QLearner(
            build_net(cfg.net, **cfg.net_kwargs()).to(self.device), "adam", cfg.lr,
            loss=cfg.loss, l2=cfg.l2, grad_clip=cfg.grad_clip,
            target_update=cfg.target_update, tau=cfg.tau, period=cfg.target_period,
        )  # fmt: skip
        self.net, self.target, self.opt = self.learner.net, self.learner.target, self.learner.opt
        self.kind = str(self.net.input_kind)
        n_envs = cfg.episodes_per_fit if cfg.fit_mode == "episodes" else cfg.num_envs
        self.env = Game2048VectorEnv(
            n_envs,
            observation="exponents",
            reward=cfg.reward,
            move_penalty=cfg.move_penalty,
            p4=cfg.p4,
        )
        self.replay = ReplayBuffer(
            cfg.replay_size,
            {
                "s": ((2,), np.uint64),
                "a": ((), np.int64),
                "r": ((), np.float32),
                "s2": ((2,), np.uint64),
                "m2": ((4,), np.bool_),
                "disc": ((), np.float32),
            },
        )
        self.nstep = NStep(cfg.n_step, cfg.gamma, n_envs)
        self.strategy = Strategy(
            cfg.exploration, start=cfg.eps_start, end=cfg.eps_end, decay=cfg.eps_decay,
            eta=cfg.eta, nu=cfg.nu, alpha=cfg.alpha,
        )  # fmt: skip
        self.env_steps = 0
        self._snapshot_updates = 0  # updates at the last step-*.pt (keep_snapshots)
        self.episodes = 0
        self.wall = 0.0  # training seconds before this process (resumed runs)
        self.recent_scores: deque[int] = deque(maxlen=100)
        self.last_loss = float("nan")
        self.history: list[dict[str, Any]] = []
        self.log = CsvLog(self.out / "log.csv", append=True)  # a resumed run's rows go on
        self.tb = None
        if tensorboard is not None:
            from torch.utils.tensorboard import SummaryWriter

            self.tb = SummaryWriter(str(tensorboard))
        self._running = False
        self._started = 0  # episodes started (for greedy_every)
        self._greedy = np.zeros(n_envs, bool)

    @property
    def updates(self) -> int:
        """Gradient updates made, a resumed run's earlier ones included."""
        return self.learner.updates

    @updates.setter
    def updates(self, n: int) -> None:
        self.learner.updates = n

    @property
    def done(self) -> int:
        return self.env_steps

    # -- encoding and acting ------------------------------------------------------------------

    def encode(self, boards: np.ndarray) -> Any:
        """The network input of packed boards ``(n, 2)``, as a tensor on the device."""
        return encode_input(boards, self.kind, self.cfg.planes, self.device)

    def forward(self, net: Any, boards: np.ndarray) -> Any:
        """Q values ``(n, 4)`` (a tensor) of packed boards under ``net``."""
        return q_forward(net, boards, self.kind, self.cfg, self.device)

    def q_values(self, boards: np.ndarray, net: Any = None) -> np.ndarray:
        """Q values ``(n, 4)`` of packed boards under ``net`` (the online net by default)."""
        import torch

        with torch.no_grad():
            return self.forward(net or self.net, boards).cpu().numpy()

    # -- data collection ----------------------------------------------------------------------

    def _start_episode_flags(self, idx: np.ndarray) -> None:
        every = self.cfg.greedy_every
        for i in idx:
            self._greedy[i] = every > 0 and self._started % every == 0
            self._started += 1

    def collect(self, vector_steps: int, record: np.ndarray | None = None) -> None:
        """Play ``vector_steps`` steps on every board, storing n-step transitions (only of
        the boards where ``record`` is True, when given)."""
        cfg = self.cfg
        if not self._running:
            _, info = self.env.reset(seed=int(self.rng.integers(2**31)))
            self._masks = info["action_mask"].astype(bool)
            self._pending = np.zeros(self.env.num_envs, bool)
            self._start_episode_flags(np.arange(self.env.num_envs))
            self.nstep.clear()
            self._running = True
        for _ in range(vector_steps):
            boards = self.env.board_states()
            q = self.q_values(boards)
            actions = self.strategy.select(q, self._masks, self.env_steps, self.rng, self._greedy)
            _, rewards, term, trunc, info = self.env.step(actions)
            nxt = self.env.board_states()
            masks = info["action_mask"].astype(bool)
            batch: list[tuple[np.ndarray, int, float, np.ndarray, np.ndarray, float]] = []
            live = ~self._pending if record is None else ~self._pending & record
            for i in np.flatnonzero(live):
                done = bool(term[i] or trunc[i])
                for (s, a), ret, k in self.nstep.push(
                    int(i),
                    (boards[i], actions[i]),
                    rewards[i] * cfg.reward_scale,
                    bool(term[i]),
                    bool(trunc[i]),
                ):
                    batch.append((s, a, ret, nxt[i], masks[i], 0.0 if term[i] else cfg.gamma**k))
                if done:
                    self.episodes += 1
                    self.recent_scores.append(int(info["score"][i]))
                    self._log_scalar("charts/episodic_score", int(info["score"][i]))
            self.env_steps += int(live.sum())
            restarted = np.flatnonzero(self._pending)
            self._start_episode_flags(restarted)
            self._pending = term | trunc
            self._masks = masks
            if batch:
                s, a, r, s2, m2, disc = zip(*batch, strict=True)
                self.replay.add_batch(
                    s=np.array(s), a=np.array(a), r=np.array(r, np.float32), s2=np.array(s2),
                    m2=np.array(m2), disc=np.array(disc, np.float32),
                )  # fmt: skip

    # -- learning -----------------------------------------------------------------------------

    def _targets(self, r: Any, s2: np.ndarray, m2: Any, disc: Any, target: Any = None) -> Any:
        """``r + disc * Q_target(s2, a*)`` with a* the best legal next move (0 when none).

        The target net is ``target``, else the target network (the online one when
        ``target_update`` is ``none``).
        """
        import torch

        with torch.no_grad():
            net = target or self.learner.bootstrap_net()
            q_t = self.forward(net, s2)
            chooser = None
            if self.cfg.double:
                chooser = q_t if net is self.net else self.forward(self.net, s2)
            return r + disc * best_next_value(q_t, m2, chooser)

    def _step(self, s: np.ndarray, a: Any, y: Any) -> float:
        augment = self.rng if self.cfg.augment else None
        q = q_forward_action(self.net, s, a, self.kind, self.cfg, self.device, augment)
        return self.learner.step(q, y)

    def _tensors(self, b: dict[str, np.ndarray]) -> tuple[Any, Any, Any, Any]:
        import torch

        d = self.device
        return (
            torch.from_numpy(b["a"]).to(d),
            torch.from_numpy(b["r"]).to(d),
            torch.from_numpy(b["m2"]).to(d),
            torch.from_numpy(b["disc"]).to(d),
        )

    def update(self) -> float:
        """One gradient step on a uniformly sampled minibatch; returns the loss."""
        b = self.replay.sample(self.cfg.batch_size, self.rng)
        a, r, m2, disc = self._tensors(b)
        loss = self._step(b["s"], a, self._targets(r, b["s2"], m2, disc))
        self.learner.sync_target()
        self.last_loss = loss
        return loss

    def fit_episodes(self) -> float:
        """The episodes mode's fit: label the newest + older transitions with the net as it
        is now, then run ``fit_epochs`` epochs of minibatches over them; returns the mean
        loss."""
        cfg = self.cfg
        b = self.replay.sample_split(cfg.fit_newest, cfg.fit_older, self.rng)
        a, r, m2, disc = self._tensors(b)
        y = self._targets(r, b["s2"], m2, disc, self.net)  # labels fixed before the fit
        n = len(b["a"])
        losses = []
        for _ in range(cfg.fit_epochs):
            order = self.rng.permutation(n)
            for k in range(0, n, cfg.batch_size):
                idx = order[k : k + cfg.batch_size]
                losses.append(self._step(b["s"][idx], a[idx], y[idx]))
        self.last_loss = float(np.mean(losses)) if losses else float("nan")
        return self.last_loss

    def collect_episodes(self) -> None:
        """The episodes mode's collection: ``episodes_per_fit`` whole games (every tenth
        greedy)."""
        self._running = False
        alive = np.ones(self.env.num_envs, bool)
        steps = 0
        while alive.any() and steps < 200_000:  # (a policy that never ends its games)
            self.collect(1, record=alive)
            alive &= ~self._pending
            steps += 1
        self._running = False

    # -- evaluation ---------------------------------------------------------------------------

    def evaluate(self, games: int, seed: int = EVAL_SEED) -> dict[str, Any]:
        """Greedy play of games ``0 .. games-1`` of ``seed``: mean score, max tiles, 2048 reach
        rate. One board a game, board i playing game i of the seed (:mod:`boardai.rng`), so
        ``boardai 2048 eval --agent dqn:model=... --seed`` ``seed`` plays the same games."""
        from boardai.g2048 import kernels as K
        from boardai.g2048.stats import standard_error
        from boardai.g2048.vector_env import Game2048VectorEnv

        env = Game2048VectorEnv(games, observation="exponents", p4=self.cfg.p4, max_steps=None)
        scores = [0] * games
        tiles = [0] * games
        _, info = env.reset(seed=seed)
        active = np.ones(games, bool)
        while active.any():
            boards = env.board_states()
            q = self.q_values(boards[active])
            acts = np.zeros(games, np.int64)
            mask = info["action_mask"][active].astype(bool)
            acts[active] = np.where(mask, q, -np.inf).argmax(1)
            _, _, term, trunc, info = env.step(acts)
            states = env.board_states()
            for i in np.flatnonzero(active & (term | trunc)):
                scores[i] = int(info["score"][i])
                tiles[i] = 1 << int(K.max_exponent(states[i, 0], states[i, 1]))
                active[i] = False
        return {
            "games": len(scores),
            "mean": float(np.mean(scores)),
            "sem": standard_error(scores) if len(scores) > 1 else 0.0,
            "median": float(np.median(scores)),
            "max": int(np.max(scores)),
            "reach_2048": float(np.mean(np.array(tiles) >= 2048)),
            "reach_1024": float(np.mean(np.array(tiles) >= 1024)),
            "max_tile": int(np.max(tiles)),
            "scores": scores,
            "tiles": tiles,
        }

    # -- checkpoints ---------------------------------------------------------------------------

    def state(self, with_replay: bool) -> dict[str, Any]:
        """Everything a checkpoint holds."""
        return {
            "format": CHECKPOINT_FORMAT,
            "version": CHECKPOINT_VERSION,
            "config": dataclasses.asdict(self.cfg),
            "net_name": self.cfg.net,
            "net_kwargs": self.cfg.net_kwargs(),
            "input_kind": self.kind,
            "planes": self.cfg.planes,
            "net": self.net.state_dict(),
            "target": self.target.state_dict(),
            "optimizer": self.opt.state_dict(),
            "counters": {
                "env_steps": self.env_steps,
                "updates": self.updates,
                "episodes": self.episodes,
                "wall": self.wall + self._elapsed(),
                "best_eval": self.best_score,
            },
            "strategy_counts": self.strategy.counts.copy(),
            "rng": self.rng.bit_generator.state,
            "replay": self.replay.state_dict() if with_replay else None,
            "history": self.history,
        }

    def save(self, path: str | Path, with_replay: bool | None = None) -> None:
        """Write a checkpoint atomically (replay buffer included if ``save_replay``), as
        plain data: numpy arrays become tensors (see :mod:`boardai.learn.torch_file`)."""
        with_replay = self.cfg.save_replay if with_replay is None else with_replay
        write_checkpoint(path, self.state(with_replay))

    def load(self, path: str | Path) -> None:
        """Continue from a checkpoint written by :meth:`save` (same network settings, and
        the same ``replay_size`` if it holds a replay buffer: else ModelFileError)."""
        from boardai.errors import ModelFileError

        state = load_checkpoint(path)
        held = held_replay_size(state, self.replay.capacity)
        if held is not None:
            raise ModelFileError(
                path,
                f"its replay buffer holds {held} transitions, this run's "
                f"replay_size is {self.replay.capacity}",
            )
        try:
            self.net.load_state_dict(state["net"])
            self.target.load_state_dict(state["target"])
            self.opt.load_state_dict(state["optimizer"])
        except (KeyError, RuntimeError, ValueError) as e:
            why = str(e).splitlines()[0]
            raise ModelFileError(path, f"its network does not match this run's ({why})") from None
        self.learner.set_lr(self.cfg.lr)  # the config's rate, so --lr applies on --resume
        c = state["counters"]
        self.env_steps, self.updates, self.episodes = c["env_steps"], c["updates"], c["episodes"]
        self.wall, self.best_score = c["wall"], c["best_eval"]
        self.strategy.counts = np.asarray(state["strategy_counts"]).copy()
        self.rng.bit_generator.state = state["rng"]
        self.history = list(state.get("history") or [])
        if state.get("replay") is not None:
            replay = dict(state["replay"])
            replay["fields"] = {k: np.asarray(v) for k, v in replay["fields"].items()}
            self.replay.load_state_dict(replay)
        self._running = False

    # -- the loop -----------------------------------------------------------------------------

    def _log_scalar(self, tag: str, value: float) -> None:
        if self.tb is not None:
            self.tb.add_scalar(tag, value, self.env_steps)

    def _elapsed(self) -> float:
        """Seconds of this call's training so far."""
        return time.perf_counter() - self.started if self.started is not None else 0.0

    def _log_row(self, evaluation: dict[str, Any] | None) -> dict[str, Any]:
        elapsed = self._elapsed()
        steps0, updates0 = self._since
        row = {
            "env_steps": self.env_steps,
            "updates": self.updates,
            "episodes": self.episodes,
            "wall_s": round(self.wall + elapsed, 1),
            "env_steps_per_s": round((self.env_steps - steps0) / max(elapsed, 1e-9), 1),
            "updates_per_s": round((self.updates - updates0) / max(elapsed, 1e-9), 2),
            "epsilon": round(self.strategy.epsilon(self.env_steps), 4),
            "loss": round(self.last_loss, 5),
            "train_score_avg100": round(float(np.mean(self.recent_scores)), 1)
            if self.recent_scores
            else "",
            "eval_mean": round(evaluation["mean"], 1) if evaluation else "",
            "eval_max_tile": evaluation["max_tile"] if evaluation else "",
            "eval_reach_2048": evaluation["reach_2048"] if evaluation else "",
        }
        self.history.append(row)
        self.log.write(row)
        for k in ("loss", "epsilon", "env_steps_per_s", "updates_per_s"):
            self._log_scalar(f"charts/{k}" if k != "loss" else "losses/td", float(row[k]))
        if evaluation:
            self._log_scalar("eval/mean_score", evaluation["mean"])
            self._log_scalar("eval/reach_2048", evaluation["reach_2048"])
        return row

    def plot(self) -> Path | None:
        """Write ``curve.png``: training and evaluation scores against env steps."""
        import importlib.util

        if importlib.util.find_spec("matplotlib") is None:  # the plot extra: no curve without it
            return None
        from boardai.plotting import figure, save_png

        rows = self.history
        fig = figure(7, 4)
        ax = fig.subplots()
        tr = [
            (r["env_steps"], r["train_score_avg100"]) for r in rows if r["train_score_avg100"] != ""
        ]
        ev = [(r["env_steps"], r["eval_mean"]) for r in rows if r["eval_mean"] != ""]
        if tr:
            ax.plot(*zip(*tr, strict=True), label="training (mean of last 100 games)")
        if ev:
            ax.plot(*zip(*ev, strict=True), "o-", label="greedy evaluation (mean)")
        ax.set_xlabel("env steps")
        ax.set_ylabel("score")
        ax.set_title(f"DQN on 2048 ({self.cfg.net} net)")
        ax.grid(alpha=0.3)
        ax.legend()
        path = self.out / "curve.png"
        save_png(fig, path)
        return path

    def begin(self) -> None:
        cfg = self.cfg
        self._since = (self.env_steps, self.updates)  # for this call's rates
        self._snapshot_updates = self.updates  # the network a resumed run starts from is saved
        self._evals = Cadence(cfg.eval_every, self.env_steps)
        self._saves = Cadence(cfg.save_every, self.env_steps)
        self._next_log = self.env_steps + 5_000

    def play(self) -> Iterator[None]:
        """One step of the loop: an env step on every board and the updates it pays for
        (episodes mode: a set of whole episodes and their fit)."""
        cfg = self.cfg
        before = self.env_steps
        if cfg.fit_mode == "episodes":
            self.collect_episodes()
            if len(self.replay) >= cfg.warmup:
                self.fit_episodes()
        else:
            self.collect(1)
            if len(self.replay) >= max(cfg.warmup, cfg.batch_size):
                for _ in range(self.env_steps // cfg.train_every - before // cfg.train_every):
                    self.update()
        yield

    def report(self, total: int) -> tuple[dict[str, Any] | None, str | None]:
        """An evaluation every ``eval_every`` env steps, else a log row every 5,000; a
        checkpoint every ``save_every``."""
        row, saved = None, None
        if self._evals.due(self.env_steps):
            self._evaluate_and_log()
            row = self.history[-1]
        elif self.env_steps >= self._next_log:
            row = self._log_row(None)
            self._next_log = self.env_steps + 5_000
        if self._saves.due(self.env_steps):
            self.save_run()
            saved = str(self.out / "checkpoint.pt")
        return row, saved

    def save_run(self) -> None:
        self.save(self.out / "checkpoint.pt")

    def finish(self, total: int, interrupted: bool) -> dict[str, Any]:
        """A last evaluation and checkpoint, the curve; the summary."""
        final = self._evaluate_and_log()
        self.save_run()
        self.plot()
        if self.tb is not None:
            self.tb.close()
        elapsed = self._elapsed()
        steps0, updates0 = self._since
        return {
            "env_steps": self.env_steps,
            "updates": self.updates,
            "episodes": self.episodes,
            "wall_s": self.wall + elapsed,
            "env_steps_per_s": (self.env_steps - steps0) / max(elapsed, 1e-9),
            "updates_per_s": (self.updates - updates0) / max(elapsed, 1e-9),
            "eval": {k: v for k, v in final.items() if k not in ("scores", "tiles")},
            "interrupted": interrupted,
        }

    def _evaluate_and_log(self) -> dict[str, Any]:
        evaluation = self.evaluate(self.cfg.eval_games)
        self._log_row(evaluation)
        if self.cfg.keep_snapshots and self.updates != self._snapshot_updates:
            self.save(self.out / f"step-{self.env_steps:08d}.pt", with_replay=False)
            self._snapshot_updates = self.updates
        self.keep_if_best(
            evaluation["mean"], lambda: self.save(self.out / "best.pt", with_replay=False)
        )
        self.plot()
        return evaluation


def q_forward_action(
    net: Any,
    boards: np.ndarray,
    a: Any,
    kind: str,
    cfg: DQNConfig,
    device: Any,
    augment: np.random.Generator | None = None,
) -> Any:
    """Q of the action ``a`` (a tensor ``(n,)``) on each packed board: ``q_forward(...)
    .gather(1, a)``, through the net's ``forward_action`` where it has one (which runs the
    expensive layers on n rows, not 4n). With ``augment`` (afterstate nets), the net sees
    each afterstate in a random one of its 8 symmetric images, drawn from that generator."""
    import torch

    from boardai.g2048.augment import random_symmetry

    forward_action = getattr(net, "forward_action", None)
    if forward_action is None:
        return q_forward(net, boards, kind, cfg, device).gather(1, a.unsqueeze(1)).squeeze(1)
    if kind != "afterstates":
        return forward_action(encode_input(boards, kind, cfg.planes, device), a).float()
    from boardai.g2048.observations import encode_afterstates

    x, r = encode_afterstates(boards, cfg.planes, cfg.reward)
    planes = torch.from_numpy(x).to(device)
    if augment is not None:
        planes = random_symmetry(planes, augment)
    value = forward_action(planes, a).float()
    reward = torch.from_numpy(r).to(device).gather(1, a.unsqueeze(1)).squeeze(1)
    return value + cfg.reward_scale * reward
