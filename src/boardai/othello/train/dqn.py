"""Seed 002's self-play DQN for Othello, in PyTorch (imported only here).

Both colours are played by one network that sees the board from the mover's side, so "both
agents learn" from every game. As in seed 002, every legal move of a turn can be stored as a
transition (``all_moves``), replay memory feeds minibatches, and a target network gives the
bootstrap values. Unlike seed 002 (which bootstrapped from the opponent's position as if it
were its own), the target is the negamax one: the next position belongs to the opponent, so

    y = r                                 if the move ended the game (+1 win, 0 draw, -1 loss)
    y = -gamma * max_a' Q_target(s', a')  otherwise (a' over the opponent's legal actions)

(seed 002 gave 1 for a win and 0 for anything else; the ±1 form is the zero-sum choice).

Presets: ``seed002`` (seed 002's network: one hidden layer of 64 units on the 8x8 board,
RMSProp, every legal move stored) and ``strong`` (a small residual CNN over 3 planes, Adam,
double DQN, Huber loss, decaying epsilon).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np

from boardai.atomic import atomic_write
from boardai.errors import ModelFileError
from boardai.othello.board import Board
from boardai.othello.env import observe

FORMAT = "boardai-othello-dqn"


@dataclass
class DQNConfig:
    """Options of ``boardai train othello-dqn`` (see :data:`PRESETS`).

    Attributes:
        preset: the preset these values started from.
        net: ``fc`` (seed 002) or ``conv``.
        hidden: units of the hidden layer (fc) or channels (conv).
        blocks: residual blocks (conv).
        lr: learning rate.
        optimizer: ``rmsprop`` or ``adam``.
        gamma: discount of the bootstrap value.
        replay: transitions kept in replay memory.
        batch: minibatch size.
        train_every: plies between gradient steps.
        start: transitions stored before learning starts.
        epsilon_start: exploration at the start (decays linearly to epsilon_end).
        epsilon_end: exploration after ``epsilon_decay`` games.
        epsilon_decay: games over which epsilon decays.
        target_every: gradient steps between target network copies.
        all_moves: store every legal move of each turn (seed 002), not only the one played.
        double: double DQN targets.
        huber: Huber loss instead of squared error.
        games: self-play games in all.
        seed: seeds torch and the self-play rng.
        eval_every: games between matches against ``wpc`` and ``random`` (and checkpoints).
        eval_games: games per evaluation match.
    """

    preset: str = "seed002"
    net: str = "fc"
    hidden: int = 64
    blocks: int = 0
    lr: float = 1e-3
    optimizer: str = "rmsprop"
    gamma: float = 0.99
    replay: int = 10_000
    batch: int = 32
    train_every: int = 1
    start: int = 500
    epsilon_start: float = 0.1
    epsilon_end: float = 0.1
    epsilon_decay: int = 1
    target_every: int = 500
    all_moves: bool = True
    double: bool = False
    huber: bool = False
    games: int = 2000
    seed: int = 0
    eval_every: int = 500
    eval_games: int = 100


PRESETS: dict[str, dict[str, Any]] = {
    "seed002": {},
    "strong": {
        "net": "conv",
        "hidden": 64,
        "blocks": 4,
        "lr": 3e-4,
        "optimizer": "adam",
        "gamma": 1.0,
        "replay": 200_000,
        "batch": 256,
        "train_every": 4,
        "start": 5000,
        "epsilon_start": 0.5,
        "epsilon_end": 0.05,
        "epsilon_decay": 20_000,
        "target_every": 2000,
        "all_moves": False,
        "double": True,
        "huber": True,
        "games": 50_000,
        "eval_every": 2000,
    },
}


def preset_config(name: str, **overrides: Any) -> DQNConfig:
    """The config of preset ``name`` with ``overrides`` (None values are ignored)."""
    if name not in PRESETS:
        raise ValueError(f"unknown DQN preset {name!r} (presets: {', '.join(PRESETS)})")
    values = {**PRESETS[name], "preset": name}
    values.update({k: v for k, v in overrides.items() if v is not None})
    return DQNConfig(**values)


def build_net(config: DQNConfig) -> Any:
    """The Q network: board planes (3, 8, 8) -> 65 action values."""
    import torch
    from torch import nn

    if config.net == "fc":
        # seed 002: the board (+1 own, -1 opponent) flattened, one ReLU layer, 65 outputs.
        class FC(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.body = nn.Sequential(
                    nn.Linear(64, config.hidden), nn.ReLU(), nn.Linear(config.hidden, 65)
                )

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                board = (x[:, 0] - x[:, 1]).flatten(1)
                return self.body(board)

        return FC()

    class Block(nn.Module):
        def __init__(self, c: int) -> None:
            super().__init__()
            self.a = nn.Conv2d(c, c, 3, padding=1)
            self.b = nn.Conv2d(c, c, 3, padding=1)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return torch.relu(x + self.b(torch.relu(self.a(x))))

    class Conv(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            c = config.hidden
            self.stem = nn.Sequential(nn.Conv2d(3, c, 3, padding=1), nn.ReLU())
            self.blocks = nn.Sequential(*[Block(c) for _ in range(config.blocks)])
            self.squares = nn.Conv2d(c, 1, 1)
            self.pass_head = nn.Linear(c, 1)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            h = self.blocks(self.stem(x))
            squares = self.squares(h).flatten(1)
            return torch.cat([squares, self.pass_head(h.mean((2, 3)))], 1)

    return Conv()


def masked_argmax(q: np.ndarray, mask: np.ndarray) -> int:
    """The legal action of highest value."""
    return int(np.where(mask > 0, q, -np.inf).argmax())


class Replay:
    """A ring buffer of transitions (obs, action, reward, done, next obs, next mask)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.n = 0
        self.i = 0
        self.obs = np.zeros((size, 3, 8, 8), np.uint8)
        self.next_obs = np.zeros((size, 3, 8, 8), np.uint8)
        self.next_mask = np.zeros((size, 65), np.bool_)
        self.action = np.zeros(size, np.int64)
        self.reward = np.zeros(size, np.float32)
        self.done = np.zeros(size, np.bool_)

    def add(
        self,
        obs: np.ndarray,
        action: int,
        reward: float,
        done: bool,
        next_obs: np.ndarray,
        next_mask: np.ndarray,
    ) -> None:
        i = self.i
        self.obs[i], self.action[i], self.reward[i], self.done[i] = obs, action, reward, done
        self.next_obs[i], self.next_mask[i] = next_obs, next_mask
        self.i = (i + 1) % self.size
        self.n = min(self.n + 1, self.size)

    def sample(self, rng: np.random.Generator, k: int) -> np.ndarray:
        return rng.integers(self.n, size=k)


def save_checkpoint(path: str | Path, net: Any, config: DQNConfig, meta: dict[str, Any]) -> None:
    """Write the network, its config and ``meta`` atomically (a torch file)."""
    import torch

    with atomic_write(path, "wb") as f:
        torch.save(
            {"format": FORMAT, "config": asdict(config), "state": net.state_dict(), "meta": meta}, f
        )


def load_checkpoint(path: str | Path) -> tuple[Any, DQNConfig, dict[str, Any]]:
    """(network in eval mode, config, meta) of a checkpoint; ModelFileError if unusable."""
    import torch

    p = Path(path)
    if not p.is_file():
        raise ModelFileError(p, "no such model file")
    try:
        data = torch.load(p, map_location="cpu", weights_only=True)
    except Exception as e:
        raise ModelFileError(p, f"not a readable torch file ({type(e).__name__})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ModelFileError(p, "not an Othello DQN model")
    names = {f.name for f in fields(DQNConfig)}
    config = DQNConfig(**{k: v for k, v in data["config"].items() if k in names})
    net = build_net(config)
    try:
        net.load_state_dict(data["state"])
    except RuntimeError as e:
        raise ModelFileError(
            p, f"weights do not fit its config ({str(e).splitlines()[0]})"
        ) from None
    net.eval()
    return net, config, data.get("meta", {})


def q_values(net: Any, boards: list[Board]) -> np.ndarray:
    """Q values (n, 65) of boards, each from its mover's view."""
    import torch

    with torch.no_grad():
        x = torch.from_numpy(np.stack([observe(b) for b in boards]).astype(np.float32))
        return net(x).numpy()


def train(
    config: DQNConfig,
    out: str | Path,
    resume: bool = False,
    on_progress: Callable[[int, dict[str, Any] | None], None] | None = None,
) -> dict[str, Any]:
    """Self-play DQN training; checkpoints and evaluations every ``eval_every`` games."""
    import torch
    import torch.nn.functional as F

    from boardai.othello.match import play_match

    torch.set_num_threads(1)
    torch.manual_seed(config.seed)
    rng = np.random.default_rng(config.seed)
    net = build_net(config)
    done_games = 0
    history: list[dict[str, Any]] = []
    if resume and Path(out).exists():
        old, _, saved = load_checkpoint(out)
        net.load_state_dict(old.state_dict())
        done_games = int(saved.get("games", 0))
        history = list(saved.get("evals", []))
        rng = np.random.default_rng([config.seed, done_games])
    target = build_net(config)
    target.load_state_dict(net.state_dict())
    opt_cls = torch.optim.RMSprop if config.optimizer == "rmsprop" else torch.optim.Adam
    opt = opt_cls(net.parameters(), lr=config.lr)
    replay = Replay(config.replay)
    steps = 0
    plies = 0
    t0 = time.perf_counter()

    def meta() -> dict[str, Any]:
        return {"games": done_games, "evals": history, "seconds": time.perf_counter() - t0}

    def learn() -> None:
        nonlocal steps
        idx = replay.sample(rng, config.batch)
        obs = torch.from_numpy(replay.obs[idx].astype(np.float32))
        nxt = torch.from_numpy(replay.next_obs[idx].astype(np.float32))
        mask = torch.from_numpy(replay.next_mask[idx])
        with torch.no_grad():
            q_next = target(nxt)
            if config.double:
                pick = net(nxt).masked_fill(~mask, -1e9).argmax(1, keepdim=True)
                best = q_next.gather(1, pick).squeeze(1)
            else:
                best = q_next.masked_fill(~mask, -1e9).max(1).values
            done = torch.from_numpy(replay.done[idx])
            y = torch.where(done, torch.from_numpy(replay.reward[idx]), -config.gamma * best)
        q = net(obs).gather(1, torch.from_numpy(replay.action[idx]).unsqueeze(1)).squeeze(1)
        loss = F.smooth_l1_loss(q, y) if config.huber else F.mse_loss(q, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        steps += 1
        if steps % config.target_every == 0:
            target.load_state_dict(net.state_dict())

    def store(board: Board, action: int) -> None:
        after = board.play(action)
        end = after.is_terminal()
        reward = float(after.result(board.to_move)) if end else 0.0
        replay.add(observe(board), action, reward, end, observe(after), after.action_mask() > 0)

    try:
        while done_games < config.games:
            frac = min(1.0, done_games / max(1, config.epsilon_decay))
            eps = config.epsilon_start + frac * (config.epsilon_end - config.epsilon_start)
            board = Board.initial()
            while not board.is_terminal():
                legal = board.legal_actions()
                if config.all_moves:
                    for a in legal:
                        store(board, a)
                if rng.random() < eps:
                    action = legal[int(rng.integers(len(legal)))]
                else:
                    action = masked_argmax(q_values(net, [board])[0], board.action_mask())
                if not config.all_moves:
                    store(board, action)
                board = board.play(action)
                plies += 1
                if replay.n >= max(config.start, config.batch) and plies % config.train_every == 0:
                    learn()
            done_games += 1
            ev = None
            if done_games % config.eval_every == 0 or done_games == config.games:
                save_checkpoint(out, net, config, meta())
                spec = f"dqn:model={out}"
                vs_wpc = play_match(spec, "wpc", config.eval_games, epsilon=0.1, seed=done_games)
                vs_random = play_match(spec, "random", config.eval_games, seed=done_games)
                ev = {
                    "games": done_games,
                    "score_vs_wpc": vs_wpc.score,
                    "se_vs_wpc": vs_wpc.score_se,
                    "win_rate_vs_random": vs_random.wins / vs_random.games,
                    "score_vs_random": vs_random.score,
                    "eval_games": config.eval_games,
                    "seconds": time.perf_counter() - t0,
                }
                history.append(ev)
                save_checkpoint(out, net, config, meta())
            if on_progress is not None:
                on_progress(done_games, ev)
    except KeyboardInterrupt:
        save_checkpoint(out, net, config, meta())
        raise
    save_checkpoint(out, net, config, meta())
    return meta()
