"""A small HTTP server of the tests' own on 127.0.0.1 that plays a hostile peer: it answers each path
with what a test put there, which may be a fixed body, an endless one, a redirect, or bytes trickled
one at a time. It counts the requests it got, so a test can tell that nothing was asked of it."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Answer:
    body: bytes = b""
    status: int = 200
    content_type: str = "text/plain"
    headers: dict[str, str] = field(default_factory=dict)
    #: Seconds between single bytes of the status line, headers and body (0: all at once).
    trickle: float = 0.0
    #: With ``trickle``: the status line and headers at once, only the body byte by byte.
    trickle_body_only: bool = False
    #: After the body, send more for as long as the client reads, without a Content-Length.
    endless: bool = False
    #: The Content-Length to claim instead of the body's (a server that stops early).
    claimed_length: int | None = None


@dataclass
class Peer:
    base: str
    answers: dict[str, Answer | Callable[[], Answer]]
    requests: list[str]

    def url(self, path: str) -> str:
        return self.base + path


class _Handler(BaseHTTPRequestHandler):
    peer: Peer
    stopping: threading.Event

    def log_message(self, *args: object) -> None:
        pass

    def _answer(self) -> None:
        self.peer.requests.append(f"{self.command} {self.path}")
        self._read_body()
        found = self.peer.answers.get(self.path.split("?")[0])
        answer = found() if callable(found) else found
        if answer is None:
            answer = Answer(b"not here", 404)
        head = [f"HTTP/1.1 {answer.status} Whatever", f"Content-Type: {answer.content_type}"]
        head += [f"{key}: {value}" for key, value in answer.headers.items()]
        if answer.claimed_length is not None:
            head.append(f"Content-Length: {answer.claimed_length}")
        elif not answer.endless and not answer.trickle:
            head.append(f"Content-Length: {len(answer.body)}")
        head.append("Connection: close")
        data = ("\r\n".join(head) + "\r\n\r\n").encode() + answer.body
        try:
            if answer.trickle:
                start = len(data) - len(answer.body) if answer.trickle_body_only else 0
                self.wfile.write(data[:start])
                for position in range(start, len(data)):
                    if self.stopping.is_set():
                        return
                    self.wfile.write(data[position : position + 1])
                    self.wfile.flush()
                    time.sleep(answer.trickle)
                while answer.endless and not self.stopping.is_set():
                    self.wfile.write(b"x")
                    self.wfile.flush()
                    time.sleep(answer.trickle)
                return
            self.wfile.write(data)
            zeros = bytes(1 << 16)
            while answer.endless and not self.stopping.is_set():
                self.wfile.write(zeros)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _read_body(self) -> None:
        """The request's body, read and thrown away (chunked, as a pushed graph comes, or not)."""
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            while size := int(self.rfile.readline().split(b";")[0].strip() or b"0", 16):
                self.rfile.read(size + 2)
            self.rfile.readline()
        elif length := int(self.headers.get("Content-Length") or 0):
            self.rfile.read(length)

    do_GET = do_POST = do_PUT = _answer


@contextlib.contextmanager
def hostile_peer(answers: dict[str, Answer | Callable[[], Answer]] | None = None) -> Iterator[Peer]:
    """A server on 127.0.0.1 (a free port) answering ``answers`` by path until the block ends."""
    stopping = threading.Event()
    peer = Peer("", dict(answers or {}), [])
    handler = type("Handler", (_Handler,), {"peer": peer, "stopping": stopping})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    peer.base = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield peer
    finally:
        stopping.set()
        server.shutdown()
        server.server_close()
