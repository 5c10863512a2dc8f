"""What the two games' native vector envs share: the arrays a compiled step fills, what
``step`` returns from them, the legal-move masks and ``render``.

Each game's env (:mod:`boardai.g2048.vector_env`, :mod:`boardai.othello.vector_env`) keeps
its boards and its compiled step; this base holds the rest once.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode

from boardai.registration import warn_no_render_mode


class BoardVectorEnv(gym.vector.VectorEnv):
    """N boards stepped together, Gymnasium's next-step autoreset. Subclasses name
    :attr:`env_id` and :attr:`suggested_render_mode`, call :meth:`_allocate` and give
    :meth:`_info` and :meth:`_render`."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (Gymnasium declares it this way)
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }
    #: The id ``gymnasium.make_vec`` knows the env by (for the warning of ``render()``).
    env_id = ""
    #: The mode that warning suggests.
    suggested_render_mode = ""

    def _allocate(self, obs_shape: tuple[int, ...], n_actions: int) -> None:
        """The arrays the compiled step writes: observations (uint8), masks (int8), rewards,
        ends, which boards reset next step; all filled with nothing yet."""
        n = self.num_envs
        self._obs = np.zeros((n, *obs_shape), np.uint8)
        self._obs_flat = self._obs.reshape(n, -1)
        self._masks = np.zeros((n, n_actions), np.int8)
        self._rewards = np.zeros(n, np.float64)
        self._terminated = np.zeros(n, np.bool_)
        self._truncated = np.zeros(n, np.bool_)
        self._pending = np.zeros(n, np.bool_)
        self._all = np.ones(n, np.bool_)

    def _returns(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """What ``step`` returns: copies, so the caller's arrays outlive the next step."""
        return (
            self._obs.copy(),
            self._rewards.copy(),
            self._terminated.copy(),
            self._truncated.copy(),
            self._info(),
        )

    def _info(self) -> dict[str, Any]:
        raise NotImplementedError

    def action_masks(self) -> np.ndarray:
        """The legal actions of every board, bool ``(N, actions)``."""
        return self._masks.astype(bool)

    def render(self) -> tuple[Any, ...] | None:
        """Every board as text (``ansi``) or as a picture (``rgb_array``); None, with
        Gymnasium's warning, when the env was made without a ``render_mode``."""
        if self.render_mode is None:
            warn_no_render_mode(self.env_id, self.suggested_render_mode)
            return None
        return self._render(self.render_mode)

    def _render(self, mode: str) -> tuple[Any, ...]:
        raise NotImplementedError
