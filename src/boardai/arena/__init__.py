"""The arena: play many games of either game over a backend (this process, a process pool), and
measure the players.

>>> from boardai.arena import play_games, play_match
>>> run = play_games("greedy", games=3, seed=1, workers=1)
>>> len(run.results), run.results[0].index
(3, 0)
>>> play_match("wpc", "random", games=2, seed=1).games
2

One runner (:func:`boardai.arena.runner.run`) plays the games of a contest: 2048's
(:mod:`boardai.arena.solo`: one player, scored by points) or Othello's
(:mod:`boardai.arena.match`: A against B in double games). Every game's randomness comes from
the run's seed and the game's index (:mod:`boardai.arena.seeding`), so a run gives the same
games whatever the number of workers or the size of the chunks they are sent in. The game loops
every command and app plays through are in :mod:`boardai.arena.play`.
"""

from boardai.arena.match import play_match
from boardai.arena.match_results import GameOutcome, MatchResult
from boardai.arena.results import GameResult, RunResult
from boardai.arena.solo import play_games

__all__ = ["GameOutcome", "GameResult", "MatchResult", "RunResult", "play_games", "play_match"]
