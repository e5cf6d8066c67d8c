"""The JSON API under ``/api/``: what the page reads, the actions it posts, its live stream.

Every answer is JSON except the stream (``text/event-stream``), the pictures (SVG) and the score
sheet (CSV). Errors are ``{"error": {"key": ..., "message": ...}}`` in the phone's language with
a 4xx status; a request that fails changes nothing.
"""

from __future__ import annotations

import hashlib
import json
import logging
import unicodedata
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import quote

from flask import Blueprint, Response, current_app, g, jsonify, request, session

from companion.core.cards import card_table_data
from companion.core.commands import CueName
from companion.core.cues import cue_steps
from companion.core.errors import ActionError
from companion.core.events import COLOURS, DARK_COLOURS
from companion.core.options import DECKS, rules_fields
from companion.core.payload import clean_text, shown
from companion.core.receipts import Receipt
from companion.core.scoring import MODES, ScoringError, builtin_rulesets
from companion.core.scoring.formats import game_to_json
from companion.i18n import LANGUAGES
from companion.web import chart, lan, scoreview
from companion.web.config import MAX_BODY, MAX_UPLOAD
from companion.web.context import WebContext, web
from companion.web.idempotency import HEADER, REPLAYED, KeyProblem, fingerprint, parse_key
from companion.web.openapi import openapi_document
from companion.web.queries import PAGE_DEFAULT, RoundsQuery, bounds
from companion.web.security import AccessDenied

log = logging.getLogger(__name__)
# The cues the page plays along with the box (speech stays on the box).
PAGE_CUES: tuple[CueName, ...] = ("ding", "burst", "reload", "error")

# Actions that press, fire or aim the launcher from a phone.
REMOTE_PRESS_ACTIONS = (
    "table.press",
    "device.hit",
    "device.test_fire",
    "device.face",
    "device.calibrate_seat",
)
# Catalog domains the page reads (besides its own, the score database's faults).
PAGE_DOMAINS = ("web.", "storage.")
# A phone refused a live stream reads the state this often, and asks for a stream again after.
POLL_SECONDS = 5
STREAM_RETRY_SECONDS = 10
# Rounds in one page of the score history (GET /api/score/rounds): by default, at most.
# Fields of the hub's settings the page must never see.
SECRET_SETTINGS = ("pin",)


class ApiError(Exception):
    """A refused request: a ``web.*`` catalog key, its parameters and an HTTP status."""

    def __init__(self, key: str, status: int = 400, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.status = status
        self.params = params


def error_body(key: str, message: str) -> dict[str, Any]:
    """What every refusal says, whoever refuses: the catalog key and its text."""
    return {"error": {"key": key, "message": message}}


def error_response(
    key: str, message: str, status: int, headers: dict[str, str] | None = None
) -> Response:
    response = jsonify(error_body(key, message))
    response.status_code = status
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def public_state(state: dict[str, Any]) -> dict[str, Any]:
    """The hub's state without secrets."""
    settings = state.get("settings")
    if isinstance(settings, dict) and any(k in settings for k in SECRET_SETTINGS):
        state = {
            **state,
            "settings": {k: v for k, v in settings.items() if k not in SECRET_SETTINGS},
        }
    return state


def create_api() -> Blueprint:
    api = Blueprint("api", __name__, url_prefix="/api")

    @api.errorhandler(ApiError)
    def _api_error(exc: ApiError) -> Response:
        ctx = web()
        message = exc.message if isinstance(exc, _Refused) else ctx.text(exc.key, exc.params)
        headers = {"Retry-After": "2"} if exc.status == 503 else None
        return error_response(exc.key, message, exc.status, headers)

    @api.errorhandler(AccessDenied)
    def _denied(exc: AccessDenied) -> Response:
        ctx = web()
        headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else None
        params = {"seconds": exc.retry_after or 0}
        return error_response(exc.key, ctx.text(exc.key, params), exc.status, headers)

    @api.get("/state")
    def get_state() -> Response:
        """The whole table: engine snapshot, score, device, settings and setup options."""
        ctx = web()
        return _json_state(ctx, ctx.hub.state())

    @api.get("/session")
    def get_session() -> Response:
        """This phone's CSRF token, whether a PIN is needed and entered, the page's addresses."""
        ctx = web()
        config = ctx.config
        return jsonify(
            {
                "csrf": ctx.guard.csrf_token(),
                "pin_required": ctx.guard.pin_required,
                "authenticated": ctx.guard.authenticated(),
                "remote_press": config.remote_press,
                "urls": lan.page_urls(config.host, _served_port(config.port)),
                "languages": list(LANGUAGES),
                "language": ctx.table_language(),
                # A game named by default shows in each phone's own language.
                "default_game_names": [
                    ctx.catalog.text("web.default_game_name", lang) for lang in LANGUAGES
                ],
                "keepalive_seconds": config.keepalive_seconds,
                # Each action and the fields its payload may have, so the page sends only those.
                "actions": {
                    name: sorted(schema.get("properties", {}))
                    for name, schema in sorted(ctx.hub.action_schemas().items())
                },
                "rulesets": [
                    {"key": r.key, "name": r.name(ctx.table_language())} for r in builtin_rulesets()
                ],
                "counting_modes": list(MODES),
            }
        )

    @api.post("/login")
    def post_login() -> Response:
        """Enter the table PIN; later changes from this phone are allowed."""
        ctx = web()
        ctx.guard.check_origin(request)
        ctx.guard.check_csrf(request)
        return _once(ctx, lambda: _login(ctx), lambda: jsonify({"authenticated": True}))

    def _login(ctx: WebContext) -> Response:
        body = _json_object()
        pin = body.get("pin")
        if not isinstance(pin, str):
            raise ApiError("web.error_field", field="pin", problem=ctx.text("web.problem_type"))
        try:
            pin = clean_text(pin, "pin", max_length=64)
        except ActionError as exc:
            raise _refused(ctx, exc) from exc
        ctx.guard.login(request.remote_addr or "?", pin)
        return jsonify({"authenticated": True})

    @api.post("/logout")
    def post_logout() -> Response:
        """Forget this phone's PIN."""
        ctx = web()
        ctx.guard.check_origin(request)
        ctx.guard.check_csrf(request)
        ctx.guard.logout()
        return jsonify({"authenticated": ctx.guard.authenticated()})  # a retry does it again

    @api.post("/actions/<name>")
    def post_action(name: str) -> Response:
        """Apply one action; ``revision`` makes a stale edit fail with 409 instead of being lost."""
        ctx = web()
        ctx.guard.check_write(request)
        schemas = ctx.hub.action_schemas()
        if name not in schemas:
            raise ApiError("web.error_unknown_action", 404, action=shown(name))
        # The limit is set before the body is read: only a game file may be large.
        request.max_content_length = body_limit(schemas[name])
        return _once(ctx, lambda: _act(ctx, name), lambda: _state_now(ctx))

    def _act(ctx: WebContext, name: str) -> Response:
        body = _json_object()
        unknown = set(body) - {"payload", "revision"}
        if unknown:
            raise ApiError(
                "web.error_field",
                field=shown(sorted(unknown)[0], 40),
                problem=ctx.text("web.problem_unknown"),
            )
        payload = body.get("payload", {})
        revision = body.get("revision")
        if not isinstance(payload, dict):
            raise ApiError("web.error_field", field="payload", problem=ctx.text("web.problem_type"))
        if revision is not None and (not isinstance(revision, int) or isinstance(revision, bool)):
            raise ApiError(
                "web.error_field", field="revision", problem=ctx.text("web.problem_type")
            )
        if name in REMOTE_PRESS_ACTIONS and not _may_press(ctx):
            raise ApiError("web.error_remote_press_off", 403)
        # The hub checks the payload with the one validator (companion.core.payload).
        state = _dispatch(ctx, name, payload, revision)
        return _applied(ctx) if state is None else _json_state(ctx, state)

    @api.get("/events")
    def get_events() -> Response:
        """Live updates (Server-Sent Events): a ``state`` event after each change."""
        ctx = web()
        client = request.remote_addr or "?"
        full = ctx.open_stream(client)
        if full is not None:
            # No live stream: the page reads /api/state every poll_seconds meanwhile.
            key, status = {
                "phone": ("input.streams_per_client", 429),
                "table": ("web.error_busy", 503),
            }[full]
            message = ctx.text(key, {"limit": ctx.config.streams_per_client})
            response = jsonify({**error_body(key, message), "poll_seconds": POLL_SECONDS})
            response.status_code = status
            response.headers["Retry-After"] = str(STREAM_RETRY_SECONDS)
            return response
        # waitress tells when the phone has gone (it keeps reading the socket while the stream
        # runs, see channel_request_lookahead): the slot is freed within a poll, not at the next
        # keep-alive.
        gone = request.environ.get("waitress.client_disconnected")
        response = Response(_stream(ctx, gone), mimetype="text/event-stream")
        response.call_on_close(lambda: ctx.close_stream(client))
        response.headers["Cache-Control"] = "no-cache"
        response.headers["X-Accel-Buffering"] = "no"
        return response

    @api.get("/cards")
    def get_cards() -> Response:
        """The card table (every card kind, its effect, decks and option) and the house rules
        the table may change, with their defaults and limits: the page fetches them once."""
        response = jsonify(
            {
                "cards": card_table_data(),
                "rules": rules_fields(),
                "decks": list(DECKS),
                "colours": {"light": list(COLOURS), "dark": list(DARK_COLOURS)},
                # Each deck's card kinds and values: the round-end pads count the hands of the
                # deck on the table, whichever ruleset the score game was started with.
                "deck_rulesets": {r.key: r.to_dict() for r in builtin_rulesets() if r.key in DECKS},
            }
        )
        response.headers["Cache-Control"] = "max-age=300"
        return response

    @api.get("/cues")
    def get_cues() -> Response:
        """The box's sound cues as (frequency Hz, seconds) steps, 0 Hz a rest, for the page to
        play the same sounds; ``suspense`` holds one run per level 0, 0.1 … 1."""
        cues: dict[str, Any] = {name: cue_steps(name) for name in PAGE_CUES}
        cues["suspense"] = [cue_steps("suspense", level / 10) for level in range(11)]
        response = jsonify(cues)
        response.headers["Cache-Control"] = "max-age=300"
        return response

    @api.get("/i18n/<lang>")
    def get_catalog(lang: str) -> Response:
        """The page's texts in ``lang`` (fr or en)."""
        ctx = web()
        if lang not in LANGUAGES:
            raise ApiError("web.error_language", 404, language=shown(lang, 10))
        keys = sorted(
            k for k in ctx.catalog.keys(lang) | ctx.catalog.keys("fr") if k.startswith(PAGE_DOMAINS)
        )
        # "web.hit" is "hit" on the page; other domains keep their name: "storage_full".
        texts = {
            k.removeprefix("web.").replace(".", "_", 1): ctx.catalog.text(k, lang) for k in keys
        }
        response = jsonify(texts)
        response.headers["Cache-Control"] = "max-age=300"
        return response

    @api.get("/camera/live.jpg")
    def get_camera_live() -> Response:
        """The camera's latest frame (JPEG, at most 640 px wide); 404 without a camera."""
        ctx = web()
        return _camera_jpeg(ctx.camera.live_jpeg() if ctx.camera is not None else None)

    @api.get("/camera/pictures/<int:number>.jpg")
    def get_camera_picture(number: int) -> Response:
        """A picture the camera kept: one of the last 50 reads that were unsure or mended."""
        ctx = web()
        return _camera_jpeg(ctx.camera.picture(number) if ctx.camera is not None else None)

    @api.get("/openapi.json")
    def get_openapi() -> Response:
        """This API described as OpenAPI 3.1."""
        ctx = web()
        schemas = ctx.hub.action_schemas()
        # The description changes only with the actions (registered as the box starts): made
        # once, gzipped once (by its ETag), and a phone that has it gets a 304.
        key = frozenset(schemas)
        made = ctx.described
        if made is None or made[0] != key:
            document = openapi_document(current_app, schemas)
            body = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()
            made = (key, body, hashlib.sha256(body).hexdigest()[:32])
            ctx.described = made
        response = Response(made[1], mimetype="application/json")
        response.set_etag(made[2])
        response.headers["Cache-Control"] = "no-cache"
        response.make_conditional(request)  # a 304 when the phone has this one
        return response

    @api.get("/qr.svg")
    def get_qr() -> Response:
        """A QR code of the page's address, for other phones to scan."""
        config = web().config
        svg = lan.qr_svg(lan.page_urls(config.host, _served_port(config.port))[0])
        return Response(svg, mimetype="image/svg+xml")

    @api.get("/chart.svg")
    def get_chart() -> Response:
        """Running totals over every round of the current game."""
        ctx = web()
        sheet = _query(ctx, "score.sheet", {})
        colours = (ctx.hub.state().get("page") or {}).get("colours") or None
        lang = ctx.language()
        game = sheet.get("game") or {}
        # Drawn once per revision of the game (and language, colours): a long game's chart is
        # not gone through again while nothing in it changes.
        key = (game.get("id"), sheet.get("revision"), lang, repr(colours))
        kept = key[0] is not None and key[1] is not None  # a game that says its revision
        svg = ctx.charts.get(key) if kept else None
        if svg is None:
            # Through every round of the game: the hub's long work, off this thread.
            svg = ctx.hub.run_long(
                lambda: chart.totals_svg(
                    scoreview.parties_of(sheet),
                    scoreview.round_points(sheet, ctx.hub.stand_aside),
                    ctx.text("web.chart_title", lang=lang),
                    ctx.text("web.chart_empty", lang=lang),
                    scoreview.target_of(sheet),
                    to_go=ctx.text("web.chart_to_go", lang=lang),
                    # The players' colours chosen at setup: a line has its player's colour.
                    colours=colours,
                )
            )
            if kept:
                ctx.charts.put(key, svg)
        response = Response(svg, mimetype="image/svg+xml")
        response.headers["Cache-Control"] = "no-store"
        # The chart styles itself for light and dark pages: an inline <style>, and nothing else.
        response.headers["Content-Security-Policy"] = (
            "default-src 'none'; style-src 'unsafe-inline'"
        )
        return response

    @api.get("/score/rounds")
    def get_score_rounds() -> Response:
        """A page of the current game's rounds, oldest first: at most ``limit`` (1 to 200,
        default 50) of those numbered below ``before`` (default: up to the last)."""
        ctx = web()
        before = _int_arg(ctx, "before", *bounds(RoundsQuery, "before"))
        limit = _int_arg(ctx, "limit", *bounds(RoundsQuery, "limit"))
        return jsonify(
            _query(ctx, "score.rounds", {"before": before, "limit": limit or PAGE_DEFAULT})
        )

    @api.get("/export.csv")
    def get_export() -> Response:
        """The current game as a score sheet in the phone's language (French: French headers
        and ';' between columns), which score.import reads back: every round of it."""
        ctx = web()
        sheet, lang = _query(ctx, "score.sheet", {}), ctx.language()
        # Every round of the game: the hub's long work, off this thread.
        text = ctx.hub.run_long(lambda: scoreview.export_csv(sheet, lang, ctx.hub.stand_aside))
        response = Response(text.encode("utf-8"), mimetype="text/csv")
        response.headers["Content-Type"] = "text/csv; charset=utf-8"
        response.headers["Content-Disposition"] = attachment(scoreview.export_name(sheet, "csv"))
        return response

    @api.get("/export.json")
    def get_export_json() -> Response:
        """The current game as the box's own game file, which score.import reads back.

        Every entry of its log (corrections and undos included); 404 when no game is open."""
        ctx = web()
        book = _query(ctx, "score.book", {})  # a copy: the game goes on while it is encoded
        if book is None:
            raise ApiError("errors.no_game", 404)
        # Every entry of the game's log: the hub's long work, off this thread.
        text = ctx.hub.run_long(lambda: game_to_json(book))
        response = Response(text.encode("utf-8"), mimetype="application/json")
        name = scoreview.export_name({"game": book.setup.to_dict()}, "json")
        response.headers["Content-Disposition"] = attachment(name)
        return response

    return api


def attachment(filename: str) -> str:
    """A Content-Disposition naming the download (RFC 6266): the name as written for browsers
    that read UTF-8 names, an ASCII one for the others."""
    ascii_name = unicodedata.normalize("NFKD", filename).encode("ascii", "ignore").decode()
    ascii_name = ascii_name.replace('"', "").replace("\\", "") or "uno"
    return f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(filename, safe='')}"


def _once(ctx: WebContext, run: Callable[[], Response], again: Callable[[], Response]) -> Response:
    """``run()`` the request once per ``Idempotency-Key`` (see companion.web.idempotency): a
    retry of a refusal gets the same refusal, a retry of a success ``again()`` (the state now,
    which includes what the first did), both marked ``Idempotent-Replayed: true``.

    A key the box no longer remembers (a restart, a flood of other keys) is looked for in the
    stores, which keep it with the change its action made: found, the retry is answered."""
    try:
        key = parse_key(request.headers.get(HEADER))
        if key is None:
            return run()
        scope = str(session.get("csrf") or request.remote_addr or "")
        print_ = fingerprint(request.path, request.get_data())
        entry = ctx.remembered.begin(scope, key, print_)
        if entry is None:
            entry = _kept(ctx, scope, key, print_)
    except KeyProblem as problem:
        raise ApiError(problem.key, problem.status) from None
    if entry is not None:
        assert entry.status is not None
        replayed = (
            again()
            if entry.error is None
            else Response(entry.error, entry.status, mimetype="application/json")
        )
        replayed.headers[REPLAYED] = "true"
        return replayed
    status, error, refused = 500, None, False
    g.receipt = Receipt(scope, key, print_)  # kept by the stores with the change
    try:
        try:
            response = run()
        except Exception as exc:  # the refusal, made as the error handlers make it
            # A refusal changed nothing; a timeout reaching here came before the action (see
            # _dispatch). Anything else (a bug) may have changed something: not run twice.
            refused = isinstance(exc, ApiError | AccessDenied | TimeoutError)
            response = current_app.make_response(current_app.handle_user_exception(exc))
        status = response.status_code
        error = response.get_data() if status >= 400 else None
        return response
    finally:
        ctx.remembered.finish(scope, key, status, error, forget=refused and status >= 500)


def _kept(ctx: WebContext, scope: str, key: str, print_: str) -> Any:
    """The stores' receipt of ``key`` as a finished entry to replay (None: no store has it,
    run the request). ``key`` is claimed in :attr:`WebContext.remembered` meanwhile."""
    try:
        kept = ctx.hub.find_receipt(scope, key)
    except Exception:  # the stores cannot say: not run blindly, the phone retries shortly
        log.exception("receipts could not be read")
        ctx.remembered.finish(scope, key, 503, None, forget=True)
        raise ApiError("errors.busy", 503) from None
    if kept is None:
        return None
    if kept != print_:
        ctx.remembered.finish(scope, key, 422, None, forget=True)
        raise KeyProblem("input.idempotency_reused", 422)
    ctx.remembered.finish(scope, key, 200, None)
    return ctx.remembered.begin(scope, key, print_)


def _applied(ctx: WebContext) -> Response:
    """The answer to an action that was done when the table after it could not be read in
    time: never "busy, nothing was changed". The phones' live streams bring the new state."""
    return jsonify({"applied": True, "message": ctx.text("web.applied_state_later")})


def _state_now(ctx: WebContext) -> Response:
    """The answer to a retry of an action that was done: the state now (which includes it)."""
    try:
        return _json_state(ctx, ctx.hub.state())
    except (TimeoutError, ActionError):  # late, or the box stopping: done all the same
        return _applied(ctx)


def _query(ctx: WebContext, name: str, params: dict[str, Any]) -> Any:
    try:
        return ctx.hub.query(name, params)
    except ActionError as exc:
        raise _refused(ctx, exc) from exc


def _int_arg(ctx: WebContext, name: str, low: int, high: int) -> int | None:
    """The query string's whole number ``name`` within [low, high], or None when absent."""
    raw = request.args.get(name)
    if raw is None or raw == "":
        return None
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 12:
        raise ApiError("web.error_field", field=name, problem=ctx.text("web.problem_type"))
    value = int(raw)
    if not low <= value <= high:
        raise ApiError("web.error_field", field=name, problem=ctx.text("web.problem_value"))
    return value


def _json_state(ctx: WebContext, state: dict[str, Any]) -> Response:
    """The state as the answer's JSON (its unchanged parts encoded once, see state_json)."""
    return Response(ctx.state_json(public_state(state)), mimetype="application/json")


def _served_port(configured: int) -> int:
    """The port this request came in on (the configured one may be 0: any free port)."""
    try:
        return int(request.environ.get("SERVER_PORT") or configured)
    except ValueError:
        return configured


def body_limit(schema: dict[str, Any]) -> int:
    """The largest request body an action may send: room for its longest text field."""
    fields = schema.get("properties", {}).values()
    longest = max((f.get("maxLength", 0) for f in fields if isinstance(f, dict)), default=0)
    return min(MAX_UPLOAD, MAX_BODY + 2 * int(longest))


def _json_object() -> dict[str, Any]:
    try:
        body = request.get_json(silent=True, force=True)
    except RecursionError:  # [[[[... deeper than the parser goes
        raise ApiError("input.too_deep", field="body") from None
    if not isinstance(body, dict):
        raise ApiError("web.error_bad_json")
    return body


def _may_press(ctx: WebContext) -> bool:
    """In simulation the HIT button drives the mock pin; on hardware only if allowed."""
    device = ctx.hub.state().get("device") or {}
    return device.get("simulated") is True or ctx.config.remote_press


def _dispatch(
    ctx: WebContext, name: str, payload: dict[str, Any], revision: int | None
) -> dict[str, Any] | None:
    """The state after the action, or None when the action ran but that state was late."""
    try:
        return ctx.hub.dispatch(name, payload, revision, receipt=g.get("receipt"))
    except TimeoutError:
        # The hub says "busy" (an ActionError, 503) when the action never started; once
        # started it runs to its end: a timeout here is the state after it, not the action.
        return None
    except ActionError as exc:
        raise _refused(ctx, exc) from exc
    except ScoringError as exc:
        message = ctx.text(exc.catalog_key, exc.params)
        if message == exc.catalog_key:
            message = str(exc)
        raise _Refused(exc.catalog_key, message, exc.status) from exc


# Statuses a refusal may carry beyond 4xx: busy (try again) and storage full.
PASSED_STATUSES = frozenset({503, 507})


def _refused(ctx: WebContext, exc: ActionError) -> _Refused:
    """An :class:`ActionError` as an answer in the phone's language."""
    message = ctx.text(exc.key, exc.params)
    if message == exc.key:  # no phrase in the catalog: the English sentence
        message = str(exc)
    status = exc.status if 400 <= exc.status < 500 or exc.status in PASSED_STATUSES else 400
    return _Refused(exc.key, message, status)


class _Refused(ApiError):
    """An action the hub refused, with its message already in the phone's language."""

    def __init__(self, key: str, message: str, status: int) -> None:
        super().__init__(key, status)
        self.message = message


def _stream(ctx: WebContext, gone: Callable[[], bool] | None = None) -> Iterator[bytes]:
    """Server-Sent Events: the state now, then after every change; comments keep it open.

    ``gone`` (from waitress) says whether the phone has closed the connection."""
    subscription = ctx.hub.subscribe()
    keepalive = ctx.config.keepalive_seconds
    poll = min(keepalive, 0.5)  # how soon a stopping server or a phone gone is noticed
    try:
        yield b"retry: 3000\n\n"
        yield ctx.state_event(lambda state: _event(ctx, state))
        quiet = 0.0
        while not ctx.stopping.is_set() and not (gone is not None and gone()):
            notice = subscription.get(poll)
            if notice is None:
                quiet += poll
                if quiet >= keepalive:
                    quiet = 0.0
                    yield b": keep-alive\n\n"
                continue
            if ctx.stopping.is_set():
                break
            # Several changes queued up: one fresh state covers them all.
            while subscription.get(0) is not None:
                pass
            quiet = 0.0
            yield ctx.state_event(lambda state: _event(ctx, state))
    finally:
        subscription.close()


def _event(ctx: WebContext, state: dict[str, Any]) -> bytes:
    data = ctx.state_json(public_state(state))
    return f"id: {state.get('revision', 0)}\nevent: state\ndata: ".encode() + data + b"\n\n"


def _camera_jpeg(data: bytes | None) -> Response:
    """A camera picture, for a phone with the table's PIN (the camera sees the table)."""
    if not web().guard.authenticated():
        raise AccessDenied("web.error_pin_to_see", 401)  # a read: not "to change things"
    if data is None:
        raise ApiError("web.error_not_found", 404)
    response = Response(data, mimetype="image/jpeg")
    response.headers["Cache-Control"] = "no-store"
    return response
