"""The FastAPI app behind ``boardai serve``: the page, its colours, the players, the games.

Run it with ``boardai serve`` or any ASGI server::

    uvicorn --factory boardai.ui.web.app:create_app --port 8000

What it guards against: any web page the user visits can make the browser talk to a server
on 127.0.0.1. So requests are taken only when their ``Host`` is one this server answers to
(which defeats DNS rebinding) and, when a browser sends an ``Origin``, only from the server's
own page or an ``allow_origins`` entry; a refused WebSocket is closed with code 1008 and the
reason. Clients choose players among those offered (:mod:`boardai.ui.web.players`), searches
share a bounded pool (:mod:`boardai.ui.web.protocol`), and at most ``max_connections``
sockets are open at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.middleware.trustedhost import TrustedHostMiddleware

from boardai.records import RecordSink
from boardai.ui import theme
from boardai.ui.web.players import Offers
from boardai.ui.web.protocol import MAX_MESSAGE, MAX_SEARCHES, Connection

STATIC = Path(__file__).parent / "static"
log = logging.getLogger(__name__)

#: Host names a server on this machine answers to, whatever address it is bound to.
LOCAL_NAMES = ("127.0.0.1", "localhost", "[::1]", "::1")
#: Sockets open at once, by default.
MAX_CONNECTIONS = 32
#: Close code for a refused WebSocket (RFC 6455: policy violation) and for a full server.
POLICY_VIOLATION, TRY_AGAIN_LATER = 1008, 1013


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
            (``127.0.0.1``, ``localhost``, ``::1``); ``*`` for any (a server bound to all
            interfaces, reached by its address).
        max_searches: searches run at once, server-wide; more wait their turn.
        max_connections: WebSockets open at once; more are closed with code 1013.
    """
    pool = ThreadPoolExecutor(max_searches, thread_name_prefix="boardai-search")

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        pool.shutdown(wait=False, cancel_futures=True)

    app = FastAPI(
        title="boardai", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan
    )
    hosts = [*LOCAL_NAMES, *allow_hosts]
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=hosts)
    sink = RecordSink(record_path)
    offers = offers or Offers()
    open_sockets = 0
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

    @app.get("/", include_in_schema=False)
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
        connection = Connection(sink, max_message, offers=offers, pool=pool)
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
                connection.close()
            except Exception:  # a full disk must not kill the server
                log.exception("could not save the game of a closed socket")

    return app
