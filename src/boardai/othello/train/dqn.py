"""Seed 002's self-play DQN for Othello, in PyTorch (imported only here).

Both colours are played by one network that sees the board from the mover's side, so "both
agents learn" from every game. As in seed 002, every legal move of a turn can be stored as a
transition (``all_moves``), replay memory feeds minibatches, and a target network gives the
bootstrap values. Unlike seed 002 (which bootstrapped from the opponent's position as if it
were its own), the target is the negamax one: the next position belongs to the opponent, so

    y = r                                 if the move ended the game (+1 win, 0 draw, -1 loss)
    y = -gamma * max_a' Q_target(s', a')  otherwise (a' over the opponent's legal actions)

(seed 002 gave 1 for a win and 0 for anything else; the ±1 form is the zero-sum choice).
For a move actually played, ``mc_mix`` blends in the game's final result ``z`` (from the
mover's view): ``y = (1 - mc_mix) * y + mc_mix * z``. Bootstrapped values are clipped to
[-1, 1]; with ``double`` the online network picks a' and the target network values it.

Self-play runs ``parallel`` games at once: one compiled call expands every child of every
board (:mod:`boardai.othello.train.dqn_data`) and one forward pass gives all their Q values.
The replay keeps bitboards; each sampled transition can be seen in a random one of the 8
board symmetries (``augment``), so the network learns every image of every position.
The loop, the gradient step and the target network are :mod:`boardai.learn.dqn`'s, as for
2048's DQN; :class:`DQNTrainer` adds the self-play, these targets and the matches.

Presets: ``fc64`` (the write-up's network: one hidden layer of 64 units on the 8x8 board,
RMSProp, every legal move stored, one game at a time) and ``strong``, built for one CPU
core: an MLP (2 x 512) over the 3 input planes, Adam with a decaying learning rate, every
legal move stored, symmetries, double DQN, Huber loss, final results mixed into the played
moves' targets, 64 games at once, decaying epsilon; pure self-play (``sparring`` can put
``wpc`` on one side of a share of the games, which did not help).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from boardai.learn.dqn import (
    Cadence,
    DQNHyperparameters,
    QLearner,
    best_next_value,
    preset_values,
    require,
    write_checkpoint,
)
from boardai.learn.dqn import DQNTrainer as Trainer
from boardai.learn.run import ProgressHook, StopCheck
from boardai.learn.schedules import anneal
from boardai.othello.evaluation import WPC, WPC_WEIGHTS, best_one_ply
from boardai.othello.kernels import START_BLACK, START_WHITE
from boardai.othello.qnet import FORMAT, build_net, load_checkpoint
from boardai.othello.train.dqn_data import Replay, expand_batch, planes, transform


@dataclass
class DQNConfig(DQNHyperparameters):
    """Options of ``boardai othello train dqn``: :class:`DQNHyperparameters` (defaults preset
    fc64's) and Othello's own (see :data:`PRESETS`; each field's docstring is its ``--help``)."""

    preset: str = field(default="fc64", metadata={"choices": ("fc64", "strong")})
    """The preset these values started from."""
    net: str = field(default="fc", metadata={"choices": ("fc", "mlp", "conv")})
    """fc (one hidden layer on the board, as in preset fc64), mlp (layers hidden layers on
    the three input planes) or conv (a residual CNN)."""
    hidden: int = 64
    """Units of each hidden layer (fc, mlp) or channels (conv)."""
    layers: int = 1
    """Hidden layers (mlp)."""
    blocks: int = 0
    """Residual blocks (conv)."""
    # the shared hyperparameters' defaults here (DQNHyperparameters documents them)
    lr: float = 1e-3
    batch_size: int = 32
    replay_size: int = 10_000
    warmup: int = 500
    train_every: int = 1
    target_period: int = 500
    loss: str = "mse"
    double: bool = False
    eps_end: float = 0.1
    lr_end: float = 0.0
    """Learning rate at the last game (linear decay); 0 keeps lr throughout."""
    optimizer: str = field(default="rmsprop", metadata={"choices": ("rmsprop", "adam")})
    """rmsprop or adam."""
    eps_decay_games: int = 1
    """Games over which epsilon decays (linearly, from eps-start to eps-end)."""
    all_moves: bool = True
    """Store every legal move of each turn, not only the one played."""
    mc_mix: float = 0.0
    """Weight of the game's final result in the target of a move actually played (0: pure
    bootstrap, 1: Monte Carlo)."""
    parallel: int = 1
    """Self-play games played at once (their Q values in one forward pass)."""
    sparring: float = 0.0
    """Share of self-play games in which one side (either colour) is wpc."""
    games: int = 2000
    """Self-play games in all."""
    eval_every: int = 500
    """Games between matches against wpc and random (and checkpoints)."""

    AT_LEAST = DQNHyperparameters.AT_LEAST | {"blocks": 0, "lr_end": 0, "eval_every": 1}
    AT_LEAST |= dict.fromkeys(("hidden", "layers", "parallel", "eps_decay_games", "games"), 1)

    def __post_init__(self) -> None:
        super().__post_init__()
        self.preset = PRESET_ALIASES.get(self.preset, self.preset)  # checkpoints keep old names
        checks = [
            (self.preset in PRESETS, f"preset must be one of {', '.join(PRESETS)}"),
            (self.net in ("fc", "mlp", "conv"), "net must be fc, mlp or conv"),
            (self.optimizer in ("rmsprop", "adam"), "optimizer must be rmsprop or adam"),
            (
                0 <= self.mc_mix <= 1 and 0 <= self.sparring <= 1,
                "mc_mix and sparring must be in [0, 1]",
            ),
        ]
        require(checks)


PRESETS: dict[str, dict[str, Any]] = {
    "fc64": {},
    "strong": {
        "net": "mlp",
        "hidden": 512,
        "layers": 2,
        "lr": 1e-3,
        "lr_end": 1e-4,
        "optimizer": "adam",
        "gamma": 1.0,
        "replay_size": 400_000,
        "batch_size": 512,
        "train_every": 16,
        "warmup": 20_000,
        "eps_start": 0.3,
        "eps_end": 0.05,
        "eps_decay_games": 8_000,
        "target_period": 100,
        "all_moves": True,
        "double": True,
        "loss": "huber",
        "augment": True,
        "mc_mix": 0.5,
        "parallel": 64,
        "sparring": 0.0,  # pure self-play: 0.716 vs wpc (0.25 of games vs wpc gave 0.710)
        "games": 7_000,
        "eval_every": 1000,
        "eval_games": 400,
    },
}


#: Old names of the presets (the write-up's number), still accepted and never listed.
PRESET_ALIASES = {"seed002": "fc64"}
#: Older names of options (checkpoints and command lines keep them) -> today's.
OLDER_NAMES = {
    "batch": "batch_size",
    "replay": "replay_size",
    "start": "warmup",
    "epsilon_start": "eps_start",
    "epsilon_end": "eps_end",
    "epsilon_decay": "eps_decay_games",
    "target_every": "target_period",
    "symmetries": "augment",
    "huber": "loss",  # true or false: huber or mse
}


def current_names(values: dict[str, Any]) -> dict[str, Any]:
    """Options, or a checkpoint's config, with :data:`OLDER_NAMES` as today's (None: left out).

    >>> current_names({"batch": 8, "huber": True, "lr": 0.1})
    {'batch_size': 8, 'loss': 'huber', 'lr': 0.1}
    """
    new = {OLDER_NAMES.get(k, k): v for k, v in values.items() if v is not None}
    if isinstance(new.get("loss"), bool):
        new["loss"] = "huber" if new["loss"] else "mse"
    return new


def preset_config(name: str, **overrides: Any) -> DQNConfig:
    """The config of preset ``name`` (or its old name) with ``overrides`` (None values are
    ignored)."""
    name, values = preset_values(PRESETS, PRESET_ALIASES, name)
    values["preset"] = name
    values.update(current_names(overrides))
    return DQNConfig(**values)


def resumed_config(path: str | Path, preset: str | None = None, **overrides: Any) -> DQNConfig:
    """The config of the run saved in checkpoint ``path`` (its preset and every setting it
    saved) with ``overrides`` over it (None values are ignored).

    Raises:
        ValueError: ``preset`` is not the run's, or the checkpoint is damaged.
    """
    run = current_names(load_checkpoint(path)[1])
    saved = {f.name: run[f.name] for f in fields(DQNConfig) if f.name in run}
    own = str(saved.pop("preset", preset or "fc64"))
    own = PRESET_ALIASES.get(own, own)
    if preset is not None and PRESET_ALIASES.get(preset, preset) != own:
        raise ValueError(
            f"preset {preset}: the run in {path} is preset {own} (leave the preset out to go "
            "on with it)"
        )
    return preset_config(own, **{**saved, **current_names(overrides)})


class SelfPlay:
    """``config.parallel`` self-play games advanced together, one ply each per :meth:`step`.

    Every ply stores its transitions (every legal move's, or the played one's) in ``replay``;
    when a game ends, its played moves get their final results (for ``mc_mix``).
    """

    def __init__(self, config: DQNConfig, replay: Replay, rng: np.random.Generator) -> None:
        self.config, self.replay, self.rng = config, replay, rng
        k = config.parallel
        self.P = np.full(k, START_BLACK, np.uint64)
        self.O = np.full(k, START_WHITE, np.uint64)
        self.ply = np.zeros(k, np.int64)
        self.wpc_side = np.full(k, -1, np.int64)  # ply parity on which wpc moves, -1: none
        self.played: list[list[int]] = [[] for _ in range(k)]
        self.wpc_state = np.uint64(config.seed + 1)
        for i in range(k):
            self._reset(i)

    def _reset(self, i: int) -> None:
        self.P[i], self.O[i], self.ply[i] = START_BLACK, START_WHITE, 0
        self.played[i] = []
        sparring = self.rng.random() < self.config.sparring
        self.wpc_side[i] = int(self.rng.integers(2)) if sparring else -1

    def step(self, q_fn: Callable[[np.ndarray], np.ndarray], eps: float) -> int:
        """Play one ply in every game (``q_fn`` maps planes to Q values); returns the number
        of games that ended (and restarted)."""
        kids = expand_batch(self.P, self.O)
        k, start, count = len(self.P), kids.start[:-1], np.diff(kids.start)
        q = q_fn(planes(self.P, self.O, kids.legal))
        qa = q[kids.owner, kids.action]
        best = np.maximum.reduceat(qa, start)
        first = np.flatnonzero(qa >= best[kids.owner])
        greedy = first[np.unique(kids.owner[first], return_index=True)[1]]
        randoms = start + (self.rng.random(k) * count).astype(np.int64)
        chosen = np.where(self.rng.random(k) < eps, randoms, greedy)
        for w in np.flatnonzero((self.wpc_side == self.ply % 2) & (self.rng.random(k) >= eps)):
            self.wpc_state, a = best_one_ply(
                self.P[w], self.O[w], WPC, WPC_WEIGHTS, np.uint64(self.wpc_state)
            )
            seg = kids.action[start[w] : start[w] + count[w]]
            chosen[w] = start[w] + int(np.searchsorted(seg, a))
        rows = np.arange(len(kids.owner)) if self.config.all_moves else chosen
        o = kids.owner[rows]
        boards = np.stack(
            [self.P[o], self.O[o], kids.legal[o], kids.P[rows], kids.O[rows], kids.L[rows]], 1
        )
        serial = self.replay.add(boards, kids.action[rows], kids.reward[rows], kids.done[rows])
        played = serial[chosen] if self.config.all_moves else serial
        ended = 0
        for i in range(k):
            self.played[i].append(int(played[i]))
            c = chosen[i]
            self.P[i], self.O[i] = kids.P[c], kids.O[c]
            self.ply[i] += 1
            if kids.done[c]:
                # the last mover's result, sign flipped for each ply further back
                n = len(self.played[i])
                ret = kids.reward[c] * (-1.0) ** np.arange(n - 1, -1, -1)
                self.replay.set_returns(np.array(self.played[i]), ret.astype(np.float32))
                self._reset(i)
                ended += 1
        return ended


class DQNTrainer(Trainer):
    """Self-play DQN training on :mod:`boardai.learn.dqn`'s loop: checkpoints and evaluations
    every ``eval_every`` games, written to the file ``out``; the checkpoint with the best score
    against ``wpc`` so far is also kept, beside ``out`` as ``NAME.best.pt``.

    Args:
        resume: a checkpoint this trainer saved, to go on from (its network, optimizer,
            games and evaluations; ``config`` is the run's from now on).
    """

    unit = "games"

    def __init__(
        self, config: DQNConfig, out: str | Path, resume: str | Path | None = None
    ) -> None:
        super().__init__(out, config.seed, threads=1)
        self.cfg = cfg = config
        self.learner = QLearner(
            build_net(cfg), cfg.optimizer, cfg.lr, loss=cfg.loss, period=cfg.target_period
        )
        self.net, self.target = self.learner.net, self.learner.target
        self.games_done = 0
        self.plies = 0
        self.owed = 0  # plies not yet paid for with a gradient step
        self.history: list[dict[str, Any]] = []
        self.seconds0 = self.cpu0 = 0.0  # a resumed run's time before this process
        if resume is not None:
            self.load(resume)
        self.best_score = max((e["score_vs_wpc"] for e in self.history), default=-1.0)
        self.best_path = self.out.with_suffix(".best.pt")
        self.replay = Replay(config.replay_size)
        self.games = SelfPlay(config, self.replay, self.rng)

    @property
    def done(self) -> int:
        return self.games_done

    def load(self, path: str | Path) -> None:
        """Go on from a checkpoint :meth:`save` wrote: its network, optimizer and counters;
        the self-play rng is the seed's for the games done."""
        from boardai.learn import torch_file

        old, _, saved = load_checkpoint(path)
        self.net.load_state_dict(old.state_dict())
        self.learner.copy_target()
        self.games_done = int(saved.get("games", 0))
        self.learner.updates = int(saved.get("updates", 0))
        self.history = list(saved.get("evals", []))
        self.rng = np.random.default_rng([self.cfg.seed, self.games_done])
        state = torch_file.load(path, path).get("opt")
        if state is not None:
            self.learner.opt.load_state_dict(state)
        if self.games_done:
            self.seconds0 = float(saved.get("seconds", 0.0))
            self.cpu0 = float(saved.get("cpu_seconds", 0.0))

    def meta(self) -> dict[str, Any]:
        """The counters a checkpoint keeps."""
        since = 0.0 if self.started is None else time.perf_counter() - self.started
        cpu = 0.0 if self.started is None else time.process_time() - self._cpu_start
        return {
            "games": self.games_done,
            "updates": self.learner.updates,
            "plies": self.plies,
            "transitions": self.replay.added,
            "evals": self.history,
            "seconds": self.seconds0 + since,
            "cpu_seconds": self.cpu0 + cpu,
        }

    def save(self, path: str | Path) -> None:
        """Write the network, its config, :meth:`meta` and the optimizer state (for resuming)
        atomically."""
        write_checkpoint(
            path,
            {
                "format": FORMAT,
                "config": asdict(self.cfg),
                "state": self.net.state_dict(),
                "meta": self.meta(),
                "opt": self.learner.opt.state_dict(),
            },
        )

    def save_run(self) -> None:
        self.save(self.out)

    def q_values(self, x: np.ndarray) -> np.ndarray:
        """Q values of board planes under the online network."""
        import torch

        with torch.no_grad():
            return self.net(torch.from_numpy(x).view(-1, 3, 8, 8)).numpy()

    def update(self) -> None:
        """One gradient step on a minibatch: negamax targets (see the module's docstring)."""
        import torch

        cfg, rng = self.cfg, self.rng
        sample = self.replay.sample(cfg.batch_size, rng)
        b = sample["boards"]
        obs, nxt = planes(b[:, 0], b[:, 1], b[:, 2]), planes(b[:, 3], b[:, 4], b[:, 5])
        action, done = sample["action"], sample["done"]
        if cfg.augment:
            k = rng.integers(8, size=len(action))
            obs, action = transform(obs, action, k)
            nxt, _ = transform(nxt, action, k)
        mask = np.concatenate([nxt[:, 2] > 0, ((b[:, 5] == 0) & ~done)[:, None]], 1)
        obs_t = torch.from_numpy(obs).view(-1, 3, 8, 8)
        nxt_t = torch.from_numpy(nxt).view(-1, 3, 8, 8)
        with torch.no_grad():
            chooser = self.net(nxt_t) if cfg.double else None
            best = best_next_value(self.target(nxt_t), torch.from_numpy(mask), chooser)
            boot = (-cfg.gamma * best).clamp(-1.0, 1.0)
            y = torch.where(torch.from_numpy(done), torch.from_numpy(sample["reward"]), boot)
            if cfg.mc_mix > 0:
                mixed = (1 - cfg.mc_mix) * y + cfg.mc_mix * torch.from_numpy(sample["ret"])
                y = torch.where(torch.from_numpy(sample["has_ret"]), mixed, y)
        q = self.net(obs_t).gather(1, torch.from_numpy(action).unsqueeze(1)).squeeze(1)
        self.learner.step(q, y)
        self.learner.sync_target()

    def begin(self) -> None:
        self._cpu_start = time.process_time()
        self._evals = Cadence(self.cfg.eval_every, self.games_done)

    def play(self) -> Iterator[None]:
        """One ply of every game and the gradient steps it pays for; yields once for each
        game that ended."""
        cfg = self.cfg
        eps = anneal(cfg.eps_start, cfg.eps_end, self.games_done / cfg.eps_decay_games)
        if cfg.lr_end > 0:
            self.learner.set_lr(anneal(cfg.lr, cfg.lr_end, self.games_done / cfg.games))
        ended = self.games.step(self.q_values, eps)
        self.plies += cfg.parallel
        self.owed += cfg.parallel
        if len(self.replay) >= max(cfg.warmup, cfg.batch_size):
            while self.owed >= cfg.train_every:
                self.update()
                self.owed -= cfg.train_every
        else:
            self.owed = 0
        for _ in range(ended):
            self.games_done += 1
            yield

    def report(self, total: int) -> tuple[dict[str, Any] | None, str | None]:
        """Every ``eval_every`` games and at the last: matches against wpc and random, then
        a checkpoint (and the best one)."""
        if not (self._evals.due(self.games_done) or self.games_done == total):
            return None, None
        ev = self.evaluate()
        self.history.append(ev)
        self.save_run()
        self.keep_if_best(ev["score_vs_wpc"], lambda: self.save(self.best_path))
        return ev, str(self.out)

    def evaluate(self) -> dict[str, Any]:
        """Matches of the network as saved now against wpc (epsilon 0.1) and random, seeded
        by the games done."""
        from boardai.arena.match import play_match

        self.save_run()
        spec, games, seed = f"dqn:model={self.out}", self.cfg.eval_games, self.games_done
        vs_wpc = play_match(spec, "wpc", games, epsilon=0.1, seed=seed)
        vs_random = play_match(spec, "random", games, seed=seed)
        return {
            "games": self.games_done,
            "score_vs_wpc": vs_wpc.score,
            "se_vs_wpc": vs_wpc.score_se,
            "win_rate_vs_random": vs_random.wins / vs_random.games,
            "score_vs_random": vs_random.score,
            "eval_games": games,
            "updates": self.learner.updates,
            "seconds": self.meta()["seconds"],
        }

    def finish(self, total: int, interrupted: bool) -> dict[str, Any]:
        if not interrupted:  # (a stopped run was saved as it stopped)
            self.save_run()
        return self.meta()


def train(
    config: DQNConfig,
    out: str | Path,
    *,
    resume: str | Path | None = None,
    on_progress: ProgressHook | None = None,
    should_stop: StopCheck | None = None,
) -> dict[str, Any]:
    """Self-play DQN training (:class:`DQNTrainer`) to ``config.games`` games, in the shape of
    :mod:`boardai.learn.run`: ``on_progress`` gets a ``step`` event after every game that ends
    (``stats``: the evaluation, where one was played); ``should_stop`` is asked before every
    ply of the games (True saves ``out`` and ends the run); Ctrl-C saves ``out`` and goes on
    up. Returns the checkpoint's metadata with ``unit`` (games), ``done``, ``total``, ``out``
    and ``interrupted``."""
    trainer = DQNTrainer(config, out, resume=resume)
    return trainer.train(config.games, on_progress=on_progress, should_stop=should_stop)
