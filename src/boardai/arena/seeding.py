"""Per-game seeds: game i of a run with seed S always gets the same seed, whatever the number
of workers or the order games finish in.

>>> game_seed(0, 1) == game_seed(0, 1) != game_seed(0, 2)
True
"""

from __future__ import annotations

import numpy as np


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded with ``seed`` (a 63-bit int)."""
    if seed < 0 or index < 0:
        raise ValueError(f"seed and index must be >= 0, got {seed}, {index}")
    state = np.random.SeedSequence(seed, spawn_key=(index,)).generate_state(2, np.uint32)
    return (int(state[0]) << 31) ^ int(state[1])


def agent_seed(seed: int, index: int) -> int:
    """The seed of the player's own randomness in game ``index`` (distinct from the spawns')."""
    state = np.random.SeedSequence(seed, spawn_key=(index, 1)).generate_state(2, np.uint32)
    return (int(state[0]) << 31) ^ int(state[1])
