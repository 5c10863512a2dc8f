"""The native vector env equals N single envs stepped alike, with next-step autoreset."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import boardai  # noqa: F401
from boardai.g2048.env import Game2048Env
from boardai.g2048.vector_env import Game2048VectorEnv


@pytest.mark.parametrize("observation", ["exponents", "onehot", "lookahead2"])
def test_vector_env_equals_single_envs_with_autoreset(observation: str) -> None:
    n, seed = 5, 40
    kwargs = {"observation": observation, "reward": "log2", "max_steps": 150}
    envs = gym.make_vec("boardai/2048-v0", num_envs=n, **kwargs)
    assert isinstance(envs, Game2048VectorEnv)
    singles = [Game2048Env(**kwargs) for _ in range(n)]
    obs, info = envs.reset(seed=seed)
    pending = [False] * n
    for i, env in enumerate(singles):
        o, inf = env.reset(seed=seed + i)
        np.testing.assert_array_equal(obs[i], o)
        np.testing.assert_array_equal(info["action_mask"][i], inf["action_mask"])
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(400):
        actions = rng.integers(0, 4, n)
        obs, rewards, term, trunc, info = envs.step(actions)
        for i, env in enumerate(singles):
            if pending[i]:  # next-step autoreset: this step resets board i
                o, inf = env.reset()
                r, te, tr = 0.0, False, False
                pending[i] = False
            else:
                o, r, te, tr, inf = env.step(int(actions[i]))
                pending[i] = te or tr
                ended += te or tr
            np.testing.assert_array_equal(obs[i], o)
            np.testing.assert_array_equal(info["action_mask"][i], inf["action_mask"])
            assert (rewards[i], term[i], trunc[i]) == (r, te, tr)
            assert info["score"][i] == env.score
    assert ended >= n  # episodes ended (truncated at 150 steps) and restarted


def test_vector_env_spaces_and_bad_actions() -> None:
    envs = Game2048VectorEnv(num_envs=3, observation="onehot", planes=12)
    assert envs.observation_space.shape == (3, 12, 4, 4)
    assert envs.single_observation_space.shape == (12, 4, 4)
    obs, _ = envs.reset(seed=1)
    assert obs in envs.observation_space
    assert envs.action_masks().dtype == bool
    before = envs.board_states()
    with pytest.raises(ValueError):
        envs.step(np.array([0, 1, 4]))
    with pytest.raises(ValueError):
        envs.step(np.array([-1, 1, 2]))
    np.testing.assert_array_equal(envs.board_states(), before)  # a bad batch moves nothing
    with pytest.raises(ValueError):
        Game2048VectorEnv(num_envs=2, reward=lambda *a: 0.0)


def test_vector_env_options_of_the_wrong_type_are_clear_errors() -> None:
    with pytest.raises(TypeError, match="num_envs must be an integer"):
        Game2048VectorEnv(num_envs="4")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="planes must be an integer"):
        gym.make_vec("boardai/2048-v0", num_envs=2, planes=12.0)
    with pytest.raises(ValueError, match="got 'human'"):
        Game2048VectorEnv(num_envs=2, render_mode="human")
