"""Othello in the arena: matches between two players the Othello League way: double games
(colours swapped, same random seed), an optional random move with probability epsilon on every
ply, a player that fails (raises, returns an illegal move, its engine dies) losing the game by
forfeit, and scores with standard errors.

>>> r = play_match("greedy", "random", games=4, epsilon=0.0, seed=1, workers=1)
>>> r.games, r.wins + r.draws + r.losses
(4, 4)

Game i of a match seeded S belongs to pair p = i // 2 (A black in even games), the rule for
double games in :mod:`boardai.arena.seeding`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from boardai.agent import Agent
from boardai.arena import runner
from boardai.arena.backends import Backend
from boardai.arena.journal import Part
from boardai.arena.match_results import GameOutcome, MatchResult, summarize
from boardai.arena.play import IllegalMoveError, play_othello
from boardai.arena.seeding import pair_of, pair_seed

if TYPE_CHECKING:
    from boardai.othello.board import Board
    from boardai.othello.game import Game


def play_game(
    black: Agent[Board],
    white: Agent[Board],
    epsilon: float = 0.0,
    seed: int = 0,
    start: Board | None = None,
) -> tuple[Game, str | None]:
    """Play one game; with probability ``epsilon`` a ply is a uniformly random legal move
    drawn from ``seed``.

    Returns the game and, if a player failed (raised, or returned an illegal move), a message:
    that player then loses the game (the game stops there, the loser to move).
    """
    from boardai.othello.game import Game

    rng = np.random.default_rng(seed)
    game = Game(start, players=(black.name, white.name))  # the record names them
    players = (black, white)
    try:
        for _ in play_othello(game, players, epsilon=epsilon, rng=rng):
            pass
    except IllegalMoveError as e:
        return game, f"{_who(players, game)} played illegal {e.action!r}"
    except Exception as e:  # a crashed engine or a bug: that player forfeits
        return game, f"{_who(players, game)} failed: {e}"
    return game, None


def _who(players: tuple[Agent[Board], Agent[Board]], game: Game) -> str:
    from boardai.othello.board import BLACK

    color = game.board.to_move
    return f"{players[color].name} ({'black' if color == BLACK else 'white'})"


def _outcome(index: int, a_color: int, game: Game, forfeit: str | None, keep: bool) -> GameOutcome:
    if forfeit is not None:
        loser = game.board.to_move
        score = 0.0 if loser == a_color else 1.0
        diff = -64 if loser == a_color else 64
    else:
        diff = game.board.score(a_color)
        score = 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0
    record = game.to_record() if keep else None
    if record is not None and forfeit:
        record["forfeit"] = forfeit
    return GameOutcome(index, a_color, score, diff, len(game.moves), forfeit, record)


@dataclass(frozen=True)
class Match:
    """The Othello contest: game ``index`` of A against B.

    Attributes:
        a: player A's spec (black in even games).
        b: player B's spec.
        epsilon: probability of a random move on every ply.
        seed: the match's seed.
        keep_records: keep each game's record in its outcome.
        swap: colours alternate and pairs share a seed; False: A is black in every game.
    """

    a: str
    b: str
    epsilon: float = 0.0
    seed: int = 0
    keep_records: bool = False
    swap: bool = True

    def build(self) -> list[Agent[Any]]:
        from boardai.othello.agents import make_agent

        return [make_agent(self.a, self.seed), make_agent(self.b, self.seed + 1)]

    def play(self, players: list[Agent[Any]], index: int) -> GameOutcome:
        """Game ``index``: pair ``index // 2``, A black in even games (or all, without
        swapping)."""
        from boardai.othello.board import BLACK, WHITE

        gseed = pair_seed(self.seed, pair_of(index, self.swap))
        a_color = BLACK if index % 2 == 0 or not self.swap else WHITE
        a, b = players
        for agent, seed in ((a, gseed), (b, gseed + 1)):
            agent.reseed(seed)
            agent.reset()
        black, white = (a, b) if a_color == BLACK else (b, a)
        game, forfeit = play_game(black, white, self.epsilon, gseed)
        return _outcome(index, a_color, game, forfeit, self.keep_records)


def run_match(
    a: str,
    b: str,
    games: int,
    *,
    epsilon: float = 0.0,
    seed: int = 0,
    workers: int = 1,
    keep_records: bool = False,
    swap: bool = True,
    on_game: Callable[[GameOutcome], None] | None = None,
    backend: Backend | None = None,
    chunk: int | None = None,
    journal: Part[GameOutcome] | None = None,
    part: range | None = None,
) -> runner.Run[GameOutcome]:
    """Play ``games`` games of A against B; Ctrl-C stops and keeps the finished ones (the
    run's ``interrupted`` says so). The outcomes come back in game order; ``on_game`` sees
    each as it finishes (and first those of ``journal``, which are not played again);
    ``part``: only the games of this range (:func:`~boardai.arena.runner.run`)."""
    return runner.run(
        Match(a, b, epsilon, seed, keep_records, swap),
        games,
        workers=workers,
        backend=backend,
        chunk=chunk,
        on_result=None if on_game is None else lambda _, outcome: on_game(outcome),
        journal=journal,
        part=part,
    )


def play_match(
    a: str,
    b: str,
    games: int,
    *,
    epsilon: float = 0.0,
    seed: int = 0,
    workers: int = 1,
    swap: bool = True,
    on_game: Callable[[GameOutcome], None] | None = None,
) -> MatchResult:
    """Play ``games`` games of A against B (colours alternate; pairs share a seed) and sum
    them up; Ctrl-C raises KeyboardInterrupt."""
    start = time.perf_counter()
    done = run_match(
        a, b, games, epsilon=epsilon, seed=seed, workers=workers, swap=swap, on_game=on_game
    )
    if done.interrupted:  # a training run's evaluation: the trainer saves, then stops
        raise KeyboardInterrupt
    return summarize(a, b, done.results, time.perf_counter() - start, epsilon)
