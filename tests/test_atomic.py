"""atomic_write: all or nothing, with the permissions a plain open() would give."""

from __future__ import annotations

import errno
import os
import random
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from boardai.atomic import TMP_SUFFIX, atomic_write


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


def test_a_device_is_written_straight_to_not_replaced() -> None:
    with atomic_write("/dev/null", "w") as f:
        f.write("gone")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_link_stays_a_link_and_its_file_is_replaced(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    real = tmp_path / "data" / "games.jsonl"
    real.write_text("old\n")
    link = tmp_path / "games.jsonl"
    link.symlink_to(Path("data") / "games.jsonl")  # relative, as `ln -s` makes them
    chain = tmp_path / "chain.jsonl"
    chain.symlink_to(link)
    with atomic_write(chain, "w") as f:
        f.write("new\n")
    assert chain.is_symlink() and link.is_symlink()
    assert real.read_text() == "new\n"
    assert [p.name for p in (tmp_path / "data").iterdir()] == ["games.jsonl"]


def test_a_link_through_proc_is_written_straight_to(tmp_path: Path) -> None:
    """``--record /dev/stdout`` with stdout sent to a file: the descriptor's file is written,
    not replaced (which would leave the descriptor on a file gone), and the link stays."""
    out = tmp_path / "out.txt"
    with open(out, "w") as held:
        link = tmp_path / "stdout"
        link.symlink_to(f"/proc/self/fd/{held.fileno()}")
        inode = out.stat().st_ino
        with atomic_write(link, "w") as f:
            f.write("through the descriptor")
        assert link.is_symlink() and out.stat().st_ino == inode
    assert out.read_text() == "through the descriptor"


def test_a_full_device_is_an_oserror_naming_the_file() -> None:
    with pytest.raises(OSError) as e, atomic_write("/dev/full", "wb") as f:
        f.write(b"x" * 10_000)
    assert e.value.errno == errno.ENOSPC and e.value.filename == "/dev/full"


def test_a_named_pipe_is_written_straight_to(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    with atomic_write(fifo) as f:
        f.write(b"through the pipe")
    reader.join(5)
    assert got == [b"through the pipe"] and stat.S_ISFIFO(os.stat(fifo).st_mode)


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_temporaries_of_dead_writers_go_at_the_next_write(tmp_path: Path) -> None:
    target = tmp_path / "m.npz"
    dead = tmp_path / f".m.npz.{_dead_pid()}.abc123{TMP_SUFFIX}"
    mine = tmp_path / f".m.npz.{os.getpid()}.abc123{TMP_SUFFIX}"  # a write under way here
    other = tmp_path / f".m.npz.5.{_dead_pid()}.abc123{TMP_SUFFIX}"  # of a file "m.npz.5"
    for p in (dead, mine, other):
        p.write_bytes(b"half")
    with atomic_write(target) as f:
        f.write(b"new")
    assert target.read_bytes() == b"new"
    assert not dead.exists() and mine.exists() and other.exists()


_WRITER = """
import sys, time
from boardai.atomic import atomic_write
i = 0
while True:
    i += 1
    with atomic_write(sys.argv[1]) as f:
        f.write(i.to_bytes(4, "little"))
        for k in range(64):
            f.write(bytes([i % 256]) * 65536)
            if i == 2 and k == 31 and sys.argv[2] == "mid":
                f.flush()
                print("mid", flush=True)  # half written: the test kills it now
                time.sleep(60)
    if i == 1:
        print("wrote", flush=True)
"""


def _whole(data: bytes) -> bool:
    i = int.from_bytes(data[:4], "little")
    return len(data) == 4 + 64 * 65536 and data[4:] == bytes([i % 256]) * (64 * 65536)


def test_kill_9_while_writing_leaves_a_whole_file_and_no_pile_of_temporaries(
    tmp_path: Path,
) -> None:
    target = tmp_path / "big.bin"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")}
    rng = random.Random(0)
    for attempt in range(6):
        when = "mid" if attempt % 2 else "random"  # half at a random moment, half mid-write
        proc = subprocess.Popen(
            [sys.executable, "-c", _WRITER, str(target), when], env=env, stdout=subprocess.PIPE
        )
        assert proc.stdout is not None and proc.stdout.readline() == b"wrote\n"
        if when == "mid":
            assert proc.stdout.readline() == b"mid\n"
        else:
            time.sleep(rng.uniform(0.0, 0.2))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
        assert _whole(target.read_bytes())
        temporaries = [p for p in tmp_path.iterdir() if p.name.endswith(TMP_SUFFIX)]
        assert len(temporaries) <= 1  # the killed writer's, removed by the next write
        if when == "mid":
            assert len(temporaries) == 1 and temporaries[0].stat().st_size > 0
    with atomic_write(target) as f:
        f.write(b"last")
    assert [p.name for p in tmp_path.iterdir()] == ["big.bin"]
