"""``mtgkb serve``: the SPARQL endpoint, the JSON API and the explorer page over HTTP."""

from __future__ import annotations

import sys

import click

from mtgkb.cli import cli, json_option, progress_reporter
from mtgkb.cli.option_types import Seconds, memory_option
from mtgkb.serve.limits import (
    DEFAULT_HEAD_TIMEOUT,
    DEFAULT_MAX_CONNECTIONS,
    DEFAULT_MAX_HEADER_BYTES,
    DEFAULT_MAX_REQUEST_BYTES,
    DEFAULT_MAX_RESULT_BYTES,
    DEFAULT_TIMEOUT,
    DEFAULT_WORKERS,
    MIN_BODY_BYTES_PER_SECOND,
)


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port", type=click.IntRange(0, 65535), default=7878, show_default=True, help="Port (0: a free one)."
)
@click.option(
    "--timeout",
    type=Seconds(minimum=0.1),
    default=DEFAULT_TIMEOUT,
    show_default=True,
    metavar="SECONDS",
    help="Time limit of one query or API call; past it the answer is 503 and the work is stopped.",
)
@click.option(
    "--max-result-mb",
    type=click.IntRange(min=1),
    default=DEFAULT_MAX_RESULT_BYTES // (1024 * 1024),
    show_default=True,
    help="Largest answer; a larger one is refused with 403.",
)
@click.option(
    "--max-request-kb",
    type=click.IntRange(min=1),
    default=DEFAULT_MAX_REQUEST_BYTES // 1024,
    show_default=True,
    help="Largest request (a query, a posted situation); a larger one is refused with 413.",
)
@click.option(
    "--max-header-kb",
    type=click.IntRange(min=1),
    default=DEFAULT_MAX_HEADER_BYTES // 1024,
    show_default=True,
    help="Largest header fields of a request in all; larger ones are refused with 431.",
)
@click.option(
    "--max-connections",
    type=click.IntRange(min=1),
    default=DEFAULT_MAX_CONNECTIONS,
    show_default=True,
    help="Connections held open at once; one more is answered 503.",
)
@click.option(
    "--head-timeout",
    type=Seconds(minimum=0.1),
    default=DEFAULT_HEAD_TIMEOUT,
    show_default=True,
    metavar="SECONDS",
    help="Time a request head may take to arrive (from the connection's start or the previous answer); "
    "past it the connection is closed, with 408 if part of a head came. A body must then come at "
    f"{MIN_BODY_BYTES_PER_SECOND // 1024} KB/s.",
)
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=DEFAULT_WORKERS,
    show_default=True,
    help="Worker processes answering requests side by side.",
)
@memory_option(
    "Memory one worker may hold while it answers; past it the worker is stopped, the answer is 503 "
    "and a fresh worker takes its place"
)
@click.option("--access-log", is_flag=True, help="Log every request on stderr.")
@json_option
def serve(
    host: str,
    port: int,
    timeout: float,
    max_result_mb: int,
    max_request_kb: int,
    max_header_kb: int,
    max_connections: int,
    head_timeout: float,
    workers: int,
    max_memory_mb: int | None,
    access_log: bool,
    as_json: bool,
) -> None:
    """Serve the knowledge base over HTTP: SPARQL, a JSON API and an explorer page.

    /sparql speaks the SPARQL 1.1 Protocol (GET ?query=, POST form or application/sparql-query;
    results by Accept; the service description on a plain GET). /api/card/NAME, /api/rule/N,
    /api/can-activate, /api/can-cast, /api/commanders, /api/copy and others answer with the JSON
    of the matching command's --json. / is the explorer page. The store is read-only: updates and
    SERVICE are refused. Once listening, the address is printed on stdout; Ctrl-C stops.

    \b
    Examples:
      mtgkb serve
      mtgkb serve --port 8080 --timeout 10
      curl -H 'Accept: text/csv' 'http://127.0.0.1:7878/sparql?query=SELECT%20*%20%7B%3Fs%20%3Fp%20%3Fo%7D%20LIMIT%203'
    """
    from mtgkb.app import open_kb
    from mtgkb.cli.output import diagnostic, emit
    from mtgkb.cli.render.serve import render_serve
    from mtgkb.core.memory import default_limit_mb
    from mtgkb.serve.limits import Limits
    from mtgkb.serve.server import bind, is_loopback, run, serve_info

    limits = Limits(
        timeout=timeout,
        max_result_bytes=max_result_mb * 1024 * 1024,
        max_request_bytes=max_request_kb * 1024,
        workers=workers,
        max_header_bytes=max_header_kb * 1024,
        max_connections=max_connections,
        head_timeout=head_timeout,
        max_memory_mb=default_limit_mb() if max_memory_mb is None else max_memory_mb,
    )
    kb = open_kb(progress_reporter())
    sock = bind(host, port)
    info = serve_info(kb, sock, limits)
    if not is_loopback(host):
        diagnostic(
            f"warning: listening on {host}, not only this machine: anyone who can reach it can query "
            "the knowledge base (read-only)"
        )

    def ready() -> None:
        emit(info, as_json, render_serve)
        sys.stdout.flush()

    try:
        run(kb, sock, limits, ready, access_log)
    finally:
        sock.close()
