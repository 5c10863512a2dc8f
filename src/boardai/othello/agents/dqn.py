"""``dqn``: a self-play DQN (see ``boardai othello train dqn``); plays the legal move of highest
Q value. torch is imported when the agent is built, not before."""

from __future__ import annotations

from dataclasses import dataclass

from boardai.learn.store import shipped_model
from boardai.othello.agents import REGISTRY
from boardai.othello.board import Board


@dataclass
class DQNOptions:
    """Options of ``dqn``.

    Attributes:
        model: the checkpoint written by ``boardai othello train dqn``, or a shipped model's
            name (``boardai models``); left out, the first shipped Othello DQN.
    """

    model: str = ""


class DQNAgent:
    """Greedy over the network's Q values of the legal actions."""

    def __init__(self, model: str, name: str = "dqn") -> None:
        import torch

        from boardai.othello.qnet import load_checkpoint

        # One board per forward pass: extra threads only cost synchronisation (10x slower on a
        # busy 2-core machine).
        torch.set_num_threads(1)
        self.name = name
        self.net, self.config, self.meta = load_checkpoint(model)

    def reset(self) -> None:
        """Nothing to clear."""

    def reseed(self, seed: int) -> None:
        """Nothing to seed: greedy play draws nothing."""

    def q(self, state: Board) -> list[float]:
        """The 65 Q values of ``state`` (for the mover)."""
        from boardai.othello.qnet import q_values

        return [float(x) for x in q_values(self.net, [state])[0]]

    def evaluate(self, state: Board) -> float:
        """The best legal Q value: the network's estimate of the result for the mover."""
        return max(self.q(state)[a] for a in state.legal_actions())

    def act(self, state: Board) -> int:
        from boardai.othello.qnet import masked_argmax, q_values

        if state.is_terminal():
            raise ValueError("no legal move: the game is over")
        return masked_argmax(q_values(self.net, [state])[0], state.action_mask())


@REGISTRY.register("dqn", DQNOptions, public={"model": shipped_model("othello", "othello-dqn")})
def make_dqn(opts: DQNOptions, seed: int | None) -> DQNAgent:
    """A self-play DQN network (seed 002), greedy over legal moves."""
    from boardai.learn.store import resolve_default

    model, path = resolve_default(opts.model, "othello", "othello-dqn", "boardai othello train dqn")
    return DQNAgent(str(path), name=f"dqn:model={model}")
