"""The API's input edges: files past the parsers' limits, cells and names that would not show as
typed, and defaults a phone relies on. Each is a clear 4xx (never a 500) and changes nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.app.hub import Hub
from companion.core.scoring import GameSetup, HandEntry, ScoreBook, builtin_ruleset
from companion.core.scoring.formats import game_to_json
from tests.test_storage_faults import box, post
from tests.test_web_api import make_app

PLAYERS = ["Alice", "Bruno", "Chloé", "David"]


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Hub, FlaskClient]]:
    """One box for the module (opening a database is most of a test's time): each test checks
    that its refusals changed nothing, whatever the tests before it stored."""
    hub, scores = box(tmp_path_factory.mktemp("edges"))
    yield hub, make_app(hub).test_client()
    scores.close()


def refused(answer: Any, status: int = 400) -> dict[str, Any]:
    assert answer.status_code == status, answer.get_json()
    error: dict[str, Any] = answer.get_json()["error"]
    assert error["message"] and len(error["message"]) < 500
    return error


def games(client: FlaskClient) -> int:
    return len(client.get("/api/state").get_json()["score"]["games"])


def test_a_csv_cell_past_the_csv_readers_limit_is_a_400(table: tuple[Hub, FlaskClient]) -> None:
    _, client = table
    stored = games(client)
    sheet = "round,dealer,winner,side,Alice,Bruno\n1,Alice,Alice,," + "9" * 140_000 + ",3\n"
    error = refused(post(client, "score.import", {"format": "csv", "text": sheet}))
    assert error["key"] == "scoring.error.import_csv_unreadable" and "limit" in error["message"]
    assert games(client) == stored


def test_a_game_file_nested_five_thousand_deep_is_a_400(table: tuple[Hub, FlaskClient]) -> None:
    _, client = table
    text = '{"format": "uno-companion/game", "version": 1, "log": ' + "[" * 5000 + "]" * 5000 + "}"
    for lang, words in (("en", "nested too deeply"), ("fr", "imbriqué")):
        error = refused(post(client, "score.import", {"text": text}, lang=lang))
        assert error["key"] == "scoring.error.import_too_deep" and words in error["message"]


def test_a_huge_bad_cell_is_not_repeated_whole(table: tuple[Hub, FlaskClient]) -> None:
    _, client = table
    cell = "x" * 100_000
    sheet = f"round,dealer,winner,side,Alice,Bruno\n1,Alice,Alice,,0,{cell}\n"
    error = refused(post(client, "score.import", {"format": "csv", "text": sheet}))
    assert "is not a number of points" in error["message"] and "x" * 100 not in error["message"]
    game = json.loads(
        game_to_json(ScoreBook(GameSetup("g", ("Ana", "Bo"), builtin_ruleset("classic"))))
    )
    game["format"] = "y" * 100_000
    error = refused(post(client, "score.import", {"text": json.dumps(game)}))
    assert error["key"] == "scoring.error.import_bad_format" and len(error["message"]) < 300


@pytest.mark.parametrize(
    ("players", "key"),
    [
        (["Alice", "\u200b", "Bruno"], "input.bad_text"),  # one zero-width space
        (["Alice", "\u202eecilA", "Bruno"], "input.bad_text"),  # shown as "Alice"
        (["Alice", "Bo\u00adb", "Bruno"], "input.bad_text"),  # a soft hyphen hides
        (["Alice", "Bruno", "Z" + "\u0301" * 39], "input.stacked_marks"),
        (["Alice", "Bruno", "\u200d\u0301"], "input.invisible"),
    ],
)
def test_names_that_would_not_show_as_typed_are_refused(
    table: tuple[Hub, FlaskClient], players: list[str], key: str
) -> None:
    hub, client = table
    before, stored = hub.state()["table"]["players"], games(client)
    for action in ("table.setup", "score.new_game"):
        error = refused(post(client, action, {"players": players}))
        assert error["key"] == key, error
    assert hub.state()["table"]["players"] == before and games(client) == stored


@pytest.mark.parametrize(
    "players",
    [["Bob", "ＢＯＢ", "bob"], ["Bob", "Bob ", "Alice"], ["Anne Marie", "anne  marie", "Zoé"]],
)
def test_names_that_show_the_same_are_one_name(
    table: tuple[Hub, FlaskClient], players: list[str]
) -> None:
    _, client = table
    assert (
        refused(post(client, "table.setup", {"players": players}))["key"]
        == "errors.duplicate_player"
    )
    error = refused(post(client, "score.new_game", {"players": players}))
    assert error["key"] == "scoring.error.duplicate_player"


def test_names_of_every_script_and_emoji_still_work(table: tuple[Hub, FlaskClient]) -> None:
    hub, client = table
    players = ["Chloé", "Nguyễn", "👨\u200d👩\u200d👧", "می\u200cخواهم", "Zoë"]
    assert post(client, "table.setup", {"players": players}).status_code == 200
    assert [p["name"] for p in hub.state()["table"]["players"]] == players
    assert post(client, "score.new_game", {"players": players[:3]}).status_code == 200


def test_a_game_file_with_hidden_characters_in_a_name_is_refused(
    table: tuple[Hub, FlaskClient],
) -> None:
    _, client = table
    stored = games(client)
    book = ScoreBook(GameSetup("g", ("Ana", "Bo"), builtin_ruleset("classic")))
    book.record_round({"Ana": HandEntry.empty(), "Bo": HandEntry.of_points(3)})
    text = game_to_json(book).replace('"Bo"', '"B\\u200bo"')
    error = refused(post(client, "score.import", {"text": text}))
    assert error["key"] == "scoring.error.name_not_shown" and "\\u200b" in error["message"]
    assert games(client) == stored


def test_a_new_game_deals_first_from_its_own_first_player(table: tuple[Hub, FlaskClient]) -> None:
    hub, client = table
    assert post(client, "table.setup", {"players": PLAYERS}).status_code == 200
    assert hub.state()["table"]["dealer"] == "Alice"
    answer = post(client, "score.new_game", {"players": ["Bruno", "Chloé", "David"]})
    assert answer.get_json()["score"]["game"]["first_dealer"] == "Bruno"
    # Without players of its own, the game is the table's: the table's dealer deals.
    answer = post(client, "score.new_game", {})
    assert answer.get_json()["score"]["game"]["first_dealer"] == "Alice"
