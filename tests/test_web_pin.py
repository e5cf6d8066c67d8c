"""PIN guessing is limited per guesser and answered at once: guessers never hold a web server
thread, never delay nor reset anyone else's way in; logging out ends the session on the box."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from companion.web.security import LONGEST_LOCKOUT
from tests.test_web_api import Clock, csrf, make_app, make_hub, post_action

PIN = "2468"


def guess(client: FlaskClient, pin: str, address: str) -> Any:
    return client.post(
        "/api/login",
        json={"pin": pin},
        headers=csrf(client),
        environ_base={"REMOTE_ADDR": address},
    )


def pin_app(clock: Clock, **web: Any) -> Flask:
    settings: dict[str, Any] = {
        "pin": PIN,
        "lockout_attempts": 5,
        "lockout_seconds": 60,
        "lockout_total_attempts": 20,
    }
    return make_app(make_hub(), clock, **(settings | web))


def test_guessers_from_many_addresses_never_delay_nor_reset_anyone_elses_way_in() -> None:
    clock = Clock()
    app = pin_app(clock)
    guesser = app.test_client()
    # Four addresses guess until locked out: every answer comes at once (the clock never moves).
    for n in range(4):
        answers = [guess(guesser, "0000", f"10.0.0.{n}") for _ in range(6)]
        assert [a.status_code for a in answers] == [403] * 4 + [429, 429]
        assert answers[-1].get_json()["error"]["key"] == "web.error_locked"
        assert int(answers[-1].headers["Retry-After"]) >= 59
    assert clock.now == 1000.0
    # Past 20 bad PINs from everywhere, each new address gets one guess before its lock-out.
    for n in range(10):
        assert guess(guesser, "1111", f"10.0.1.{n}").status_code == 429
    # The family's phone at its own address gets in at once, and its login resets nothing.
    family = app.test_client()
    right = guess(family, PIN, "10.0.9.9")
    assert right.status_code == 200 and right.get_json() == {"authenticated": True}
    assert post_action(family, "table.press", {}).status_code == 200
    assert guess(guesser, "1111", "10.0.1.20").status_code == 429  # still one guess each
    assert guess(guesser, "0000", "10.0.0.3").status_code == 429  # still locked out
    # The locks end on their own time, not someone else's login; so does the watch on all.
    clock.now += 61
    assert guess(guesser, "0000", "10.0.0.3").status_code == 403
    assert guess(guesser, PIN, "10.0.0.4").status_code == 200


def test_a_phone_that_entered_the_pin_is_not_locked_out_by_guessers_sharing_its_address() -> None:
    clock = Clock()
    app = pin_app(clock)
    family = app.test_client()
    assert guess(family, PIN, "10.0.0.7").status_code == 200
    assert family.post("/api/logout", json={}, headers=csrf(family)).status_code == 200
    guesser = app.test_client()
    locked = [guess(guesser, "0000", "10.0.0.7").status_code for _ in range(6)]
    assert locked[-2:] == [429, 429]
    # The family's phone has a limit of its own: a typo is only a typo, the right PIN gets in.
    assert guess(family, "2469", "10.0.0.7").status_code == 403
    assert guess(family, PIN, "10.0.0.7").status_code == 200
    assert guess(guesser, PIN, "10.0.0.7").status_code == 429  # the guesser's session: locked
    # Its own bad PINs lock it out like anyone's.
    answers = [guess(family, "1357", "10.0.0.7").status_code for _ in range(6)]
    assert answers == [403] * 4 + [429, 429]


def test_one_address_gets_few_guesses_an_hour() -> None:
    """Retrying as soon as Retry-After allows, one address gets 5 guesses, then 5 after each
    lock-out (1, 2, 4… minutes, up to an hour): 30 in its first hour."""
    clock = Clock()
    client = pin_app(clock).test_client()
    checked = 0
    end = clock.now + 3600
    while clock.now < end:
        answer = guess(client, "0000", "10.0.0.66")
        checked += 1  # sent only when its address is not locked out: its PIN was checked
        if answer.status_code == 429:
            clock.now += int(answer.headers["Retry-After"])
    assert 5 <= checked <= 30
    assert LONGEST_LOCKOUT == 3600.0


def test_logging_out_ends_the_session_on_the_box() -> None:
    app = pin_app(Clock())
    phone = app.test_client()
    assert guess(phone, PIN, "10.0.0.5").status_code == 200
    copied = phone.get_cookie("uno_session")
    assert copied is not None
    headers = csrf(phone)
    assert post_action(phone, "table.press", {}).status_code == 200
    assert phone.post("/api/logout", json={}, headers=headers).status_code == 200
    thief = app.test_client()
    thief.set_cookie("uno_session", copied.value)
    refused = post_action(thief, "table.press", {})
    assert refused.status_code == 401
    assert refused.get_json()["error"]["key"] == "web.error_pin_needed"
    assert thief.get("/api/session").get_json()["authenticated"] is False
