"""Errors a user can cause, which the command line reports in one line with exit code 2."""

from __future__ import annotations


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
