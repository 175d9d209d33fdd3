"""Running ``mtgkb serve`` for the tests: a real server in a subprocess on 127.0.0.1, on a free port,
over the store of the environment the test session set up; and a plain HTTP client (urllib)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

START_SECONDS = 120


@dataclass
class Server:
    url: str  # ends with /
    process: subprocess.Popen
    info: dict[str, Any]
    stderr: list[str]

    @property
    def sparql(self) -> str:
        return self.url + "sparql"


@contextlib.contextmanager
def running_server(
    *options: str, env: dict[str, str] | None = None, launcher: tuple[str, ...] = ()
) -> Iterator[Server]:
    """``mtgkb serve --port 0 --json OPTIONS`` until the block ends (then Ctrl-C, as a user stops it);
    ``launcher``: a command that runs the server's in the same process (one that sets a limit, then
    execs the rest of its arguments)."""
    command = [
        *launcher,
        sys.executable,
        "-m",
        "mtgkb",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--json",
        *options,
    ]
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env or dict(os.environ),
        start_new_session=True,
    )
    stderr: list[str] = []
    threading.Thread(target=lambda: stderr.extend(process.stderr), daemon=True).start()
    lines: list[str] = []
    ready = threading.Event()

    def read_info() -> None:
        for line in process.stdout:
            lines.append(line)
            if line.rstrip() == "}":
                ready.set()
                return
        ready.set()

    threading.Thread(target=read_info, daemon=True).start()
    try:
        if not ready.wait(START_SECONDS) or not lines or lines[-1].rstrip() != "}":
            raise AssertionError(f"mtgkb serve did not start: {''.join(stderr)}")
        info = json.loads("".join(lines))
        yield Server(info["url"], process, info, stderr)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(10)


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")

    def json(self) -> Any:
        return json.loads(self.body)


def http(
    url: str,
    data: bytes | None = None,
    headers: dict[str, str] | None = None,
    method: str | None = None,
    timeout: float = 60,
) -> Answer:
    """One request with urllib; an HTTP error status is an answer too."""
    request = urllib.request.Request(url, data=data, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return Answer(
                response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
            )
    except urllib.error.HTTPError as error:
        return Answer(error.code, {k.lower(): v for k, v in error.headers.items()}, error.read())


def get_query(server: Server, query: str, accept: str | None = None, **extra: str | list[str]) -> Answer:
    fields: list[tuple[str, str]] = [("query", query)]
    for name, value in extra.items():
        for one in value if isinstance(value, list) else [value]:
            fields.append((name.replace("_", "-"), one))
    headers = {"Accept": accept} if accept else {}
    return http(server.sparql + "?" + urllib.parse.urlencode(fields), headers=headers)


def post_form(server: Server, fields: dict[str, str], accept: str | None = None) -> Answer:
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    if accept:
        headers["Accept"] = accept
    return http(server.sparql, urllib.parse.urlencode(fields).encode("utf-8"), headers)


def post_query(server: Server, query: str, accept: str | None = None) -> Answer:
    headers = {"Content-Type": "application/sparql-query"}
    if accept:
        headers["Accept"] = accept
    return http(server.sparql, query.encode("utf-8"), headers)


def worker_pids(server: Server) -> list[int]:
    """The server's worker processes (its children)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) != server.process.pid:
            continue
        with contextlib.suppress(OSError), open(f"/proc/{entry}/cmdline", "rb") as handle:
            if b"spawn_main" in handle.read() and b"resource_tracker" not in handle.read():
                found.append(int(entry))
    return found


def load(
    server: Server,
    requests: list[tuple[str, str, bytes | None, dict[str, str]]],
    clients: int,
    per_client: int,
    deadline: float,
) -> tuple[list[float], list[str]]:
    """``clients`` threads, each sending ``per_client`` of ``requests`` (method, path, body, headers) in
    turn over one kept-alive connection, all stopping at ``deadline`` (time.monotonic()). Returns the
    latencies in seconds and a description of every error (any status but 200, or no answer)."""
    import http.client
    import time

    host, port = urllib.parse.urlsplit(server.url).netloc.rsplit(":", 1)
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()

    def client(number: int) -> None:
        connection = http.client.HTTPConnection(host, int(port), timeout=60)
        try:
            for at in range(per_client):
                if time.monotonic() > deadline:
                    with lock:
                        errors.append(f"client {number} ran out of time after {at} requests")
                    return
                method, path, body, headers = requests[(number + at) % len(requests)]
                started = time.perf_counter()
                try:
                    connection.request(method, path, body=body, headers=headers)
                    response = connection.getresponse()
                    payload = response.read()
                except (OSError, http.client.HTTPException) as error:
                    with lock:
                        errors.append(f"{method} {path}: {error!r}")
                    connection.close()
                    connection = http.client.HTTPConnection(host, int(port), timeout=60)
                    continue
                elapsed = time.perf_counter() - started
                with lock:
                    latencies.append(elapsed)
                    if response.status != 200:
                        errors.append(f"{method} {path}: {response.status} {payload[:200]!r}")
        finally:
            connection.close()

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(max(deadline - time.monotonic(), 0) + 60)
    return latencies, errors


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(int(fraction * len(ordered)), len(ordered) - 1)]


def asgi_request(app: Any, path: str, query: bytes = b"") -> list[dict[str, Any]]:
    """The messages ``app`` sends answering a GET of ``path`` in this process (no server, no lifespan)."""
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": query,
        "headers": [(b"host", b"127.0.0.1:7878")],
        "server": ("127.0.0.1", 7878),
        "client": ("127.0.0.1", 50000),
    }
    asyncio.run(app(scope, receive, send))
    return sent
