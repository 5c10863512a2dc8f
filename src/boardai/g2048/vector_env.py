"""A native batched 2048 env: ``gymnasium.make_vec("boardai/2048-v0", num_envs=1024)``.

One compiled call steps all N boards (no Python loop per board). It follows Gymnasium 1.x's
next-step autoreset: the step that ends an episode returns its last observation; the next
step resets that board (ignoring its action) and returns the start observation with reward
0. Board i of ``reset(seed=s)`` starts game i of seed ``s`` (the seeding rule of
:mod:`boardai.rng`: the game ``Game(seed=s, index=i)`` and the arena play), and
``reset(seed=[s0, s1, ...])`` starts game 0 of seed ``s_i`` on board i, which plays exactly as
``Game2048Env`` reset with seed ``s_i`` and stepped with the same actions (a test checks it).

>>> import gymnasium as gym, numpy as np
>>> import boardai
>>> envs = gym.make_vec("boardai/2048-v0", num_envs=8, observation="exponents")
>>> obs, info = envs.reset(seed=0)
>>> obs.shape, info["action_mask"].shape
((8, 4, 4), (8, 4))
>>> obs, rewards, terminated, truncated, info = envs.step(info["action_mask"].argmax(axis=1))
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import batch_space

from boardai._jit import njit
from boardai.g2048 import env_core as C
from boardai.g2048.board import Board
from boardai.g2048.env import DEFAULT_MAX_STEPS, env_options
from boardai.registration import check_num_envs, check_render_mode
from boardai.rng import seed_stream
from boardai.vector_base import BoardVectorEnv


@njit
def _step_all(
    states: np.ndarray,
    actions: np.ndarray,
    cfg: np.ndarray,
    obs: np.ndarray,
    masks: np.ndarray,
    rewards: np.ndarray,
    terminated: np.ndarray,
    truncated: np.ndarray,
    steps: np.ndarray,
    scores: np.ndarray,
    pending: np.ndarray,
    max_steps: np.int64,
) -> bool:
    """Step every board; returns False, changing nothing, if an action is outside 0..3."""
    for i in range(states.shape[0]):
        if actions[i] < 0 or actions[i] > 3:
            return False
    for i in range(states.shape[0]):
        if pending[i]:
            C.reset_row(states, i, cfg, obs, masks)
            rewards[i] = 0.0
            terminated[i] = False
            truncated[i] = False
            steps[i] = 0
            scores[i] = 0
            pending[i] = False
            continue
        reward, gain, _, done = C.step_row(states, i, actions[i], cfg, obs, masks)
        steps[i] += 1
        scores[i] += gain
        rewards[i] = reward
        terminated[i] = done
        truncated[i] = (not done) and max_steps > 0 and steps[i] >= max_steps
        pending[i] = terminated[i] or truncated[i]
    return True


@njit
def _reset_all(states: np.ndarray, cfg: np.ndarray, obs: np.ndarray, masks: np.ndarray) -> None:
    for i in range(states.shape[0]):
        C.reset_row(states, i, cfg, obs, masks)


class Game2048VectorEnv(BoardVectorEnv):
    """N boards of :class:`~boardai.g2048.env.Game2048Env` stepped in one compiled call.

    Takes ``num_envs`` and the options of ``Game2048Env`` (all but a callable reward).
    ``info["action_mask"]`` is ``(N, 4)`` int8 and ``info["score"]`` the running scores;
    :meth:`action_masks` gives the masks as bool.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (Gymnasium declares it this way)
        **BoardVectorEnv.metadata,
        "render_modes": ["ansi", "rgb_array"],
    }
    env_id = "boardai/2048-v0"
    suggested_render_mode = "ansi"

    def __init__(
        self,
        num_envs: int = 1,
        observation: str = "onehot",
        planes: int = 16,
        reward: str = "score",
        move_penalty: float = 0.0,
        invalid: str = "noop",
        invalid_penalty: float = 0.0,
        p4: float = 0.1,
        start_tiles: int = 2,
        start_p4: float | None = None,
        max_steps: int | None = DEFAULT_MAX_STEPS,
        render_mode: str | None = None,
    ) -> None:
        check_num_envs(num_envs)
        if callable(reward):
            raise ValueError("the vector env takes a reward name, not a callable")
        check_render_mode(render_mode, self.metadata["render_modes"])
        self._cfg, self.single_observation_space = env_options(
            observation, planes, reward, move_penalty, invalid, invalid_penalty, p4,
            start_tiles, start_p4, max_steps,
        )  # fmt: skip
        self.num_envs = num_envs
        self.render_mode = render_mode
        self.single_action_space = spaces.Discrete(4)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._max_steps = 0 if max_steps is None else max_steps
        n = num_envs
        self._allocate(self.single_observation_space.shape, 4)
        self._states = np.zeros((n, 3), np.uint64)
        self._steps = np.zeros(n, np.int64)
        self._scores = np.zeros(n, np.int64)
        self._seeded = False

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Reset every board; ``seed=s`` starts game i of seed ``s`` on board i, a list of
        seeds game 0 of each (module docstring)."""
        super().reset(seed=None if isinstance(seed, list) else seed)
        if isinstance(seed, list):
            if len(seed) != self.num_envs:
                raise ValueError(f"{len(seed)} seeds for {self.num_envs} envs")
            for i, s in enumerate(seed):
                self._states[i, C.RNG] = seed_stream(np.uint64(s), np.uint64(0))
        elif seed is not None:
            for i in range(self.num_envs):
                self._states[i, C.RNG] = seed_stream(np.uint64(seed), np.uint64(i))
        elif not self._seeded:
            self._states[:, C.RNG] = self.np_random.integers(
                0, 2**64, self.num_envs, dtype=np.uint64
            )
        self._seeded = True
        _reset_all(self._states, self._cfg, self._obs_flat, self._masks)
        self._steps[:] = 0
        self._scores[:] = 0
        self._pending[:] = False
        return self._obs.copy(), self._info()

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every board (boards whose episode ended last step reset instead)."""
        acts = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        if not _step_all(
            self._states, acts, self._cfg, self._obs_flat, self._masks, self._rewards,
            self._terminated, self._truncated, self._steps, self._scores, self._pending,
            self._max_steps,
        ):  # fmt: skip
            raise ValueError("actions must be in 0..3")
        return self._returns()

    def _info(self) -> dict[str, Any]:
        return {
            "action_mask": self._masks.copy(),
            "_action_mask": self._all,
            "score": self._scores.copy(),
            "_score": self._all,
        }

    def board_states(self) -> np.ndarray:
        """The packed boards, ``(N, 2)`` uint64 ``(lo, hi)`` (a copy)."""
        return self._states[:, : C.RNG].copy()

    def boards(self) -> list[Board]:
        """The current positions."""
        return [Board(int(lo) | (int(hi) << 64)) for lo, hi, _ in self._states]

    def _render(self, mode: str) -> tuple[Any, ...]:
        from boardai.g2048.render import board_image, board_text

        if mode == "rgb_array":
            return tuple(board_image(b) for b in self.boards())
        return tuple(
            board_text(b, int(s)) for b, s in zip(self.boards(), self._scores, strict=True)
        )
