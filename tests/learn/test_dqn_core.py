"""The DQN parts both games share (:mod:`boardai.learn.dqn`): the bootstrap value against a
plain loop, the target network's updates, the loss, and the loop's stops and events."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch")

from boardai.learn.dqn import Cadence, DQNTrainer, QLearner, best_next_value  # noqa: E402
from boardai.learn.run import Progress  # noqa: E402


def _best_next_value_naive(q: np.ndarray, legal: np.ndarray, chooser: np.ndarray) -> list[float]:
    """Per row: q at the first legal action of highest chooser value; 0 with none legal."""
    out = []
    for qs, ok, cs in zip(q, legal, chooser, strict=True):
        actions = [a for a in range(len(ok)) if ok[a]]
        if not actions:
            out.append(0.0)
            continue
        best = actions[0]
        for a in actions:
            if cs[a] > cs[best]:
                best = a
        out.append(float(qs[best]))
    return out


@settings(max_examples=60, deadline=None)
@given(
    rows=st.integers(1, 6),
    actions=st.integers(1, 5),
    seed=st.integers(0, 2**32 - 1),
    double=st.booleans(),
    ties=st.booleans(),
)
def test_best_next_value_matches_a_plain_loop(
    rows: int, actions: int, seed: int, double: bool, ties: bool
) -> None:
    rng = np.random.default_rng(seed)
    q = rng.normal(size=(rows, actions)).astype(np.float32) * 100
    if ties:  # equal values: the first legal one is picked
        q = np.round(q / 100).astype(np.float32)
    legal = rng.random((rows, actions)) < 0.6
    chooser = rng.normal(size=q.shape).astype(np.float32) if double else q
    got = best_next_value(
        torch.from_numpy(q), torch.from_numpy(legal), torch.from_numpy(chooser) if double else None
    )
    assert got.tolist() == _best_next_value_naive(q, legal, chooser)


def _learner(**kwargs: Any) -> QLearner:
    torch.manual_seed(0)
    return QLearner(torch.nn.Linear(3, 2), "adam", 0.1, **kwargs)


def _step(learner: QLearner) -> float:
    x = torch.arange(6.0).view(2, 3)
    return learner.step(learner.net(x)[:, 0], torch.tensor([1.0, -2.0]))


def test_soft_target_update_moves_tau_of_the_way() -> None:
    learner = _learner(target_update="soft", tau=0.25)
    before = [p.detach().clone() for p in learner.target.parameters()]
    _step(learner)
    learner.sync_target()
    for old, new, online in zip(
        before, learner.target.parameters(), learner.net.parameters(), strict=True
    ):
        torch.testing.assert_close(new, old + 0.25 * (online.detach() - old))
        assert not torch.equal(new, online)


def test_hard_target_update_copies_every_period_updates() -> None:
    learner = _learner(target_update="hard", period=3)
    start = learner.target.weight.detach().clone()
    for n in range(1, 7):
        _step(learner)
        learner.sync_target()
        copied = torch.equal(learner.target.weight, learner.net.weight)
        assert copied == (n % 3 == 0), n
        if n < 3:
            assert torch.equal(learner.target.weight, start)
    assert learner.updates == 6


def test_without_a_target_network_targets_bootstrap_from_the_online_one() -> None:
    learner = _learner(target_update="none")
    assert learner.bootstrap_net() is learner.net
    hard = _learner()
    assert hard.bootstrap_net() is hard.target


@pytest.mark.parametrize("loss", ["huber", "mse"])
def test_the_step_returns_the_td_loss_with_its_l2_penalty(loss: str) -> None:
    learner = _learner(loss=loss, l2=0.01)
    x = torch.arange(6.0).view(2, 3)
    y = torch.tensor([1.0, -2.0])
    with torch.no_grad():
        err = learner.net(x)[:, 0] - y
        per = err**2 if loss == "mse" else torch.where(err.abs() < 1, 0.5 * err**2, err.abs() - 0.5)
        l2 = sum((p * p).sum() for p in learner.net.parameters())
        want = float(per.mean() + 0.5 * 0.01 * l2)
    assert _step(learner) == pytest.approx(want, rel=1e-6)
    learner.set_lr(0.5)
    assert learner.opt.param_groups[0]["lr"] == 0.5


def test_gradient_clipping_bounds_the_gradient_norm() -> None:
    learner = _learner(grad_clip=0.01)
    _step(learner)
    norm = torch.sqrt(sum((p.grad**2).sum() for p in learner.net.parameters()))
    assert float(norm) <= 0.01 + 1e-6


@given(every=st.integers(1, 7), start=st.integers(0, 30), steps=st.integers(1, 40))
def test_cadence_is_due_at_each_multiple_passed_one_unit_at_a_time(
    every: int, start: int, steps: int
) -> None:
    c = Cadence(every, start)
    due = [d for d in range(start + 1, start + steps + 1) if c.due(d)]
    assert due == [d for d in range(start + 1, start + steps + 1) if d % every == 0]
    assert not any(Cadence(0, start).due(d) for d in range(start, start + steps))


class Counting(DQNTrainer):
    """A trainer without a network: each chunk adds ``per_chunk`` units, one yield each."""

    unit = "units"

    def __init__(self, out: Path, per_chunk: int = 3, raises: bool = True) -> None:
        super().__init__(out, seed=0, threads=1)
        self.n, self.per_chunk, self.saves = 0, per_chunk, 0
        self.finished: bool | None = None
        self.ctrl_c_raises = raises  # type: ignore[misc]
        self.ctrl_c_at: int | None = None

    @property
    def done(self) -> int:
        return self.n

    def play(self) -> Iterator[None]:
        for _ in range(self.per_chunk):
            if self.n == self.ctrl_c_at:
                raise KeyboardInterrupt
            self.n += 1
            yield

    def report(self, total: int) -> tuple[dict[str, Any] | None, str | None]:
        if self.n % 4:
            return None, None
        self.keep_if_best(-abs(self.n - 8), self.save_run)
        return {"n": self.n}, "saved"

    def save_run(self) -> None:
        self.saves += 1

    def finish(self, total: int, interrupted: bool) -> dict[str, Any]:
        self.finished = interrupted
        return {"n": self.n}


def test_the_loop_reports_each_unit_and_stops_at_the_total(tmp_path: Path) -> None:
    trainer = Counting(tmp_path / "run")
    events: list[Progress] = []
    summary = trainer.train(10, on_progress=events.append)
    assert events[0].kind == "start" and events[0].detail is trainer
    assert [e.done for e in events[1:]] == list(range(1, 11))  # a chunk cut at the total
    assert [e.done for e in events if e.stats] == [4, 8] and events[4].saved == "saved"
    assert summary == {"n": 10, "unit": "units", "done": 10, "total": 10} | {
        "out": str(tmp_path / "run"),
        "interrupted": False,
    }
    assert trainer.finished is False and trainer.best_score == 0  # at 8 (4 was -4)


def test_a_stop_request_saves_and_ends_the_run_between_chunks(tmp_path: Path) -> None:
    trainer = Counting(tmp_path)
    summary = trainer.train(100, should_stop=lambda: trainer.done >= 5)
    assert summary["interrupted"] and summary["done"] == 6  # two chunks of 3
    assert trainer.saves == 1 + 1 and trainer.finished is True  # the report at 4, the stop


def test_ctrl_c_saves_then_goes_on_up_or_ends_the_run(tmp_path: Path) -> None:
    trainer = Counting(tmp_path)
    trainer.ctrl_c_at = 2
    with pytest.raises(KeyboardInterrupt):
        trainer.train(100)
    assert trainer.saves == 1 and trainer.finished is None
    quiet = Counting(tmp_path, raises=False)
    quiet.ctrl_c_at = 2
    summary = quiet.train(100)
    assert summary["interrupted"] and quiet.saves == 1 and quiet.finished is True


def test_a_time_limit_ends_the_run_without_a_stop(tmp_path: Path) -> None:
    trainer = Counting(tmp_path)
    summary = trainer.train(100, minutes=0.0)
    assert summary["done"] == 0 and not summary["interrupted"] and trainer.saves == 0
