"""Matches and tournaments between Othello players, the Othello League way: double games
(colours swapped, same random seed), an optional random move with probability epsilon on every
ply, scores with standard errors, a process pool whose results do not depend on its size.

>>> r = play_match("greedy", "random", games=4, epsilon=0.0, seed=1, workers=1)
>>> r.games, r.wins + r.draws + r.losses
(4, 4)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from boardai.othello.board import BLACK, WHITE, Board
from boardai.othello.game import Game


@dataclass
class GameOutcome:
    """One game of a match, from player A's point of view."""

    index: int
    a_color: int
    score: float  #: 1 win, 0.5 draw, 0 loss for A
    disc_diff: int  #: A's final disc difference (empties to the winner)
    moves: int
    forfeit: str | None = None  #: why a player lost by forfeit (a crashed engine), if one did
    record: dict[str, Any] | None = None


@dataclass
class MatchResult:
    """Totals of a match for player A against player B."""

    a: str
    b: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    score_se: float
    disc_diff: float
    moves: int
    seconds: float
    epsilon: float
    forfeits: list[str] = field(default_factory=list)

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds if self.seconds > 0 else math.nan

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["moves_per_second"] = self.moves_per_second
        return d


def game_seed(seed: int, pair: int) -> int:
    """The seed of double game ``pair`` (both colour assignments use it)."""
    return int(np.random.SeedSequence([seed, pair]).generate_state(1, np.uint64)[0])


def _seed_agent(agent: Any, seed: int) -> None:
    reseed = getattr(agent, "reseed", None)
    if reseed is not None:
        reseed(seed)
    agent.reset()


def play_game(
    black: Any, white: Any, epsilon: float = 0.0, seed: int = 0, start: Board | None = None
) -> tuple[Game, str | None]:
    """Play one game; with probability ``epsilon`` a ply is a uniformly random legal move.

    Returns the game and, if a player failed (raised, or returned an illegal move), a message:
    that player then loses the game (the game stops there).
    """
    rng = np.random.default_rng(seed)
    game = Game(start)
    players = (black, white)
    while not game.is_over():
        board = game.board
        legal = board.legal_actions()
        if epsilon > 0 and rng.random() < epsilon:
            action = legal[int(rng.integers(len(legal)))]
        else:
            player = players[board.to_move]
            try:
                action = player.act(board)
            except Exception as e:  # a crashed engine or a bug: that player forfeits
                return game, f"{player.name} ({_color(board.to_move)}) failed: {e}"
            if action not in legal:
                return game, f"{player.name} ({_color(board.to_move)}) played illegal {action!r}"
        game.play(action)
    return game, None


def _color(c: int) -> str:
    return "black" if c == BLACK else "white"


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


# -- worker side ------------------------------------------------------------------------------

_WORKER: dict[str, Any] = {}


def _init_worker(a: str, b: str, epsilon: float, seed: int, keep: bool, swap: bool) -> None:
    from boardai.errors import UsageError
    from boardai.othello.agents import make_agent

    _WORKER.clear()
    try:
        _WORKER.update(a=make_agent(a, seed), b=make_agent(b, seed + 1))
    except UsageError as e:  # raised by the first game, so the parent gets it as it is
        _WORKER["error"] = e
    _WORKER.update(epsilon=epsilon, seed=seed, keep=keep, swap=swap)


def _play_index(index: int) -> GameOutcome:
    """Game ``index`` of the match: pair ``index // 2``, A black in even games (or all, without
    swapping)."""
    w = _WORKER
    if "error" in w:
        raise w["error"]
    gseed = game_seed(w["seed"], index // 2 if w["swap"] else index)
    a_color = BLACK if index % 2 == 0 or not w["swap"] else WHITE
    _seed_agent(w["a"], gseed)
    _seed_agent(w["b"], gseed + 1)
    black, white = (w["a"], w["b"]) if a_color == BLACK else (w["b"], w["a"])
    game, forfeit = play_game(black, white, w["epsilon"], gseed)
    return _outcome(index, a_color, game, forfeit, w["keep"])


def run_games(
    a: str,
    b: str,
    games: int,
    *,
    epsilon: float = 0.0,
    seed: int = 0,
    workers: int = 1,
    keep_records: bool = False,
    swap: bool = True,
) -> Iterator[GameOutcome]:
    """Yield the outcomes of ``games`` games in order (A black in even ones, or in all of
    them when not ``swap``)."""
    init = (a, b, epsilon, seed, keep_records, swap)
    if workers <= 1:
        _init_worker(*init)
        for i in range(games):
            yield _play_index(i)
        return
    with ProcessPoolExecutor(workers, initializer=_init_worker, initargs=init) as pool:
        yield from pool.map(
            _play_index, range(games), chunksize=max(1, min(16, games // (8 * workers)))
        )


def summarize(
    a: str, b: str, outcomes: list[GameOutcome], seconds: float, epsilon: float
) -> MatchResult:
    """Wins, draws, losses, score ± standard error and mean disc difference for A."""
    s = np.array([o.score for o in outcomes], np.float64)
    n = len(s)
    se = float(s.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    return MatchResult(
        a=a,
        b=b,
        games=n,
        wins=int((s == 1).sum()),
        draws=int((s == 0.5).sum()),
        losses=int((s == 0).sum()),
        score=float(s.mean()) if n else math.nan,
        score_se=se,
        disc_diff=float(np.mean([o.disc_diff for o in outcomes])) if n else math.nan,
        moves=sum(o.moves for o in outcomes),
        seconds=seconds,
        epsilon=epsilon,
        forfeits=[o.forfeit for o in outcomes if o.forfeit],
    )


def play_match(
    a: str,
    b: str,
    games: int,
    *,
    epsilon: float = 0.0,
    seed: int = 0,
    workers: int = 1,
    on_game: Callable[[GameOutcome], None] | None = None,
) -> MatchResult:
    """Play ``games`` games of A against B (colours alternate; pairs share a seed)."""
    import time

    start = time.perf_counter()
    outcomes = []
    for o in run_games(a, b, games, epsilon=epsilon, seed=seed, workers=workers):
        outcomes.append(o)
        if on_game is not None:
            on_game(o)
    return summarize(a, b, outcomes, time.perf_counter() - start, epsilon)


def elo_ratings(
    names: list[str], scores: dict[tuple[int, int], tuple[float, int]], iters: int = 2000
) -> list[float]:
    """Elo ratings (mean 1500) that best explain the pairwise scores (a Bradley-Terry fit).

    ``scores[(i, j)] = (points of i against j, games)``.
    """
    n = len(names)
    r = np.zeros(n)
    for _ in range(iters):
        grad = np.zeros(n)
        for (i, j), (pts0, g0) in scores.items():
            pts, g = pts0 + 0.5, g0 + 1  # one pseudo-draw per pair keeps 100% scores finite
            expected = g / (1 + 10 ** ((r[j] - r[i]) / 400))
            grad[i] += pts - expected
            grad[j] -= pts - expected
        r += 4.0 * grad / max(1, max(g for _, g in scores.values()))
        r -= r.mean()
    return [float(1500 + x) for x in r]
