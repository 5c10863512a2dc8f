"""N-tuple model files, one format for every game: a compressed ``.npz`` holding the weights,
extra arrays (training state) and a JSON metadata record, written atomically.

The metadata names the format (``"format": "boardai-ntuple"``), the game, the network's
layout as the game describes it (2048: patterns as hex strings and stage thresholds; Othello:
tuple names and the number of stages) and the boardai version; callers add what they need
(rules, episodes, training options, rng and schedule state). Untouched weights are zeros,
which compress to almost nothing. The network itself comes from the game: any class with the
members of :class:`Network` (:class:`boardai.g2048.ntuple.NTupleNetwork`,
:class:`boardai.othello.ntuple.NTupleNetwork`) is saved and loaded here.

A compact file (format version 2, :func:`compact_model`) keeps no training state, and its
weights quantised: each block of 4,096 as int16 times the block's own scale (its largest
weight / 32767, so a weight moves by at most half a step), stored sparse: a bitmap of the
non-zero weights and their values, compressed with LZMA (deflate for the full files, which
training rewrites every few minutes). That is under half of full precision's size, and it plays
the same move but for one in 4,000 (docs/tour/models.md has the measurement; a scale per table
changed twice as many moves, float16 ten times as many). Fewer ``bits`` a weight (the largest
weight / 4095 for 13) make a smaller file in the same format, and so does the ``"activity"``
encoding, steps that are finer in the blocks that training updated most, coarser in the others.
Loading gives float32 weights either way, so a compact file plays and resumes training like any
other.

Older files stay readable: a ``boardai-ntuple`` file that names no game is a 2048 network
(the format was 2048's alone then), and Othello networks had a format of their own,
``boardai-othello-ntuple`` (metadata as a string array, training arrays without the
``extra_`` prefix).

>>> import tempfile, pathlib
>>> from boardai.g2048.ntuple import NTupleNetwork
>>> path = pathlib.Path(tempfile.mkdtemp()) / "m.npz"
>>> save_model(path, NTupleNetwork.create("0123,4567"), {"episodes": 0})
>>> net, meta, extra = load_model(path, NTupleNetwork)
>>> net.patterns, meta["game"], meta["episodes"]
(((0, 1, 2, 3), (4, 5, 6, 7)), '2048', 0)
"""

from __future__ import annotations

import contextlib
import json
import os
import zipfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, ClassVar, Protocol, TypeVar

import numpy as np

from boardai import __version__
from boardai.atomic import atomic_write
from boardai.errors import ModelFileError, UsageError

FORMAT = "boardai-ntuple"
#: The newest format this module reads: 1 full precision, 2 compact (int16 weights per block).
FORMAT_VERSION = 2
#: Weight encodings: full precision, or int16 per block, sparse (the compact format).
PRECISIONS = ("float32", "int16")
#: The compact encodings (``save_model``'s ``encoding``), both int16 codes times their block's
#: scale (``weights_encoding`` ``"int16-sparse"``, version 2): ``"uniform"``, the scale of the
#: block's largest weight; ``"activity"``, a scale set by how much training updated the block
#: (see :func:`_activity_scales`).
ENCODINGS = ("uniform", "activity")
#: Weights per scale in the compact format.
BLOCK = 4096
#: The fewest bits a compact weight may have.
MIN_BITS = 2
_CHUNK = 1 << 22  # weights per step of compacting and loading (a multiple of BLOCK and 8)
#: The game of a ``boardai-ntuple`` file that names none (written before the format served
#: two games).
UNNAMED_GAME = "2048"
#: Formats of the past that this module still reads, and their game.
OLD_FORMATS = {"boardai-othello-ntuple": "othello"}


class Network(Protocol):
    """What a game's n-tuple network offers to be saved and loaded."""

    #: The game's name in model files and the model store (``"2048"``, ``"othello"``).
    GAME: ClassVar[str]
    #: The flat float32 weight tables.
    weights: np.ndarray

    def layout(self) -> dict[str, Any]:
        """The metadata entries that describe the tables (JSON values)."""
        ...

    @classmethod
    def weights_size(cls, layout: Mapping[str, Any]) -> int:
        """The number of weights of the network ``layout`` describes (raises ValueError,
        KeyError, TypeError or UsageError for a bad layout)."""
        ...

    @classmethod
    def from_layout(cls, layout: Mapping[str, Any], weights: np.ndarray) -> Any:
        """The network ``layout`` describes, holding ``weights``."""
        ...


N = TypeVar("N", bound=Network)


def save_model(
    path: str | os.PathLike[str],
    network: Network,
    meta: dict[str, Any] | None = None,
    extra: dict[str, np.ndarray] | None = None,
    precision: str = "float32",
    bits: int = 16,
    encoding: str = "uniform",
    activity: np.ndarray | None = None,
) -> None:
    """Write ``network`` (+ ``meta`` JSON and ``extra`` arrays) to ``path`` atomically.

    ``precision="int16"`` writes the compact format (version 2), each weight a multiple of
    its block's scale (see :func:`_quantise`): with ``encoding="uniform"``, one of the
    ``2**bits - 1`` multiples of its largest / (2**(bits-1) - 1); with ``"activity"``, scales
    set by ``activity``, how much training updated each weight (TC's accumulator of absolute
    changes; see :func:`_activity_scales`). float32 writes version 1.
    """
    if precision not in PRECISIONS:
        raise UsageError(f"precision must be one of {', '.join(PRECISIONS)}, got {precision!r}")
    if not (isinstance(bits, int) and MIN_BITS <= bits <= 16):
        raise UsageError(f"bits must be an integer {MIN_BITS}..16, got {bits!r}")
    if encoding not in ENCODINGS:
        raise UsageError(f"encoding must be one of {', '.join(ENCODINGS)}, got {encoding!r}")
    if (bits != 16 or encoding != "uniform") and precision != "int16":
        raise UsageError("bits and encoding set the precision of compact (int16) weights only")
    if (activity is not None) != (encoding == "activity"):
        raise UsageError('the "activity" encoding, and it only, takes the weights\' activity')
    if activity is not None and activity.shape != network.weights.shape:
        raise UsageError(f"activity must have the weights' shape {network.weights.shape}")
    record = dict(meta or {})
    for key in ("weights_encoding", "weights_block", "weights_bits", "weights_scaled_by"):
        record.pop(key, None)
    weights: dict[str, np.ndarray] = {"weights": network.weights}
    if precision == "int16":
        scales = None if activity is None else _activity_scales(network.weights, activity, bits)
        weights = _quantise(network.weights, bits, scales)
        record.update(weights_encoding="int16-sparse", weights_block=BLOCK)
        if scales is not None:  # for people reading the metadata: it decodes as uniform
            record.update(weights_scaled_by="activity")
        if bits != 16:
            record.update(weights_bits=bits)
    record.update(
        format=FORMAT,
        format_version=2 if precision == "int16" else 1,
        boardai_version=__version__,
        game=network.GAME,
        **network.layout(),
    )
    arrays: dict[str, Any] = {
        f"extra_{k}": np.asarray(v) for k, v in (extra or {}).items() if v is not None
    }
    arrays.update(weights)
    meta_bytes = np.frombuffer(json.dumps(record).encode("utf-8"), np.uint8)
    with atomic_write(path, "wb") as f:
        if precision == "int16":  # written once, shipped: the smaller LZMA, not deflate
            _savez(f, zipfile.ZIP_LZMA, meta=meta_bytes, **arrays)
        else:  # checkpoints, written every few minutes: deflate at its fastest level, 4%
            # larger than its default and 1.6x as fast (a 5x6 network with TC: 8.5 s, not 13.8)
            _savez(f, zipfile.ZIP_DEFLATED, compresslevel=1, meta=meta_bytes, **arrays)


def _savez(f: Any, compression: int, compresslevel: int | None = None, **arrays: Any) -> None:
    """``np.savez_compressed`` with another of zipfile's compressions or levels: ``np.load``
    (any version) reads the members as it reads ``savez_compressed``'s."""
    with zipfile.ZipFile(f, "w", compression=compression, compresslevel=compresslevel) as z:
        for name, value in arrays.items():
            with z.open(f"{name}.npy", "w", force_zip64=True) as member:
                np.lib.format.write_array(member, np.asanyarray(value), allow_pickle=False)


def _quantise(
    weights: np.ndarray, bits: int = 16, scales: np.ndarray | None = None
) -> dict[str, np.ndarray]:
    """The compact arrays: ``weights_scales`` (one per block of :data:`BLOCK` weights: the
    block's largest absolute weight / (2**(bits-1) - 1), 32767 for 16 bits, unless ``scales``
    gives them), ``weights_mask`` (a bitmap of the weights that are not zero as int16) and
    ``weights_values`` (those int16 weights, in order).

    A weight moves by at most half its block's scale. Fewer ``bits`` make fewer distinct
    values, which compress better: a smaller file in the same format (docs/tour/models.md has
    sizes and strengths). Given ``scales`` must be at least each block's largest / 32767, so
    that the codes fit int16."""
    top_value = 2 ** (bits - 1) - 1
    if not np.isfinite(weights).all():
        raise UsageError("the network has weights that are not finite numbers")
    n = weights.size
    out = np.ones(-(-n // BLOCK), np.float32)
    q = np.zeros(n, np.int16)
    for start in range(0, n, _CHUNK):  # a chunk at a time: big networks need no big copies
        part = weights[start : start + _CHUNK]
        k = -(-part.size // BLOCK)
        blocks = np.zeros((k, BLOCK), np.float32)
        blocks.reshape(-1)[: part.size] = part
        top = np.abs(blocks).max(axis=1)
        scale = np.where(top > 0, top / top_value, 1.0).astype(np.float32)
        if scales is not None:
            scale = scales[start // BLOCK : start // BLOCK + k]
        q[start : start + part.size] = np.rint(blocks / scale[:, None]).reshape(-1)[: part.size]
        out[start // BLOCK : start // BLOCK + k] = scale
    nonzero = q != 0
    return {
        "weights_scales": out,
        "weights_mask": np.packbits(nonzero),
        "weights_values": q[nonzero],
    }


def _activity_scales(weights: np.ndarray, activity: np.ndarray, bits: int) -> np.ndarray:
    """Each block's scale for the ``"activity"`` encoding: ``s * sqrt(u / u_b)``, where
    ``u_b`` is the block's summed ``activity`` (how much training changed its weights, so how
    often games look them up), ``u`` its median over the blocks with weights, and ``s`` the
    median of the uniform scales of ``bits`` (largest / (2**(bits-1) - 1)); never finer than
    the block's largest / 32767 (the codes fit int16), 1 for a block of zeros.

    A weight's error costs in proportion to how often play looks it up, and a step ``d`` costs
    about ``d²`` in error against ``-log2 d`` bits a weight: steps in proportion to
    ``1 / sqrt(use)`` spend the bits where they buy the most (docs/tour/models.md has sizes,
    changed moves and strengths). A block no game updated (``u_b`` 0) takes the steps of the
    least updated one."""
    n_blocks = -(-weights.size // BLOCK)
    top = np.zeros(n_blocks, np.float64)
    use = np.zeros(n_blocks, np.float64)
    for start in range(0, weights.size, _CHUNK):
        part = slice(start, start + _CHUNK)
        first = start // BLOCK
        starts = np.arange(0, weights[part].size, BLOCK)
        top[first : first + starts.size] = np.maximum.reduceat(np.abs(weights[part]), starts)
        use[first : first + starts.size] = np.add.reduceat(
            np.abs(activity[part]).astype(np.float64), starts
        )
    held = top > 0
    if not held.any():
        return np.ones(n_blocks, np.float32)
    use = np.maximum(use, use[held & (use > 0)].min() if (held & (use > 0)).any() else 1.0)
    step = float(np.median(top[held])) / (2 ** (bits - 1) - 1)
    scale = np.maximum(step * np.sqrt(float(np.median(use[held])) / use), top / 32767)
    return np.where(held, scale, 1.0).astype(np.float32)


def compact_model(
    src: str | os.PathLike[str],
    dst: str | os.PathLike[str],
    network_type: type[Network],
    bits: int = 16,
    drop_untouched: bool = False,
    keep_training: bool = False,
    encoding: str = "uniform",
) -> tuple[dict[str, Any], float]:
    """Write the compact form of model ``src`` (a ``network_type`` network) to ``dst``: int16
    codes of ``bits`` bits in ``encoding`` (:data:`ENCODINGS`), the metadata (training options,
    episodes), no training state (TC accumulators, restart pools) unless ``keep_training``.

    ``keep_training`` keeps the training state, the TC accumulators in two bytes a weight
    (:func:`boardai.learn.ntuple.tc_pack`) and the other arrays as they are, so that a run
    resumed from the compact file goes on learning as the full one would: a quarter of the
    full file's eight bytes a weight, for moving a run between machines (a shipped network
    leaves them out, and a resumed run measures them again: ``Trainer.warm_up_tc``).

    ``drop_untouched`` also writes as zero every weight that temporal coherence never updated
    (its accumulator of absolute changes is 0: no training game since TC's accumulators started
    looked it up), fewer weights to store; ``encoding="activity"`` sets each block's step by
    those accumulators (:func:`_activity_scales`). Either needs TC state in ``src``.

    Returns:
        the metadata written, and the largest absolute change of a weight that is kept.

    Raises:
        UsageError: ``dst`` is ``src`` (the full file would be lost), or no TC state to drop by.
        ModelFileError: ``src`` is not a readable model of ``network_type``.
    """
    if Path(src).exists() and Path(dst).exists() and os.path.samefile(src, dst):  # or a link
        raise UsageError(
            f"{os.fspath(dst)} is {os.fspath(src)}: the compact file would replace the full "
            "one, its precision and training state lost; write it to another file"
        )
    from boardai.learn.ntuple import tc_pack, tc_state

    network, meta, _ = load_model(src, network_type, with_extra=False)  # TC: gigabytes
    kept: dict[str, np.ndarray] = {}
    with _open(src) as z:
        names = _extra_names(z, meta)
        dropped = sorted(names)
        untouched = 0
        try:
            if keep_training:
                kept = {k: z[key] for k, key in names.items() if k not in ("tc_e", "tc_a")}
                if "tc_e" in names:
                    kept.update(tc_pack(tc_state(network.weights.size, _tc_of(z, names))))
                dropped = []
            by_use = encoding == "activity"
            tc_a = z[names["tc_a"]] if (drop_untouched or by_use) and "tc_a" in names else None
        except (KeyError, ValueError, OSError, EOFError, zipfile.BadZipFile) as e:
            why = f"damaged model file ({type(e).__name__}: {e})"
            raise ModelFileError(src, why) from None
        if (drop_untouched or by_use) and (tc_a is None or tc_a.shape != network.weights.shape):
            raise UsageError(
                f"{os.fspath(src)}: no TC state (a training file of --tc) to tell which "
                "weights were "
                + ("never updated" if drop_untouched else "updated how much (--encoding activity)")
            )
        activity = tc_a if by_use else None
        if drop_untouched:
            assert tc_a is not None
            touched = tc_a != 0
            del tc_a
            untouched = int(np.count_nonzero(network.weights[~touched]))
            network.weights[~touched] = 0.0
            del touched
    full = network.weights
    meta = dict(meta)
    meta["compacted"] = {
        "from_format_version": meta.get("format_version", 1),
        "dropped": dropped,
        "note": "training state (TC accumulators, restart pools) is not kept; "
        "resuming starts it afresh",
    }
    if keep_training:
        meta["compacted"]["note"] = (
            "training state kept: TC accumulators in two bytes a weight (tc_pack), "
            "restart pools as they were"
        )
    if drop_untouched:
        meta["compacted"]["untouched_zeroed"] = untouched
    save_model(
        dst, network, meta, kept, precision="int16", bits=bits, encoding=encoding, activity=activity
    )
    del activity
    back, written, _ = load_model(dst, network_type)
    change = 0.0
    for start in range(0, full.size, _CHUNK):
        part = slice(start, start + _CHUNK)
        change = max(change, float(np.abs(back.weights[part] - full[part]).max()))
    return written, change


def _tc_of(z: Any, names: dict[str, str]) -> dict[str, np.ndarray]:
    return {"tc_e": z[names["tc_e"]], "tc_a": z[names["tc_a"]]}


def read_meta(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Only the metadata of a model file (reads no weights); ``"game"`` is always there."""
    with _open(path) as z:
        return _meta(z, path)


def load_model(
    path: str | os.PathLike[str], network_type: type[N], with_extra: bool = True
) -> tuple[N, dict[str, Any], dict[str, np.ndarray]]:
    """Read a model file of a ``network_type`` network: (network, metadata, extra arrays;
    none unless ``with_extra``).

    Raises:
        ModelFileError: the file is missing, truncated, not an n-tuple model, a model of
            another game, or inconsistent.
    """
    with _open(path) as z:
        meta = _meta(z, path)
        if meta["game"] != network_type.GAME:
            raise ModelFileError(
                path,
                f"{_a(meta['game'])} n-tuple model, not {_a(network_type.GAME)} one",
            )
        try:
            size = network_type.weights_size(meta)
        except (KeyError, TypeError, ValueError, UsageError) as e:
            raise ModelFileError(path, f"inconsistent model file: {e}") from None
        try:
            weights = _weights(z, meta, size)
            names = _extra_names(z, meta) if with_extra else {}
            extra = {name: z[key] for name, key in names.items()}
        except (KeyError, ValueError, OSError, EOFError, zipfile.BadZipFile) as e:
            raise ModelFileError(path, f"damaged model file ({type(e).__name__}: {e})") from None
    if weights.dtype != np.float32 or weights.shape != (size,):
        raise ModelFileError(
            path,
            f"inconsistent model file: weights must be float32 of shape ({size},), "
            f"got {weights.dtype} {weights.shape}",
        )
    try:
        network = network_type.from_layout(meta, weights)
    except (KeyError, TypeError, ValueError, UsageError) as e:
        raise ModelFileError(path, f"inconsistent model file: {e}") from None
    return network, meta, extra


def _a(game: str) -> str:
    """``"a 2048"``, ``"an Othello"``: a game's name with its article, for messages."""
    label = game.capitalize()
    return f"{'an' if label[:1] in 'AEIOU' else 'a'} {label}"


def _extra_names(z: Any, meta: dict[str, Any]) -> dict[str, str]:
    """The extra arrays of a file: name -> key in the archive."""
    if meta["format"] in OLD_FORMATS:
        return {k: k for k in z.files if k not in ("weights", "meta")}
    return {k[len("extra_") :]: k for k in z.files if k.startswith("extra_")}


def _weights(z: Any, meta: dict[str, Any], size: int) -> np.ndarray:
    """float32 weights from the stored arrays (version 2: int16-sparse, see :func:`_quantise`)."""
    encoding = meta.get("weights_encoding", "float32")
    if encoding == "float32":
        return z["weights"]
    if encoding != "int16-sparse":
        raise ValueError(f"unknown weight encoding {encoding!r}")
    block = meta.get("weights_block")
    if not isinstance(block, int) or block <= 0 or _CHUNK % block:
        raise ValueError(f"bad weights_block {block!r}")
    w = np.zeros(size, np.float32)
    scales, mask, values = z["weights_scales"], z["weights_mask"], z["weights_values"]
    if scales.shape != (-(-w.size // block),) or mask.shape != (-(-w.size // 8),):
        raise ValueError("the scales or the bitmap do not fit the patterns")
    if values.dtype != np.int16:
        raise ValueError(f"the weights are {values.dtype}, not int16")
    taken = 0
    for start in range(0, w.size, _CHUNK):
        part = w[start : start + _CHUNK]
        where = np.unpackbits(mask[start // 8 : (start + part.size + 7) // 8], count=part.size)
        where = where.view(bool)
        n = int(np.count_nonzero(where))
        if taken + n > values.size:
            raise ValueError("the int16 weights do not fit their bitmap")
        scale = np.repeat(scales[start // block : -(-(start + part.size) // block)], block)
        part[where] = values[taken : taken + n] * scale[: part.size][where]
        taken += n
    if taken != values.size:
        raise ValueError("the int16 weights do not fit their bitmap")
    return w


@contextlib.contextmanager
def _open(path: str | os.PathLike[str]) -> Iterator[Any]:
    p = Path(path)
    if not p.is_file():
        raise ModelFileError(path, "no such model file")
    with p.open("rb") as f:
        magic = f.read(6)
        f.seek(0)
        if not magic.startswith((b"PK\x03\x04", b"\x93NUMPY")):  # numpy would try pickle
            raise ModelFileError(path, "not a boardai n-tuple model (not an .npz file)")
        try:
            z = np.load(f, allow_pickle=False)
        except (ValueError, OSError, EOFError, zipfile.BadZipFile) as e:
            why = f"not a boardai n-tuple model (cannot read it as .npz: {e})"
            raise ModelFileError(path, why) from None
        if not hasattr(z, "files"):  # a plain .npy array
            raise ModelFileError(path, "not a boardai n-tuple model (an .npy array, not an .npz)")
        with z:
            yield z


def _meta(z: Any, path: str | os.PathLike[str]) -> dict[str, Any]:
    try:
        meta = json.loads(meta_text(z["meta"]))
    except KeyError:
        raise ModelFileError(path, "not a boardai n-tuple model (no metadata)") from None
    except (ValueError, OSError, EOFError, zipfile.BadZipFile) as e:
        raise ModelFileError(path, f"damaged metadata ({type(e).__name__}: {e})") from None
    fmt = meta.get("format") if isinstance(meta, dict) else None
    if fmt != FORMAT and fmt not in OLD_FORMATS:
        raise ModelFileError(path, f"not a boardai n-tuple model (format is not {FORMAT!r})")
    assert isinstance(meta, dict)
    meta.setdefault("game", OLD_FORMATS.get(fmt, UNNAMED_GAME))
    if meta.get("format_version", 0) > FORMAT_VERSION:
        raise ModelFileError(
            path,
            f"model format {meta['format_version']} is newer than this boardai reads "
            f"({FORMAT_VERSION})",
        )
    return meta


def meta_text(raw: np.ndarray) -> str:
    """The JSON text of a model file's ``meta`` array: UTF-8 bytes, or a string array (the old
    Othello format)."""
    return str(raw) if raw.dtype.kind == "U" else bytes(raw).decode("utf-8")
