"""Othello in the arena: matches between two players the Othello League way: double games
(colours swapped, same random seed), an optional random move with probability epsilon on every
ply, a player that fails (raises, returns an illegal move, its engine dies) losing the game by
forfeit, and scores with standard errors.

>>> r = play_match("greedy", "random", games=4, epsilon=0.0, seed=1, workers=1)
>>> r.games, r.wins + r.draws + r.losses
(4, 4)

Game i of a match seeded S belongs to pair p = i // 2 (A black in even games), the rule for
double games in :mod:`boardai.arena.seeding`.

A match may open every game with random plies (``random_plies=(lo, hi)``): k uniformly random
legal plies, k drawn uniformly from lo..hi, before the players play on, as the training data of
an evaluation needs games from many openings. The opening draws from the pair's seed (a stream
of its own, :func:`opening_seed`), so both games of a pair open alike, colours swapped, and a
game's opening depends on the match's seed and the game's index alone.

>>> done = run_match("greedy", "random", 2, seed=3, random_plies=(4, 6), keep_records=True)
>>> [4 <= o.record["random_plies"] <= 6 for o in done.results]
[True, True]
>>> a, b = (o.record for o in done.results)
>>> a["moves"][: a["random_plies"]] == b["moves"][: b["random_plies"]]
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from boardai.agent import Agent
from boardai.arena import runner
from boardai.arena.backends import Backend
from boardai.arena.journal import Part
from boardai.arena.match_results import GameOutcome, MatchResult, summarize
from boardai.arena.play import IllegalMoveError, board_of, play
from boardai.arena.seeding import pair_of, pair_seed

if TYPE_CHECKING:
    from boardai.othello.board import Board
    from boardai.othello.game import Game


#: The most random opening plies a match may ask for: a game has at most 60 moves.
MAX_RANDOM_PLIES = 60


def opening_seed(seed: int) -> np.random.SeedSequence:
    """The random opening's stream for a game seeded ``seed`` (a pair's seed): one of its own,
    so the epsilon moves and the players draw what they drew without an opening."""
    return np.random.SeedSequence(seed, spawn_key=(2,))


def random_opening(plies: tuple[int, int], seed: int, start: Board | None = None) -> list[int]:
    """k uniformly random legal plies from ``start`` (the standard start by default; a forced
    pass is a ply), k drawn uniformly from ``plies`` = (lo, hi), all from
    :func:`opening_seed` (``seed``); fewer if the game ends first.

    >>> len(random_opening((10, 10), seed=1))
    10
    >>> random_opening((3, 8), seed=5) == random_opening((3, 8), seed=5)
    True
    """
    from boardai.othello.board import Board

    lo, hi = plies
    if not 0 <= lo <= hi <= MAX_RANDOM_PLIES:
        raise ValueError(f"random plies must be 0 <= lo <= hi <= {MAX_RANDOM_PLIES}, got {plies}")
    rng = np.random.default_rng(opening_seed(seed))
    board = Board.initial() if start is None else start
    moves: list[int] = []
    for _ in range(int(rng.integers(lo, hi + 1))):
        legal = board.legal_actions()
        if not legal:
            break
        moves.append(legal[int(rng.integers(len(legal)))])
        board = board.play(moves[-1])
    return moves


def play_game(
    black: Agent[Board],
    white: Agent[Board],
    epsilon: float = 0.0,
    seed: int = 0,
    start: Board | None = None,
    opening: Sequence[int] = (),
) -> tuple[Game, str | None]:
    """Play one game; with probability ``epsilon`` a ply is a uniformly random legal move
    drawn from ``seed``. The game opens with the moves of ``opening`` (a random opening,
    :func:`random_opening`), kept in its record; the players play on from there.

    Returns the game and, if a player failed (raised, returned an illegal move, or ran out
    of its game clock: :class:`~boardai.othello.clock.Clocked`), a message: that player then
    loses the game (the game stops there, the loser to move).
    """
    from boardai.othello.clock import OutOfTimeError
    from boardai.othello.contract_game import StateOthello
    from boardai.othello.game import Game

    rng = np.random.default_rng(seed)
    game = Game(start, players=(black.name, white.name))  # the record names them
    for move in opening:
        game.play(move)
    players = (black, white)
    try:
        for _ in play(StateOthello(game), players, observe=board_of, epsilon=epsilon, rng=rng):
            pass
    except IllegalMoveError as e:
        return game, f"{_who(players, game)} played illegal {e.action!r}"
    except OutOfTimeError as e:
        return game, f"{_who(players, game)} lost on time: {e}"
    except Exception as e:  # a crashed engine or a bug: that player forfeits
        return game, f"{_who(players, game)} failed: {e}"
    return game, None


def _who(players: tuple[Agent[Board], Agent[Board]], game: Game) -> str:
    from boardai.othello.board import BLACK

    color = game.board.to_move
    return f"{players[color].name} ({'black' if color == BLACK else 'white'})"


def _outcome(
    index: int,
    a_color: int,
    game: Game,
    forfeit: str | None,
    keep: bool,
    random_plies: int | None = None,
) -> GameOutcome:
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
    if record is not None and random_plies is not None:  # its first plies were random moves
        record["random_plies"] = random_plies
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
        random_plies: (lo, hi): each game opens with k random legal plies, k uniform in
            lo..hi, the same opening for both games of a pair (None: no random opening).
        clock: (main, byo_yomi, stones): each player's game clock
            (:class:`~boardai.othello.clock.Clock`); a player that runs out loses the game
            (None: no clock, each player's own limit a move).
    """

    a: str
    b: str
    epsilon: float = 0.0
    seed: int = 0
    keep_records: bool = False
    swap: bool = True
    random_plies: tuple[int, int] | None = None
    clock: tuple[float, float, int] | None = None

    def build(self) -> list[Agent[Any]]:
        from boardai.othello.agents import make_agent

        return [make_agent(self.a, self.seed), make_agent(self.b, self.seed + 1)]

    def play(self, players: list[Agent[Any]], index: int) -> GameOutcome:
        """Game ``index``: pair ``index // 2``, A black in even games (or all, without
        swapping)."""
        from boardai.othello.board import BLACK, WHITE
        from boardai.othello.clock import Clock, Clocked

        gseed = pair_seed(self.seed, pair_of(index, self.swap))
        a_color = BLACK if index % 2 == 0 or not self.swap else WHITE
        a, b = players
        for agent, seed in ((a, gseed), (b, gseed + 1)):
            agent.reseed(seed)
            agent.reset()
        timed_a, timed_b = (
            Clocked(p, None if self.clock is None else Clock(*self.clock)) for p in (a, b)
        )
        black, white = (timed_a, timed_b) if a_color == BLACK else (timed_b, timed_a)
        opening = () if self.random_plies is None else random_opening(self.random_plies, gseed)
        game, forfeit = play_game(black, white, self.epsilon, gseed, opening=opening)
        random_plies = None if self.random_plies is None else len(opening)
        outcome = _outcome(index, a_color, game, forfeit, self.keep_records, random_plies)
        ta, tb = timed_a.times, timed_b.times
        outcome.a_seconds, outcome.a_moves, outcome.a_slowest = ta.seconds, ta.moves, ta.slowest
        outcome.b_seconds, outcome.b_moves, outcome.b_slowest = tb.seconds, tb.moves, tb.slowest
        return outcome


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
    random_plies: tuple[int, int] | None = None,
    clock: tuple[float, float, int] | None = None,
) -> runner.Run[GameOutcome]:
    """Play ``games`` games of A against B; Ctrl-C stops and keeps the finished ones (the
    run's ``interrupted`` says so). The outcomes come back in game order; ``on_game`` sees
    each as it finishes (and first those of ``journal``, which are not played again);
    ``part``: only the games of this range (:func:`~boardai.arena.runner.run`);
    ``random_plies``: each game's random opening, ``clock``: each player's game clock (see
    :class:`Match`)."""
    return runner.run(
        Match(a, b, epsilon, seed, keep_records, swap, random_plies, clock),
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
