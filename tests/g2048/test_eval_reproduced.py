"""The one seeding rule for n-tuple networks: the compiled 1-ply play that a training sweep
evaluates with (:meth:`Trainer.play`) and the arena's ``ntuple`` player (``boardai 2048
eval``) play the same games for the same seed."""

from __future__ import annotations

from pathlib import Path

from boardai.arena.solo import play_games
from boardai.g2048.train.trainer import TrainConfig, Trainer

TINY = "0123,4567"


def test_compiled_evaluation_equals_the_arenas(tmp_path: Path) -> None:
    trainer = Trainer(TrainConfig(patterns=TINY, seed=3))
    trainer.train(300)
    trainer.save(tmp_path / "m.npz")
    scores, maxes, moves = Trainer.load(tmp_path / "m.npz").play(12, 9)
    run = play_games(f"ntuple:model={tmp_path / 'm.npz'}", 12, seed=9, workers=1)
    assert [r.score for r in run.results] == scores.tolist()
    assert [r.moves for r in run.results] == moves.tolist()
    assert [r.max_tile for r in run.results] == [1 << int(m) for m in maxes]
    assert len(set(scores.tolist())) > 1


def test_compiled_searched_games_equal_the_arenas() -> None:
    """``boardai 2048 bench ntuple --depth D`` and the searching players' compiled loop
    (:func:`~boardai.g2048.search_games.play_searched`) play the arena's games."""
    from boardai.g2048.agents import make_agent

    spec = "expectimax:depth=1"
    scores, _, moves = make_agent(spec).play_games(seed=4, games=2, first=1)
    run = play_games(spec, 3, seed=4, workers=1)
    assert [r.score for r in run.results[1:]] == scores.tolist()
    assert [r.moves for r in run.results[1:]] == moves.tolist()
