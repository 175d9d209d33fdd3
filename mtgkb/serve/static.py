"""The explorer page at ``/`` and its files under ``/static/``: our HTML, CSS and JavaScript, and the
vendored libraries (cytoscape, YASGUI) in ``static/vendor/``, so the page works with no network.
``scripts/vendor_js.py`` fetches those libraries, pinned by version, from the npm registry."""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

STATIC = Path(__file__).resolve().parent / "static"


async def explorer(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")


routes = [
    Route("/", explorer, methods=["GET"]),
    Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
]
