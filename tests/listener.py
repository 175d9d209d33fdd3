"""A TCP listener of the tests' own on 127.0.0.1 that counts the connections it is offered: what a
query must never open (SERVICE), a test can count here."""

from __future__ import annotations

import socket
import threading


class Listener:
    """A TCP listener on 127.0.0.1 that counts the connections it is offered."""

    def __init__(self) -> None:
        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen(64)
        self.socket.settimeout(0.2)
        self.port = self.socket.getsockname()[1]
        self.connections = 0
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/esc3"

    def _accept(self) -> None:
        while not self._stopped.is_set():
            try:
                connection, _ = self.socket.accept()
            except (TimeoutError, OSError):
                continue
            self.connections += 1
            connection.close()

    def close(self) -> None:
        self._stopped.set()
        self._thread.join(2)
        self.socket.close()
