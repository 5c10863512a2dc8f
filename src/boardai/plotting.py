"""The plots' common ground: a matplotlib figure drawn off screen, saved as a PNG atomically.

matplotlib is the ``plot`` extra: it is imported only when a plot is drawn (the CLI checks it
is installed before the work, :func:`boardai.cli._common.require`).
"""

from __future__ import annotations

import os
from typing import Any

from boardai.atomic import atomic_write


def figure(width: float = 11, height: float = 4.2) -> Any:
    """A matplotlib ``Figure`` of ``width`` x ``height`` inches with constrained layout, made
    without pyplot (no display, no global figure to close)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def save_png(fig: Any, path: str | os.PathLike[str], dpi: int = 100) -> None:
    """Write ``fig`` to ``path`` as a PNG, atomically (a crash never leaves half a file)."""
    with atomic_write(path, "wb") as f:
        fig.savefig(f, format="png", dpi=dpi)
