"""A long game does not weigh on the table: the state every answer and live update carries holds
the last rounds only, whatever the game's length, and every older round is a page away
(``GET /api/score/rounds``), for the history and for editing any round; the chart and the
export still go through the whole game."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.app.hub import Hub
from companion.core.scoring import ScoreBook
from companion.web import chart
from tests.helpers import wired_box
from tests.test_scoring_import import long_game
from tests.test_storage_faults import PLAYERS, post
from tests.test_web_api import make_app

ROUNDS = 5_000
STATE_BOUND = 64 * 1024  # bytes of JSON, for a game of any length


def box_with(state_dir: Path, rounds: int) -> tuple[Hub, Any, ScoreBook]:
    """A box with a game of ``rounds`` rounds stored and open, and the game."""
    _, hub, scores, keeper = wired_box(state_dir, PLAYERS, 2, busy_timeout=0.2)
    book = long_game(rounds)
    # As a game file's import opens its game, without reading a file first.
    hub.call(lambda: keeper.open_imported(keeper.stored(book, keeper.changes))).result()
    hub.changed("score")
    return hub, scores, book


@pytest.fixture(scope="module")
def long_box(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Hub, FlaskClient, Any]]:
    """A box with a 5,000-round game open."""
    hub, scores, book = box_with(tmp_path_factory.mktemp("paging"), ROUNDS)
    yield hub, make_app(hub).test_client(), book
    scores.close()


def test_the_state_stays_small_whatever_the_game_length(
    long_box: tuple[Hub, FlaskClient, ScoreBook],
) -> None:
    hub, client, _ = long_box
    state = client.get("/api/state")
    assert len(state.get_data()) < STATE_BOUND
    score = state.get_json()["score"]
    assert score["history_count"] == ROUNDS
    assert [r["number"] for r in score["history"]] == list(range(ROUNDS - 49, ROUNDS + 1))
    # The statistics still cover the whole game: Bo's costliest hand is 2, from round 2 on.
    assert score["game_stats"]["Bo"] == {"played": ROUNDS, "costliest": 2}
    # A press's answer and a live update carry the same small state.
    answer = post(client, "table.play", {"card": "skip"})
    assert answer.status_code == 200 and len(answer.get_data()) < STATE_BOUND
    assert len(json.dumps(hub.state()["score"]).encode()) < STATE_BOUND


def test_every_round_is_a_page_away(long_box: tuple[Hub, FlaskClient, ScoreBook]) -> None:
    _, client, book = long_box
    rounds: list[dict[str, Any]] = []
    before = ROUNDS + 1
    while before > 1:
        page = client.get(f"/api/score/rounds?before={before}&limit=200").get_json()
        assert page["total"] == ROUNDS and 0 < len(page["rounds"]) <= 200
        rounds[:0] = page["rounds"]
        before = page["rounds"][0]["number"]
    assert rounds == [view.to_dict() for view in book.history()]
    # The default page is the last 50; one round alone is a page of one.
    assert len(client.get("/api/score/rounds").get_json()["rounds"]) == 50
    one = client.get("/api/score/rounds?before=8&limit=1").get_json()["rounds"]
    assert [r["number"] for r in one] == [7]


@pytest.mark.parametrize("query", ["before=abc", "before=0", "limit=0", "limit=201", "limit=-1"])
def test_a_bad_page_is_refused_with_a_message(
    long_box: tuple[Hub, FlaskClient, ScoreBook], query: str
) -> None:
    _, client, _ = long_box
    answer = client.get(f"/api/score/rounds?{query}", headers={"Accept-Language": "fr"})
    assert answer.status_code == 400
    assert answer.get_json()["error"]["message"].startswith("Champ")


def test_the_downloads_hold_every_round(long_box: tuple[Hub, FlaskClient, ScoreBook]) -> None:
    _, client, _ = long_box
    sheet = client.get("/api/export.csv").get_data(True)
    assert len(sheet.strip().splitlines()) == ROUNDS + 3  # the game's lines, headers, rounds
    chart = client.get("/api/chart.svg")
    assert chart.status_code == 200 and len(chart.get_data()) < STATE_BOUND


def test_a_round_far_back_is_read_and_edited_and_the_chart_drawn_once_a_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hub, scores, _ = box_with(tmp_path, 120)
    client = make_app(hub).test_client()
    drawn: list[int] = []
    real = chart.totals_svg
    monkeypatch.setattr(chart, "totals_svg", lambda *a, **k: drawn.append(1) or real(*a, **k))
    for _ in range(2):  # presses in between: the same game, the same chart
        assert client.get("/api/chart.svg?lang=fr").status_code == 200
        assert post(client, "table.play", {"card": "skip"}).status_code == 200
    assert len(drawn) == 1
    old = client.get("/api/score/rounds?before=4&limit=1").get_json()
    assert old["rounds"][0]["number"] == 3
    hands = {"Ana": {"points": 0}, "Bo": {"points": 12}, "Cy": {"points": 11}}
    correction = {"round": 3, "hands": hands, "winner": "Ana", "revision": old["revision"]}
    answer = post(client, "score.correct_round", correction)
    assert answer.status_code == 200, answer.get_json()
    again = client.get("/api/score/rounds?before=4&limit=1").get_json()["rounds"][0]
    assert {h["player"]: h["points"] for h in again["hands"]}["Cy"] == 11
    score = answer.get_json()["score"]
    assert score["history_count"] == 120 and score["history"][0]["number"] == 71
    assert client.get("/api/chart.svg?lang=fr").status_code == 200 and len(drawn) == 2
    scores.close()


def test_any_round_of_a_long_game_may_be_named(tmp_path: Path) -> None:
    """An imported game may hold tens of thousands of rounds: a round number is the book's to
    refuse (it does not exist), not the request's."""
    hub, scores, _ = box_with(tmp_path, 3)
    client = make_app(hub).test_client()
    answer = post(client, "score.delete_round", {"round": 26_000})
    assert answer.status_code == 400
    assert answer.get_json()["error"] == {
        "key": "scoring.error.no_such_round",
        "message": "there is no round 26000",
    }
    scores.close()
