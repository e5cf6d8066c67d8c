"""Serve the phone page with waitress, in a thread the daemon can stop.

waitress is pure Python and runs in-process next to the GPIO objects (field notes). Each open
event stream holds one worker thread, so ``threads`` must be at least phones + 4.
"""

from __future__ import annotations

import logging
import threading

from flask import Flask
from waitress.server import create_server

from companion.web.app import stop_streams
from companion.web.config import WebConfig

log = logging.getLogger(__name__)


class WebServer:
    """A running waitress server; :meth:`stop` ends it and its open streams."""

    def __init__(self, app: Flask, config: WebConfig) -> None:
        self._app = app
        self._server = create_server(
            app,
            host=config.host,
            port=config.port,
            threads=config.threads,
            ident="uno-companion",
            # Streams send a keep-alive every keepalive_seconds; idle sockets close after this.
            channel_timeout=max(120, int(config.keepalive_seconds * 4)),
            connection_limit=max(100, config.threads * 4),
            clear_untrusted_proxy_headers=True,
        )
        self._thread = threading.Thread(target=self._run, name="web", daemon=True)

    @property
    def port(self) -> int:
        """The port actually bound (useful with ``port = 0`` in tests)."""
        return int(self._server.effective_port)  # type: ignore[union-attr]

    def start(self) -> WebServer:
        self._thread.start()
        log.info("phone page on port %s", self.port)
        return self

    def _run(self) -> None:
        try:
            self._server.run()
        except Exception:  # the box keeps working without its page
            log.exception("the web server stopped")

    def stop(self, timeout: float = 5.0) -> None:
        """Close every connection, end the loop, wait for the worker threads."""
        stop_streams(self._app)
        server = self._server
        from waitress import wasyncore

        # Close sockets from the server's own loop thread: asyncore maps are not thread-safe.
        server.trigger.pull_trigger(lambda: wasyncore.close_all(server._map))  # type: ignore[union-attr]
        self._thread.join(timeout)
        server.task_dispatcher.shutdown(timeout=int(timeout))


def serve(app: Flask, config: WebConfig) -> WebServer:
    """Start serving ``app`` in a background thread; call ``.stop()`` on the result to end."""
    return WebServer(app, config).start()
