"""The FastAPI app behind ``boardai serve``: the page, its colours, the players, the games.

Run it with ``boardai serve`` or any ASGI server::

    uvicorn --factory boardai.ui.web.app:create_app --port 8000

What it guards against: any web page the user visits can make the browser talk to a server
on 127.0.0.1. So requests are taken only when their ``Host`` is one this server answers to
(which defeats DNS rebinding) and, when a browser sends an ``Origin``, only from the server's
own page or an ``allow_origins`` entry; a refused WebSocket is closed with code 1008 and the
reason. Clients choose players among those offered (:mod:`boardai.ui.web.players`), searches
share a bounded pool and the other requests another (:mod:`boardai.ui.web.protocol`), and at
most ``max_connections`` sockets are open at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import ipaddress
import logging
from collections.abc import AsyncIterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import Receive, Scope, Send

from boardai.records import RecordSink
from boardai.ui import theme
from boardai.ui.web.players import Offers
from boardai.ui.web.protocol import (
    MAX_MESSAGE,
    MAX_QUICK,
    MAX_SEARCHES,
    BackgroundSink,
    Connection,
)

STATIC = Path(__file__).parent / "static"
log = logging.getLogger(__name__)

#: Host names a server on this machine answers to, whatever address it is bound to.
LOCAL_NAMES = ("127.0.0.1", "localhost", "[::1]", "::1")
#: Sockets open at once, by default.
MAX_CONNECTIONS = 32
#: Close code for a refused WebSocket (RFC 6455: policy violation) and for a full server.
POLICY_VIOLATION, TRY_AGAIN_LATER = 1008, 1013


#: In ``allow_hosts``: any IP address as the Host (a server bound to every interface, reached
#: by one of its addresses). A rebinding page's Host is a name it controls, never an address.
ANY_ADDRESS = "<any address>"


def host_address(host: str) -> bool:
    """Whether a ``Host`` header names an IP address (``10.0.0.5:8000``, ``[fe80::1]:80``).

    >>> host_address("192.168.1.20:8000"), host_address("[::1]:8000"), host_address("evil.com")
    (True, True, False)
    """
    name = host[1:].partition("]")[0] if host.startswith("[") else host.partition(":")[0]
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def give_memory_back() -> None:
    """Hand the memory freed by closed sockets' players back to the system (glibc keeps
    freed blocks of tens of MiB in its heaps otherwise: a server that held 6 GB for a burst of
    clients would keep it). Nothing where the C library has no ``malloc_trim``."""
    name = ctypes.util.find_library("c")
    if name is None:
        return
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(name).malloc_trim(0)


#: Seconds after a socket closes before the memory its players held is handed back (one
#: trim for a burst of closes).
TRIM_DELAY = 2.0


class HostCheck(TrustedHostMiddleware):
    """:class:`TrustedHostMiddleware` (HTTP and WebSocket requests alike) whose
    ``allowed_hosts`` may hold :data:`ANY_ADDRESS`."""

    def __init__(self, app: Any, allowed_hosts: Sequence[str]) -> None:
        self.any_address = ANY_ADDRESS in allowed_hosts
        super().__init__(app, [h for h in allowed_hosts if h != ANY_ADDRESS])

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            self.any_address
            and scope["type"] in ("http", "websocket")
            and host_address(Headers(scope=scope).get("host", ""))
        ):
            await self.app(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


def origin_allowed(origin: str | None, host: str | None, allowed: Sequence[str]) -> bool:
    """Whether a request with this ``Origin`` and ``Host`` comes from a page allowed to use
    the server: no Origin (not a browser), the server's own page (the Origin is the Host the
    request came to), or one of ``allowed``.

    >>> origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000", [])
    True
    >>> origin_allowed("http://evil.example.com", "127.0.0.1:8000", [])
    False
    >>> origin_allowed("http://localhost:3000", "127.0.0.1:8000", ["http://localhost:3000"])
    True
    """
    if origin is None:
        return True
    origin = origin.rstrip("/").lower()
    if origin in (a.rstrip("/").lower() for a in allowed):
        return True
    parts = urlsplit(origin)
    return host is not None and parts.scheme in ("http", "https") and parts.netloc == host.lower()


#: The modules that add to numba's typing registries when first imported (types of constant
#: values, overloads, intrinsics). Those registries are plain dicts: a search typing a call in
#: one thread while another thread's first player imports one of these modules can fail with
#: "dictionary changed size during iteration", so the app imports them all before any request.
NUMBA_EXTENSIONS = (
    "boardai.constant_types",
    "boardai.intrinsics",
    "boardai.jitref",
    "boardai.g2048.ntuple_index",
    "boardai.othello.kernels",
    "boardai.othello.endgame",
)


def create_app(
    record_path: str | Path | None = None,
    max_message: int = MAX_MESSAGE,
    offers: Offers | None = None,
    allow_origins: Sequence[str] = (),
    allow_hosts: Sequence[str] = (),
    max_searches: int = MAX_SEARCHES,
    max_connections: int = MAX_CONNECTIONS,
) -> FastAPI:
    """The web app.

    Args:
        record_path: finished games are appended to this JSON-lines file (None: not kept).
        max_message: longest WebSocket message accepted, in characters.
        offers: the players clients may use (default: the built-in public players).
        allow_origins: pages of other origins allowed to use the server
            (``http://localhost:3000``).
        allow_hosts: host names the server answers to besides this machine's
            (``127.0.0.1``, ``localhost``, ``::1``); :data:`ANY_ADDRESS` for any IP address (a
            server bound to all interfaces); ``*`` for any name at all (which lets a DNS
            rebinding page in).
        max_searches: searches run at once, server-wide; more wait their turn.
        max_connections: WebSockets open at once; more are closed with code 1013.
    """
    import importlib

    for name in NUMBA_EXTENSIONS:
        importlib.import_module(name)
    pool = ThreadPoolExecutor(max_searches, thread_name_prefix="boardai-search")
    quick = ThreadPoolExecutor(MAX_QUICK, thread_name_prefix="boardai-quick")
    sink = BackgroundSink(RecordSink(record_path))

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        pool.shutdown(wait=False, cancel_futures=True)
        quick.shutdown(wait=False, cancel_futures=True)
        await asyncio.get_running_loop().run_in_executor(None, sink.close)  # seconds at most

    app = FastAPI(
        title="boardai", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan
    )
    hosts = [*LOCAL_NAMES, *allow_hosts]
    app.add_middleware(HostCheck, allowed_hosts=hosts)
    offers = offers or Offers()
    open_sockets = 0
    trim_pending = False

    def trim_soon() -> None:
        """Give memory back shortly after sockets close (once for a burst), off the loop."""
        nonlocal trim_pending
        if trim_pending:
            return
        trim_pending = True
        loop = asyncio.get_running_loop()

        def trim() -> None:
            nonlocal trim_pending
            trim_pending = False
            with contextlib.suppress(RuntimeError):  # the pool is shut: the server stops
                loop.run_in_executor(quick, give_memory_back)

        loop.call_later(TRIM_DELAY, trim)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.middleware("http")
    async def same_origin_writes(request: Request, call_next: Any) -> Response:
        """Requests that could change state (anything but GET and HEAD) only from the
        server's own page."""
        if request.method not in ("GET", "HEAD") and not origin_allowed(
            request.headers.get("origin"), request.headers.get("host"), allow_origins
        ):
            return JSONResponse({"error": "cross-origin request refused"}, status_code=403)
        response: Response = await call_next(request)
        return response

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/theme.css", include_in_schema=False)
    def theme_css() -> PlainTextResponse:
        return PlainTextResponse(theme.css(), media_type="text/css")

    @app.get("/api/agents")
    def agents() -> dict[str, Any]:
        return offers.listing()

    @app.websocket("/ws")
    async def play(websocket: WebSocket) -> None:
        nonlocal open_sockets
        origin = websocket.headers.get("origin")
        await websocket.accept()
        if not origin_allowed(origin, websocket.headers.get("host"), allow_origins):
            shown = (origin or "")[:60]
            reason = f"cross-origin connection refused ({shown}): see boardai serve --help"
            await websocket.close(POLICY_VIOLATION, reason[:120])
            return
        if open_sockets >= max_connections:
            await websocket.close(TRY_AGAIN_LATER, "server busy: too many connections")
            return
        open_sockets += 1
        connection = Connection(sink, max_message, offers=offers, pool=pool, quick=quick)
        sending = asyncio.Lock()  # a search's reply and a quick one may be ready together

        async def send(reply: dict[str, Any]) -> None:
            async with sending:
                await websocket.send_json(reply)

        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                await connection.dispatch(text if text is not None else message.get("bytes"), send)
        except (WebSocketDisconnect, OSError, RuntimeError):
            pass  # the browser went away, maybe while a player was thinking
        finally:
            open_sockets -= 1
            try:
                try:  # off the loop: stopping an engine may take a second
                    closing = asyncio.get_running_loop().run_in_executor(quick, connection.close)
                except RuntimeError:  # the pool is shut (the server stops): here, then
                    connection.close()
                else:
                    await closing
            except Exception:  # a full disk must not kill the server
                log.exception("could not save the game of a closed socket")
            trim_soon()

    return app
