"""What this machine offers a run: its cores and torch devices, and the checks of options that
ask for them.

An option that asks for more than the machine has is a user's mistake, to be refused in one
line when the spec or flag is parsed, not a crash later: torch given 100,000 threads ends the
process with a segmentation fault, and a device that does not exist fails deep in a load.

>>> check_threads(1)
>>> check_threads(10**6)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: threads must be in 1..., got 1000000
>>> check_device("cpu")
>>> check_device("bogus")
Traceback (most recent call last):
...
ValueError: device 'bogus' is not one of cpu, cuda, cuda:N, mps
"""

from __future__ import annotations

import os
import re

_DEVICE = re.compile(r"(cpu|cuda|mps)(?::(\d{1,3}))?")


def cores() -> int:
    """The cores this process may run on (its CPU affinity where the system has one)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def check_threads(threads: int, key: str = "threads") -> None:
    """Raise ValueError unless ``threads`` is between 1 and the cores here."""
    most = cores()
    if not 1 <= threads <= most:
        raise ValueError(f"{key} must be in 1..{most} (the cores here), got {threads}")


def check_device(device: str, auto: bool = False) -> None:
    """Raise ValueError unless ``device`` is a torch device this machine has.

    Args:
        device: ``cpu``, ``cuda``, ``cuda:N`` or ``mps`` (``auto`` too where ``auto``).
        auto: whether ``auto`` (cuda when there is one, else cpu) is allowed.

    torch is imported only to check an accelerator, so the usual ``cpu`` costs nothing.
    """
    if auto and device == "auto":
        return
    match = _DEVICE.fullmatch(device)
    if match is None or (match[1] == "cpu" and match[2] not in (None, "0")):
        choices = "auto, cpu, cuda, cuda:N, mps" if auto else "cpu, cuda, cuda:N, mps"
        raise ValueError(f"device {device!r} is not one of {choices}")
    kind, index = match[1], int(match[2] or 0)
    if kind == "cpu":
        return
    import torch

    if kind == "cuda":
        count = torch.cuda.device_count() if torch.cuda.is_available() else 0
        if index >= count:
            have = f"{count} CUDA device{'s' if count != 1 else ''}" if count else "no CUDA device"
            raise ValueError(f"device {device!r}: this machine has {have} (use cpu)")
    elif not (hasattr(torch.backends, "mps") and torch.backends.mps.is_available()):
        raise ValueError(f"device {device!r}: this machine has no MPS device (use cpu)")


def resolve_device(device: str) -> str:
    """The torch device to use for ``device``: ``auto`` is cuda when there is one, else cpu;
    any other, as given once :func:`check_device` finds it here (ValueError otherwise)."""
    if device == "auto":
        import torch

        return "cuda" if torch.cuda.is_available() else "cpu"
    check_device(device)
    return device
