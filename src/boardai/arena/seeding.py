"""The seeds of the games of a run: every game's randomness derives from the run's seed and the
game's index alone, so a run gives the same games whatever the number of workers, the chunks
they are sent in, or the order the games finish in.

Two rules, one per kind of contest:

- **One-player games** (2048): game ``i`` of a run seeded ``S`` spawns its tiles from
  :func:`game_seed` (S, i), and its player is reseeded with :func:`agent_seed` (S, i) before it
  starts (a different stream, so a player that draws does not see the spawns' numbers).
- **Double games** (Othello, colours swapped): games ``2p`` and ``2p + 1`` form pair ``p`` and
  share :func:`pair_seed` (S, p) = ``g``: the random moves (epsilon) draw from ``g``, player A
  is reseeded with ``g`` and player B with ``g + 1`` before each of the two games. Without
  colour swapping every game is its own pair.

>>> game_seed(0, 1) == game_seed(0, 1) != game_seed(0, 2)
True
>>> pair_seed(3, 0) != pair_seed(3, 1)
True
"""

from __future__ import annotations

import numpy as np


def game_seed(seed: int, index: int) -> int:
    """The seed of one-player game ``index`` of a run seeded with ``seed`` (a 63-bit int)."""
    if seed < 0 or index < 0:
        raise ValueError(f"seed and index must be >= 0, got {seed}, {index}")
    state = np.random.SeedSequence(seed, spawn_key=(index,)).generate_state(2, np.uint32)
    return (int(state[0]) << 31) ^ int(state[1])


def agent_seed(seed: int, index: int) -> int:
    """The seed of the player's own randomness in one-player game ``index`` (distinct from the
    spawns')."""
    state = np.random.SeedSequence(seed, spawn_key=(index, 1)).generate_state(2, np.uint32)
    return (int(state[0]) << 31) ^ int(state[1])


def pair_seed(seed: int, pair: int) -> int:
    """The seed of double game ``pair`` of a run seeded with ``seed`` (a 64-bit int; both
    colour assignments use it)."""
    return int(np.random.SeedSequence([seed, pair]).generate_state(1, np.uint64)[0])


def pair_of(index: int, swap: bool = True) -> int:
    """The pair of game ``index``: games ``2p`` and ``2p + 1`` when colours swap, else ``index``."""
    return index // 2 if swap else index
