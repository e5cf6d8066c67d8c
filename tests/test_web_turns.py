"""A press, a card or a call from a phone names the player it is for and the revision it saw:
a second tap of that player, or a second phone entering what was just entered, is answered
"already done" in the phone's language and never applied to the next player."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.app.hub import Hub
from tests.test_web_api import make_app, make_hub, post_action


@pytest.fixture
def hub() -> Hub:
    return make_hub()  # Alice, Bruno, Chloé, David: Bruno's turn, nothing owed


@pytest.fixture
def client(hub: Hub) -> FlaskClient:
    return make_app(hub).test_client()


def table(hub: Hub) -> dict[str, Any]:
    return dict(hub.state()["table"])


def lines(hub: Hub) -> list[str]:
    return [line["event"] for line in table(hub)["log"]]


def test_a_second_tap_of_the_same_press_is_already_done(client: FlaskClient, hub: Hub) -> None:
    seen = hub.revision
    first = post_action(client, "table.press", {"player": "Bruno"}, revision=seen)
    assert first.status_code == 200
    assert table(hub)["active"] == "Chloé"  # nothing owed: the turn passed
    before = hub.state()
    again = post_action(client, "table.press", {"player": "Bruno"}, revision=seen)
    assert again.status_code == 409
    error = again.get_json()["error"]
    assert error["key"] == "errors.already_done"
    assert error["message"] == "Déjà fait pour Bruno."
    assert hub.state() == before  # Chloé did not get a press, her turn is whole
    english = post_action(
        client, "table.press", {"player": "Bruno"}, revision=seen, **{"Accept-Language": "en"}
    )
    assert english.get_json()["error"]["message"] == "Already done for Bruno."


def test_two_phones_entering_the_same_card_make_one_card(client: FlaskClient, hub: Hub) -> None:
    seen = hub.revision
    card = {"card": "number", "colour": "red", "value": 5, "player": "Bruno"}
    assert post_action(client, "table.play", card, revision=seen).status_code == 200
    second_phone = post_action(client, "table.play", card, revision=seen)
    assert second_phone.status_code == 409
    assert second_phone.get_json()["error"]["key"] == "errors.already_done"
    assert table(hub)["active"] == "Chloé"
    assert lines(hub).count("play") == 1
    # Entered again on the second phone: still Bruno's card, still already done.
    again = post_action(client, "table.play", card, revision=seen)
    assert again.get_json()["error"]["key"] == "errors.already_done"
    assert lines(hub).count("play") == 1


def test_a_call_sent_twice_is_already_done(client: FlaskClient, hub: Hub) -> None:
    seen = hub.revision
    assert (
        post_action(client, "table.suggestion", {"player": "Alice"}, revision=seen).status_code
        == 200
    )
    owed = table(hub)["owed"]
    twice = post_action(client, "table.suggestion", {"player": "Alice"}, revision=seen)
    assert twice.get_json()["error"]["key"] == "errors.already_done"
    assert table(hub)["owed"] == owed  # four presses owed once, not eight


def test_presses_owed_are_each_a_press_however_quick(client: FlaskClient, hub: Hub) -> None:
    assert post_action(client, "table.suggestion", {"player": "Alice"}).status_code == 200
    seen = hub.revision  # Alice owes 4 presses (000 §X.G)
    for _ in range(2):  # two taps, both made on what the phone showed
        press = post_action(client, "table.press", {"player": "Alice"}, revision=seen)
        assert press.status_code == 200
    assert table(hub)["owed"][0]["made"] == 2


def test_a_change_elsewhere_leaves_the_players_own_action_to_run(
    client: FlaskClient, hub: Hub
) -> None:
    seen = hub.revision
    assert (
        post_action(client, "settings.update", {"language": "en"}).status_code == 200
    )  # another phone
    press = post_action(client, "table.press", {"player": "Bruno"}, revision=seen)
    assert press.status_code == 200  # still Bruno's press: done for him
    assert table(hub)["active"] == "Chloé"


def test_an_action_for_a_player_whose_turn_passed_is_not_given_to_the_next(
    client: FlaskClient, hub: Hub
) -> None:
    seen = hub.revision
    card = {"card": "number", "colour": "blue", "value": 3}
    assert (
        post_action(client, "table.play", card).status_code == 200
    )  # Bruno's card, from another phone
    late = post_action(client, "table.press", {"player": "Bruno"}, revision=seen)
    assert late.status_code == 409
    assert late.get_json()["error"]["key"] == "errors.not_your_turn"  # Chloé's: not hers
    assert table(hub)["active"] == "Chloé" and "press" not in lines(hub)


def test_an_undone_press_may_be_pressed_again(client: FlaskClient, hub: Hub) -> None:
    seen = hub.revision
    assert post_action(client, "table.press", {"player": "Bruno"}, revision=seen).status_code == 200
    assert post_action(client, "table.undo", {}).status_code == 200
    again = post_action(client, "table.press", {"player": "Bruno"}, revision=seen)
    assert again.status_code == 200  # the line it copied is gone: this one counts
    assert lines(hub).count("press") == 1


def test_an_action_naming_nobody_keeps_the_stale_answer(client: FlaskClient, hub: Hub) -> None:
    seen = hub.revision
    assert post_action(client, "table.press", {}, revision=seen).status_code == 200
    stale = post_action(client, "table.press", {}, revision=seen)
    assert stale.get_json()["error"]["key"] == "errors.stale"
