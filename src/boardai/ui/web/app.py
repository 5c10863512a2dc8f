"""The FastAPI app behind ``boardai serve``: the page, its colours, the players, the games.

Run it with ``boardai serve`` or any ASGI server::

    uvicorn --factory boardai.ui.web.app:create_app --port 8000
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles

from boardai.records import RecordSink
from boardai.ui import theme
from boardai.ui.web.protocol import MAX_MESSAGE, Connection, agent_lists

STATIC = Path(__file__).parent / "static"
log = logging.getLogger(__name__)


def create_app(record_path: str | Path | None = None, max_message: int = MAX_MESSAGE) -> FastAPI:
    """The web app.

    Args:
        record_path: finished games are appended to this JSON-lines file (None: not kept).
        max_message: longest WebSocket message accepted, in characters.
    """
    app = FastAPI(title="boardai", docs_url=None, redoc_url=None, openapi_url=None)
    sink = RecordSink(record_path)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/theme.css", include_in_schema=False)
    def theme_css() -> PlainTextResponse:
        return PlainTextResponse(theme.css(), media_type="text/css")

    @app.get("/api/agents")
    def agents() -> dict[str, Any]:
        return agent_lists()

    @app.websocket("/ws")
    async def play(websocket: WebSocket) -> None:
        await websocket.accept()
        connection = Connection(sink, max_message)
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                reply = await connection.handle(text if text is not None else message.get("bytes"))
                await websocket.send_json(reply)
        except (WebSocketDisconnect, OSError, RuntimeError):
            pass  # the browser went away, maybe while a player was thinking
        finally:
            try:
                connection.close()
            except Exception:  # a full disk must not kill the server
                log.exception("could not save the game of a closed socket")

    return app
