"""Serve the phone page with waitress, in a thread the daemon can stop.

waitress is pure Python and runs in-process next to the GPIO objects (field notes). Each open
event stream holds one worker thread, so ``threads`` must be at least phones + 4 (32 by
default: 28 live streams, at most ``streams_per_client`` of them for one address).

Settings for a box on a shared Wi-Fi, where one phone (or a page it has open) must not be able to
lock the others out:

- no client holds the others (:mod:`companion.web.fairness`): an answer a phone does not read
  holds no thread, a phone that reads nothing for ``idle_seconds`` is closed, one address runs
  ``streams_per_client + requests_per_client`` requests at once and holds
  ``per_client_connections`` connections, headers must arrive within ``header_seconds``, and at
  ``connection_limit`` a new phone still gets in;
- a connection that sends nothing for ``idle_seconds`` is closed (a live stream its phone reads
  stays open: it sends keep-alives);
- a body larger than :data:`MAX_UPLOAD` is refused from its ``Content-Length`` before it is read
  (smaller limits per action are Flask's, still before reading); headers are capped at 16 KB;
- waitress keeps reading a socket while its request runs (``channel_request_lookahead``), so a
  phone that leaves ends its live stream within half a second;
- its log says each kind of trouble once a minute with a count (:mod:`companion.logs`), not
  at every request;
- at most :data:`OUTPUT_BUFFER` bytes (64 KB) wait for one connection: a phone that reads its stream
  slowly gets the latest state when it catches up instead of every state piling up in memory.

What waitress refuses itself, before the app sees the request (a body or headers too large, a
malformed request, a chunked body past the limit), is answered like the app's own refusals: a
JSON error in the phone's language (:class:`_JsonErrorTask`).
"""

from __future__ import annotations

import json
import logging
import threading
from typing import Any, cast
from urllib.parse import parse_qs

from flask import Flask
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.task import ErrorTask
from waitress.utilities import Error

from companion.logs import OncePerInterval, rate_limit
from companion.web.api import error_body
from companion.web.app import stop_streams
from companion.web.config import MAX_UPLOAD, WebConfig
from companion.web.context import EXTENSION, context_of
from companion.web.fairness import Limits, fair_server

log = logging.getLogger(__name__)

OUTPUT_BUFFER = 64 * 1024  # bytes waiting for one connection before its thread waits
RECEIVE_BYTES = 64 * 1024  # read from a connection in one step (waitress: 8 KB)
# The catalog key of each refusal waitress makes itself (by HTTP status); others: a bad request.
SERVER_REFUSALS = {
    413: "web.error_too_large",
    431: "web.error_headers_too_large",
    500: "web.error_internal",
    501: "web.error_not_implemented",
}


class WebServer:
    """A running waitress server; :meth:`stop` ends it and its open streams."""

    def __init__(self, app: Flask, config: WebConfig) -> None:
        self._app = app
        limits = Limits(
            connections=config.per_client_connections,
            running=config.streams_per_client + config.requests_per_client,
            header_seconds=config.header_seconds,
            send_seconds=config.idle_seconds,
        )
        self._server = fair_server(
            app,
            limits,
            _error_task_class(app),
            host=config.host,
            port=config.port,
            threads=config.threads,
            ident="uno-companion",
            channel_timeout=max(config.idle_seconds, int(config.keepalive_seconds * 2) + 1),
            cleanup_interval=1,  # headers late or a phone gone: noticed within a second
            connection_limit=config.connection_limit,
            asyncore_use_poll=True,  # select() fails past 1024 sockets
            channel_request_lookahead=1,
            max_request_body_size=MAX_UPLOAD,
            max_request_header_size=16 * 1024,
            # A game file (megabytes) comes in through the one thread that also reads every
            # press: in 64 KB reads it takes that thread an eighth of the steps of 8 KB ones.
            recv_bytes=RECEIVE_BYTES,
            # A phone reading its stream slowly holds up only its own stream thread: the state
            # it has not read yet is not piled up in memory (waitress's default is 16 MB per
            # connection, then a file on the SD card), and it gets the latest state once it
            # catches up.
            outbuf_high_watermark=OUTPUT_BUFFER,
            clear_untrusted_proxy_headers=True,
        )
        self._thread = threading.Thread(target=self._run, name="web", daemon=True)
        self._stopping = False
        # Busy phones make waitress warn at every request: one line a minute per kind, counted.
        self._unfilter = rate_limit(OncePerInterval())

    @property
    def port(self) -> int:
        """The port actually bound (useful with ``port = 0`` in tests)."""
        return int(self._server.effective_port)  # type: ignore[attr-defined]

    @property
    def app(self) -> Flask:
        """The Flask app it serves (its extensions hold the page's live streams)."""
        return self._app

    @property
    def channels(self) -> dict[Any, Any]:
        """The open connections (waitress's channels), by socket: what each still has to
        send shows how much a slow phone holds."""
        return cast(dict[Any, Any], self._server.active_channels)

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
        """Close every connection, end the loop, wait for the worker threads; once."""
        if self._stopping:
            return
        self._stopping = True
        stop_streams(self._app)
        server = self._server
        from waitress import wasyncore

        def close_everything() -> None:
            # handle_close also wakes a stream thread waiting for a slow phone to read.
            for channel in list(server._map.values()):  # type: ignore[attr-defined]
                if isinstance(channel, HTTPChannel):
                    channel.handle_close()
            wasyncore.close_all(server._map)  # type: ignore[attr-defined]

        # Close sockets from the server's own loop thread: asyncore maps are not thread-safe.
        # A loop that has already ended (or never started) cannot be asked: close them here.
        try:
            if not self._thread.is_alive():
                raise OSError("the server loop is not running")
            server.trigger.pull_trigger(close_everything)  # type: ignore[attr-defined]
        except OSError:
            close_everything()
        else:
            self._thread.join(timeout)
        server.task_dispatcher.shutdown(timeout=int(timeout))
        self._unfilter()


def _error_task_class(app: Flask) -> type[ErrorTask]:
    if EXTENSION not in app.extensions:  # another app (the web benchmark's bare "hello")
        return ErrorTask
    context = context_of(app)

    class _JsonErrorTask(ErrorTask):
        """waitress's own refusal, said as the app says its refusals: JSON in the phone's
        language (``?lang=``, Accept-Language, else the table's), with waitress's status."""

        def execute(self) -> None:
            # (waitress's type stubs call the task's request an Error: it is the parser.)
            request = cast(HTTPRequestParser, self.request)
            error = request.error or Error("")
            try:
                body, language = _json_refusal(request, error)
            except Exception:  # the answer to a bad request must not fail: waitress's own then
                log.exception("a refusal could not be said in JSON")
                super().execute()
                return
            self.status = f"{error.code} {error.reason}"
            self.response_headers = [
                *self.response_headers,
                ("Content-Type", "application/json"),
                ("Content-Language", language),
                ("Cache-Control", "no-store"),
                ("X-Content-Type-Options", "nosniff"),
            ]
            self.set_close_on_finish()
            self.content_length = len(body)
            self.write(body)

    def _json_refusal(request: HTTPRequestParser, error: Error) -> tuple[bytes, str]:
        key = SERVER_REFUSALS.get(error.code, "web.error_bad_request")
        # waitress keeps header names upper-case with "_" for "-", and the query undecoded.
        asked = parse_qs(getattr(request, "query", "") or "").get("lang", [""])[0]
        language = context.language_for(asked, request.headers.get("ACCEPT_LANGUAGE"))
        body = json.dumps(error_body(key, context.text(key, lang=language)), ensure_ascii=False)
        return body.encode("utf-8"), language

    return _JsonErrorTask


def serve(app: Flask, config: WebConfig) -> WebServer:
    """Start serving ``app`` in a background thread; call ``.stop()`` on the result to end."""
    return WebServer(app, config).start()
