"""atomic_write: all or nothing, with the permissions a plain open() would give."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from boardai.atomic import atomic_write


def test_writes_and_replaces(tmp_path: Path) -> None:
    p = tmp_path / "sub" / "f.txt"
    with atomic_write(p, "w") as f:
        f.write("one")
    with atomic_write(p, "w") as f:
        f.write("two")
    assert p.read_text() == "two"
    assert [x.name for x in p.parent.iterdir()] == ["f.txt"]


def test_a_crash_keeps_the_old_file(tmp_path: Path) -> None:
    p = tmp_path / "f.txt"
    p.write_text("old")
    with pytest.raises(RuntimeError), atomic_write(p, "w") as f:
        f.write("half")
        raise RuntimeError("crash")
    assert p.read_text() == "old"
    assert [x.name for x in tmp_path.iterdir()] == ["f.txt"]


def test_permissions_follow_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        with atomic_write(tmp_path / "f.bin") as f:
            f.write(b"x")
    finally:
        os.umask(old)
    assert (tmp_path / "f.bin").stat().st_mode & 0o777 == 0o644
