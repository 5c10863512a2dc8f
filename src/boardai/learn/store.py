"""The model store: the trained players boardai ships, by name.

A manifest (``models.toml``) lists each model: its name, game, kind, file, size, sha256 and
its card (how it was trained, from what, how long, and how strong it measured). Wherever a
player or a command takes a model file it also takes a manifest name::

    ntuple:model=2048-ntuple        # the shipped model
    ntuple:model=my.npz             # a path, as before

:func:`resolve` turns a name into its verified local file; anything that is not a name is a
path and comes back unchanged. The manifest is found, first match wins:

1. ``$BOARDAI_MODELS``: a directory holding ``models.toml`` and the model files;
2. the repository's ``models/`` directory, beside ``src/`` (a checkout or editable install);
3. the copy of the manifest packaged with boardai (a wheel): it carries no model files, which
   ``boardai models fetch NAME`` downloads into the user cache (``platformdirs``'
   ``user_cache_dir("boardai")/models``) from the manifest's URL template (``$BOARDAI_MODELS_URL``
   overrides it).

A model file is looked up in the manifest's directory, then in the user cache. Its size and
sha256 are checked once per process (again only if the file changes), whether it is named by
its model name or by its path; ``$BOARDAI_NO_MODEL_CHECK=1`` skips the check.

>>> names(game="2048", kind="no-such-kind")
[]
>>> is_name("m.npz"), is_name("some/dir/model")
(False, False)
"""

from __future__ import annotations

import hashlib
import os
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

from boardai.errors import ModelFileError, UsageError
from boardai.spec import Choice

#: The manifest's file name, and the newest format (its ``format`` field) this module reads.
MANIFEST = "models.toml"
FORMAT = 1
#: The environment variable naming a directory with a manifest (tests, private stores).
ENV_DIR = "BOARDAI_MODELS"
#: The environment variable that overrides the manifest's download URL template.
ENV_URL = "BOARDAI_MODELS_URL"
#: The environment variable that, set to 1, skips checking shipped files as they load.
ENV_NO_CHECK = "BOARDAI_NO_MODEL_CHECK"
#: The copy of the repository's manifest that ships inside the package (no model files).
PACKAGED = Path(__file__).with_name(MANIFEST)
#: The repository's models/ directory, when boardai runs from a checkout (src/boardai/...).
_SRC = Path(__file__).resolve().parents[2]
REPOSITORY = _SRC.parent / "models" if _SRC.name == "src" else None
#: Games and the kinds of model each has (the names of the ``kind`` field).
KINDS = {
    "2048": ("ntuple", "dqn"),
    "othello": ("othello-ntuple", "othello-dqn"),
}


@dataclass(frozen=True)
class Strength:
    """How strong a model measured, and how: ``command`` reproduces ``result``."""

    command: str = ""
    games: int = 0
    seeds: str = ""
    result: str = ""


@dataclass(frozen=True)
class ModelEntry:
    """One model of the manifest: the file and its card.

    Attributes:
        name: the name players and commands take (``ntuple:model=NAME``).
        game: ``2048`` or ``othello``.
        kind: ``ntuple``, ``dqn``, ``othello-ntuple`` or ``othello-dqn``.
        file: the file name, in the manifest's directory or the user cache.
        size: the file's size in bytes.
        sha256: the file's SHA-256, hex.
        url: where ``boardai models fetch`` downloads it from.
        description: one line about it.
        trained_from: the model it was trained on from ("" for one trained from nothing).
        commands: the exact commands that made the file, in order.
        cpu_hours: CPU time of the training.
        boardai_version: the version that trained it.
        strength: how strong it measured, and the command that measured it.
        notes: anything else worth knowing (what resuming keeps, what it lost).
    """

    name: str
    game: str
    kind: str
    file: str
    size: int
    sha256: str
    url: str = ""
    description: str = ""
    trained_from: str = ""
    commands: tuple[str, ...] = ()
    cpu_hours: float = 0.0
    boardai_version: str = ""
    strength: Strength = field(default_factory=Strength)
    notes: str = ""


@dataclass(frozen=True)
class Manifest:
    """A parsed manifest: where it is, whether its directory holds the files, its entries."""

    path: Path
    holds_files: bool
    url: str
    entries: tuple[ModelEntry, ...]

    @property
    def directory(self) -> Path:
        """The manifest's directory (the model files, unless it is the packaged copy)."""
        return self.path.parent


def manifest_path() -> tuple[Path, bool]:
    """The manifest in use and whether its directory holds the model files."""
    env = os.environ.get(ENV_DIR)
    if env:
        path = Path(env) / MANIFEST
        if not path.is_file():
            raise UsageError(f"${ENV_DIR}={env}: no {MANIFEST} there")
        return path, True
    if REPOSITORY is not None and (REPOSITORY / MANIFEST).is_file():
        return REPOSITORY / MANIFEST, True
    return PACKAGED, False


def manifest() -> Manifest:
    """The manifest in use (read once per process while the file is unchanged)."""
    path, holds_files = manifest_path()
    try:
        stat = path.stat()
    except OSError:
        return Manifest(path, holds_files, "", ())
    return _read(str(path), holds_files, stat.st_mtime_ns, os.environ.get(ENV_URL, ""))


@lru_cache(maxsize=8)
def _read(path: str, holds_files: bool, mtime_ns: int, url_override: str) -> Manifest:
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise ModelFileError(path, f"cannot read the model manifest ({e})") from None
    if not isinstance(data.get("format", 1), int) or data.get("format", 1) > FORMAT:
        raise ModelFileError(path, f"manifest format {data['format']!r} is not one this reads")
    given = url_override or str(data.get("url", ""))
    url = given if not given or "{file}" in given else given.rstrip("/") + "/{file}"
    try:
        url.format(file="", name="")
    except (KeyError, IndexError, ValueError) as e:  # a stray brace: {0}, {oops}, {file
        source = f"${ENV_URL}" if url_override else f"{path}: url"
        raise UsageError(
            f"{source} {given!r} is not a URL template ({e}): only {{file}} and {{name}} are "
            "filled in"
        ) from None
    tables = data.get("model", [])
    if not isinstance(tables, list):
        raise ModelFileError(path, "the models are [[model]] tables")
    entries = []
    for i, raw in enumerate(tables):
        try:
            entries.append(_entry(raw, url))
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            where = raw.get("name", f"model {i + 1}") if isinstance(raw, dict) else i + 1
            raise ModelFileError(path, f"bad manifest entry {where}: {e}") from None
    seen: set[str] = set()
    for listed in entries:
        if listed.name in seen:
            raise ModelFileError(path, f"model {listed.name!r} is listed twice")
        seen.add(listed.name)
    return Manifest(Path(path), holds_files, url, tuple(entries))


def _entry(raw: dict[str, Any], url: str) -> ModelEntry:
    name, game, kind = str(raw["name"]), str(raw["game"]), str(raw["kind"])
    if game not in KINDS or kind not in KINDS[game]:
        raise ValueError(f"game {game!r} and kind {kind!r} (known: {KINDS})")
    if is_path_like(name):
        raise ValueError(f"name {name!r} looks like a path")
    sha = str(raw["sha256"]).lower()
    if len(sha) != 64 or any(c not in "0123456789abcdef" for c in sha):
        raise ValueError(f"sha256 {sha!r} is not 64 hex digits")
    file = str(raw["file"])
    if Path(file).name != file:
        raise ValueError(f"file {file!r} must be a bare file name")
    s = raw.get("strength", {})
    if not isinstance(s, dict):
        raise TypeError("strength is a table ([model.strength])")
    return ModelEntry(
        name=name,
        game=game,
        kind=kind,
        file=file,
        size=int(raw["size"]),
        sha256=sha,
        url=str(raw.get("url", "")) or (url.format(file=file, name=name) if url else ""),
        description=str(raw.get("description", "")),
        trained_from=str(raw.get("trained_from", "")),
        commands=tuple(str(c) for c in raw.get("commands", ())),
        cpu_hours=float(raw.get("cpu_hours", 0.0)),
        boardai_version=str(raw.get("boardai_version", "")),
        strength=Strength(
            command=str(s.get("command", "")),
            games=int(s.get("games", 0)),
            seeds=str(s.get("seeds", "")),
            result=str(s.get("result", "")),
        ),
        notes=str(raw.get("notes", "")),
    )


def entries(game: str | None = None, kind: str | None = None) -> list[ModelEntry]:
    """The manifest's models, in its order, of ``game`` and ``kind`` where given."""
    return [
        e
        for e in manifest().entries
        if (game is None or e.game == game) and (kind is None or e.kind == kind)
    ]


def names(game: str | None = None, kind: str | None = None) -> list[str]:
    """The names of :func:`entries`."""
    return [e.name for e in entries(game, kind)]


def entry(name: str) -> ModelEntry:
    """The manifest entry called ``name``.

    Raises:
        UsageError: no model has that name (the message lists the names there are).
    """
    for e in manifest().entries:
        if e.name == name:
            return e
    known = ", ".join(names()) or "none yet"
    raise UsageError(f"no model called {name!r} (models: {known})")


def default_name(game: str, kind: str) -> str | None:
    """The model a player of ``game`` and ``kind`` uses when given none: the first listed."""
    found = names(game, kind)
    return found[0] if found else None


def shipped_model(game: str, kind: str) -> Choice:
    """The bound of a player's ``model`` option for untrusted clients (see
    :mod:`boardai.spec`): the names of the shipped models of ``game`` and ``kind``, the first
    one when left out. A client never names a file."""
    return Choice(partial(names, game, kind), default=partial(default_name, game, kind))


def is_path_like(ref: str) -> bool:
    """Whether ``ref`` reads as a path: it has a directory part or a file extension."""
    return "/" in ref or os.sep in ref or bool(Path(ref).suffix)


def is_name(ref: str) -> bool:
    """Whether ``ref`` is a manifest name rather than a path (a path is never a name)."""
    return not is_path_like(ref) and any(e.name == ref for e in manifest().entries)


def cache_dir() -> Path:
    """Where ``boardai models fetch`` puts model files: the user cache of boardai."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("boardai")) / "models"


def local_file(e: ModelEntry) -> Path | None:
    """The local copy of ``e``'s file (manifest directory first, then the cache), if any."""
    m = manifest()
    places = [m.directory] if m.holds_files else []
    for directory in [*places, cache_dir()]:
        path = directory / e.file
        if path.is_file():
            return path
    return None


def sha256_of(path: str | os.PathLike[str]) -> str:
    """The hex SHA-256 of a file."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def check(e: ModelEntry, path: Path) -> None:
    """Check ``path`` against ``e``'s size and sha256 (once per process per unchanged file).

    Raises:
        ModelFileError: the size or checksum differs: a damaged, truncated or replaced file.
    """
    stat = path.stat()
    _check(str(path.resolve()), stat.st_mtime_ns, stat.st_size, e.size, e.sha256)


@lru_cache(maxsize=64)
def _check(path: str, mtime_ns: int, size: int, want_size: int, want_sha: str) -> None:
    if size != want_size:
        raise ModelFileError(
            path, f"damaged model file: {size:,} bytes, the manifest says {want_size:,}"
        )
    got = sha256_of(path)
    if got != want_sha:
        raise ModelFileError(
            path, f"damaged model file: sha256 {got[:12]}..., the manifest says {want_sha[:12]}..."
        )


def checking() -> bool:
    """Whether shipped model files are checked against the manifest as they load: unless
    ``$BOARDAI_NO_MODEL_CHECK`` is ``1`` (someone training on from a shipped file in place,
    before its manifest entry says what it became)."""
    return os.environ.get(ENV_NO_CHECK, "") != "1"


def shipped_entry_at(path: Path) -> ModelEntry | None:
    """The manifest entry whose local file ``path`` is (the same file, by whatever path it is
    named), or None for any other file."""
    try:
        if not path.is_file():
            return None
        here = path.resolve()
    except OSError:
        return None
    for e in manifest().entries:
        if e.file != here.name:
            continue
        local = local_file(e)
        if local is not None and local.resolve() == here:
            return e
    return None


def path_of(name: str) -> Path:
    """The verified local file of model ``name``.

    Raises:
        UsageError: no such model, or it is not downloaded (the message says how to fetch it).
        ModelFileError: the file is damaged.
    """
    e = entry(name)
    path = local_file(e)
    if path is None:
        raise UsageError(f"model {name!r} is not downloaded: run: boardai models fetch {name}")
    if checking():
        check(e, path)
    return path


def resolve(ref: str, game: str, kind: str | tuple[str, ...]) -> Path:
    """The file a ``model=`` value means: a manifest name's verified local file, else the path.

    Args:
        ref: a model name (``2048-ntuple``) or a file path.
        game: the game of the player that asks.
        kind: the model kind(s) the player reads.

    Raises:
        UsageError: a model of another game or kind, or one not downloaded.
        ModelFileError: the named model's file is damaged.
    """
    if not is_name(ref):
        if not is_path_like(ref) and not Path(ref).exists():
            raise UsageError(
                f"{ref!r} is neither a model name nor a file "
                f"(models: {', '.join(names(game)) or 'none yet'})"
            )
        shipped = shipped_entry_at(Path(ref))
        if shipped is not None and checking():  # a shipped file by its path: checked as by name
            check(shipped, Path(ref))
        _RESOLVED[ref] = ""  # hashed if asked (resolved_models)
        return Path(ref)
    e = entry(ref)
    kinds = (kind,) if isinstance(kind, str) else kind
    if e.game != game or e.kind not in kinds:
        wanted = " or ".join(_label(game, k) for k in kinds)
        raise UsageError(
            f"model {ref!r} is {_label(e.game, e.kind)}, this needs {wanted} "
            f"(models: {', '.join(names(game)) or 'none'})"
        )
    path = path_of(ref)
    _RESOLVED[ref] = e.sha256
    return path


#: Every ``model=`` value this process has resolved: its manifest sha256, or "" for a path.
_RESOLVED: dict[str, str] = {}


def resolved_models() -> dict[str, str]:
    """Each model this process has resolved (a name or a path, as given) and the first 16 hex
    digits of its file's sha256: what a ``--resume`` journal records, so that a run resumed
    after its model's weights changed under the same name is refused, not mixed."""
    out = {}
    for ref, sha in sorted(_RESOLVED.items()):
        if not sha and Path(ref).is_file():
            stat = Path(ref).stat()
            sha = _sha_of(str(Path(ref).resolve()), stat.st_mtime_ns, stat.st_size)
        out[ref] = sha[:16]
    return out


def forget_resolved() -> None:
    """Start :func:`resolved_models` afresh (each command names only the models it read)."""
    _RESOLVED.clear()


@lru_cache(maxsize=64)
def _sha_of(path: str, mtime_ns: int, size: int) -> str:
    return sha256_of(path)


def _label(game: str, kind: str) -> str:
    """``2048 ntuple``, ``othello-ntuple``: a game and kind for messages."""
    return kind if kind.startswith(game) else f"{game} {kind}"


def resolve_default(ref: str, game: str, kind: str, train_command: str) -> tuple[str, Path]:
    """(the name or path used, its file) for a player's ``model=`` that may be left out: then
    the first shipped model of ``game`` and ``kind``.

    Raises:
        UsageError: none given and none shipped (the message names ``train_command``).
    """
    if not ref:
        found = default_name(game, kind)
        if found is None:
            raise UsageError(
                f"no model= given and boardai ships no {_label(game, kind)} model yet: "
                f"train one with {train_command} and give model=FILE"
            )
        ref = found
    return ref, resolve(ref, game, kind)


def fetch(name: str, force: bool = False, progressbar: Any = False, timeout: float = 60.0) -> Path:
    """Download model ``name`` into :func:`cache_dir`, checked against the manifest's sha256
    (``pooch``: a bad download is not kept); its local file. A verified copy already here is
    kept unless ``force``.

    Args:
        progressbar: a pooch progress bar (an object with ``total``, ``update``, ``reset``,
            ``close``), or False.
        timeout: seconds to wait for the server (to connect, and between bytes).

    Raises:
        UsageError: no such model, no URL, or the download failed (one line).
        ModelFileError: the download does not match the manifest.
    """
    e = entry(name)
    have = local_file(e)
    if have is not None and not force:
        try:
            check(e, have)
            return have
        except ModelFileError:
            if have.parent != cache_dir():
                raise  # a damaged file in the manifest's directory: not the cache's to mend
    if not e.url:
        raise UsageError(
            f"model {name!r} has no download URL (set url in {manifest().path} or ${ENV_URL})"
        )
    import shutil
    import tempfile

    import pooch
    import requests

    target = cache_dir()
    pooch.get_logger().setLevel("WARNING")
    downloader = pooch.HTTPDownloader(progressbar=progressbar, timeout=timeout)
    try:
        target.mkdir(parents=True, exist_ok=True)
        # Downloaded into a folder of its own, then moved over the copy here: a failed download
        # (no network, a bad file) leaves the copy as it was, even with ``force``.
        staging = Path(tempfile.mkdtemp(prefix=".fetch-", suffix=".boardai-tmp", dir=target))
    except OSError as ex:
        raise UsageError(
            f"cannot write the model cache {target}: {ex.strerror or ex} "
            "(on Linux, $XDG_CACHE_HOME moves it)"
        ) from None
    try:
        path = pooch.retrieve(
            e.url,
            known_hash=f"sha256:{e.sha256}",
            fname=e.file,
            path=staging,
            downloader=downloader,
        )
        out = target / e.file
        os.replace(path, out)
    except requests.RequestException as ex:
        why = str(ex).splitlines()[0] if str(ex) else type(ex).__name__
        raise UsageError(f"cannot download model {name!r} from {e.url}: {why}") from None
    except ValueError:  # pooch: the hash does not match; the download was not kept
        raise ModelFileError(
            e.url, f"the download does not match the manifest's sha256 {e.sha256[:12]}..."
        ) from None
    except OSError as ex:  # a full disk, a cache taken away meanwhile
        raise UsageError(
            f"cannot write model {name!r} into {target}: {ex.strerror or ex}"
        ) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    check(e, out)
    return out
