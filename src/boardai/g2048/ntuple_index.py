"""How a 2048 n-tuple network reads its table indices off the 8 images of a board: by a loop
over the run table, or by straight-line code compiled for the network's own patterns.

An index is built run by run from the pattern's run table
(:func:`~boardai.g2048.ntuple.run_table`): ``index = (index << width) | ((image >> source) &
mask)``. Read from the table, every run costs three loads and a loop step, and the shifts
are by register, for every image of every board: a 4x6 network spends about 660
instructions writing the 32 indices of a board that way (620 summing its value), against
480 (460) when the shifts, masks and table offsets are constants (valgrind, 2 million
boards). The patterns never change while a network lives, so
a network can carry them in a *type*: :class:`IndexLayout` is a value whose numba type
(:class:`IndexLayoutType`) holds the run table and the offsets, and the two kernels here,
:func:`write_indices` and :func:`sum_weights`, are compiled per layout type from source
written for it (:func:`kernel_source`), one statement a lookup. Numba's cache keys compiled
code by its argument types, so each pattern set compiles once, then loads from the cache
like any other signature.

The generic layout (``IndexLayout(None)``, one type for every network) keeps the loop over
the run table: one compilation serves every pattern set, which is what small networks
(tests, quick experiments) want; :meth:`~boardai.g2048.ntuple.NTupleNetwork.data` picks
the specialised code for networks with a pattern of :data:`SPECIALISE_MIN_CELLS` cells or
more (tables of 16**5 entries and up), where speed matters. Both read the same indices and
sum the same weights in the same order, so every value is the same bit for bit
(tests/g2048/test_ntuple_index.py).

>>> from boardai.g2048.ntuple import run_table
>>> runs, n_runs = run_table([(0, 1, 2, 4, 5, 6)])
>>> print(kernel_source(IndexLayout.of(runs, n_runs, [0, 16**6]).key, "sum").splitlines()[4])
    i0_0 = 0 + np.int64(((((b0 >> np.uint64(16)) & np.uint64(0xfff)) << np.uint64(12)) | \
(b0 & np.uint64(0xfff))))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numba import types
from numba.extending import overload

from boardai._jit import njit
from boardai.constant_types import register_constant
from boardai.intrinsics import prefetch

#: Networks with a pattern of at least this many cells (tables of 16**5 entries and up)
#: get kernels compiled for their patterns; smaller ones share the generic kernels.
SPECIALISE_MIN_CELLS = 5

#: A layout's key: per pattern its runs ``(source shift, mask, width)`` from the highest
#: digits down, the table offsets, and whether the network has stages (without, the stage
#: offset is always 0 and the code leaves it out); ``None`` for the generic layout.
LayoutKey = tuple[tuple[tuple[tuple[int, int, int], ...], ...], tuple[int, ...], bool] | None


class IndexLayoutType(types.Type):
    """The numba type of an :class:`IndexLayout`: the layout's key is part of the type."""

    def __init__(self, key: LayoutKey) -> None:
        self.layout = key
        super().__init__(name="IndexLayout(generic)" if key is None else f"IndexLayout{key}")


class IndexLayout:
    """A network's patterns as a compile-time constant (see the module's docstring).

    Args:
        key: the runs and offsets (:func:`of` makes it from a run table), or ``None``: the
            generic kernels, which read the run table at run time.
    """

    def __init__(self, key: LayoutKey) -> None:
        self.key = key
        self.numba_type = IndexLayoutType(key)

    @classmethod
    def of(
        cls,
        runs: np.ndarray,
        n_runs: np.ndarray,
        offsets: Sequence[int] | np.ndarray,
        staged: bool = False,
    ) -> IndexLayout:
        """The specialised layout of a run table, its table offsets, and whether the network
        has more than one stage."""
        key = (
            tuple(
                tuple(
                    (int(runs[p, r, 0]), int(runs[p, r, 1]), int(runs[p, r, 2]))
                    for r in range(int(n_runs[p]))
                )
                for p in range(len(n_runs))
            ),
            tuple(int(x) for x in offsets),
            bool(staged),
        )
        return cls(key)

    def __repr__(self) -> str:
        return f"IndexLayout({self.key!r})"


register_constant(IndexLayout, IndexLayoutType)  # everything is in the type


def _index_expr(runs: tuple[tuple[int, int, int], ...], image: str) -> str:
    """The source of one index: the runs of a pattern on the image named ``image``."""

    def digits(src: int, mask: int) -> str:
        shifted = image if src == 0 else f"({image} >> np.uint64({src}))"
        return f"({shifted} & np.uint64({mask:#x}))"

    expr = digits(*runs[0][:2])
    for src, mask, width in runs[1:]:
        expr = f"(({expr} << np.uint64({width})) | {digits(src, mask)})"
    return f"np.int64({expr})"


def kernel_source(key: LayoutKey, kind: str) -> str:
    """The source of a specialised kernel: ``kind`` "write" (:func:`write_indices`) or "sum"
    (:func:`sum_weights`), one statement per lookup. Indices are made image by image (each
    image's shifts shared by its patterns); the sum adds them pattern by pattern, image by
    image, the generic kernel's order, so the value is the same bit for bit."""
    assert key is not None
    runs, offsets, staged = key
    stage = "base + " if staged else ""
    if kind == "write":
        lines = ["def kernel(im, base, data, out):", "    weights = data[0]"]
    else:
        lines = ["def kernel(im, base, data):", "    weights = data[0]", "    v = 0.0"]
    lines.append("    b0, b1, b2, b3, b4, b5, b6, b7 = im")
    for j in range(8):
        for p, pattern_runs in enumerate(runs):
            index = f"{stage}{offsets[p]} + {_index_expr(pattern_runs, f'b{j}')}"
            if kind == "write":
                lines.append(f"    out[{8 * p + j}] = i = {index}")
                lines.append("    prefetch(weights, np.uint64(i))")
            else:
                lines.append(f"    i{p}_{j} = {index}")
    if kind == "sum":
        for p in range(len(runs)):
            lines += [f"    v += weights[np.uint64(i{p}_{j})]" for j in range(8)]
        lines.append("    return v")
    return "\n".join(lines) + "\n"


def _compile(key: LayoutKey, kind: str) -> Any:
    namespace: dict[str, Any] = {"np": np, "prefetch": prefetch}
    exec(compile(kernel_source(key, kind), f"<boardai n-tuple {kind} kernel>", "exec"), namespace)
    return namespace["kernel"]


@njit  # not inlined into the (inlined) generic kernels: numba's IR checks trip over that
def _indices(im: tuple[np.uint64, ...], runs: np.ndarray, p: int, n: int) -> tuple[np.int64, ...]:
    """Generic: the table indices of pattern ``p`` (``n >= 1`` runs) on the 8 images, one run
    at a time from the highest digits down (a chain, so the compiler keeps it in registers)."""
    b0, b1, b2, b3, b4, b5, b6, b7 = im
    src, mask = runs[p, 0, 0], runs[p, 0, 1]
    i0 = (b0 >> src) & mask
    i1 = (b1 >> src) & mask
    i2 = (b2 >> src) & mask
    i3 = (b3 >> src) & mask
    i4 = (b4 >> src) & mask
    i5 = (b5 >> src) & mask
    i6 = (b6 >> src) & mask
    i7 = (b7 >> src) & mask
    for r in range(1, n):
        src, mask, width = runs[p, r, 0], runs[p, r, 1], runs[p, r, 2]
        i0 = (i0 << width) | ((b0 >> src) & mask)
        i1 = (i1 << width) | ((b1 >> src) & mask)
        i2 = (i2 << width) | ((b2 >> src) & mask)
        i3 = (i3 << width) | ((b3 >> src) & mask)
        i4 = (i4 << width) | ((b4 >> src) & mask)
        i5 = (i5 << width) | ((b5 >> src) & mask)
        i6 = (i6 << width) | ((b6 >> src) & mask)
        i7 = (i7 << width) | ((b7 >> src) & mask)
    return (
        np.int64(i0),
        np.int64(i1),
        np.int64(i2),
        np.int64(i3),
        np.int64(i4),
        np.int64(i5),
        np.int64(i6),
        np.int64(i7),
    )


def write_indices(im, base, data, out):  # type: ignore[no-untyped-def]
    """Write the ``8 * P`` weight indices of the images ``im`` into ``out``, stage offset
    ``base`` included, ``out[8 * p + i]`` for pattern ``p`` on image ``i``, and start loading
    each weight (:func:`~boardai.intrinsics.prefetch`). Compiled code only; ``data`` is
    the network's :meth:`~boardai.g2048.ntuple.NTupleNetwork.data`."""
    raise NotImplementedError("write_indices runs in compiled code only")


def sum_weights(im, base, data):  # type: ignore[no-untyped-def]
    """The sum of the weights of the images ``im`` (stage offset ``base``), pattern by pattern,
    image by image. Compiled code only."""
    raise NotImplementedError("sum_weights runs in compiled code only")


def _layout_key(data: Any) -> Any:
    layout = data.types[-1] if isinstance(data, types.Tuple) else None
    if not isinstance(layout, IndexLayoutType):
        raise TypeError(f"not the data of a 2048 n-tuple network: {data}")
    return layout.layout


@overload(write_indices, inline="always")
def _write_indices(im, base, data, out):  # type: ignore[no-untyped-def]
    key = _layout_key(data)
    if key is not None:
        return _compile(key, "write")

    def generic(im, base, data, out):  # type: ignore[no-untyped-def]
        weights, runs, n_runs, offsets = data[0], data[1], data[2], data[3]
        for p in range(n_runs.shape[0]):
            start = base + offsets[p]
            i0, i1, i2, i3, i4, i5, i6, i7 = _indices(im, runs, p, n_runs[p])
            k = 8 * p
            for j, i in enumerate((i0, i1, i2, i3, i4, i5, i6, i7)):
                out[k + j] = start + i
                prefetch(weights, np.uint64(start + i))

    return generic


@njit  # a call, not inlined: numba 0.68 on Python 3.13 trips its IR checks on the sum's loop
def _sum_generic(im, base, weights, runs, n_runs, offsets):  # type: ignore[no-untyped-def]
    """Generic :func:`sum_weights`: pattern by pattern, image by image."""
    v = 0.0
    for p in range(n_runs.shape[0]):
        start = base + offsets[p]
        i0, i1, i2, i3, i4, i5, i6, i7 = _indices(im, runs, p, n_runs[p])
        v += weights[np.uint64(start + i0)]
        v += weights[np.uint64(start + i1)]
        v += weights[np.uint64(start + i2)]
        v += weights[np.uint64(start + i3)]
        v += weights[np.uint64(start + i4)]
        v += weights[np.uint64(start + i5)]
        v += weights[np.uint64(start + i6)]
        v += weights[np.uint64(start + i7)]
    return v


@overload(sum_weights, inline="always")
def _sum_weights(im, base, data):  # type: ignore[no-untyped-def]
    key = _layout_key(data)
    if key is not None:
        return _compile(key, "sum")

    def generic(im, base, data):  # type: ignore[no-untyped-def]
        return _sum_generic(im, base, data[0], data[1], data[2], data[3])

    return generic
