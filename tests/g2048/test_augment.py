"""Symmetry augmentation: the 8 images are the board's turns and mirrors, each drawn."""

from __future__ import annotations

import numpy as np
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from boardai.g2048.augment import N_SYMMETRIES, dihedral, random_symmetry
from boardai.g2048.board import Board
from boardai.g2048.observations import encode_boards

grids = st.lists(st.sampled_from([0, 2, 4, 8, 16, 1024, 32768]), min_size=16, max_size=16)


def planes(grid: np.ndarray) -> torch.Tensor:
    b = Board.from_grid(grid.tolist())
    return torch.from_numpy(encode_boards(np.array([[b.lo, b.hi]], np.uint64), "onehot", 16))[0]


@settings(max_examples=40, deadline=None)
@given(grids)
def test_the_8_images_are_the_encodings_of_the_turned_and_mirrored_boards(cells: list) -> None:
    grid = np.array(cells).reshape(4, 4)
    x = planes(grid)
    reference = [np.rot90(g, k) for g in (grid, np.fliplr(grid)) for k in range(4)]
    images = [dihedral(x, k) for k in range(N_SYMMETRIES)]
    for want, got in zip(reference, images, strict=True):
        torch.testing.assert_close(got, planes(want))


def test_random_symmetry_shows_each_sample_in_one_of_its_images() -> None:
    rng = np.random.default_rng(0)
    x = torch.rand(400, 3, 4, 4)
    y = random_symmetry(x, rng)
    seen = set()
    for i in range(len(x)):
        hits = [k for k in range(N_SYMMETRIES) if torch.equal(y[i], dihedral(x[i], k))]
        assert len(hits) == 1
        seen.add(hits[0])
    assert seen == set(range(N_SYMMETRIES))
