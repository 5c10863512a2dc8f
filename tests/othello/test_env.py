"""Othello environments pass Gymnasium's and PettingZoo's checkers."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import boardai  # noqa: F401  (registers the env ids)
from boardai.othello.board import Board
from boardai.othello.env import OthelloEnv, env
from boardai.othello.env_entry import make_env


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
    e = make_env(opponent="random")
    e.reset(seed=1)
    _, reward, done, _, info = e.step(0)
    assert reward == -1.0 and done and info["illegal"]
    strict = make_env(opponent="random", illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(ValueError, match="illegal move a1"):
        strict.step(0)


# PettingZoo's classic games (chess, go) use the same dict observations and get these warnings.
@pytest.mark.filterwarnings("ignore:Observation:UserWarning")
def test_pettingzoo_api() -> None:
    from pettingzoo.test import api_test

    api_test(env(), num_cycles=200)


def test_the_opponent_is_closed_with_the_env_and_plays_on_after() -> None:
    """A gtp opponent's engine process would otherwise outlive the env."""
    from boardai.othello.agents import make_agent

    class Closing:
        name = "closing"
        closed = 0

        def __init__(self) -> None:
            self.inner = make_agent("random", 0)

        def act(self, state: Board) -> int:
            return self.inner.act(state)

        def reset(self) -> None:
            self.inner.reset()

        def reseed(self, seed: int) -> None:
            self.inner.reseed(seed)

        def close(self) -> None:
            self.closed += 1

    closing = Closing()
    e = OthelloEnv(closing, color="white")
    e.reset(seed=1)
    e.close()
    assert closing.closed == 1
    e.reset(seed=1)  # the same player plays on
    e.close()
    assert closing.closed == 2


def _episode(e: OthelloEnv, seed: int) -> list[Board]:
    """The boards the learner sees in an episode of ``e`` seeded ``seed``, playing its first
    legal action each time."""
    _, info = e.reset(seed=seed)
    seen, done = [e.board], False
    while not done:
        _, _, done, _, info = e.step(int(np.flatnonzero(info["action_mask"])[0]))
        seen.append(e.board)
    return seen


def test_an_opponent_given_as_a_player_a_spec_or_a_function_plays_the_same_games() -> None:
    from boardai.othello.agents import make_agent

    for spec in ("random", "wpc"):
        by_spec = gym.make("boardai/Othello-v0", opponent=spec, color="random").unwrapped
        by_player = OthelloEnv(make_agent(spec, seed=123), color="random")
        for seed in (1, 2, 3):
            assert _episode(by_spec, seed) == _episode(by_player, seed), (spec, seed)
    last = OthelloEnv(lambda board: board.legal_actions()[-1], color="white")
    boards = _episode(last, 4)
    assert boards[0] == Board.initial().play(Board.initial().legal_actions()[-1])
    assert boards[-1].is_terminal()


def test_an_opponent_is_a_player_or_a_function() -> None:
    for bad in (None, "wpc", 3):
        with pytest.raises(TypeError, match="opponent must be a player or a function"):
            OthelloEnv(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown othello agent"):
        make_env("nobody")


def test_render_without_a_mode_warns_and_returns_none() -> None:
    """Gymnasium's and PettingZoo's convention: no render_mode, render() says so, gives None."""
    single = make_env(opponent="random")
    single.reset(seed=1)
    aec = env()
    aec.reset(seed=1)
    for e in (single, aec):
        with pytest.warns(UserWarning, match="without specifying any render mode"):
            assert e.render() is None
    shown = make_env(opponent="random", render_mode="ansi")
    shown.reset(seed=1)
    assert shown.render() == str(shown.board)
