"""Every route of the published OpenAPI document, fuzzed by schemathesis (valid and invalid
requests), then made worse: lone surrogates and control characters in every string, nesting
far deeper than any payload, bodies beyond the limit. No answer may be a server error, every
refusal is a JSON error with a message, and the state still reads after each request. The
same text goes into path parameters and query strings, as escaped bytes no browser sends.

The box is wired as the daemon wires it: the real hub, table engine, score keeper and score
database (``UNO_FUZZ_EXAMPLES`` sets how many requests; ``make test`` runs a short form).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.generation import GenerationMode

from companion.daemon import score_keeper, score_storage
from companion.web.openapi import openapi_document
from tests.test_web_api import make_app, make_hub

EXAMPLES = int(os.environ.get("UNO_FUZZ_EXAMPLES", "250"))
MUTATIONS = ("none", "none", "surrogate", "control", "deep", "huge")


@pytest.fixture(scope="module")
def box(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, Any]]:
    state_dir: Path = tmp_path_factory.mktemp("fuzz")
    hub = make_hub()
    scores = score_storage(state_dir, backups=2)
    scores.start()
    keeper = score_keeper(scores)
    scores.attach(hub)
    keeper.attach(hub)
    app = make_app(hub)
    schema = schemathesis.openapi.from_dict(openapi_document(app, hub.action_schemas()))
    operations = [result.ok() for result in schema.get_all_operations()]
    with hub.running():
        yield app, operations
    scores.close()


def worsen(value: Any, mutation: str) -> Any:
    """``value`` with every string value made hostile (field names stay, so the request gets
    past the shape checks and reaches the validator)."""
    if isinstance(value, str):
        return {"surrogate": f"{value}\ud800", "control": f"\x00{value}\x1b"}.get(mutation, value)
    if isinstance(value, list):
        return [worsen(item, mutation) for item in value]
    if isinstance(value, dict):
        return {k: worsen(v, mutation) for k, v in value.items()}
    return value


# The same attacks in the address: percent-escaped bytes no browser sends (a lone surrogate as
# WTF-8, NUL and ESC), or a query value far beyond any real one.
URL_TAILS = {"surrogate": "%ED%A0%80", "control": "%00%1B", "huge": "x" * 100_000}


def address_of(case: Any, mutation: str) -> tuple[str, str | None]:
    """The path and query string of ``case``, every parameter value worsened by ``mutation``."""
    tail = URL_TAILS.get(mutation, "")
    path = case.path
    for name, value in (case.path_parameters or {}).items():
        path = path.replace(f"{{{name}}}", quote(str(value), safe="") + tail)
    pairs = [
        (str(name), str(item))
        for name, value in (case.query or {}).items()
        for item in (value if isinstance(value, list) else [value])
    ]
    query = "&".join(f"{quote(name)}={quote(item)}{tail}" for name, item in pairs)
    return path, query or None


def body_of(case: Any, mutation: str) -> str | bytes | None:
    body = case.body
    if not isinstance(body, dict | list | str | int | float | bool | None.__class__):
        return body if isinstance(body, bytes) else None
    if mutation == "deep":
        return '{"payload": ' + '{"a": [' * 1500 + "1" + "]}" * 1500 + "}"
    if mutation == "huge":
        return json.dumps({"payload": {"text": "x" * 300_000}, "revision": None})
    if mutation in ("surrogate", "control"):
        body = worsen(body, mutation)
    return json.dumps(body)  # ASCII: a surrogate travels as \\ud800, as a browser sends it


@pytest.mark.slow
def test_every_route_survives_the_fuzzer(box: tuple[Flask, Any]) -> None:
    app, operations = box
    client = app.test_client()
    token = client.get("/api/session").get_json()["csrf"]
    seen: dict[str, int] = {}

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data())
    def attack(data: st.DataObject) -> None:
        operation = data.draw(st.sampled_from(operations), label="route")
        mode = data.draw(st.sampled_from([GenerationMode.POSITIVE, GenerationMode.NEGATIVE]))
        case = data.draw(operation.as_strategy(generation_mode=mode), label="case")
        mutation = data.draw(st.sampled_from(MUTATIONS), label="mutation")
        headers = {str(k): str(v) for k, v in (case.headers or {}).items() if str(k).isascii()}
        headers = {k: v for k, v in headers.items() if v.isascii() and "\n" not in v}
        if case.method == "POST":
            headers["X-CSRF-Token"] = token
            headers["Content-Type"] = "application/json"
        path, query = address_of(case, mutation)
        response = client.open(
            path,
            method=case.method,
            data=body_of(case, mutation) if case.method == "POST" else None,
            headers=headers,
            query_string=query,
        )
        seen[operation.label] = seen.get(operation.label, 0) + 1
        if response.status_code == 200 and mutation in ("surrogate", "control"):
            seen["hostile text accepted"] = seen.get("hostile text accepted", 0) + 1
        with response:
            status = response.status_code
            if response.mimetype == "application/json":
                answer = json.loads(response.get_data())  # valid UTF-8, valid JSON
                if status >= 400:
                    assert answer["error"]["message"], answer
        assert status < 500, (operation.label, mutation, status, response.get_data(True)[:300])
        assert client.get("/api/state").status_code == 200, (operation.label, mutation)

    attack()
    assert len(seen) >= len(operations) * 2 // 3, sorted(
        set(o.label for o in operations) - set(seen)
    )
