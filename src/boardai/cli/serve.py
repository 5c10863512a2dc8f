"""``boardai serve``: the web app on a local port."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from boardai.cli._common import output_option, port_number, positive_int

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")

#: Said when the warm-up is still running after this many seconds: the searches are compiling.
SLOW_WARM_UP_S = 15.0  # a warm start loads the shipped networks: a few seconds
SLOW_WARM_UP_NOTE = (
    "preparing the players: the first start on this machine compiles their searches "
    "(about a minute; later starts take seconds); the page waits meanwhile"
)


def warm_up_noting(warm_up: Callable[[], None], after: float = SLOW_WARM_UP_S) -> None:
    """Run ``warm_up``, saying why on stderr once it has taken ``after`` seconds."""
    import sys
    import threading

    timer = threading.Timer(after, lambda: print(SLOW_WARM_UP_NOTE, file=sys.stderr, flush=True))
    timer.daemon = True
    timer.start()
    try:
        warm_up()
    finally:
        timer.cancel()


def register(app: argparse.Namespace) -> None:
    p = app.command(
        "serve",
        help="play 2048 and Othello in a browser (a local web app)",
        description="Serve the web app. The page may use the built-in players and the shipped "
        "models, by name, with bounded options (a search depth and time within a cap); it can "
        "never name a file or a program. Offer more with --add-player. Only the server's own "
        "page (and --allow-origin pages) may connect.",
        examples="""
boardai serve                      # then open the printed URL
boardai serve --port 8080 --record games.jsonl
boardai serve --add-player othello strong=alphabeta:eval=ntuple,model=nt.npz,depth=8
boardai serve --allow-origin http://localhost:3000   # a page served from elsewhere
boardai serve --host 0.0.0.0       # reachable from other machines: only on a trusted network
boardai serve --host 0.0.0.0 --allow-host boards.lan   # ... also by that name
""",
    )
    p.add_argument(
        "--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)"
    )
    p.add_argument(
        "--port", type=port_number, default=8000, help="port (default 8000; 0 picks a free one)"
    )
    output_option(
        p, "--record", metavar="FILE", help="append every finished game to this JSON-lines file"
    )
    p.add_argument(
        "--add-player",
        nargs=2,
        action="append",
        default=[],
        metavar=("GAME", "NAME=SPEC"),
        help="offer player SPEC (any spec: a model file, a GTP engine) under NAME in GAME "
        "(2048 or othello); pages pick it by name and may set only its bounded options",
    )
    p.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="URL",
        help="also accept pages from this origin (scheme://host:port); repeatable",
    )
    p.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="with --host 0.0.0.0 (or ::): also answer to this host name (its IP addresses and "
        "this machine's name are always taken; other names are refused, as a DNS rebinding "
        "page's would be); repeatable",
    )
    p.add_argument(
        "--max-searches",
        type=positive_int,
        default=None,
        help="searches run at once, server-wide (default: the cores this process may use)",
    )
    p.add_argument(
        "--max-engines",
        type=positive_int,
        default=None,
        help="external engines (--add-player ... gtp:cmd=...) running at once, server-wide; "
        "a game that would start one more gets an error (default 8). Each game's engine stops "
        "when the game ends, is replaced, or its page closes",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import socket
    import sys
    from urllib.parse import urlsplit

    import uvicorn

    from boardai.errors import UsageError
    from boardai.ui.web.app import ANY_ADDRESS, create_app
    from boardai.ui.web.players import GAMES, MAX_ENGINES, Offers, parse_added, warm_up
    from boardai.ui.web.protocol import MAX_MESSAGE, MAX_SEARCHES

    added: dict[str, dict[str, str]] = {game: {} for game in GAMES}
    for game, text in args.add_player:
        if game not in GAMES:
            raise UsageError(f"--add-player: unknown game {game!r} (games: {', '.join(GAMES)})")
        name, spec = parse_added(game, text)
        added[game][name] = spec
    offers = Offers(added, max_engines=args.max_engines or MAX_ENGINES)
    for origin in args.allow_origin:
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.path not in ("", "/"):
            raise UsageError(f"--allow-origin {origin!r}: expected scheme://host[:port]")

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

    def prepare() -> None:  # connections wait in the backlog meanwhile
        warm_up()
        offers.listing()  # checks the shipped models' sums once, before any request

    warm_up_noting(prepare)
    wildcard = args.host in ("0.0.0.0", "::", "")
    names = [socket.gethostname(), socket.getfqdn(), *args.allow_host]
    app = create_app(
        record_path=args.record,
        offers=offers,
        allow_origins=args.allow_origin,
        allow_hosts=[ANY_ADDRESS, *names] if wildcard else [args.host, host, *args.allow_host],
        max_searches=args.max_searches or MAX_SEARCHES,
    )
    config = uvicorn.Config(
        app,
        log_level="warning",
        ws_max_size=4 * MAX_MESSAGE,
        timeout_graceful_shutdown=1,
    )
    uvicorn.Server(config).run(sockets=[sock])
    return 0
