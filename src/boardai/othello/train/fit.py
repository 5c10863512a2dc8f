"""Fit an Othello n-tuple evaluation to final disc differences by regression.

TD self-play (:mod:`boardai.othello.train.ntuple`) learns a value in (-1, 1) one ply at a
time. The engines that lead Othello (Logistello, Edax, Egaroucid) instead fit their pattern
weights, a set per game phase, to many positions labelled with the final disc difference of
the game they come from. :func:`fit` does that on the same network
(:class:`boardai.othello.ntuple.NTupleNetwork`, output kind ``linear``): the value of a
position is the plain sum of its images' weights, the predicted final disc difference for the
mover, in the unit of the endgame solver's exact values.

- **Features**: each position's weight indices (:func:`weight_indices`: all images of every
  tuple, the images of a tuple sharing its table, the table of the position's stage by disc
  count), from the compiled :func:`boardai.othello.ntuple.indices`; with ``features``, the
  index of each count's weight too (:data:`boardai.othello.ntuple.FEATURES`: the movers'
  legal moves, their potential mobility, the empty squares), one more weight a position per
  count, fitted as any other.
- **Fit**: minibatch Adam over a flat weight vector, the prediction a sum of looked-up
  weights, minimising the mean squared error (``mse``) or, as Edax does, the mean absolute
  error (``mae``) in discs, plus two penalties divided by the training positions: ``l2`` times
  the sum of squared weights and ``smooth`` times the sum of squared differences of each weight
  between adjacent stages (a pattern seen rarely in one phase borrows from its neighbours').
  Each step touches only the weights its positions use (lazy Adam, as torch's SparseAdam, the
  penalties' gradient given to a used weight in proportion to its uses, :func:`_steps`); the
  weights no training position uses are set after every epoch to the penalties' own minimum
  given the rest (:func:`_fill_unseen`). The steps are compiled (numba), not torch: on this
  project's loaded 2-core box a step of 1,024 positions of random indices into the
  ``standard`` tuples with 30 stages (5.0M weights) took 0.27 s with torch's dense Adam
  (autograd, one thread; 2 threads were slower), 0.08 s with its SparseAdam, 0.035 s here
  (and under 0.01 s on real positions, whose indices repeat). Torch is not needed. The
  weights start at zero; with the same data and seed the fit is the same.
- **Held out**: a share of the games (when positions carry a game id, so a game's positions do
  not land on both sides) or else of the positions, never trained on; the network kept is the
  epoch's with the lowest held-out mean absolute error, reported per band of empty squares.
- **No augmentation**: the 8 symmetric images of a tuple share its table, so a position and
  its flips and rotations already have the same value and the same features; flipped copies of
  the data would add nothing.

Data (:func:`read_positions`): games files (``boardai othello data pack``,
:mod:`boardai.othello.train.games_file`, whose positions are labelled from the games' results
and grouped by game) or record files (turned into games by that module), or a positions file:
an ``.npz`` of ``mover``, ``opponent`` (uint64), ``label`` (final disc difference for the mover)
and optionally ``game`` (int64 ids for the split), as :func:`write_positions` writes.

>>> from boardai.othello.board import Board
>>> b = Board.initial()
>>> X = weight_indices(np.array([b.mover], np.uint64), np.array([b.opponent], np.uint64),
...              NTupleNetwork.create("corner3x3,diag8", stages=2, output="linear"))
>>> X.shape, X.dtype
((1, 12), dtype('int32'))
"""

from __future__ import annotations

import math
import os
import time
import zipfile
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from boardai._jit import njit
from boardai.errors import UsageError
from boardai.othello.kernels import popcount
from boardai.othello.ntuple import DISC_CLIP, NTupleNetwork, indices

#: Losses :func:`fit` minimises.
LOSSES = ("mse", "mae")

#: The report's bands of empty squares: (lowest, highest), both included.
BANDS: tuple[tuple[int, int], ...] = (
    (0, 9),
    (10, 19),
    (20, 29),
    (30, 39),
    (40, 49),
    (50, 60),
)

#: Defaults of :func:`fit` (and of ``boardai othello train fit``'s flags).
DEFAULTS: dict[str, Any] = {
    "tuples": "standard",
    "stages": 30,
    "epochs": 20,
    "loss": "mse",
    "l2": 5.0,
    "smooth": 20.0,
    "holdout": 0.1,
    "seed": 0,
    "batch": 1024,
    "lr": 0.05,
    "features": "",
}


class Labelled(NamedTuple):
    """Labelled positions, one a row: the mover's and the opponent's discs (uint64), the
    final disc difference for the mover (float32), the empty squares (int64) and the game each
    came from (int64; None: unknown, the held-out split is then by position)."""

    mover: np.ndarray
    opponent: np.ndarray
    label: np.ndarray
    empties: np.ndarray
    game: np.ndarray | None


@njit
def _weight_indices(
    mover: np.ndarray, opponent: np.ndarray, squares: np.ndarray, offsets: np.ndarray
) -> np.ndarray:
    n, k = mover.shape[0], offsets.shape[1]
    out = np.empty((n, k), np.int32)
    row = np.empty(k, np.int64)
    for i in range(n):
        indices(mover[i], opponent[i], squares, offsets, row)
        for j in range(k):
            out[i, j] = row[j]
    return out


def weight_indices(mover: np.ndarray, opponent: np.ndarray, net: NTupleNetwork) -> np.ndarray:
    """int32[n, images]: the index into ``net.weights`` of every image of every position (its
    stage's table): the value of position ``i`` is ``net.weights[X[i]].sum()``."""
    if net.weights.size >= 2**31:
        raise UsageError(f"{net.weights.size:,} weights: too many for int32 indices")
    return _weight_indices(
        np.ascontiguousarray(mover, np.uint64),
        np.ascontiguousarray(opponent, np.uint64),
        net.squares,
        net.offsets,
    )


@njit
def empties_of(mover: np.ndarray, opponent: np.ndarray) -> np.ndarray:
    """int64: the empty squares of each position (``np.bitwise_count`` needs numpy 2)."""
    out = np.empty(mover.shape[0], np.int64)
    for i in range(mover.shape[0]):
        out[i] = 64 - popcount(mover[i] | opponent[i])
    return out


def _check(mover: Any, opponent: Any, label: Any, empties: Any, game: Any) -> Labelled:
    mover = np.ascontiguousarray(mover, np.uint64)
    opponent = np.ascontiguousarray(opponent, np.uint64)
    label = np.ascontiguousarray(label, np.float32)
    empties = np.ascontiguousarray(empties, np.int64)
    n = len(mover)
    arrays = [opponent, label, empties] + ([] if game is None else [game])
    if mover.ndim != 1 or any(np.shape(a) != (n,) for a in arrays):
        raise UsageError("mover, opponent, label, empties (and game) must be 1-d, one a position")
    if n == 0:
        raise UsageError("no positions to fit")
    if np.any(mover & opponent):
        raise UsageError("a position has a square held by both sides")
    if not np.all(np.isfinite(label)) or np.any(np.abs(label) > DISC_CLIP):
        raise UsageError(f"labels must be final disc differences, within ±{DISC_CLIP:g}")
    if not np.array_equal(empties, empties_of(mover, opponent)):
        raise UsageError("empties must be the empty squares of each position")
    g = None if game is None else np.ascontiguousarray(game, np.int64)
    return Labelled(mover, opponent, label, empties, g)


def split(n: int, holdout: float, seed: int, game: np.ndarray | None = None) -> np.ndarray:
    """bool[n]: True for the positions held out, about ``holdout`` of them: whole games when
    ``game`` gives each position's game (a share of the distinct games), else single
    positions. Drawn from ``seed`` alone.

    >>> int(split(10, 0.3, 0).sum())
    3
    >>> held = split(6, 0.5, 1, np.array([0, 0, 1, 1, 2, 2]))
    >>> bool(np.all(held[::2] == held[1::2]))
    True
    """
    if not 0 <= holdout < 1:
        raise UsageError(f"holdout must be in [0, 1), got {holdout}")
    rng = np.random.default_rng(seed)
    if game is None:
        held = np.zeros(n, bool)
        held[rng.permutation(n)[: round(holdout * n)]] = True
        return held
    ids, inverse = np.unique(game, return_inverse=True)
    chosen = np.zeros(len(ids), bool)
    chosen[rng.permutation(len(ids))[: round(holdout * len(ids))]] = True
    return chosen[inverse]


def band_mae(pred: np.ndarray, label: np.ndarray, empties: np.ndarray) -> list[dict[str, Any]]:
    """Mean absolute error (discs) of ``pred`` per band of :data:`BANDS`: one dict a band,
    ``empties`` as text, ``positions`` and ``mae`` (None without positions).

    >>> band_mae(np.array([1.0, 3.0]), np.array([0.0, 0.0]), np.array([5, 55]))[0]
    {'empties': '0-9', 'positions': 1, 'mae': 1.0}
    """
    err = np.abs(np.asarray(pred, np.float64) - np.asarray(label, np.float64))
    out = []
    for lo, hi in BANDS:
        inside = (empties >= lo) & (empties <= hi)
        k = int(inside.sum())
        out.append(
            {
                "empties": f"{lo}-{hi}",
                "positions": k,
                "mae": float(err[inside].mean()) if k else None,
            }
        )
    return out


@njit
def _predict(X: np.ndarray, W: np.ndarray) -> np.ndarray:
    """float64: the clipped value (discs) of each position of feature rows ``X``."""
    out = np.empty(X.shape[0], np.float64)
    for i in range(X.shape[0]):
        v = 0.0
        for j in range(X.shape[1]):
            v += W[X[i, j]]
        out[i] = min(max(v, -DISC_CLIP), DISC_CLIP)
    return out


@njit
def _steps(
    X: np.ndarray,
    y: np.ndarray,
    rows: np.ndarray,
    batch: np.int64,
    W: np.ndarray,
    m: np.ndarray,
    v: np.ndarray,
    g: np.ndarray,
    hits: np.ndarray,
    mark: np.ndarray,
    seen: np.ndarray,
    state: np.ndarray,
    lr: float,
    l2: float,
    smooth: float,
    per_stage: np.int64,
    mae: bool,
) -> float:
    """Minibatches of ``batch`` of the training rows ``rows`` (in order), one Adam step each;
    the sum of their positions' losses.

    A step's gradient is the batch's mean loss's, on the weights its positions use, plus each
    such weight's share of the penalties' gradient: ``hits / (seen * n)`` of it (``hits``:
    its uses in the batch, ``seen``: in the training set, ``n``: the batch), so that over an
    epoch every used weight gets the penalties' gradient over the training set's size, as if
    the penalties were added to every step. Adam is lazy (as torch's SparseAdam): only the
    used weights' moments and values move; ``state`` = (steps so far, step serial for
    ``mark``). Scratch: ``g``, ``hits`` (float64[weights]), ``mark`` (int64[weights]).
    """
    b1, b2, eps = 0.9, 0.999, 1e-8
    stages = W.shape[0] // per_stage
    width = X.shape[1]
    touched = np.empty(batch * width, np.int64)
    total = 0.0
    for s in range(0, rows.shape[0], batch):
        e = min(s + batch, rows.shape[0])
        n = e - s
        state[0] += 1
        state[1] += 1
        serial = state[1]
        nt = 0
        for r in range(s, e):
            i = rows[r]
            pred = 0.0
            for j in range(width):
                pred += W[X[i, j]]
            err = pred - y[i]
            if mae:
                total += abs(err)
                d = (1.0 if err > 0 else -1.0 if err < 0 else 0.0) / n
            else:
                total += err * err
                d = 2.0 * err / n
            for j in range(width):
                k = X[i, j]
                if mark[k] != serial:
                    mark[k] = serial
                    touched[nt] = k
                    nt += 1
                    g[k] = 0.0
                    hits[k] = 0.0
                g[k] += d
                hits[k] += 1.0
        for t in range(nt):
            k = touched[t]
            w = W[k]
            pg = 2.0 * l2 * w
            stage = k // per_stage
            if stage > 0:
                pg += 2.0 * smooth * (w - W[k - per_stage])
            if stage < stages - 1:
                pg += 2.0 * smooth * (w - W[k + per_stage])
            g[k] += pg * hits[k] / (seen[k] * n)
        c1 = 1.0 - b1 ** state[0]
        c2 = 1.0 - b2 ** state[0]
        for t in range(nt):
            k = touched[t]
            m[k] = b1 * m[k] + (1.0 - b1) * g[k]
            v[k] = b2 * v[k] + (1.0 - b2) * g[k] * g[k]
            W[k] -= lr * (m[k] / c1) / (np.sqrt(v[k] / c2) + eps)
    return total


@njit
def _fill_unseen(
    W: np.ndarray, seen: np.ndarray, per_stage: np.int64, l2: float, smooth: float
) -> None:
    """Set the weights no training position uses to where the penalties alone put them given
    the rest: for a run of stages where a weight is unused, the solution of
    ``(l2 + smooth * k_s) w_s = smooth * (sum of w at the adjacent stages)`` (``k_s`` the
    stages adjacent to ``s``), the used ones fixed (a tridiagonal system, solved exactly). So
    a pattern unseen in one phase borrows from the phases around it; without smoothing it
    stays 0, the penalty's own minimum."""
    stages = W.shape[0] // per_stage
    if smooth <= 0.0 or stages == 1:
        return
    a = np.empty(stages)  # the system's diagonal, right side (Thomas algorithm)
    c = np.empty(stages)
    d = np.empty(stages)
    for i in range(per_stage):
        s = 0
        while s < stages:
            if seen[s * per_stage + i] > 0:
                s += 1
                continue
            lo = s
            while s < stages and seen[s * per_stage + i] == 0:
                s += 1
            hi = s - 1  # unused in stages lo..hi; lo - 1 and hi + 1 (if any) are used
            if lo == 0 and hi == stages - 1 and l2 <= 0.0:
                for t in range(lo, hi + 1):
                    W[t * per_stage + i] = 0.0  # nothing to borrow from: any level fits
                continue
            n = hi - lo + 1
            for t in range(n):
                st = lo + t
                k = (st > 0) + (st < stages - 1)
                a[t] = l2 + smooth * k
                d[t] = 0.0
                if t == 0 and st > 0:
                    d[t] += smooth * W[(st - 1) * per_stage + i]
                if t == n - 1 and st < stages - 1:
                    d[t] += smooth * W[(st + 1) * per_stage + i]
            # off-diagonals are all -smooth: forward elimination, back substitution
            c[0] = -smooth / a[0]
            d[0] = d[0] / a[0]
            for t in range(1, n):
                den = a[t] + smooth * c[t - 1]
                c[t] = -smooth / den
                d[t] = (d[t] + smooth * d[t - 1]) / den
            W[hi * per_stage + i] = d[n - 1]
            for t in range(n - 2, -1, -1):
                d[t] -= c[t] * d[t + 1]
                W[(lo + t) * per_stage + i] = d[t]


def fit(
    mover: np.ndarray,
    opponent: np.ndarray,
    label: np.ndarray,
    empties: np.ndarray,
    tuples: str = DEFAULTS["tuples"],
    stages: int = DEFAULTS["stages"],
    *,
    game: np.ndarray | None = None,
    epochs: int = DEFAULTS["epochs"],
    loss: str = DEFAULTS["loss"],
    l2: float = DEFAULTS["l2"],
    smooth: float = DEFAULTS["smooth"],
    holdout: float = DEFAULTS["holdout"],
    seed: int = DEFAULTS["seed"],
    batch: int = DEFAULTS["batch"],
    lr: float = DEFAULTS["lr"],
    features: str = DEFAULTS["features"],
    on_epoch: Callable[[dict[str, Any]], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> tuple[NTupleNetwork, dict[str, Any]]:
    """A linear network of ``tuples`` with ``stages`` fitted to the labelled positions, and a
    report (see the module docstring).

    Args:
        mover, opponent: uint64 bitboards, one a position.
        label: the final disc difference for the mover (within ±64).
        empties: the empty squares of each position (the report's bands).
        game: each position's game (held-out split by game), or None (by position).
        epochs: passes over the training positions.
        loss: ``mse`` or ``mae``, in discs.
        l2, smooth: the penalties' weights (0: none), in positions' worth of loss per
            squared disc.
        holdout: the share held out (0: none; the last epoch's network is kept).
        seed: the split, the order of the minibatches.
        batch, lr: positions a step, Adam's step size.
        features: counts besides the tuples (:func:`boardai.othello.ntuple.parse_features`).
        on_epoch: called after every epoch with ``{"epoch", "train_loss", "holdout_mae",
            "best_epoch", "seconds"}``.
        should_stop: polled every few steps; when it says so the fit ends there (the best
            epoch so far kept, or the weights at that step if they are better or none is).

    The report: ``positions``, ``train``, ``holdout`` (counts), ``split`` (``game`` or
    ``position``), the arguments, ``epochs_done``, ``best_epoch``, ``history`` (one
    ``on_epoch`` record an epoch), ``holdout_mae`` and ``train_mae`` (discs, of the network
    returned; None without positions), ``bands`` (held-out :func:`band_mae`), ``seconds``,
    ``interrupted``.

    Raises:
        UsageError: bad arguments or data (one line).
    """
    if loss not in LOSSES:
        raise UsageError(f"loss must be one of {', '.join(LOSSES)}, got {loss!r}")
    if epochs < 1 or batch < 1:
        raise UsageError("epochs and batch must be at least 1")
    for name, x in (("l2", l2), ("smooth", smooth), ("lr", lr)):
        if not (math.isfinite(x) and x >= 0) or (name == "lr" and x == 0):
            raise UsageError(f"{name} must be a finite number >= 0 (lr > 0), got {x}")
    data = _check(mover, opponent, label, empties, game)
    net = NTupleNetwork.create(tuples, stages, output="linear", features=features)
    held = split(len(data.label), holdout, seed, data.game)
    start = time.perf_counter()
    X = weight_indices(data.mover, data.opponent, net)
    y = data.label.astype(np.float64)
    train_rows = np.flatnonzero(~held)
    held_rows = np.flatnonzero(held)
    if len(train_rows) == 0:
        raise UsageError("no positions left to train on: lower --holdout")
    X_train, y_train = X[train_rows], y[train_rows]
    X_held, y_held, e_held = X[held_rows], y[held_rows], data.empties[held_rows]
    n_train = len(train_rows)

    size = net.weights.size
    per_stage = size // net.stages
    W = np.zeros(size, np.float64)
    m, v, g, hits = (np.zeros(size, np.float64) for _ in range(4))
    mark = np.zeros(size, np.int64)
    seen = np.bincount(X_train.ravel(), minlength=size).astype(np.float64)
    state = np.zeros(2, np.int64)
    rng = np.random.default_rng(seed)
    chunk = batch * max(1, 65536 // batch)  # rows between looks at should_stop

    def held_mae() -> float | None:
        return float(np.abs(_predict(X_held, W) - y_held).mean()) if len(y_held) else None

    best: tuple[float, int, np.ndarray] | None = None  # (held-out MAE, epoch, weights)
    history: list[dict[str, Any]] = []
    interrupted = False
    epoch = 0
    for epoch in range(1, epochs + 1):
        total, count = 0.0, 0
        perm = rng.permutation(n_train)
        for s in range(0, n_train, chunk):
            if should_stop is not None and should_stop():
                interrupted = True
                break
            part = perm[s : s + chunk]
            total += _steps(
                X_train, y_train, part, np.int64(batch), W, m, v, g, hits, mark, seen, state,
                lr, l2, smooth, np.int64(per_stage), loss == "mae",
            )  # fmt: skip
            count += len(part)
        _fill_unseen(W, seen, np.int64(per_stage), l2, smooth)
        mae = held_mae()
        score = math.inf if mae is None else mae
        if interrupted and count < n_train:  # a part epoch: kept only if it is better
            if best is None or (mae is not None and score < best[0]):
                best = (score, epoch, W.copy())
            epoch -= 1
            break
        if best is None or mae is None or score < best[0]:
            best = (score, epoch, W.copy())
        record = {
            "epoch": epoch,
            "train_loss": total / max(count, 1),
            "holdout_mae": mae,
            "best_epoch": best[1],
            "seconds": time.perf_counter() - start,
        }
        history.append(record)
        if on_epoch is not None:
            on_epoch(record)
        if interrupted:
            break
    assert best is not None
    net.weights = best[2].astype(np.float32)
    W32 = net.weights.astype(np.float64)  # what the network returned computes
    pred_held = _predict(X_held, W32)
    report = {
        "positions": len(data.label),
        "train": n_train,
        "holdout": len(y_held),
        "split": "game" if data.game is not None else "position",
        "tuples": tuples,
        "features": ",".join(net.features),
        "stages": stages,
        "loss": loss,
        "l2": l2,
        "smooth": smooth,
        "holdout_share": holdout,
        "seed": seed,
        "batch": batch,
        "lr": lr,
        "epochs": epochs,
        "epochs_done": epoch,
        "best_epoch": best[1],
        "history": history,
        "holdout_mae": float(np.abs(pred_held - y_held).mean()) if len(y_held) else None,
        "train_mae": float(np.abs(_predict(X_train, W32) - y_train).mean()),
        "bands": band_mae(pred_held, y_held, e_held),
        "seconds": time.perf_counter() - start,
        "interrupted": interrupted,
    }
    return net, report


# -- data ------------------------------------------------------------------------------------

#: The arrays of a positions file (:func:`write_positions`); ``game`` may be left out.
POSITION_ARRAYS = ("mover", "opponent", "label")


def write_positions(
    path: str | os.PathLike[str],
    mover: np.ndarray,
    opponent: np.ndarray,
    label: np.ndarray,
    game: np.ndarray | None = None,
) -> None:
    """Write labelled positions as a positions file (an ``.npz``), atomically."""
    from boardai.atomic import atomic_write

    movers, opponents = np.asarray(mover, np.uint64), np.asarray(opponent, np.uint64)
    labels = np.asarray(label)  # whole discs (game results) stay int8; a search's values float32
    labels = labels.astype(np.float32 if labels.dtype.kind == "f" else np.int8)
    with atomic_write(path, "wb") as f:
        if game is None:
            np.savez_compressed(f, mover=movers, opponent=opponents, label=labels)
        else:
            games = np.asarray(game, np.int64)
            np.savez_compressed(f, mover=movers, opponent=opponents, label=labels, game=games)


def _positions_file(path: str | os.PathLike[str]) -> dict[str, np.ndarray] | None:
    """The arrays of a positions file, or None if ``path`` is not one (a games file, records)."""
    try:
        with zipfile.ZipFile(path) as z:
            names = {n.removesuffix(".npy") for n in z.namelist()}
    except (OSError, zipfile.BadZipFile):
        return None
    if not set(POSITION_ARRAYS) <= names:
        return None
    try:
        with np.load(path, allow_pickle=False) as z:
            return {k: z[k] for k in (*POSITION_ARRAYS, "game") if k in z.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as e:
        raise UsageError(f"{os.fspath(path)}: damaged positions file ({e})") from None


def _from_games(path: str | os.PathLike[str]) -> tuple[dict[str, np.ndarray], dict[str, int]]:
    """A games or record file's positions (:func:`boardai.othello.train.games_file.positions`,
    the random opening left out) and each one's game, with the records it skipped, by why.

    The game of each position is counted here from the moves as that function keeps them (one
    position a move that is not a pass, from the end of the random opening), and checked
    against its count: should its rule change, this says so rather than mislabel the split."""
    from boardai.othello.kernels import PASS
    from boardai.othello.train import games_file

    (where, games, skipped), *_ = games_file.read_inputs([path])
    p = games_file.positions(games, skip_random=True)
    counts = [
        int(np.count_nonzero(games.game(i)[int(games.random_plies[i]) :] != PASS))
        for i in range(len(games))
    ]
    if sum(counts) != len(p.label):
        raise UsageError(f"{where}: cannot tell which game each position comes from")
    game = np.repeat(np.arange(len(games), dtype=np.int64), counts)
    arrays = {"mover": p.mover, "opponent": p.opponent, "label": p.label, "game": game}
    return arrays, skipped


def read_positions(paths: Sequence[str | os.PathLike[str]]) -> tuple[Labelled, dict[str, Any]]:
    """The labelled positions of ``paths`` (positions files, games files or record files, see
    the module docstring), and what was read: ``files`` (each one's kind and positions) and
    ``skipped`` (records left out, by why). Games get ids unique over all the files; a
    positions file without ``game`` makes the split by position for all.

    Raises:
        UsageError: a file that is missing or none of these (one line naming it).
    """
    parts: list[dict[str, np.ndarray]] = []
    files: list[dict[str, Any]] = []
    skipped: dict[str, int] = {}
    for path in paths:
        where = os.fspath(path)
        if not os.path.exists(where):
            raise UsageError(f"{where}: no such file")
        arrays = _positions_file(path)
        kind = "positions"
        if arrays is None:
            arrays, left_out = _from_games(path)
            kind = "games"
            for why, k in left_out.items():
                skipped[why] = skipped.get(why, 0) + k
        if not len(arrays["label"]):
            why = ", ".join(f"{k} {why}" for why, k in skipped.items()) if kind == "games" else ""
            raise UsageError(
                f"{where}: no positions to fit in it"
                + (f" (records skipped: {why})" if why else "")
            )
        parts.append(arrays)
        files.append({"path": where, "kind": kind, "positions": len(arrays["label"])})
    if not parts:
        raise UsageError("no data files given")
    game: np.ndarray | None = None
    if all("game" in a for a in parts):
        ids, base = [], 0
        for a in parts:
            _, inverse = np.unique(a["game"], return_inverse=True)
            ids.append(inverse.astype(np.int64) + base)
            base += int(inverse.max()) + 1 if len(inverse) else 0
        game = np.concatenate(ids)
    mover = np.concatenate([np.asarray(a["mover"], np.uint64) for a in parts])
    opponent = np.concatenate([np.asarray(a["opponent"], np.uint64) for a in parts])
    label = np.concatenate([np.asarray(a["label"], np.float32) for a in parts])
    if np.any(mover & opponent):
        raise UsageError("a position has a square held by both sides")
    empties = empties_of(mover, opponent)
    return Labelled(mover, opponent, label, empties, game), {"files": files, "skipped": skipped}
