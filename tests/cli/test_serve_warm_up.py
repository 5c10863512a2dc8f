"""``boardai serve`` says why its first start takes long, and only then."""

from __future__ import annotations

import time

import pytest

from boardai.cli.serve import SLOW_WARM_UP_NOTE, warm_up_noting


def test_a_slow_warm_up_is_explained(capsys):
    warm_up_noting(lambda: time.sleep(0.5), after=0.05)
    assert capsys.readouterr().err.strip() == SLOW_WARM_UP_NOTE


def test_a_quick_warm_up_says_nothing(capsys):
    warm_up_noting(lambda: None, after=0.5)
    time.sleep(0.7)  # past the note's time: cancelled, it never comes
    assert capsys.readouterr().err == ""


def test_a_failed_warm_up_still_cancels_the_note(capsys):
    def fail() -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        warm_up_noting(fail, after=0.3)
    time.sleep(0.5)
    assert capsys.readouterr().err == ""
