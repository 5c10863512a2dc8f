"""``boardai serve``: the web app on a local port."""

from __future__ import annotations

import argparse

from boardai.cli._common import port_number

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def register(app: argparse.Namespace) -> None:
    p = app.command(
        "serve",
        help="play 2048 and Othello in a browser (a local web app)",
        examples="""
boardai serve                      # then open the printed URL
boardai serve --port 8080 --record games.jsonl
boardai serve --host 0.0.0.0       # reachable from other machines: only on a trusted network
""",
    )
    p.add_argument(
        "--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)"
    )
    p.add_argument(
        "--port", type=port_number, default=8000, help="port (default 8000; 0 picks a free one)"
    )
    p.add_argument(
        "--record", metavar="FILE", help="append every finished game to this JSON-lines file"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import socket
    import sys

    import uvicorn

    from boardai.errors import UsageError
    from boardai.ui.web.app import create_app
    from boardai.ui.web.protocol import MAX_MESSAGE

    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
        sock.listen(128)  # connections wait in the backlog until the server is up
    except OSError as e:
        sock.close()
        raise UsageError(f"cannot listen on {args.host}:{args.port}: {e.strerror}") from None
    port = sock.getsockname()[1]
    host = f"[{args.host}]" if family == socket.AF_INET6 else args.host
    if args.host not in LOCAL_HOSTS:
        print(
            f"warning: listening on {args.host}: other machines can reach this server",
            file=sys.stderr,
        )
    print(f"boardai web app at http://{host}:{port}/  (Ctrl-C stops it)", flush=True)
    config = uvicorn.Config(
        create_app(record_path=args.record),
        log_level="warning",
        ws_max_size=4 * MAX_MESSAGE,
        timeout_graceful_shutdown=1,
    )
    uvicorn.Server(config).run(sockets=[sock])
    return 0
