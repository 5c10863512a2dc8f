"""Options that ask for more than the machine has are refused in one line when parsed:
torch given 100,000 threads ended the process with a segmentation fault (exit 139, nothing
printed), a device that does not exist in a traceback, through the CLI and the web app alike."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from boardai.hardware import check_device, check_threads, cores, resolve_device


def test_threads_are_bounded_by_the_cores_here() -> None:
    check_threads(1)
    check_threads(cores())
    for bad in (0, -1, cores() + 1, 10**5, 10**20):
        with pytest.raises(ValueError, match=rf"threads must be in 1\.\.{cores()} "):
            check_threads(bad)


@pytest.mark.parametrize("device", ["bogus", "meta", "cpu:1", "cuda:x", "CUDA", "", "cuda:1234"])
def test_devices_that_are_no_torch_device_are_refused_without_torch(device: str) -> None:
    with pytest.raises(ValueError, match="is not one of cpu, cuda, cuda:N, mps"):
        check_device(device)


def test_accelerators_must_be_here() -> None:
    torch = pytest.importorskip("torch")
    check_device("cpu")
    check_device("cpu:0")
    assert resolve_device("cpu") == "cpu"
    assert resolve_device("auto") == ("cuda" if torch.cuda.is_available() else "cpu")
    count = torch.cuda.device_count() if torch.cuda.is_available() else 0
    with pytest.raises(ValueError, match="this machine has"):
        check_device(f"cuda:{count}")
    with pytest.raises(ValueError, match="is not one of auto"):
        check_device("meta", auto=True)


def _boardai(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "boardai", *argv], capture_output=True, text=True, timeout=300
    )


@pytest.mark.parametrize(
    ("option", "said"),
    [
        ("threads=100000", "threads must be in 1.."),
        ("threads=99999999999999999999", "threads must be in 1.."),
        ("device=cuda:77", "device 'cuda:77': this machine has"),
        ("device=bogus", "device 'bogus' is not one of"),
        ("device=meta", "device 'meta' is not one of"),
    ],
)
def test_eval_refuses_a_dqn_asking_for_more_than_the_machine(option: str, said: str) -> None:
    pytest.importorskip("torch")
    done = _boardai(
        "2048", "eval", "--agent", f"dqn:model=2048-dqn,{option}", "--games", "2", "--workers", "1"
    )
    assert done.returncode == 2, done.stderr
    assert said in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_serve_refuses_such_a_player_at_start() -> None:
    # accepted at start, one client's hint with it used to kill the server
    done = _boardai("serve", "--port", "0", "--add-player", "2048", "fast=dqn:threads=100000")
    assert done.returncode == 2
    assert "threads must be in 1.." in done.stderr and "Traceback" not in done.stderr


def test_ntuple_training_threads_are_bounded_too(tmp_path: Path) -> None:
    from boardai.cli import main

    out = tmp_path / "n.npz"
    assert main(["2048", "train", "ntuple", "--threads", "100000", "--out", str(out)]) == 2
    assert not out.exists()
