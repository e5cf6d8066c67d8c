"""The phone page's JSON API: every endpoint, good and bad input, access control.

The hub here is the real :class:`companion.app.hub.Hub` around a real table engine, with small
score/device/settings sections registered the way the composition root registers its own.
Bad input must give a 4xx with a message, never a 5xx, and change nothing.
"""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.app.hub import Hub
from companion.config import Config, ConfigError, parse_config
from companion.core.errors import ActionError
from companion.core.payload import validate_payload
from companion.daemon import table_engine
from companion.i18n import Catalog
from companion.web import WebConfig, chart, create_app

PLAYERS = ["Alice", "Bruno", "Chloé", "David"]
HUGE = "x" * 20_000  # far beyond any field limit, under the 64 KB body limit
HUGER = "x" * 100_000


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def make_hub() -> Hub:
    """A real hub with the sections and adapter actions the daemon would register."""
    hub = Hub(table_engine(Config(), seed=7))
    settings_section: dict[str, Any] = {"language": "fr", "pin": "never-shown", "target": 500}
    device: dict[str, Any] = {"simulated": True, "volume": 70, "voice": True, "seat_angles": []}
    rounds: list[dict[str, Any]] = []
    score: dict[str, Any] = {"game": None, "history": rounds}

    def update_settings(p: dict[str, Any]) -> None:
        settings_section.update(p)

    def new_game(p: dict[str, Any]) -> None:
        score["game"] = {"name": p["name"], "players": p["players"], "target": 500, "teams": []}
        rounds.clear()

    def record_round(p: dict[str, Any]) -> None:
        game = score["game"]
        if game is None:
            raise ActionError("no_game", "no game", status=409)
        for name in p["hands"]:
            if name not in game["players"]:
                raise ActionError("unknown_player", f"no {name}", {"name": name}, 404)
        points = {n: h.get("points", 0) for n, h in p["hands"].items()}
        rounds.append({"number": len(rounds) + 1, "credited": points, "hands": p["hands"]})

    player = {"type": "string", "minLength": 1, "maxLength": 40}
    obj = {"type": "object", "additionalProperties": False}
    hub.register_status("settings", lambda: dict(settings_section))
    hub.register_status("device", lambda: dict(device))
    hub.register_status("score", lambda: json.loads(json.dumps(score)))
    hub.register_query("score.sheet", lambda _: json.loads(json.dumps(score)))
    hub.register_status("options", lambda: {"languages": ["fr", "en"]})
    hub.register_action(
        "settings.update",
        {
            **obj,
            "required": [],
            "properties": {"language": {"type": "string", "enum": ["fr", "en"]}},
        },
        update_settings,
        "settings",
    )
    hub.register_action(
        "device.volume",
        {
            **obj,
            "required": ["level"],
            "properties": {"level": {"type": "integer", "minimum": 0, "maximum": 100}},
        },
        lambda p: device.update(volume=p["level"]),
        "device",
    )
    hub.register_action(
        "score.new_game",
        {
            **obj,
            "required": ["name", "players"],
            "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": 80},
                "players": {"type": "array", "items": player, "minItems": 2, "maxItems": 10},
            },
        },
        new_game,
        "score",
    )
    hub.register_action(
        "score.record_round",
        {
            **obj,
            "required": ["hands"],
            "properties": {"hands": {"type": "object"}},
        },
        record_round,
        "score",
    )
    return hub


@functools.cache
def catalog() -> Catalog:
    """The phrase catalog, read once (it is never changed)."""
    return Catalog.load()


def make_app(hub: Hub, clock: Clock | None = None, **web: Any) -> Flask:
    config = WebConfig(**web)
    app = create_app(hub, config, catalog(), clock=clock or Clock())
    app.testing = True
    return app


def csrf(client: FlaskClient) -> dict[str, str]:
    token = client.get("/api/session").get_json()["csrf"]
    return {"X-CSRF-Token": token}


def post_action(
    client: FlaskClient, name: str, payload: Any, revision: Any = None, **headers: str
) -> Any:
    body: dict[str, Any] = {"payload": payload}
    if revision is not None:
        body["revision"] = revision
    return client.post(f"/api/actions/{name}", json=body, headers={**csrf(client), **headers})


@pytest.fixture
def hub() -> Hub:
    return make_hub()


@pytest.fixture
def client(hub: Hub) -> FlaskClient:
    return make_app(hub).test_client()


def assert_refused(response: Any, status: int | tuple[int, ...] = (400, 404, 409, 413)) -> None:
    statuses = (status,) if isinstance(status, int) else status
    assert response.status_code in statuses, (response.status_code, response.get_data(True))
    error = response.get_json()["error"]
    assert error["key"] and error["message"] and error["message"] != error["key"]


# ---------------------------------------------------------------------- reading


def test_state_is_the_hubs_state_without_the_pin(client: FlaskClient, hub: Hub) -> None:
    state = client.get("/api/state").get_json()
    assert state["revision"] == hub.revision
    assert [p["name"] for p in state["table"]["players"]] == PLAYERS
    assert "pin" not in state["settings"] and state["settings"]["language"] == "fr"


def test_session_gives_a_csrf_token_and_the_page_address(hub: Hub) -> None:
    client = make_app(hub, allowed_hosts=["box.local"]).test_client()
    session = client.get("/api/session", base_url="http://box.local:8080").get_json()
    assert len(session["csrf"]) >= 24
    assert session["pin_required"] is False and session["authenticated"] is True
    assert session["urls"][0].startswith("http://") and session["urls"][0].endswith(":8080/")
    cookie = client.get_cookie("uno_session", domain="box.local")
    assert cookie is not None and cookie.same_site == "Strict" and cookie.http_only


def test_catalogs_have_the_same_keys_in_both_languages(client: FlaskClient) -> None:
    fr = client.get("/api/i18n/fr").get_json()
    en = client.get("/api/i18n/en").get_json()
    assert set(fr) == set(en) and len(fr) > 100
    assert fr["hit"] == "APPUYER" and en["hit"] == "HIT"
    assert_refused(client.get("/api/i18n/de"), 404)
    assert_refused(client.get("/api/i18n/" + "x" * 5000), 404)


def test_the_page_asks_for_all_its_modules_at_once(client: FlaskClient) -> None:
    import re
    from pathlib import Path

    static = Path(__file__).parents[1] / "companion" / "web" / "static"
    response = client.get("/")
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-cache"
    html = response.get_data(as_text=True)
    preloaded = re.findall(r'<link rel="modulepreload" href="/static/(js/[\w/]+\.js)">', html)
    modules = {p.relative_to(static).as_posix() for p in (static / "js").rglob("*.js")}
    assert sorted(preloaded) == preloaded and set(preloaded) == modules - {"js/main.js"}
    assert html.index('src="/static/js/main.js"') < html.index("modulepreload")
    for module in preloaded:  # each one served, as JavaScript
        with client.get(f"/static/{module}") as served:
            assert served.status_code == 200 and "javascript" in served.mimetype


def test_the_page_and_its_data_come_gzipped_to_a_phone_that_accepts_it(
    client: FlaskClient,
) -> None:
    import gzip
    from pathlib import Path

    static = Path(__file__).parents[1] / "companion" / "web" / "static"
    phone = {"Accept-Encoding": "gzip, deflate, br"}
    with client.get("/static/js/store.js", headers=phone) as packed:
        assert packed.headers["Content-Encoding"] == "gzip"
        assert "Accept-Encoding" in packed.headers["Vary"]
        body = gzip.decompress(packed.get_data())
        assert body == (static / "js" / "store.js").read_bytes()
        assert len(packed.get_data()) < len(body) / 2
        etag = packed.headers["ETag"]
    assert etag.startswith('W/"')  # the gzipped file is weakly the same file
    # The phone's cached copy is still good: 304, nothing sent again.
    with client.get("/static/js/store.js", headers={**phone, "If-None-Match": etag}) as again:
        assert again.status_code == 304 and not again.get_data()
    # A client that does not ask for gzip gets the file as it is.
    with client.get("/static/js/store.js") as plain:
        assert "Content-Encoding" not in plain.headers
        assert plain.get_data() == (static / "js" / "store.js").read_bytes()
    # JSON too, above a kilobyte; a small answer is left alone.
    texts = client.get("/api/i18n/fr", headers=phone)
    assert texts.headers["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(texts.get_data()))["hit"] == "APPUYER"
    small = client.get("/api/i18n/de", headers=phone)  # a 404, a few bytes of JSON
    assert small.status_code == 404 and "Content-Encoding" not in small.headers


def test_every_text_the_page_uses_is_in_the_catalog(client: FlaskClient) -> None:
    import re
    from pathlib import Path

    static = Path(__file__).parents[1] / "companion" / "web" / "static"
    script = "".join(p.read_text(encoding="utf-8") for p in sorted(static.rglob("*.js")))
    html = (static / "index.html").read_text(encoding="utf-8") + script
    used = set(re.findall(r'\bt\("([a-z_0-9]+)"[,)]', script))
    used |= set(re.findall(r'\btab: "([a-z_0-9]+)"', script))
    used |= set(re.findall(r'data-i18n(?:-label|-placeholder)?="([a-z_0-9]+)"', html))
    fr = client.get("/api/i18n/fr").get_json()
    assert used and not used - set(fr), sorted(used - set(fr))


def test_openapi_lists_every_route_and_action_schema(client: FlaskClient, hub: Hub) -> None:
    doc = client.get("/api/openapi.json").get_json()
    assert doc["openapi"].startswith("3.1")
    paths = doc["paths"]
    for path in ("/api/state", "/api/session", "/api/events", "/api/login", "/api/chart.svg"):
        assert path in paths
    assert "/api/i18n/{lang}" in paths
    for name, schema in hub.action_schemas().items():
        body = paths[f"/api/actions/{name}"]["post"]["requestBody"]
        assert body["content"]["application/json"]["schema"]["properties"]["payload"] == schema
    assert "web.error_locked" in paths["/api/login"]["post"]["responses"]["429"]["description"]
    # An action's answer: the state after it, or "applied" when that state was late.
    done = paths["/api/actions/score.record_round"]["post"]["responses"]["200"]
    one_of = done["content"]["application/json"]["schema"]["oneOf"]
    assert {"$ref": "#/components/schemas/Applied"} in one_of
    applied = doc["components"]["schemas"]["Applied"]
    assert applied["required"] == ["applied", "message"]
    assert "Idempotent-Replayed" in done["headers"]


def test_qr_code_is_an_svg(client: FlaskClient) -> None:
    response = client.get("/api/qr.svg")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert response.get_data(True).startswith("<svg") and "<path" in response.get_data(True)


def test_chart_and_export_follow_the_rounds(client: FlaskClient) -> None:
    empty = client.get("/api/chart.svg?lang=en").get_data(True)
    assert "No rounds yet" in empty and "polyline" not in empty
    assert (
        post_action(client, "score.new_game", {"name": "Soir", "players": PLAYERS}).status_code
        == 200
    )
    hands = {
        "Alice": {"points": 0},
        "Bruno": {"points": 12},
        "Chloé": {"points": 30},
        "David": {"points": 4},
    }
    assert post_action(client, "score.record_round", {"hands": hands}).status_code == 200
    svg = client.get("/api/chart.svg?lang=en").get_data(True)
    assert svg.count("<polyline") == 4 and "1. Chloé — 30" in svg
    # A box that keeps no pages of rounds says so (the daemon's does: tests/test_score_paging.py).
    assert_refused(client.get("/api/score/rounds"), 404)
    csv_text = client.get("/api/export.csv?lang=en").get_data(True)
    # A byte-order mark first, so a spreadsheet reads the accents; the sheet score.import reads.
    assert csv_text.splitlines()[0] == "\ufeffgame,date,target,mode,ruleset,teams"
    header, first = csv_text.splitlines()[2].split(","), csv_text.splitlines()[3].split(",")
    # The hands left, then each one's points this round and running total.
    assert header[:8] == ["round", "dealer", "winner", "side", "Alice", "Bruno", "Chloé", "David"]
    assert header[8:10] == ["Alice — points", "Alice — total"] and len(header) == 16
    assert first[0] == "1" and first[4:8] == ["0", "12", "30", "4"]
    assert len(first) == len(header)


def test_chart_lines_never_share_a_colour_while_the_palette_has_one_free() -> None:
    # Bo chose the first colour; Ana (first seat) and a team line have none chosen.
    assert chart.palette_indexes(["Ana", "Bo", "Cy & Di"], {"Bo": 0}) == [1, 0, 2]
    assert chart.palette_indexes(["Ana", "Bo"], {}) == [0, 1]
    nine = [f"P{i}" for i in range(9)]
    indexes = chart.palette_indexes(nine, {})
    assert sorted(indexes[:8]) == list(range(8)) and indexes[8] == 0  # a ninth shares one
    svg = chart.totals_svg(["Ana", "Bo"], [{"Ana": 3, "Bo": 5}], "t", "e", colours={"Bo": 0})
    assert 'class="line s1" data-player="Ana"' in svg and 'class="line s0" data-player="Bo"' in svg


def test_page_manifest_and_static_files(client: FlaskClient) -> None:
    def fetch(path: str) -> tuple[int, bytes, Any]:
        with client.get(path) as response:
            return response.status_code, response.get_data(), response.headers

    status, page, headers = fetch("/")
    assert status == 200 and b'<html lang="fr">' in page
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    manifest = json.loads(fetch("/manifest.webmanifest")[1])
    assert manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        assert fetch(icon["src"])[0] == 200
    for name in ("js/main.js", "app.css", "icon.svg"):
        assert fetch(f"/static/{name}")[0] == 200
    assert "javascript" in fetch("/static/js/main.js")[2]["Content-Type"]  # a module script
    assert b"http" not in fetch("/static/app.css")[1]  # nothing from a CDN


def test_unknown_paths_and_methods_answer_json(client: FlaskClient) -> None:
    assert_refused(client.get("/api/nope"), 404)
    assert_refused(client.get("/api/actions/table.press"), 405)
    assert_refused(client.delete("/api/state"), 405)


# ---------------------------------------------------------------------- acting


def test_an_action_changes_the_table_and_the_revision(client: FlaskClient, hub: Hub) -> None:
    before = hub.revision
    response = post_action(client, "table.play", {"card": "number", "value": 5, "colour": "red"})
    assert response.status_code == 200, response.get_json()
    state = response.get_json()
    assert state["revision"] == before + 1
    assert state["table"]["active"] == "Chloé"  # Bruno (left of the dealer) played: Chloé next
    assert state["table"]["last_card"]["card"] == "number"


def test_the_table_plays_a_coup_extreme_through_the_api(client: FlaskClient) -> None:
    active = client.get("/api/state").get_json()["table"]["active"]
    target = next(p for p in PLAYERS if p != active)
    state = post_action(
        client, "table.play", {"card": "coup_extreme", "colour": "blue", "target": target}
    ).get_json()
    owed = {o["player"]: o["presses"] for o in state["table"]["owed"]}
    assert owed == {target: 1, active: 2}


def test_the_card_table_and_house_rules_are_served_once(client: FlaskClient) -> None:
    data = client.get("/api/cards").get_json()
    cards = {c["key"]: c for c in data["cards"]}
    assert cards["hit2"]["presses"] == 2 and cards["hit2"]["to"] == "next"
    assert "flip" in data["decks"] and "flip" in cards["draw5"]["decks"]
    rules = {r["name"]: r for r in data["rules"]}
    assert rules["contre_uno_presses"]["default"] == 2 and rules["deck"]["enum"][0] == "extreme"


def test_house_rules_from_the_page_change_the_table(client: FlaskClient) -> None:
    state = post_action(
        client, "table.rules", {"deck": "flip", "lotso_presses": 2, "challenge": True}
    ).get_json()
    assert state["table"]["rules"] == {"deck": "flip", "lotso_presses": 2, "challenge": True}
    assert state["table"]["side"] == "light"
    assert_refused(post_action(client, "table.rules", {"mimic_presses": 99}), 400)


def test_a_stale_revision_is_refused_and_loses_nothing(client: FlaskClient, hub: Hub) -> None:
    old = hub.revision
    assert post_action(client, "table.play", {"card": "skip"}, revision=old).status_code == 200
    before = hub.state()
    response = post_action(client, "table.play", {"card": "reverse"}, revision=old)
    assert_refused(response, 409)
    assert hub.state() == before


def _bad_payloads(schema: dict[str, Any]) -> list[Any]:
    """Wrong types, huge strings and unknown fields for each field of ``schema``."""
    bad: list[Any] = [[], "text", 3, None, {"not_a_field": 1}, {"x" * 5000: 1}]
    for name, prop in schema.get("properties", {}).items():
        wrong = {
            "string": [12, True, ["a"], {"a": 1}, HUGE],
            "integer": [
                "12",
                1.5,
                True,
                None if name in schema.get("required", []) else [],
                10**12,
            ],
            "array": ["Alice", {"a": 1}, [HUGE], [3] * 500],
            "object": ["x", [1], {HUGE: 1}],
            "boolean": ["yes", 1],
        }[prop.get("type", "string")]
        for value in wrong:
            if value is None:
                continue
            bad.append({name: value})
    return bad


def test_every_action_refuses_bad_payloads_and_changes_nothing(
    client: FlaskClient, hub: Hub
) -> None:
    before = hub.state()
    tried = 0
    for name, schema in hub.action_schemas().items():
        for payload in _bad_payloads(schema):
            response = post_action(client, name, payload)
            assert_refused(response, 400)
            tried += 1
    assert tried > 100
    assert hub.state() == before


def test_unknown_players_are_refused(client: FlaskClient, hub: Hub) -> None:
    before = hub.state()
    for name in ("table.call_uno", "table.contre_uno", "table.suggestion", "table.round_won"):
        assert_refused(post_action(client, name, {"player": "Nobody"}), (400, 404))
    assert_refused(post_action(client, "table.press", {"player": "Zoé"}), (400, 404))
    assert_refused(post_action(client, "table.play", {"card": "coup_extreme", "target": "Zoé"}))
    assert hub.state() == before


def test_bad_bodies_are_refused(client: FlaskClient, hub: Hub) -> None:
    before = hub.state()
    headers = csrf(client)
    cases = [
        client.post("/api/actions/table.press", data="not json", headers=headers),
        client.post("/api/actions/table.press", data="[1, 2]", headers=headers),
        client.post(
            "/api/actions/table.press", json={"payload": {}, "revision": "3"}, headers=headers
        ),
        client.post(
            "/api/actions/table.press", json={"payload": {}, "revision": True}, headers=headers
        ),
        client.post("/api/actions/table.press", json={"payload": {}, "extra": 1}, headers=headers),
        client.post("/api/actions/table.press", json={"payload": "x"}, headers=headers),
    ]
    for response in cases:
        assert_refused(response, 400)
    assert_refused(client.post("/api/actions/no.such", json={"payload": {}}, headers=headers), 404)
    assert_refused(client.post("/api/actions/" + "a" * 3000, json={}, headers=headers), 404)
    too_big = client.post(
        "/api/actions/table.press", data=json.dumps({"payload": {"p": HUGER}}), headers=headers
    )
    assert_refused(too_big, 413)
    assert hub.state() == before


def test_errors_speak_the_phones_language(client: FlaskClient) -> None:
    fr = post_action(client, "table.play", {"card": "joker"}, **{"Accept-Language": "fr"})
    en = post_action(client, "table.play", {"card": "joker"}, **{"Accept-Language": "en-GB,en"})
    assert fr.get_json()["error"]["message"] != en.get_json()["error"]["message"]
    assert "champ card" in fr.get_json()["error"]["message"]
    stale = post_action(client, "table.call_uno", {"player": "Nobody"}, **{"Accept-Language": "en"})
    assert "Nobody" in stale.get_json()["error"]["message"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    action=st.sampled_from(sorted(make_hub().action_schemas())),
    payload=st.recursive(
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=False)
        | st.text(max_size=60),
        lambda children: (
            st.lists(children, max_size=4)
            | st.dictionaries(
                st.sampled_from(
                    [
                        "player",
                        "card",
                        "colour",
                        "target",
                        "count",
                        "value",
                        "cards",
                        "players",
                        "dealer",
                        "level",
                        "language",
                        "hands",
                        "name",
                        "zz",
                    ]
                ),
                children,
                max_size=4,
            )
        ),
        max_leaves=12,
    ),
)
def test_random_payloads_never_give_a_server_error(action: str, payload: Any) -> None:
    app = make_app(make_hub())
    client = app.test_client()
    response = post_action(client, action, payload)
    assert response.status_code < 500, response.get_data(True)
    if response.status_code >= 400:
        assert response.get_json()["error"]["message"]


def test_a_bug_in_the_hub_is_a_json_500_and_the_app_keeps_serving() -> None:
    class BrokenHub:
        def __init__(self) -> None:
            self.inner = make_hub()

        def state(self) -> dict[str, Any]:
            return self.inner.state()

        def dispatch(
            self, action: str, payload: dict[str, Any], expected_revision: int | None = None
        ) -> dict[str, Any]:
            raise RuntimeError("boom")

        def subscribe(self) -> Any:
            return self.inner.subscribe()

        def action_schemas(self) -> dict[str, dict[str, Any]]:
            return self.inner.action_schemas()

    client = make_app(BrokenHub()).test_client()  # type: ignore[arg-type]
    response = post_action(client, "table.press", {})
    assert (
        response.status_code == 500 and response.get_json()["error"]["key"] == "web.error_internal"
    )
    assert client.get("/api/state").status_code == 200


# ---------------------------------------------------------------------- access


def test_a_change_without_the_csrf_token_is_refused(client: FlaskClient, hub: Hub) -> None:
    before = hub.state()
    client.get("/api/session")
    assert_refused(client.post("/api/actions/table.press", json={"payload": {}}), 403)
    wrong = {"X-CSRF-Token": "forged"}
    assert_refused(
        client.post("/api/actions/table.press", json={"payload": {}}, headers=wrong), 403
    )
    other = make_app(hub).test_client()  # a token from another app (another box start)
    assert_refused(
        other.post("/api/actions/table.press", json={"payload": {}}, headers=csrf(client)), 403
    )
    assert hub.state() == before


def test_a_foreign_origin_is_refused(client: FlaskClient, hub: Hub) -> None:
    before = hub.state()
    for origin in ("http://evil.example", "null", "http://localhost:9999"):
        response = post_action(client, "table.press", {}, Origin=origin)
        assert_refused(response, 403)
        assert response.get_json()["error"]["key"] == "web.error_origin"
    assert_refused(post_action(client, "table.press", {}, Referer="http://evil.example/x"), 403)
    assert hub.state() == before
    assert post_action(client, "table.press", {}, Origin="http://localhost").status_code == 200


def test_with_a_pin_changes_need_it(hub: Hub) -> None:
    client = make_app(hub, pin="2468").test_client()
    before = hub.state()
    assert client.get("/api/state").status_code == 200  # looking is free
    assert client.get("/api/session").get_json()["pin_required"] is True
    assert_refused(post_action(client, "table.press", {}), 401)
    login = client.post("/api/login", json={"pin": "1111"}, headers=csrf(client))
    assert_refused(login, 403)
    for bad in ({"pin": 2468}, {"pin": HUGE}, {}, []):
        assert_refused(client.post("/api/login", json=bad, headers=csrf(client)), (400, 413))
    assert_refused(client.post("/api/login", json={"pin": "2468"}), 403)  # no CSRF token
    assert hub.state() == before
    assert client.post("/api/login", json={"pin": "2468"}, headers=csrf(client)).status_code == 200
    assert post_action(client, "table.press", {}).status_code == 200
    assert (
        client.post("/api/logout", json={}, headers=csrf(client)).get_json()["authenticated"]
        is False
    )
    assert_refused(post_action(client, "table.press", {}), 401)


def test_repeated_bad_pins_lock_the_phone_out(hub: Hub) -> None:
    clock = Clock()
    client = make_app(hub, clock, pin="2468", lockout_attempts=3, lockout_seconds=60).test_client()
    for _ in range(2):
        assert_refused(client.post("/api/login", json={"pin": "0000"}, headers=csrf(client)), 403)
    locked = client.post("/api/login", json={"pin": "0000"}, headers=csrf(client))
    assert_refused(locked, 429)
    assert locked.headers["Retry-After"] == "60"
    right_too_soon = client.post("/api/login", json={"pin": "2468"}, headers=csrf(client))
    assert_refused(right_too_soon, 429)
    assert "s" in right_too_soon.get_json()["error"]["message"]
    clock.now += 61
    assert client.post("/api/login", json={"pin": "2468"}, headers=csrf(client)).status_code == 200


def test_remote_press_on_hardware_needs_the_option() -> None:
    hub = make_hub()
    hub.register_status("device", lambda: {"simulated": False})
    client = make_app(hub).test_client()
    assert_refused(post_action(client, "table.press", {}), 403)
    allowed = make_app(hub, remote_press=True).test_client()
    assert post_action(allowed, "table.press", {}).status_code == 200


# ---------------------------------------------------------------------- config and helpers


def test_web_config_defaults_and_problems() -> None:
    config = parse_config({}).web
    assert (config.host, config.port, config.threads, config.pin) == ("0.0.0.0", 8080, 32, "")
    assert config.max_streams == 28
    with pytest.raises(ConfigError) as caught:
        parse_config({"web": {"port": 0, "threads": 2, "pin": "a\nb", "colour": 1}})
    text = str(caught.value)
    for key in ("web.port", "web.threads", "web.pin", "web.colour"):
        assert key in text


def test_the_one_validator_finds_the_field_at_fault() -> None:
    schema = {
        "type": "object",
        "required": ["card"],
        "additionalProperties": False,
        "properties": {"card": {"type": "string", "enum": ["skip"]}, "n": {"type": "integer"}},
    }
    assert validate_payload(schema, {"card": "skip", "n": 3}) == {"card": "skip", "n": 3}
    assert validate_payload(schema, {"card": "skip", "n": None}) == {"card": "skip"}
    for payload, field in (
        ({}, "card"),
        ({"card": "x"}, "card"),
        ({"card": "skip", "n": 1.5}, "n"),
        ({"card": "skip", "z": 1}, "z"),
        ({"card": "skip", "n": True}, "n"),
        ({"card": "skip\ud800"}, "card"),
    ):
        with pytest.raises(ActionError) as caught:
            validate_payload(schema, payload)
        assert caught.value.params["field"] == field
    # Strings the schema does not bound are capped; a bound in the schema is honoured.
    with pytest.raises(ActionError):
        validate_payload({"type": "object"}, {"card": "a" * 201})
    long_text = {"type": "object", "properties": {"t": {"type": "string", "maxLength": 10**6}}}
    assert len(validate_payload(long_text, {"t": "a" * 500_000})["t"]) == 500_000
