"""The arena: play many games of a player over a process pool, and measure it.

>>> from boardai.arena import play_games
>>> run = play_games("greedy", games=3, seed=1, workers=1)
>>> len(run.results), run.results[0].index
(3, 0)

Game i of a run seeded S draws its spawns from :func:`~boardai.arena.seeding.game_seed` (S, i)
and builds its player from the spec with :func:`~boardai.arena.seeding.agent_seed` (S, i), so a
run gives the same games whatever the number of workers.
"""

from boardai.arena.results import GameResult, RunResult
from boardai.arena.runner import play_games

__all__ = ["GameResult", "RunResult", "play_games"]
