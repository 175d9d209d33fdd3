"""The ASGI application: the SPARQL endpoint, the JSON API and the explorer page over one store.

The store is opened read-only, in the workers of :mod:`mtgkb.serve.pool` (started with the app,
stopped with it); this process reads requests, hands them to a worker and writes the answers. Every
error is an answer with a status and a message: a bug is a 500 naming the error, never a traceback.
"""

from __future__ import annotations

import contextlib
import sys
import traceback
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Route

from mtgkb.core.errors import MtgkbError, shown
from mtgkb.kb.store import check_store, current_store_path
from mtgkb.serve import api, static
from mtgkb.serve.jobs import error_reply
from mtgkb.serve.limits import Limits
from mtgkb.serve.pool import WorkerPool
from mtgkb.serve.sparql_protocol import (
    ProtocolError,
    protocol_request,
    query_job,
    reply_response,
    service_description,
    text_error,
)


async def sparql_endpoint(request: Request) -> Response:
    limits: Limits = request.app.state.limits
    accept = request.headers.get("accept")
    try:
        fields = await protocol_request(request, limits.max_request_bytes)
        if fields is None:
            endpoint = str(request.url.replace(query="", fragment=""))
            return service_description(endpoint, request.app.state.graphs, accept, limits.max_result_bytes)
        job = query_job(fields, accept)
    except ProtocolError as error:
        return text_error(error, error.status)
    except MtgkbError as error:
        return text_error(error)
    return reply_response(await request.app.state.pool.run(job))


_PACKAGE = Path(__file__).resolve().parents[1]  # mtgkb/


async def _server_error(request: Request, error: Exception) -> Response:
    """A bug in this process: its name and message to the client, one line to the server's log (the
    guard around the application keeps the traceback out of it, see :mod:`mtgkb.serve.guard`)."""
    sys.stderr.write(
        f"mtgkb serve: {request.method} {shown(request.url.path)}: {type(error).__name__}: "
        f"{shown(str(error), 300)}{_where(error)}\n"
    )
    problem = MtgkbError(f"internal error: {type(error).__name__}", "please report this")
    return reply_response(error_reply(problem, request.url.path.startswith("/api/"), 500))


def _where(error: Exception) -> str:
    """Where in mtgkb's code ``error`` was raised (the innermost frame of ours), for the log line."""
    frames = traceback.extract_tb(error.__traceback__)
    ours = [frame for frame in frames if Path(frame.filename).is_relative_to(_PACKAGE)]
    if not ours:
        return f" (at {Path(frames[-1].filename).name}:{frames[-1].lineno})" if frames else ""
    return f" (at {Path(ours[-1].filename).relative_to(_PACKAGE.parent)}:{ours[-1].lineno})"


async def _client_gone(request: Request, error: Exception) -> Response:
    """The client closed the connection before its request was read: nobody is left to answer, and it
    is no fault of the server's, so the log hears nothing of it."""
    return Response(status_code=499)


async def _not_found(request: Request, error: Exception) -> Response:
    problem = ProtocolError(404, f"nothing at {shown(request.url.path)}", "try /, /sparql or /api/card/NAME")
    return reply_response(error_reply(problem, request.url.path.startswith("/api/"), 404))


def create_app(
    store_path: Path,
    graphs: list[str],
    limits: Limits | None = None,
    on_ready: Callable[[], None] | None = None,
) -> Starlette:
    """The application over the built store at ``store_path`` (whose named graphs are ``graphs``);
    ``on_ready`` is called once its workers have opened the store."""
    limits = limits or Limits()

    def switched(path: Path) -> None:
        sys.stderr.write(f"mtgkb serve: the knowledge base changed; answering from {path}\n")
        with contextlib.suppress(OSError, ValueError):
            app.state.graphs = tuple(sorted(check_store(path).get("graphs", {})))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        pool = WorkerPool(store_path, limits, current_store_path, switched)
        app.state.pool = pool
        try:
            await pool.start()
            if on_ready is not None:
                on_ready()
            yield
        finally:
            await pool.close()

    app = Starlette(
        routes=[
            Route("/sparql", sparql_endpoint, methods=["GET", "POST"]),
            *api.routes,
            *static.routes,
        ],
        middleware=[
            Middleware(
                CORSMiddleware,
                allow_origins=["*"],
                allow_methods=["GET", "POST"],
                allow_headers=["Accept", "Content-Type"],
                max_age=3600,
            )
        ],
        exception_handlers={Exception: _server_error, ClientDisconnect: _client_gone, 404: _not_found},
        lifespan=lifespan,
    )
    app.state.limits = limits
    app.state.graphs = tuple(sorted(graphs))
    return app
