"""Experience replay: a ring buffer of named numpy fields, and n-step return folding.

The buffer is game-agnostic: the caller names the fields (a 2048 DQN stores packed boards,
actions, rewards, next boards, next-state legal masks and discounts) and samples them by
index. It also serves seed 000's "1,000 newest plus 2,000 older" fits (:meth:`sample_split`)
and saves itself into a checkpoint (:meth:`state_dict`).

>>> import numpy as np
>>> buf = ReplayBuffer(4, {"x": ((), np.int64)})
>>> buf.add_batch(x=np.arange(6))
>>> len(buf), sorted(buf.fields["x"].tolist())
(4, [2, 3, 4, 5])
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np


class ReplayBuffer:
    """A fixed-capacity ring of transitions; the oldest are overwritten first.

    Args:
        capacity: most transitions kept.
        spec: field name -> (shape of one item, dtype).
    """

    def __init__(self, capacity: int, spec: dict[str, tuple[tuple[int, ...], Any]]) -> None:
        if capacity < 1:
            raise ValueError(f"replay capacity must be >= 1, got {capacity}")
        self.capacity = capacity
        self.spec = spec
        self.fields = {k: np.zeros((capacity, *shape), dtype) for k, (shape, dtype) in spec.items()}
        self.next = 0  # slot the next item goes to
        self.size = 0
        self.added = 0  # items ever added

    def __len__(self) -> int:
        return self.size

    def add_batch(self, **items: np.ndarray) -> None:
        """Append a batch: every field, each with the same leading length."""
        if set(items) != set(self.fields):
            raise ValueError(f"add_batch needs fields {sorted(self.fields)}, got {sorted(items)}")
        n = len(next(iter(items.values())))
        if n == 0:
            return
        if n > self.capacity:  # only the newest fit
            items = {k: v[-self.capacity :] for k, v in items.items()}
            n = self.capacity
        idx = (self.next + np.arange(n)) % self.capacity
        for k, v in items.items():
            self.fields[k][idx] = v
        self.next = int((self.next + n) % self.capacity)
        self.size = min(self.capacity, self.size + n)
        self.added += n

    def get(self, idx: np.ndarray) -> dict[str, np.ndarray]:
        """The items at ring slots ``idx``."""
        return {k: v[idx] for k, v in self.fields.items()}

    def sample(self, batch: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
        """``batch`` items drawn uniformly with replacement."""
        if self.size == 0:
            raise ValueError("cannot sample an empty replay buffer")
        return self.get(rng.integers(0, self.size, batch))

    def sample_split(
        self, newest: int, older: int, rng: np.random.Generator
    ) -> dict[str, np.ndarray]:
        """Seed 000's fit set: the ``newest`` items plus ``older`` drawn without replacement
        from the rest (fewer when the buffer holds fewer), shuffled."""
        newest = min(newest, self.size)
        order = (self.next - 1 - np.arange(self.size)) % self.capacity  # newest first
        rest = order[newest:]
        older = min(older, len(rest))
        picked = np.concatenate([order[:newest], rng.choice(rest, older, replace=False)])
        rng.shuffle(picked)
        return self.get(picked)

    def state_dict(self) -> dict[str, Any]:
        """Everything needed to rebuild the buffer (only the filled part of the arrays)."""
        return {
            "capacity": self.capacity,
            "next": self.next,
            "size": self.size,
            "added": self.added,
            "fields": {k: v[: self.size].copy() for k, v in self.fields.items()},
        }

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Restore :meth:`state_dict` output (into a buffer of the same capacity and spec)."""
        if state["capacity"] != self.capacity or set(state["fields"]) != set(self.fields):
            raise ValueError("saved replay buffer has another capacity or other fields")
        self.next, self.size, self.added = (
            int(state["next"]),
            int(state["size"]),
            int(state["added"]),
        )
        for k, v in state["fields"].items():
            self.fields[k][: self.size] = v


class NStep:
    """Folds each stream's 1-step transitions into n-step ones.

    ``push(i, item, reward, terminal, truncated)`` takes stream i's transition from state
    ``item`` with its reward, and returns the finished n-step transitions as
    ``(item, return, steps)``: the discounted sum of up to n rewards and how many steps it
    spans. The caller bootstraps with ``gamma ** steps`` times the value of the state
    reached, which is the newest next state of the stream (none after a terminal).

    >>> ns = NStep(n=2, gamma=0.5, streams=1)
    >>> ns.push(0, "s0", 1.0, False, False)
    []
    >>> ns.push(0, "s1", 2.0, False, False)
    [('s0', 2.0, 2)]
    >>> ns.push(0, "s2", 4.0, True, False)
    [('s1', 4.0, 2), ('s2', 4.0, 1)]
    """

    def __init__(self, n: int, gamma: float, streams: int) -> None:
        if n < 1:
            raise ValueError(f"n-step must be >= 1, got {n}")
        self.n = n
        self.gamma = gamma
        self.queues: list[deque[tuple[Any, float]]] = [deque() for _ in range(streams)]

    def push(
        self, i: int, item: Any, reward: float, terminal: bool, truncated: bool
    ) -> list[tuple[Any, float, int]]:
        q = self.queues[i]
        q.append((item, reward))
        out = []
        if len(q) == self.n:
            out.append(self._fold(q))
            q.popleft()
        if terminal or truncated:
            while q:
                out.append(self._fold(q))
                q.popleft()
        return out

    def _fold(self, q: deque[tuple[Any, float]]) -> tuple[Any, float, int]:
        total = 0.0
        for k, (_, r) in enumerate(q):
            total += self.gamma**k * r
        return q[0][0], total, len(q)

    def clear(self) -> None:
        """Drop every unfinished transition (e.g. on resume)."""
        for q in self.queues:
            q.clear()
