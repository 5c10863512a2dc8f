"""The ui commands' argument errors: one line, exit code 2, nothing started."""

from __future__ import annotations

import socket

from boardai.cli import main


def test_serve_refuses_a_busy_port(capsys):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err


def test_tui_checks_its_options_before_starting(capsys, tmp_path):
    assert main(["tui", "--player", "nobody"]) == 2
    assert main(["tui", "--opponent", "wpc:depth=3"]) == 2
    assert main(["tui", "--replay", str(tmp_path / "none.jsonl")]) == 2
    (tmp_path / "one.jsonl").write_text('{"game": "othello", "moves": []}\n')
    assert main(["tui", "--replay", str(tmp_path / "one.jsonl"), "--game", "4"]) == 2
    err = capsys.readouterr().err
    assert "unknown 2048 agent 'nobody'" in err and "unknown option 'depth'" in err
    assert "no such record file" in err and "no game 4" in err


def test_esc_alone_is_a_key_and_eats_none_after_it():
    """On a terminal, Esc waited for two more bytes: the screen hung until two keys came, and
    those were lost (``q`` did not quit). Arrows still come whole."""
    import os
    import threading
    import tty

    from boardai.ui.keys import read_key

    master, slave = os.openpty()
    tty.setcbreak(slave)  # as the game sets its terminal: keys come one by one
    stream = os.fdopen(slave, "r")
    keys: list[str | None] = []
    try:
        reader = threading.Thread(target=lambda: keys.append(read_key(stream)), daemon=True)
        reader.start()
        os.write(master, b"\x1b")
        reader.join(5)
        hung = reader.is_alive()
        if hung:  # the old code takes two keys more
            os.write(master, b"qq")
            reader.join(5)
        assert not hung, "Esc waited for more keys"
        os.write(master, b"\x1b[Aq")
        assert [keys[0], read_key(stream), read_key(stream)] == ["\x1b", "up", "q"]
    finally:
        stream.close()
        os.close(master)
