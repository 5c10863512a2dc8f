"""Every key of every screen of the terminal app is on screen at 80 columns: the footer holds
the screen's keys, the header the app's (they were cut at 80 and at 120 columns)."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("textual")

from textual.binding import Binding

from boardai.ui.tui import BoardApp


def _shown(bindings: list[Binding | tuple[str, ...]]) -> list[str]:
    labels = []
    for b in bindings:
        if isinstance(b, Binding):
            if b.show:
                labels.append(b.description)
        else:
            labels.append(b[2])
    return labels


@pytest.mark.parametrize("start", ["2048", "othello", "replay"])
def test_every_key_is_on_screen_at_80_columns(start: str) -> None:
    async def main() -> tuple[str, str, list[str]]:
        app = BoardApp(start=start)
        async with app.run_test(size=(80, 30)) as pilot:
            await pilot.pause(0.3)
            lines = [strip.text for strip in app.screen._compositor.render_strips()]
            return lines[0], lines[-1], _shown(type(app.screen).BINDINGS)

    header, footer, labels = asyncio.run(main())
    assert labels, "the screen names its keys"
    for label in labels:
        assert f" {label}" in footer, (label, footer)
    for key, what in (("1", "2048"), ("2", "Othello"), ("3", "replay"), ("q", "quit")):
        assert f"{key} {what}" in header, header
