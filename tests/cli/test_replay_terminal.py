"""``boardai replay`` on a terminal: each position drawn in place, in colour."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from boardai.cli import main

CHEAP = ["othello", "watch", "--black", "wpc", "--white", "random", "--delay", "0"]


def test_replay_in_a_terminal_draws_each_position_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    """``boardai replay`` on a terminal: the coloured board in place, named for the players,
    to the end; Ctrl-C stops it where it is (both games)."""
    import pexpect

    from boardai.g2048 import Game as Game2048

    record = tmp_path / "w.jsonl"
    assert main([*CHEAP, "--seed", "5", "--record", str(record)]) == 0
    plies = len(json.loads(record.read_text())["moves"])
    args = ["-m", "boardai", "replay", str(record), "--delay", "0"]
    child = pexpect.spawn(
        sys.executable, args, encoding="utf-8", codec_errors="replace", timeout=120
    )
    child.expect("wpc \\(black\\) against random \\(white\\)")
    child.expect("●")  # the coloured board, not the text one
    child.expect(f"position {plies}/{plies}  after")
    child.expect(f"replayed {plies} moves: black \\(wpc\\) ")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    game = Game2048(seed=2)
    for _ in range(3):
        game.move(game.board.legal_actions()[0])
    g2048 = tmp_path / "g.jsonl"
    g2048.write_text(json.dumps(game.to_record()) + "\n")
    args = ["-m", "boardai", "replay", str(g2048), "--delay", "60"]  # Ctrl-C comes first
    child = pexpect.spawn(
        sys.executable, args, encoding="utf-8", codec_errors="replace", timeout=120
    )
    child.expect("position 0/3")
    child.sendintr()
    child.expect("stopped at position 0 of 3")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
