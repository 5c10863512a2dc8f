"""Ecosystem check: sb3-contrib's MaskablePPO trains on boardai/Othello-v0 unchanged."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import boardai  # noqa: F401

sb3_contrib = pytest.importorskip("sb3_contrib")


def test_maskable_ppo_runs_on_the_env() -> None:
    env = gym.make("boardai/Othello-v0", opponent="random", color="random")
    model = sb3_contrib.MaskablePPO(
        "MlpPolicy", env, n_steps=256, batch_size=64, n_epochs=2, seed=0, device="cpu"
    )
    model.learn(total_timesteps=512)  # without action_masks() it refuses to start
    obs, info = env.reset(seed=1)
    for _ in range(40):
        masks = env.unwrapped.action_masks()
        assert masks.dtype == bool and (masks == (info["action_mask"] == 1)).all()
        action, _ = model.predict(obs, action_masks=masks, deterministic=True)
        assert info["action_mask"][int(action)] == 1  # a legal move, a pass only when forced
        obs, _, term, trunc, info = env.step(int(action))
        assert "illegal" not in info
        if term or trunc:
            break
    assert np.isfinite(model.logger.name_to_value.get("train/loss", 0.0))
