"""``dqn[:model=m.pt][,lookahead=1]``: plays by a trained Q network (``boardai 2048 train dqn``;
the shipped ``2048-dqn`` when ``model=`` is left out).

Greedy play takes the legal move of highest Q. With ``lookahead=1`` (seed 000's search) it
scores each legal move by its reward plus the expected best Q of the positions it can lead
to: every spawn (a 2 or a 4 on each empty cell) weighted by its probability, all scored in
one batched forward pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from boardai.g2048.agents import REGISTRY
from boardai.g2048.board import Board
from boardai.hardware import check_device, check_threads
from boardai.learn.store import shipped_model
from boardai.spec import Range


@dataclass
class DQNOptions:
    """Options of ``dqn``: the checkpoint (a file or a shipped model's name; left out, the
    first shipped 2048 DQN), the lookahead depth, the torch device and CPU threads (one is
    fastest for these small nets: more threads spin against each other)."""

    model: str = ""
    lookahead: int = 0
    device: str = "cpu"
    threads: int = 1

    def __post_init__(self) -> None:
        check_threads(self.threads)
        check_device(self.device)
        if self.lookahead not in (0, 1):
            raise ValueError(f"lookahead must be 0 or 1, got {self.lookahead}")


class DQNAgent:
    """Plays the legal move of highest Q (or of highest one-move lookahead value)."""

    memoryless = True  # the move depends on the position alone (boardai.agent.memoryless)

    def __init__(
        self,
        net: Any,
        meta: dict[str, Any],
        lookahead: int = 0,
        name: str = "dqn",
        device: str = "cpu",
    ) -> None:
        from boardai.g2048.qnet import QInputs

        self.net = net
        self.kind = meta["input_kind"]
        self.config = QInputs.of_run(meta["config"])
        self.p4 = float(meta["config"].get("p4", 0.1))
        self.reward_scale = float(meta["config"].get("reward_scale", 1.0))
        self.reward_kind = meta["config"].get("reward", "score")
        self.gamma = float(meta["config"].get("gamma", 1.0))
        self.lookahead = lookahead
        self.name = name
        self.device = device

    def reset(self) -> None:
        """No per-game state."""

    def reseed(self, seed: int) -> None:
        """Nothing to seed: greedy play draws nothing."""

    def q_values(self, boards: np.ndarray) -> np.ndarray:
        """Q values ``(n, 4)`` of packed boards ``(n, 2)``."""
        import torch

        from boardai.g2048.qnet import q_forward

        with torch.no_grad():
            return q_forward(self.net, boards, self.kind, self.config, self.device).cpu().numpy()

    def act(self, state: Board) -> int:
        legal = state.legal_actions()
        if not legal:
            raise ValueError("no legal move: the game is over")
        if self.lookahead:
            return self._lookahead(state, legal)
        q = self.q_values(np.array([[state.lo, state.hi]], np.uint64))[0]
        return max(legal, key=lambda a: q[a])

    def _reward(self, board: Board, action: int, gain: int) -> float:
        if self.reward_kind == "score":
            return gain * self.reward_scale
        from boardai.g2048.rewards import move_log2_reward

        return move_log2_reward(board, action) * self.reward_scale

    def _lookahead(self, state: Board, legal: list[int]) -> int:
        rows: list[tuple[int, int]] = []
        owners: list[tuple[int, float]] = []  # (action, probability) of each row
        gains = {}
        for a in legal:
            after, gain = state.slide(a)
            gains[a] = self._reward(state, a, gain)
            for board, p in after.chance_outcomes(self.p4):
                rows.append((board.lo, board.hi))
                owners.append((a, p))
        boards = np.array(rows, np.uint64)
        q = self.q_values(boards)
        value = dict.fromkeys(legal, 0.0)
        for (a, p), (lo, hi), qrow in zip(owners, rows, q, strict=True):
            nxt = Board._make(lo, hi).legal_actions()
            best = max((qrow[b] for b in nxt), default=0.0)
            value[a] += p * best
        return max(legal, key=lambda a: gains[a] + self.gamma * value[a])


@REGISTRY.register(
    "dqn",
    DQNOptions,
    public={
        "model": shipped_model("2048", "dqn"),
        "lookahead": Range(0, 1),
    },
)
def make_dqn(opts: DQNOptions, seed: int | None) -> DQNAgent:
    """A trained DQN (boardai 2048 train dqn); lookahead=1 adds seed 000's one-move search."""
    import torch

    from boardai.g2048.qnet import load_qnet
    from boardai.learn.store import resolve_default

    model, path = resolve_default(opts.model, "2048", "dqn", "boardai 2048 train dqn")
    torch.set_num_threads(opts.threads)
    net, meta = load_qnet(path, opts.device)
    spec = f"dqn:model={model}" + (",lookahead=1" if opts.lookahead else "")
    return DQNAgent(net, meta, opts.lookahead, name=spec, device=opts.device)
