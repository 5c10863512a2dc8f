"""The seeds of the games of a run: every game's randomness derives from the run's seed and the
game's index alone, so a run gives the same games whatever the number of workers, the chunks
they are sent in, or the order the games finish in.

Two rules, one per kind of contest:

- **One-player games** (2048): the rule of :mod:`boardai.rng`, the compiled loops' own: game
  ``i`` of a run seeded ``S`` spawns from the stream :func:`game_seed` (S, i)
  (``Game(seed=S, index=i)``), and its player is reseeded with :func:`agent_seed` (S, i), a
  separate stream, before it starts.
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

from boardai.rng import game_stream, player_stream


def game_seed(seed: int, index: int) -> int:
    """The spawn stream of one-player game ``index`` of a run seeded with ``seed`` (a 64-bit
    int: ``seed_stream(seed, index)``, which names the game in results)."""
    return game_stream(seed, index)


def agent_seed(seed: int, index: int) -> int:
    """The player's own stream in one-player game ``index`` (distinct from the spawns')."""
    return player_stream(seed, index)


def pair_seed(seed: int, pair: int) -> int:
    """The seed of double game ``pair`` of a run seeded with ``seed`` (a 64-bit int; both
    colour assignments use it)."""
    return int(np.random.SeedSequence([seed, pair]).generate_state(1, np.uint64)[0])


def pair_of(index: int, swap: bool = True) -> int:
    """The pair of game ``index``: games ``2p`` and ``2p + 1`` when colours swap, else ``index``."""
    return index // 2 if swap else index
