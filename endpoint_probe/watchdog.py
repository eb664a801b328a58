"""The watchdog that ends a request at its deadline, however far inside http.client the request is blocked
(endpoint_probe/http.py says why it is needed). Standard library only.
"""

from __future__ import annotations

import socket
import threading


class Watchdog:
    """Shuts the watched socket down when the deadline passes, so that a read blocked inside http.client returns."""

    def __init__(self, seconds: float) -> None:
        self._lock = threading.Lock()
        self._sock: socket.socket | None = None
        self.fired = False
        self._timer = threading.Timer(max(seconds, 0.0), self._fire)
        self._timer.name = "llmops-deadline"
        self._timer.daemon = True

    def start(self) -> None:
        self._timer.start()

    def watch(self, sock: socket.socket | None) -> None:
        with self._lock:
            self._sock = sock
            if self.fired and sock is not None:
                _shutdown(sock)

    def _fire(self) -> None:
        with self._lock:
            self.fired = True
            if self._sock is not None:
                _shutdown(self._sock)

    def stop(self) -> None:
        """Cancel the timer and wait for its thread: after this it touches no socket."""
        self._timer.cancel()
        if self._timer.is_alive() or self._timer.ident is not None:
            self._timer.join()
        with self._lock:
            self._sock = None


def _shutdown(sock: socket.socket) -> None:
    try:
        # socket.socket's own shutdown, also for an SSLSocket: it acts on the descriptor and leaves the TLS state
        # alone, which the thread blocked in the read is still using.
        socket.socket.shutdown(sock, socket.SHUT_RDWR)
    except OSError:
        pass  # not connected yet, or closed already
