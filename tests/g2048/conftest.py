"""Fixtures shared by the 2048 tests."""

from __future__ import annotations

import pytest

from boardai.g2048.train.config import TrainConfig
from boardai.g2048.train.trainer import Trainer


@pytest.fixture(scope="session")
def model(tmp_path_factory):
    """A small n-tuple network file, trained a little (3 patterns, 300 episodes)."""
    path = tmp_path_factory.mktemp("ntuple") / "m.npz"
    trainer = Trainer(TrainConfig(patterns="0123,4567,0145", seed=4))
    trainer.train(300)
    trainer.save(path)
    return path
