"""The numpy picture of an Othello board, and the environments' ``rgb_array`` render mode."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardai  # noqa: F401
from boardai.othello import Board
from boardai.othello.render import BOARD, DISCS, FLIP, FRAME, LAST, LEGAL, LINE, board_image


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 2**64 - 1),
    st.integers(0, 2**64 - 1),
    st.sampled_from([12, 17, 48, 56]),
    st.data(),
)
def test_every_square_shows_its_disc_and_marks(
    black: int, white: int, square: int, data: st.DataObject
) -> None:
    """Read back from the picture: each square's centre is its disc's colour (the last move's
    red dot on its disc), a flipped disc has a ring, an empty square is the board's colour (a
    dot on the legal moves asked for), and the corners are the frame."""
    board = Board.from_mover(black, white & ~black, 0)
    grid = [v for row in board.to_grid() for v in row]
    legal = set(board.legal_actions())
    discs = [i for i, v in enumerate(grid) if v]
    last = data.draw(st.sampled_from(discs)) if discs else None
    flips = set(data.draw(st.lists(st.sampled_from(discs)))) if discs else set()
    img = board_image(board, square=square, legal=legal, last=last, flips=flips)
    margin = square // 3
    assert img.shape == (8 * square + 2 * margin,) * 2 + (3,) and img.dtype == np.uint8
    for i, v in enumerate(grid):
        y, x = margin + (i // 8) * square, margin + (i % 8) * square
        cell = img[y : y + square, x : x + square]
        colours = {tuple(px) for px in cell.reshape(-1, 3)}
        middle = tuple(cell[square // 2, square // 2])
        if v:
            assert middle == (LAST if i == last else DISCS[v]), (i, v)
            assert (FLIP in colours) == (i in flips), i
        else:
            assert middle == (LEGAL if i in legal else BOARD), i
            assert tuple(cell[square // 6, square // 2]) == BOARD  # a dot is small
            assert colours <= {BOARD, LINE, LEGAL}, i
    assert tuple(img[0, 0]) == FRAME and tuple(img[-1, -1]) == FRAME
    assert tuple(img[margin, margin + square // 2]) == LINE  # the top edge


def test_too_small_a_square_is_refused() -> None:
    with pytest.raises(ValueError, match="square must be >= 8"):
        board_image(Board.initial(), square=7)


def test_envs_render_frames_for_video_recorders() -> None:
    from gymnasium.utils.env_checker import check_env
    from gymnasium.wrappers import RenderCollection

    from boardai.othello.env import OthelloEnv
    from boardai.othello.env import env as othello_v0

    check_env(gym.make("boardai/Othello-v0", opponent="random", render_mode="rgb_array").unwrapped)
    e = RenderCollection(gym.make("boardai/Othello-v0", opponent="random", render_mode="rgb_array"))
    _, info = e.reset(seed=3)
    for _ in range(5):
        action = int(np.flatnonzero(info["action_mask"])[0])
        _, _, term, _, info = e.step(action)
        if term:
            break
    frames = e.render()
    assert len(frames) >= 2 and all(f.shape == frames[0].shape for f in frames)
    assert not np.array_equal(frames[0], frames[-1])  # the discs moved between them
    aec = othello_v0(render_mode="rgb_array")
    aec.reset(seed=1)
    assert aec.render().shape == frames[0].shape
    with pytest.raises(ValueError, match="render_mode must be one of"):
        OthelloEnv(render_mode="rgb")
    with pytest.raises(ValueError, match="render_mode must be one of"):
        othello_v0(render_mode="rgb")
