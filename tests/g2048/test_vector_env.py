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
    obs, info = envs.reset(seed=[seed + i for i in range(n)])
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


def test_board_i_of_a_seeded_reset_plays_game_i_of_the_seed() -> None:
    from boardai.g2048 import Game

    n, seed = 4, 17
    envs = Game2048VectorEnv(n, observation="exponents", max_steps=None)
    envs.reset(seed=seed)
    games = [Game(seed=seed, index=i) for i in range(n)]
    rng = np.random.default_rng(1)
    assert envs.boards() == [g.board for g in games]
    while not any(g.is_over() for g in games):  # until a board would autoreset
        actions = [int(rng.choice(g.board.legal_actions())) for g in games]
        envs.step(actions)
        for g, a in zip(games, actions, strict=True):
            g.move(a)
        assert envs.boards() == [g.board for g in games]
    assert min(g.moves for g in games) > 20
