"""Where Othello matches were played before the arena played both games: the names stay here
for code that imports them (the training runs' evaluations); new code imports
:mod:`boardai.arena.match`, :mod:`boardai.arena.match_results` and :mod:`boardai.arena.seeding`.
"""

from __future__ import annotations

from boardai.arena.match import play_game, play_match, run_match
from boardai.arena.match_results import GameOutcome, MatchResult, elo_ratings, summarize
from boardai.arena.seeding import pair_seed as game_seed

__all__ = [
    "GameOutcome",
    "MatchResult",
    "elo_ratings",
    "game_seed",
    "play_game",
    "play_match",
    "run_match",
    "summarize",
]
