"""TTS's side of the External Editor API on loopback, for the `push` and `watch` tests.

The fake speaks the protocol as TTS does (LUA.md §4): it listens on its own port, reads one JSON
document per connection, and answers (through ``handle``) on a new connection to the editor's
port.
"""

from __future__ import annotations

import json
import socket
import threading
from typing import Any


def free_port() -> int:
    """A loopback port nothing listens on (as far as one can tell)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class FakeTTSServer:
    """Listens on ``port``, records every message in ``received`` and hands it to ``handle``."""

    def __init__(self, editor_port: int) -> None:
        self.editor_port = editor_port
        self.received: list[dict[str, Any]] = []
        self.server = socket.create_server(("127.0.0.1", 0))
        self.server.settimeout(0.05)
        self.port = self.server.getsockname()[1]
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)

    def start(self) -> None:
        self.thread.start()

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.server.accept()
            except TimeoutError:
                continue
            with conn:
                conn.settimeout(5)
                data = b""
                while chunk := conn.recv(65536):  # one document per connection: read to EOF
                    data += chunk
            message = json.loads(data)
            self.received.append(message)
            self.handle(message)

    def handle(self, message: dict[str, Any]) -> None:
        """Answer one message from the editor (by default: not at all)."""

    def tell(self, message: dict[str, Any]) -> None:
        """Send one message to the editor's port."""
        with socket.create_connection(("127.0.0.1", self.editor_port), timeout=5) as sock:
            sock.sendall(json.dumps(message).encode())

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=5)
        self.server.close()
