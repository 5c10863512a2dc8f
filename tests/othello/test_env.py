"""Othello environments pass Gymnasium's and PettingZoo's checkers."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import boardai  # noqa: F401  (registers the env ids)
from boardai.othello.env import OthelloEnv, env


def test_gymnasium_check_env() -> None:
    check_env(gym.make("boardai/Othello-v0", opponent="random").unwrapped, skip_render_check=True)


def test_gymnasium_episode_against_wpc() -> None:
    e = gym.make("boardai/Othello-v0", opponent="wpc", color="white")
    obs, info = e.reset(seed=3)
    assert obs.shape == (3, 8, 8) and info["color"] == "white"
    assert obs[:, :, :].sum() == 5 + int(
        info["action_mask"][:64].sum()
    )  # 5 discs after black's move
    rng = np.random.default_rng(0)
    done = False
    reward = 0.0
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, done, _, info = e.step(action)
    assert reward in (-1.0, 0.0, 1.0)


def test_illegal_action() -> None:
    e = OthelloEnv(opponent="random")
    e.reset(seed=1)
    _, reward, done, _, info = e.step(0)
    assert reward == -1.0 and done and info["illegal"]
    strict = OthelloEnv(opponent="random", illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(ValueError, match="illegal move a1"):
        strict.step(0)


# PettingZoo's classic games (chess, go) use the same dict observations and get these warnings.
@pytest.mark.filterwarnings("ignore:Observation:UserWarning")
def test_pettingzoo_api() -> None:
    from pettingzoo.test import api_test

    api_test(env(), num_cycles=200)


def test_the_opponent_is_closed_when_replaced_and_with_the_env(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A gtp opponent's engine process would otherwise outlive every seeded reset."""
    from boardai.othello import agents

    made: list[Closing] = []
    make_agent = agents.make_agent

    class Closing:
        name = "closing"
        closed = False

        def __init__(self) -> None:
            self.inner = make_agent("random", 0)
            made.append(self)

        def act(self, state: object) -> int:
            return self.inner.act(state)  # type: ignore[arg-type]

        def reset(self) -> None:
            pass

        def reseed(self, seed: int) -> None:
            pass

        def close(self) -> None:
            self.closed = True

    monkeypatch.setattr(agents, "make_agent", lambda spec, seed=None: Closing())
    e = OthelloEnv(opponent="random", color="white")
    e.reset(seed=1)
    e.reset(seed=2)
    assert [a.closed for a in made] == [True, False]
    e.close()
    assert made[1].closed
    e.reset()  # a closed env builds its opponent again
    assert len(made) == 3 and not made[2].closed


def test_render_without_a_mode_warns_and_returns_none() -> None:
    """Gymnasium's and PettingZoo's convention: no render_mode, render() says so, gives None."""
    single = OthelloEnv(opponent="random")
    single.reset(seed=1)
    aec = env()
    aec.reset(seed=1)
    for e in (single, aec):
        with pytest.warns(UserWarning, match="without specifying any render mode"):
            assert e.render() is None
    shown = OthelloEnv(opponent="random", render_mode="ansi")
    shown.reset(seed=1)
    assert shown.render() == str(shown.board)
