"""Writes a phone may repeat or overdo: a retry with its Idempotency-Key is answered, not done
twice (nor answered busy once done); live streams are shared out per address; an address locked
out again waits longer (more in ``test_web_pin``); the web server's log says each kind of
trouble once per interval."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.app.hub import Hub
from companion.core.table import TableEngine
from companion.logs import OncePerInterval
from companion.web.idempotency import KeyProblem, Remembered
from tests.test_storage_faults import box
from tests.test_web_api import Clock, csrf, make_app, make_hub

HANDS = {"Alice": {"points": 0}, "Bruno": {"points": 12}, "Chloé": {"points": 3}}


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Hub, FlaskClient]]:
    hub, scores = box(tmp_path_factory.mktemp("writes"))
    client = make_app(hub).test_client()
    assert (
        client.post(
            "/api/actions/score.new_game",
            json={"payload": {"players": ["Alice", "Bruno", "Chloé"]}},
            headers=csrf(client),
        ).status_code
        == 200
    )
    yield hub, client
    scores.close()


def send(client: FlaskClient, name: str, payload: dict[str, Any], key: str | None) -> Any:
    headers = {**csrf(client), **({"Idempotency-Key": key} if key else {})}
    return client.post(f"/api/actions/{name}", json={"payload": payload}, headers=headers)


def rounds(hub: Hub) -> int:
    return int(hub.state()["score"]["standings"]["rounds"])


def test_a_retried_round_is_stored_once(table: tuple[Hub, FlaskClient]) -> None:
    hub, client = table
    before = rounds(hub)
    round_ = {"hands": HANDS, "winner": "Alice"}
    first = send(client, "score.record_round", round_, '"4f1c-round-7"')
    again = send(client, "score.record_round", round_, '"4f1c-round-7"')
    assert first.status_code == again.status_code == 200
    assert "Idempotent-Replayed" not in first.headers
    assert again.headers["Idempotent-Replayed"] == "true"
    assert rounds(hub) == before + 1
    assert again.get_json()["score"]["revision"] == first.get_json()["score"]["revision"]
    # Without a key, or with a new one, it is a new round.
    assert send(client, "score.record_round", round_, "4f1c-round-8").status_code == 200
    assert rounds(hub) == before + 2


def test_a_retried_refusal_is_the_same_refusal(table: tuple[Hub, FlaskClient]) -> None:
    _, client = table
    bad = {"hands": {"Nobody": {"points": 3}}, "winner": "Alice"}
    first = send(client, "score.record_round", bad, "bad-1")
    again = send(client, "score.record_round", bad, "bad-1")
    assert first.status_code == again.status_code == 400
    assert again.get_json() == first.get_json() and again.headers["Idempotent-Replayed"] == "true"


def test_a_key_used_for_another_request_or_malformed_is_refused(
    table: tuple[Hub, FlaskClient],
) -> None:
    hub, client = table
    before = rounds(hub)
    assert send(client, "table.play", {"card": "skip"}, "k-1").status_code == 200
    reused = send(client, "score.record_round", {"hands": HANDS}, "k-1")
    assert reused.status_code == 422
    assert reused.get_json()["error"]["key"] == "input.idempotency_reused"
    for key in ("é", "x" * 256, '""'):
        refused = send(client, "score.record_round", {"hands": HANDS}, key)
        assert refused.status_code == 400
        assert refused.get_json()["error"]["key"] == "input.idempotency_bad_key"
    assert rounds(hub) == before


def test_a_key_is_claimed_while_its_request_runs_and_forgotten_if_nothing_was_done() -> None:
    clock = Clock()
    remembered = Remembered(clock)
    assert remembered.begin("phone", "k", "print") is None
    with pytest.raises(KeyProblem) as running:
        remembered.begin("phone", "k", "print")
    assert running.value.status == 409
    assert remembered.begin("other phone", "k", "print") is None  # keys are per phone
    remembered.finish("phone", "k", 503, None, forget=True)  # busy: nothing done, the retry runs
    assert remembered.begin("phone", "k", "print") is None
    remembered.finish("phone", "k", 200, None)
    entry = remembered.begin("phone", "k", "print")
    assert entry is not None and entry.status == 200
    clock.now += 601  # remembered for ten minutes
    assert remembered.begin("phone", "k", "print") is None


def test_one_phone_gets_a_few_live_streams_and_is_told_to_poll_beyond() -> None:
    client = make_app(make_hub(), streams_per_client=2, threads=10).test_client()
    phone = {"REMOTE_ADDR": "192.168.1.20"}
    open_ = [client.get("/api/events", environ_base=phone, buffered=False) for _ in range(2)]
    assert [s.status_code for s in open_] == [200, 200]
    refused = client.get("/api/events", environ_base=phone)
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "10"
    body = refused.get_json()
    assert body["error"]["key"] == "input.streams_per_client" and body["poll_seconds"] == 5
    assert "2" in body["error"]["message"]
    other = client.get("/api/events", environ_base={"REMOTE_ADDR": "192.168.1.21"}, buffered=False)
    assert other.status_code == 200  # the next phone still gets its stream
    open_[0].close()
    again = client.get("/api/events", environ_base=phone, buffered=False)
    assert again.status_code == 200  # a closed stream gives its place back
    for stream in (open_[1], other, again):
        stream.close()


def test_an_address_locked_out_again_waits_twice_as_long() -> None:
    clock = Clock()
    client = make_app(
        make_hub(), clock, pin="2468", lockout_attempts=3, lockout_seconds=60
    ).test_client()
    for expected in ("60", "120"):
        answers = [
            client.post("/api/login", json={"pin": "0000"}, headers=csrf(client)) for _ in range(3)
        ]
        assert [a.status_code for a in answers] == [403, 403, 429]
        assert answers[-1].headers["Retry-After"] == expected
        clock.now += int(expected) + 1


def test_the_log_says_each_kind_of_trouble_once_per_interval(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = Clock()
    logger = logging.getLogger("waitress.queue.test")
    rate = OncePerInterval(60.0, clock)
    logger.addFilter(rate)
    try:
        with caplog.at_level(logging.WARNING, logger="waitress.queue.test"):
            for depth in range(1, 1001):
                logger.warning("Task queue depth is %d", depth)
                logger.warning("another trouble")
            clock.now += 61
            logger.warning("Task queue depth is %d", 5)
    finally:
        logger.removeFilter(rate)
    lines = [r.getMessage() for r in caplog.records]
    assert lines == [
        "Task queue depth is 1",
        "another trouble",
        "Task queue depth is 5 (999 more like this in the last 60 s)",
    ]


def test_an_action_that_ran_is_never_answered_busy_and_its_retry_is_not_run_again() -> None:
    """The action runs, then the table after it cannot be read in time (the hub is held by
    the next piece of work): the answer says it was done, and the retry is the first answer."""
    hub = Hub(TableEngine(["Alice", "Bruno"], seed=1), dispatch_timeout=0.3)
    release = threading.Event()
    ran: list[int] = []

    def count(payload: dict[str, Any]) -> None:
        ran.append(1)
        hub.call(lambda: release.wait(30))  # queued behind this action: the state waits

    hub.register_action("test.count", {"type": "object"}, count, "table")
    client = make_app(hub).test_client()
    with hub.running():
        try:
            first = send(client, "test.count", {}, "count-1")
            assert first.status_code == 200, first.get_json()
            assert first.get_json()["applied"] is True and first.get_json()["message"]
            again = send(client, "test.count", {}, "count-1")
            assert again.headers["Idempotent-Replayed"] == "true"
        finally:
            release.set()
        assert len(ran) == 1
