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


def _write_responses(path: str) -> dict[str, Any]:
    return {
        "200": _ok(path),
        "400": _error("bad input; nothing changed"),
        "401": _error("the table PIN is needed"),
        "403": _error("foreign origin, missing CSRF token or wrong PIN"),
        "404": _error("unknown action, player or round"),
        "409": _error(
            "someone else changed the table first: reload and retry; or a request with this "
            "Idempotency-Key is still running"
        ),
        "413": _error("the body is larger than this action allows"),
        "422": _error("this Idempotency-Key was used for another request"),
        "429": _error("too many bad PINs, or a HIT press faster than the button takes: wait"),
        "503": _error("the box is busy, or the score database cannot be used: retry later"),
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
                "responses": _write_responses("/api/state"),
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
        "components": {"schemas": {"Error": ERROR_SCHEMA}},
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
