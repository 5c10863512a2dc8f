"""Files written atomically: a crash leaves the old file or the new one, never half a file.

Only regular files are replaced. A target that exists and is something else (``/dev/null``,
``/dev/full``, a named pipe, a terminal) is written straight to, as ``open`` would. A symbolic
link stays a link: the file it names is replaced; a link through ``/proc`` (``/dev/stdout``,
an open file descriptor) is written straight to.

The temporary file sits beside the target as ``.NAME.PID.XXXXXX.boardai-tmp``. A process
killed while writing (``kill -9``) leaves its temporary file behind; the next write to the
same target removes those of processes that are no longer running.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

#: The end of every temporary file's name.
TMP_SUFFIX = ".boardai-tmp"
_PID_TOKEN = re.compile(r"(\d+)\.[0-9a-f]{6}")


@contextlib.contextmanager
def atomic_write(
    path: str | os.PathLike[str], mode: str = "wb", **kwargs: Any
) -> Iterator[IO[Any]]:
    """Open a temporary file beside ``path``; on success fsync it and rename it over ``path``.

    An OSError raised while writing names ``path`` (its ``filename``), also when the system
    gave none (a full disk).

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "x.txt"
    >>> with atomic_write(p, "w") as f:
    ...     _ = f.write("hello")
    >>> p.read_text()
    'hello'
    >>> with atomic_write("/dev/null", "w") as f:  # not a regular file: written straight to
    ...     _ = f.write("gone")
    """
    linked = _link_target(Path(path))
    target = Path(path) if linked is None else linked
    try:
        if linked is None or _exists_not_regular(target):
            with open(target, mode, **kwargs) as f:
                yield f
            return
        with _replace(target, mode, **kwargs) as f:
            yield f
    except OSError as e:
        if e.filename is None:
            e.filename = str(path)
        raise


def _link_target(path: Path) -> Path | None:
    """The file to replace for ``path``: ``path``, or the file its chain of links ends at
    (replacing the link would turn it into a file of its own); None where the chain passes
    through ``/proc`` (a file descriptor's link: replacing what it ends at would leave the
    descriptor on a file gone)."""
    for _ in range(40):  # the kernel's own limit on a chain of links
        if not path.is_symlink():
            return path
        link = Path(os.readlink(path))
        if link.is_absolute() and link.parts[:2] == ("/", "proc"):
            return None
        path = path.parent / link
    return path  # a loop: opening it fails, naming the path


def _exists_not_regular(target: Path) -> bool:
    try:
        return not stat.S_ISREG(os.stat(target).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        return False


@contextlib.contextmanager
def _replace(target: Path, mode: str, **kwargs: Any) -> Iterator[IO[Any]]:
    directory = target.parent if str(target.parent) else Path(".")
    directory.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(target)
    tmp = temporary_path(target)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask applies
    try:
        with os.fdopen(fd, mode, **kwargs) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):  # make the rename itself durable where we can
        dir_fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def temporary_path(path: str | os.PathLike[str]) -> Path:
    """A new name for a temporary file beside ``path``: ``.NAME.PID.XXXXXX.boardai-tmp``."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    return directory / f".{target.name}.{os.getpid()}.{secrets.token_hex(3)}{TMP_SUFFIX}"


def remove_stale_temporaries(path: str | os.PathLike[str]) -> list[Path]:
    """Remove the temporary files of writes to ``path`` by processes no longer running.

    Returns the files removed. Files of running processes (this one included) stay.
    """
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    prefix = f".{target.name}."
    removed: list[Path] = []
    try:
        names = os.listdir(directory)
    except OSError:
        return removed
    for name in names:
        if not (name.startswith(prefix) and name.endswith(TMP_SUFFIX)):
            continue
        found = _PID_TOKEN.fullmatch(name[len(prefix) : -len(TMP_SUFFIX)])
        if found and not _alive(int(found.group(1))):
            with contextlib.suppress(OSError):
                os.unlink(directory / name)
                removed.append(directory / name)
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process, or a pid we may not ask about
        return True
    return True
