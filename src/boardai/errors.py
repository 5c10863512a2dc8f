"""Errors a user can cause, which the command line reports in one line with exit code 2; and
:func:`read_limited`, which reads a file a user names within a size bound, so that one too
large (or endless, ``/dev/zero``) is such an error and not a machine out of memory."""

from __future__ import annotations

import os
import stat


class UsageError(ValueError):
    """Bad input from the user: a bad option, agent spec, or file.

    The message is one line that names what is wrong; the CLI prints it without a traceback.
    """


class ModelFileError(UsageError):
    """A model or checkpoint file that is missing, damaged, or of the wrong kind."""

    def __init__(self, path: object, why: str) -> None:
        super().__init__(f"{path}: {why}")
        self.path = path
        self.why = why

    def __reduce__(self) -> tuple[type[ModelFileError], tuple[object, str]]:
        # Rebuilt from (path, why), so it crosses from a worker process to the parent intact.
        return (type(self), (self.path, self.why))


#: A mebibyte, the unit the size limits of inputs are given in.
MIB = 2**20


def read_limited(path: str | os.PathLike[str], limit: int, what: str = "a file") -> bytes:
    """The bytes of the file at ``path``, at most ``limit`` of them: a file a user names is read
    whole, and ``/dev/zero``, a pipe that never ends or a file of gigabytes must not take the
    memory (it read until MemoryError, 5 GB on): a regular file is refused by its size before
    a byte is read, anything else (a device, a pipe) once ``limit`` bytes have come.

    Raises:
        UsageError: more than ``limit`` bytes, naming ``path``, the limit and ``what`` it is
            read as ("a record file").
        OSError: the file cannot be opened or read (the caller says so in its words).
    """
    with open(path, "rb") as f:
        info = os.fstat(f.fileno())
        if stat.S_ISREG(info.st_mode) and info.st_size > limit:
            raise UsageError(_too_big(path, what, limit, info.st_size))
        chunks, size = [], 0
        while size <= limit:  # read() of a device or pipe may return less than asked
            chunk = f.read(min(limit + 1 - size, 16 * MIB))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    if size > limit:
        raise UsageError(_too_big(path, what, limit, None))
    return b"".join(chunks)


def _too_big(path: str | os.PathLike[str], what: str, limit: int, size: int | None) -> str:
    """The one line of a file past its limit (``size``: its size, where known)."""
    held = "" if size is None else f"{_amount(size)}, "
    return f"{os.fspath(path)}: {held}more than the {_amount(limit)} boardai reads as {what}"


def _amount(size: int) -> str:
    """``size`` bytes in MiB (a limit in whole ones), or in bytes below one."""
    if size < MIB:
        return f"{size:,} bytes"
    return f"{size / MIB:,.0f} MiB" if size % MIB == 0 else f"{size / MIB:,.1f} MiB"
