"""The Flask app factory of the phone page.

``create_app(hub, config, catalog)`` builds a new app each call and wires everything into it
(nothing happens at import time): the API and page blueprints, the access :class:`Guard`,
JSON errors and security headers. Serve it with :func:`companion.web.server.serve`.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from pathlib import Path

from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException

from companion.i18n import Catalog
from companion.web.api import create_api, error_response
from companion.web.compress import CompressedFiles, compress
from companion.web.config import MAX_BODY, WebConfig
from companion.web.context import CameraPictures, WebContext, web
from companion.web.pages import create_pages
from companion.web.ports import Hub
from companion.web.security import Guard

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; manifest-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'self'"
)


def create_app(
    hub: Hub,
    config: WebConfig,
    catalog: Catalog,
    *,
    secret_key: bytes | None = None,
    clock: Callable[[], float] = time.monotonic,
    camera: CameraPictures | None = None,
) -> Flask:
    """A new phone-page app talking to ``hub``; ``clock`` times PIN lock-outs (tests);
    ``camera`` gives the camera's pictures (none: no camera)."""
    app = Flask(__name__, static_folder=str(STATIC), static_url_path="/static")
    app.config.update(
        SECRET_KEY=secret_key or secrets.token_bytes(32),
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_NAME="uno_session",
        MAX_CONTENT_LENGTH=MAX_BODY,
        JSON_SORT_KEYS=False,
        SEND_FILE_MAX_AGE_DEFAULT=3600,
    )
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    guard = Guard(config, clock)
    WebContext(hub=hub, config=config, catalog=catalog, guard=guard, camera=camera).init_app(app)
    app.register_blueprint(create_api())
    app.register_blueprint(create_pages(STATIC))

    @app.before_request
    def _known_host() -> Response | None:
        # Before anything else: a page of another site reaching the box through a name of its
        # own (DNS rebinding) gets nothing, not even the state.
        context = web()
        if context.guard.host_allowed(request.host):
            return None
        return error_response("input.bad_host", context.text("input.bad_host"), 400)

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException) -> Response:
        key = {
            404: "web.error_not_found",
            405: "web.error_method",
            413: "web.error_too_large",
        }.get(exc.code or 400, "web.error_bad_request")
        return error_response(key, web().text(key), exc.code or 400)

    @app.errorhandler(TimeoutError)
    def _busy(exc: TimeoutError) -> Response:
        # The hub did not answer in time (a long import, a slow card): come back shortly.
        headers = {"Retry-After": "2"}
        return error_response("errors.busy", web().text("errors.busy"), 503, headers)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception) -> Response:
        # A bug must not stop the table: log it, tell the phone, keep serving.
        log.exception("error while serving %s %s", request.method, request.path)
        return error_response("web.error_internal", web().text("web.error_internal"), 500)

    compressed_files = CompressedFiles()

    @app.after_request
    def _compress(response: Response) -> Response:
        return compress(request, response, compressed_files)

    @app.after_request
    def _headers(response: Response) -> Response:
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("X-Frame-Options", "DENY")
        if request.path.startswith("/api/") and "Cache-Control" not in response.headers:
            response.headers["Cache-Control"] = "no-store"
        return response

    return app


def stop_streams(app: Flask) -> None:
    """End every open event stream of ``app`` (before stopping the server)."""
    context = app.extensions.get("uno_web")
    if isinstance(context, WebContext):
        context.stopping.set()
        context.hub.wake_subscribers()  # rather than at each stream's next poll
