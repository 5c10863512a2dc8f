"""The Gymnasium env: API checks, options, determinism, masks, rewards, rendering."""

from __future__ import annotations

import math

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st

import boardai  # noqa: F401  (registers boardai/2048-v0)
from boardai.g2048 import Board
from boardai.g2048.env import Game2048Env
from boardai.g2048.observations import observe
from boardai.g2048.render import TILE_COLOURS, board_image, board_text
from boardai.g2048.rewards import move_log2_reward
from tests.naive import g2048 as naive

OBSERVATIONS = ["exponents", "onehot", "lookahead2"]
REWARDS = ["score", "log2", "shaped"]


@pytest.mark.parametrize("observation", OBSERVATIONS)
@pytest.mark.parametrize("reward", REWARDS)
def test_check_env_passes(observation: str, reward: str) -> None:
    env = gym.make("boardai/2048-v0", observation=observation, reward=reward)
    check_env(env.unwrapped, skip_render_check=True)


def test_check_env_with_callable_reward_and_planes() -> None:
    env = Game2048Env(planes=12, reward=lambda b, a, after, gain: float(gain > 0))
    check_env(env, skip_render_check=True)
    assert env.observation_space.shape == (12, 4, 4)


def _play(env: Game2048Env, seed: int, n: int) -> list[tuple]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out = [(obs.tobytes(), info["action_mask"].tobytes())]
    for _ in range(n):
        obs, r, term, trunc, info = env.step(int(rng.integers(4)))
        out.append((obs.tobytes(), r, term, trunc, info["score"]))
        if term or trunc:
            obs, info = env.reset()
    return out


def test_same_seed_same_episode_and_other_seed_differs() -> None:
    a = _play(Game2048Env(observation="exponents"), 5, 300)
    b = _play(Game2048Env(observation="exponents"), 5, 300)
    c = _play(Game2048Env(observation="exponents"), 6, 300)
    assert a == b
    assert a != c


def test_masks_agree_with_engine_and_observations_with_board() -> None:
    env = Game2048Env(observation="onehot")
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(400):
        board = env.board
        legal = board.legal_actions()
        assert [a for a in range(4) if info["action_mask"][a]] == legal
        assert info["action_mask"].dtype == np.int8
        assert list(np.flatnonzero(env.action_masks())) == legal
        np.testing.assert_array_equal(obs, observe(board, "onehot"))
        if not legal:
            break
        obs, _, term, _, info = env.step(int(rng.choice(legal)))
    assert term or len(legal) > 0


def test_score_reward_matches_naive_slide_and_game_ends_terminated() -> None:
    env = Game2048Env(observation="exponents")
    env.reset(seed=11)
    rng = np.random.default_rng(11)
    total = 0
    while True:
        grid = env.board.to_grid()
        legal = naive.legal_actions(grid)
        a = int(rng.choice(legal))
        after, expected = naive.slide(grid, a)
        _, reward, term, trunc, info = env.step(a)
        assert reward == expected
        total += expected
        # the new board is the afterstate plus exactly one spawned 2 or 4
        diff = [
            (x, y)
            for ra, rb in zip(after, env.board.to_grid(), strict=True)
            for x, y in zip(ra, rb, strict=True)
            if x != y
        ]
        assert len(diff) == 1 and diff[0][0] == 0 and diff[0][1] in (2, 4)
        if term:
            break
        assert not trunc
    assert info["score"] == total
    assert env.board.is_terminal()


def _naive_log2(grid: list[list[int]], action: int) -> int:
    total = 0
    for line in naive.lines(grid, action):
        tiles = [grid[r][c] for r, c in line if grid[r][c]]
        i = 0
        while i < len(tiles):
            if i + 1 < len(tiles) and tiles[i] == tiles[i + 1]:
                total += int(math.log2(2 * tiles[i]))
                i += 2
            else:
                i += 1
    return total


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 17), min_size=16, max_size=16), st.integers(0, 3))
def test_log2_reward_matches_naive(exponents: list[int], action: int) -> None:
    board = Board.from_exponents(exponents)
    assert move_log2_reward(board, action) == _naive_log2(board.to_grid(), action)


def test_shaped_reward_adds_big_tile_bonus_and_penalty() -> None:
    env = Game2048Env(observation="exponents", reward="shaped", move_penalty=1.5)
    grid = [[512, 1024, 2048, 4096], [2, 2, 0, 0], [0] * 4, [0] * 4]
    env.reset(seed=0, options={"board": Board.from_grid(grid)})
    _, reward, *_ = env.step(3)  # left: 2+2 -> 4 (log2 reward 2)
    assert reward == 2 + 1 + 2.5 + 6 + 6 - 1.5


def test_tiles_above_32768_stay_exact() -> None:
    grid = [[32768, 32768, 0, 0], [65536, 65536, 0, 0], [2, 4, 8, 16], [4, 8, 16, 32]]
    env = Game2048Env(observation="exponents", reward="log2")
    env.reset(seed=0, options={"board": Board.from_grid(grid)})
    obs, reward, *_ = env.step(3)
    assert env.board.to_grid()[0][0] == 65536 and env.board.to_grid()[1][0] == 131072
    assert obs[0, 0] == 16 and obs[1, 0] == 17
    assert reward == 16 + 17
    assert env.score == 65536 + 131072


def test_invalid_moves_noop_penalty_terminate_and_truncation() -> None:
    grid = [[2, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4]
    env = Game2048Env(observation="exponents", invalid_penalty=2.0, max_steps=3)
    env.reset(seed=0, options={"board": Board.from_grid(grid)})
    before = env.board
    _, reward, term, trunc, info = env.step(0)  # up: nothing moves
    assert (reward, term, trunc, info["moved"]) == (-2.0, False, False, False)
    assert env.board == before
    env.step(3)
    *_, term, trunc, _ = env.step(0)
    assert trunc and not term
    env = Game2048Env(observation="exponents", invalid="terminate")
    env.reset(seed=0, options={"board": Board.from_grid(grid)})
    *_, term, trunc, _ = env.step(0)
    assert term and not trunc


def test_bad_options_raise() -> None:
    with pytest.raises(ValueError, match="observation"):
        Game2048Env(observation="pixels")
    with pytest.raises(ValueError, match="reward"):
        Game2048Env(reward="money")
    with pytest.raises(ValueError, match="invalid"):
        Game2048Env(invalid="ignore")


def test_render_modes(capsys: pytest.CaptureFixture[str]) -> None:
    env = Game2048Env(render_mode="rgb_array")
    env.reset(seed=1)
    img = env.render()
    assert img.shape == (460, 460, 3) and img.dtype == np.uint8
    env = Game2048Env(render_mode="ansi")
    env.reset(seed=1)
    assert "score 0" in env.render()
    env = Game2048Env(render_mode="human")
    env.reset(seed=1)
    assert "+------" in capsys.readouterr().out


def test_board_image_colours_and_text() -> None:
    board = Board.from_grid([[2, 2048, 0, 0], [0] * 4, [0] * 4, [0] * 4])
    img = board_image(board, tile=50, gap=10)
    assert img.shape == (4 * 50 + 5 * 10,) * 2 + (3,)
    assert tuple(img[12, 12]) == TILE_COLOURS[1]  # corner of the 2 tile
    assert tuple(img[12, 72]) == TILE_COLOURS[11]  # corner of the 2048 tile
    assert tuple(img[200, 200]) == TILE_COLOURS[0]
    centre = img[10:60, 10:60].reshape(-1, 3)
    assert len({tuple(p) for p in centre}) == 2  # tile colour and the digit colour
    assert board_text(board).count("2048") == 1


def test_bench_env_command_runs(capsys: pytest.CaptureFixture[str]) -> None:
    from boardai.cli import main

    assert (
        main(
            [
                "2048",
                "bench",
                "env",
                "--steps",
                "300",
                "--num-envs",
                "4",
                "--vector-steps",
                "5",
                "--repeat",
                "1",
                "--json",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert '"vector_exponents_steps_per_s"' in out and '"single_make_random_steps_per_s"' in out


def _random_boards(n: int, seed: int) -> list[np.uint64]:
    """Packed ``hi == 0`` boards with few distinct tiles (equal neighbours and full boards
    are common), plus the empty and the full board."""
    rng = np.random.default_rng(seed)
    boards = [np.uint64(0), np.uint64(0x1212_2121_1212_2121)]
    for _ in range(n):
        cells = rng.integers(0, rng.integers(2, 17), 16)
        if rng.random() < 0.5:
            cells[cells == 0] = rng.integers(1, 4)
        boards.append(np.uint64(sum(int(e) << (4 * i) for i, e in enumerate(cells))))
    return boards


def test_fast_mask_kernel_matches_the_engine() -> None:
    from boardai.g2048 import env_core as C
    from boardai.g2048 import kernels as K

    mask = np.zeros(4, np.int8)
    for b in _random_boards(3000, 7):
        n = C.write_mask(b, np.uint64(0), mask)
        expected = K.legal_mask(b, np.uint64(0))
        assert [int(m) for m in mask] == [(expected >> a) & 1 for a in range(4)]
        assert n == bin(expected).count("1")


DEAD = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]


def test_a_board_with_no_move_ends_the_episode_under_noop() -> None:
    # a dead start board, and a step after the end, terminate (noop used to loop on them
    # with terminated False until max_steps truncated the episode)
    env = Game2048Env(observation="exponents", invalid_penalty=1.0)
    _, info = env.reset(seed=0, options={"board": Board.from_grid(DEAD)})
    assert not info["action_mask"].any()
    _, reward, term, trunc, info = env.step(0)
    assert (reward, term, trunc, info["moved"]) == (-1.0, True, False, False)
    assert env.board == Board.from_grid(DEAD)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    term = False
    while not term:
        _, _, term, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
    for action in range(4):
        assert env.step(action)[2] is True


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"planes": "16"}, TypeError, "planes must be an integer, got '16'"),
        ({"planes": 12.0}, TypeError, "planes must be an integer"),
        ({"start_tiles": 2.5}, TypeError, "start_tiles must be an integer"),
        ({"max_steps": "100"}, TypeError, "max_steps must be an integer"),
        ({"p4": "0.1"}, TypeError, "p4 must be a number"),
        ({"invalid_penalty": "1"}, TypeError, "invalid_penalty must be a number"),
        ({"move_penalty": float("nan")}, ValueError, "move_penalty must be finite"),
        ({"start_p4": float("inf")}, ValueError, "start_p4 must be finite"),
    ],
)
def test_wrongly_typed_options_are_clear_errors(
    kwargs: dict[str, object], error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        gym.make("boardai/2048-v0", **kwargs)


def test_numpy_options_are_accepted() -> None:
    env = Game2048Env(planes=np.int64(12), p4=np.float32(0.2), max_steps=np.int32(5))
    assert env.reset(seed=0)[0].shape == (12, 4, 4)
    with pytest.raises(ValueError, match=r"render_mode must be one of .*, got 'rgb'"):
        Game2048Env(render_mode="rgb")


def test_actions_must_be_integers_in_range() -> None:
    env = Game2048Env(observation="exponents")
    env.reset(seed=0)
    before = env.board
    for bad in (1.5, 2.0, "1", None, np.array([1]), 4, -1):
        with pytest.raises(ValueError, match="not in Discrete"):
            env.step(bad)
    assert env.board == before and env.steps == 0  # 1.5 used to play move 1
    for good in (np.int8(1), np.array(2), 3):
        env.step(good)
    assert env.steps == 3


def test_exponent_made_by_merging_two_largest_tiles_is_in_the_space() -> None:
    from boardai.g2048 import kernels as K

    top = Board.from_exponents([K.MAX_EXPONENT, K.MAX_EXPONENT] + [0] * 14)
    env = Game2048Env(observation="exponents")
    env.reset(seed=0, options={"board": top})
    obs, *_ = env.step(3)
    assert obs[0, 0] == K.MAX_EXPONENT + 1
    assert obs in env.observation_space


def test_render_without_a_mode_warns_and_returns_none() -> None:
    """Gymnasium's convention (its own envs): no render_mode, render() says so and gives None."""
    from boardai.g2048.vector_env import Game2048VectorEnv

    for env in (Game2048Env(), Game2048VectorEnv(num_envs=2)):
        env.reset(seed=1)
        with pytest.warns(UserWarning, match='render_mode="ansi"'):
            assert env.render() is None
