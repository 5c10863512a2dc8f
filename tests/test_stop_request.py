"""The stop request both Ray-run arena games and sweep trials look at: looked at no more often
than asked, the text naming whom it asks, and once asked, always."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardai import stop_request


def test_a_request_is_seen_at_the_next_look_not_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = [100.0]
    monkeypatch.setattr(stop_request.time, "monotonic", lambda: now[0])
    path = tmp_path / "stop"
    asked = stop_request.looker(path, "run-a", every=0.5)
    assert not asked()  # the first look: nothing there
    stop_request.ask(path, "run-a")
    now[0] += 0.4
    assert not asked()  # not looked again yet
    now[0] += 0.1
    assert asked()
    path.unlink()
    assert asked()  # once asked, always


def test_another_run_s_request_or_an_unreadable_one_is_not_a_request(tmp_path: Path) -> None:
    path = tmp_path / "stop"
    stop_request.ask(path, "run-b")
    assert not stop_request.looker(path, "run-a", every=0.0)()
    assert stop_request.looker(path, every=0.0)()  # any text
    assert not stop_request.looker(tmp_path / "missing" / "stop", every=0.0)()
    (tmp_path / "file").write_text("")
    with pytest.raises(OSError):  # where no file can be written
        stop_request.ask(tmp_path / "file" / "stop")


def test_the_default_spacing_is_read_at_each_look(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "stop"
    asked = stop_request.looker(path)
    assert not asked()
    stop_request.ask(path)
    monkeypatch.setattr(stop_request, "LOOK_EVERY", 0.0)
    assert asked()
