"""Ecosystem check: sb3-contrib's MaskablePPO trains on boardai/2048-v0 unchanged."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import boardai  # noqa: F401

sb3_contrib = pytest.importorskip("sb3_contrib")


def test_maskable_ppo_runs_on_the_env() -> None:
    env = gym.make("boardai/2048-v0", observation="onehot", reward="log2")
    model = sb3_contrib.MaskablePPO(
        "MlpPolicy", env, n_steps=512, batch_size=128, n_epochs=2, seed=0, device="cpu"
    )
    model.learn(total_timesteps=2048)
    obs, info = env.reset(seed=1)
    for _ in range(50):
        action, _ = model.predict(
            obs, action_masks=env.unwrapped.action_masks(), deterministic=True
        )
        assert info["action_mask"][int(action)] == 1
        obs, _, term, trunc, info = env.step(int(action))
        if term or trunc:
            break
    assert np.isfinite(model.logger.name_to_value.get("train/loss", 0.0))
