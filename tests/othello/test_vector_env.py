"""The native Othello vector env returns what Gymnasium's SyncVectorEnv over the single env
returns, step for step (its reference: the same boards, replies, rewards, infos and
next-step autoresets), for every compiled opponent and colour; other opponents get that
SyncVectorEnv from ``make_vec``."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardai  # noqa: F401
from boardai.othello.board import PASS
from boardai.othello.env_entry import compiled_opponent, make_env
from boardai.othello.vector_env import OthelloVectorEnv


def native(num_envs: Any, spec: str = "wpc", **options: Any) -> OthelloVectorEnv:
    """The native env against ``spec``, compiled as ``make_vec`` compiles it."""
    opponent = compiled_opponent(spec)
    assert opponent is not None
    return OthelloVectorEnv(num_envs, opponent, **options)


def _assert_same(a: tuple[Any, ...], b: tuple[Any, ...]) -> None:
    *arrays, info_a = a
    *arrays_b, info_b = b
    for x, y in zip(arrays, arrays_b, strict=True):
        np.testing.assert_array_equal(x, y)
        assert x.dtype == y.dtype
    assert set(info_a) == set(info_b)
    for key in info_a:
        np.testing.assert_array_equal(info_a[key], info_b[key], err_msg=key)
        assert info_a[key].dtype == info_b[key].dtype, key


@pytest.mark.parametrize("opponent", ["random", "greedy", "wpc", "ntuple"])
@settings(max_examples=4, deadline=None)
@given(
    color=st.sampled_from(["black", "white", "random"]),
    seed=st.integers(0, 2**32),
    moves=st.integers(0, 2**32),
)
def test_the_native_env_steps_as_sync_vector_env_over_the_single_env(
    opponent: str, color: str, seed: int, moves: int
) -> None:
    n = 3
    native_env = native(n, opponent, color=color)
    sync = gym.vector.SyncVectorEnv([lambda: make_env(opponent, color=color)] * n)
    got, want = native_env.reset(seed=seed), sync.reset(seed=seed)
    _assert_same(got, want)
    rng = np.random.default_rng(moves)
    ended = illegal = 0
    for _ in range(200):  # about seven games a board
        mask = got[-1]["action_mask"]
        actions = np.array(
            [rng.choice(np.flatnonzero(m)) if m.any() and rng.random() > 0.03
             else rng.integers(-1, 70)  # an ended board (its action ignored), or illegal
             for m in mask]
        )  # fmt: skip
        got, want = native_env.step(actions), sync.step(actions)
        _assert_same(got, want)
        lost = got[-1].get("illegal", np.zeros(n, bool))
        ended += int((got[2] & ~lost).sum())
        illegal += int(lost.sum())
    assert ended >= 1 and illegal >= 1  # games played out, and lost by illegal moves
    more = native_env.reset()  # unseeded: each board's stream goes on, as a single env's does
    _assert_same(more, sync.reset())


def test_make_vec_gives_the_native_env_for_compiled_opponents_and_sync_for_the_rest() -> None:
    envs = gym.make_vec("boardai/Othello-v0", num_envs=4, opponent="greedy", color="white")
    assert isinstance(envs.unwrapped, OthelloVectorEnv)
    obs, info = envs.reset(seed=2)
    assert obs.shape == (4, 3, 8, 8) and obs in envs.observation_space
    assert list(info["color"]) == ["white"] * 4
    assert (obs[:, 0].sum(axis=(1, 2)) == 1).all()  # black has played, flipping one of two
    for searched in ("alphabeta:depth=1", "ntuple:depth=2"):
        other = gym.make_vec("boardai/Othello-v0", num_envs=2, opponent=searched)
        assert isinstance(other, gym.vector.SyncVectorEnv)
        other.reset(seed=0)
        other.close()
    with pytest.raises(ValueError, match="unknown othello agent"):
        gym.make_vec("boardai/Othello-v0", num_envs=2, opponent="nobody")


def test_illegal_actions_raise_naming_the_board_and_change_nothing() -> None:
    envs = native(3, "random", illegal="raise")
    _, info = envs.reset(seed=5)
    before = [str(b) for b in envs.boards()]
    actions = info["action_mask"].argmax(axis=1)
    actions[1] = PASS  # the start position has moves: no pass
    with pytest.raises(ValueError, match=r"board 1: illegal move pass for black"):
        envs.step(actions)
    assert [str(b) for b in envs.boards()] == before
    actions[1] = 0  # a1: not legal at the start
    with pytest.raises(ValueError, match=r"board 1: illegal move a1"):
        envs.step(actions)
    assert [str(b) for b in envs.boards()] == before
    envs.step(info["action_mask"].argmax(axis=1))  # legal moves go on


def test_bad_options_and_calls_are_clear_errors() -> None:
    with pytest.raises(TypeError, match="num_envs must be an integer"):
        native(2.0)
    with pytest.raises(ValueError, match="num_envs must be >= 1"):
        native(0)
    assert compiled_opponent("alphabeta") is None
    assert compiled_opponent("ntuple:depth=2") is None  # a search
    with pytest.raises(TypeError, match="must be a CompiledOpponent, got 'alphabeta'"):
        OthelloVectorEnv(2, "alphabeta")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="color"):
        native(2, color="red")
    with pytest.raises(ValueError, match="illegal"):
        native(2, illegal="ignore")
    with pytest.raises(ValueError, match="render_mode"):
        native(2, render_mode="human")
    envs = native(2)
    with pytest.raises(ValueError, match="before reset"):
        envs.step([0, 0])
    with pytest.raises(ValueError, match="3 seeds for 2 envs"):
        envs.reset(seed=[1, 2, 3])
    obs, _ = envs.reset(seed=[7, 9])  # a seed a board, as SyncVectorEnv takes them
    single, _ = make_env().reset(seed=9)
    np.testing.assert_array_equal(obs[1], single)


def test_renders_every_board() -> None:
    text = native(2, render_mode="ansi")
    text.reset(seed=0)
    frames = text.render()
    assert frames is not None and len(frames) == 2 and all("X" in f for f in frames)
    pictures = native(2, render_mode="rgb_array")
    pictures.reset(seed=0)
    images = pictures.render()
    assert images is not None and images[0].ndim == 3 and images[0].dtype == np.uint8
    silent = native(2)
    silent.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode"):
        assert silent.render() is None


def test_gymnasium_s_vector_wrappers_take_it() -> None:
    envs = gym.wrappers.vector.RecordEpisodeStatistics(native(8, "random"))
    _, info = envs.reset(seed=1)
    finished = 0
    for _ in range(200):
        *_, info = envs.step(info["action_mask"].argmax(axis=1))
        if "episode" in info:
            finished += int(info["_episode"].sum())
            assert set(info["episode"]["r"][info["_episode"]]) <= {-1.0, 0.0, 1.0}
    assert finished >= 8
