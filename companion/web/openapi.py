"""The OpenAPI 3.1 document of ``/api/``, built from the app's routes and the hub's actions.

Routes give the paths and methods (so a new route cannot be forgotten); each view's docstring
gives its summary; the query strings come from their declarations (:mod:`companion.web.queries`);
:meth:`Hub.action_schemas` gives one ``/api/actions/<name>`` path per action with the JSON schema
of its payload (each table action's declared in :mod:`companion.core.actions`).
"""

from __future__ import annotations

import re
from typing import Any

from flask import Flask

from companion import __version__
from companion.web.queries import QUERIES, query_parameters

ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["key", "message"],
            "properties": {"key": {"type": "string"}, "message": {"type": "string"}},
        }
    },
}

# An action that was done when the table after it could not be read in time: never "busy".
APPLIED_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "the action was done, but the table after it was not ready in time: the "
    "live stream (GET /api/events) brings it; never answered as busy",
    "required": ["applied", "message"],
    "properties": {"applied": {"const": True}, "message": {"type": "string"}},
}
REPLAYED_HEADER: dict[str, Any] = {
    "description": "true when this is the answer to an earlier request with the same "
    "Idempotency-Key (found in memory, or kept with the change it made)",
    "schema": {"type": "string", "enum": ["true"]},
}

# What each GET answers with, beyond JSON.
MEDIA = {
    "/api/events": "text/event-stream",
    "/api/qr.svg": "image/svg+xml",
    "/api/chart.svg": "image/svg+xml",
    "/api/export.csv": "text/csv",
}


def _error(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }


def _ok(path: str) -> dict[str, Any]:
    media = MEDIA.get(path, "application/json")
    schema: dict[str, Any] = (
        {"type": "object"} if media == "application/json" else {"type": "string"}
    )
    return {"description": "OK", "content": {media: {"schema": schema}}}


def _write_responses(path: str, *, action: bool = False) -> dict[str, Any]:
    done = _ok(path)
    if action:  # the state after the action, or "applied" when it was late
        done["content"]["application/json"]["schema"] = {
            "oneOf": [
                {"type": "object", "description": "the state after the action"},
                {"$ref": "#/components/schemas/Applied"},
            ]
        }
    done["headers"] = {"Idempotent-Replayed": REPLAYED_HEADER}
    return {
        "200": done,
        "400": _error("bad input; nothing changed"),
        "401": _error("the table PIN is needed"),
        "403": _error("foreign origin, missing CSRF token or wrong PIN"),
        "404": _error("unknown action, player or round"),
        "409": _error(
            "someone else changed the table first: reload and retry; the game holds as much as "
            "the box keeps (scoring.error.game_full, scoring.error.game_log_full): start a new "
            "game; or a request with this Idempotency-Key is still running"
        ),
        "413": _error("the body is larger than this action allows"),
        "422": _error("this Idempotency-Key was used for another request"),
        "429": _error(
            "too many bad PINs from this address, or from many addresses at once "
            "(web.error_locked, answered at once); a HIT press "
            "faster than the button takes; a launcher movement too soon after the last: wait "
            "for Retry-After"
        ),
        "503": _error(
            "the box is busy (nothing was done), or the score database cannot be used (full, "
            "locked, damaged, or its folder gone and not made again: nothing was stored): "
            "retry later"
        ),
        "507": _error("the disk is full: nothing was stored"),
    }


def openapi_document(app: Flask, action_schemas: dict[str, dict[str, Any]]) -> dict[str, Any]:
    paths: dict[str, dict[str, Any]] = {}
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        if not rule.rule.startswith("/api/") or "<name>" in rule.rule:
            continue
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
        view = app.view_functions[rule.endpoint]
        summary = (view.__doc__ or rule.endpoint).strip().splitlines()[0]
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            operation: dict[str, Any] = {
                "operationId": f"{method.lower()}_{rule.endpoint.replace('.', '_')}",
                "summary": summary,
                "parameters": [
                    {"name": arg, "in": "path", "required": True, "schema": {"type": "string"}}
                    for arg in sorted(rule.arguments)
                ],
            }
            if method == "POST":
                operation["parameters"] += [_csrf_parameter(), _idempotency_parameter()]
                operation["requestBody"] = {
                    "required": True,
                    "content": {"application/json": {"schema": {"type": "object"}}},
                }
                operation["responses"] = _write_responses(path)
            else:
                if path in QUERIES:
                    operation["parameters"] += query_parameters(QUERIES[path])
                operation["responses"] = {
                    "200": _ok(path),
                    "400": _error("a Host header that is not this box"),
                    "404": _error("not found"),
                    "503": _error("the box is busy: retry later"),
                }
            paths.setdefault(path, {})[method.lower()] = operation
    for name, schema in sorted(action_schemas.items()):
        paths[f"/api/actions/{name}"] = {
            "post": {
                "operationId": "action_" + re.sub(r"\W", "_", name),
                "summary": f"Action {name}",
                "parameters": [_csrf_parameter(), _idempotency_parameter()],
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "additionalProperties": False,
                                "properties": {
                                    "payload": schema,
                                    "revision": {
                                        "type": ["integer", "null"],
                                        "description": "the revision the edit was based on",
                                    },
                                },
                            }
                        }
                    },
                },
                "responses": _write_responses("/api/state", action=True),
            }
        }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "uno-companion phone page API",
            "version": __version__,
            "description": "Read the table, post actions, follow changes live. Changes need the "
            "session's CSRF token (GET /api/session) and, when set, the table PIN.",
        },
        "paths": paths,
        "components": {"schemas": {"Error": ERROR_SCHEMA, "Applied": APPLIED_SCHEMA}},
    }


def _idempotency_parameter() -> dict[str, Any]:
    return {
        "name": "Idempotency-Key",
        "in": "header",
        "required": False,
        "description": "a new key for each action, the same for its retries: a retry gets the "
        "first answer (with Idempotent-Replayed: true) instead of doing the action twice",
        "schema": {"type": "string", "minLength": 1, "maxLength": 255},
    }


def _csrf_parameter() -> dict[str, Any]:
    return {
        "name": "X-CSRF-Token",
        "in": "header",
        "required": True,
        "schema": {"type": "string"},
        "description": "the token from GET /api/session",
    }
