"""What the box exports comes back: a 1,000-round game exported as a score sheet (French and
English) or a game file and imported again is the same game, its target, rules and teams
included, and the quote that guards formula-like names comes off again."""

from __future__ import annotations

import csv
import functools
import io
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from flask.testing import FlaskClient

from companion.app.hub import Hub
from companion.core.limits import MAX_GAME_ROUNDS
from companion.core.scoring import GameSetup, HandEntry, ScoreBook, builtin_ruleset
from companion.core.scoring.formats import game_to_json
from tests.test_storage_faults import box, post
from tests.test_web_api import make_app

# Names a spreadsheet would run as formulas, one with a quote of its own, and accents.
PLAYERS = ("=Ana", "Bo", "+Cyril", "'Zoé")
ROUNDS = MAX_GAME_ROUNDS  # the largest game the box keeps


@functools.cache
def long_game() -> ScoreBook:
    """The same game for every test (built once): copy it before changing it."""
    rng = random.Random(25)
    setup = GameSetup(
        "Soirée =1+1", PLAYERS, builtin_ruleset("extreme"), target=12_000,
        teams=(("=Ana", "+Cyril"), ("Bo", "'Zoé")), first_dealer="Bo", date="2026-11-24",
    )  # fmt: skip
    book = ScoreBook(setup)
    for _ in range(ROUNDS):
        winner = rng.choice(PLAYERS)
        partner = next(p for team in setup.teams if winner in team for p in team if p != winner)
        hands = {p: HandEntry.of_points(rng.randint(0, 5)) for p in PLAYERS if p != winner}
        if rng.random() < 0.5:
            del hands[partner]  # the winner's partner may keep no hand (001)
        book.record_round({**hands, winner: HandEntry.empty()}, winner=winner)
    return book


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Hub, FlaskClient]]:
    """A box with the long game imported as a game file (the first leg of every round trip)."""
    hub, scores = box(tmp_path_factory.mktemp("roundtrip"))
    client = make_app(hub).test_client()
    answer = post(client, "score.import", {"text": game_to_json(long_game())})
    assert answer.status_code == 200, answer.get_json()
    yield hub, client
    scores.close()


def every_round(client: FlaskClient) -> list[dict[str, Any]]:
    """The open game's rounds, read page by page from the last (the state carries the last
    few only), oldest first."""
    rounds: list[dict[str, Any]] = []
    before = ""
    while True:
        page = client.get(f"/api/score/rounds?limit=200&before={before}").get_json()
        rounds[:0] = page["rounds"]
        if not page["rounds"] or page["rounds"][0]["number"] == 1:
            assert len(rounds) == page["total"]
            return rounds
        before = page["rounds"][0]["number"]


def same_game(score: dict[str, Any], client: FlaskClient) -> dict[str, Any]:
    """What a score sheet keeps of a game: its settings, its standings and every round's points."""
    game = score["game"]
    return {
        "game": {k: game[k] for k in ("players", "mode", "target", "teams", "first_dealer")},
        "ruleset": game["ruleset"]["key"],
        "standings": score["standings"],
        "rounds": [
            {k: r[k] for k in ("number", "dealer", "winner", "side", "credited", "totals")}
            | {"points": [(h["player"], h["points"]) for h in r["hands"]]}
            for r in every_round(client)
        ],
    }


def test_a_game_file_comes_back_the_same(table: tuple[Hub, FlaskClient]) -> None:
    _, client = table
    book = long_game().copy()
    hands = {"=Ana": HandEntry.empty(), "Bo": HandEntry.of_points(4)}
    book.correct_round(3, {**hands, "+Cyril": HandEntry.of_points(0), "'Zoé": HandEntry.empty()})
    book.undo()
    answer = post(client, "score.import", {"text": game_to_json(book)}, lang="fr")
    assert answer.status_code == 200, answer.get_json()
    score = answer.get_json()["score"]
    assert score["revision"] == book.revision == ROUNDS + 2 and score["can_redo"]
    assert score["standings"] == book.standings().to_dict()
    assert every_round(client) == [view.to_dict() for view in book.history()]
    assert score["history"] == every_round(client)[-50:] and score["history_count"] == ROUNDS
    assert score["game"]["name"] == "Soirée =1+1"


def test_the_game_file_export_comes_back_the_same(table: tuple[Hub, FlaskClient]) -> None:
    hub, client = table
    before = hub.state()["score"]
    original = same_game(before, client)
    answer = client.get("/api/export.json")
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    # Named after the game and its date; an ASCII name too for browsers of old.
    # ("Soirée =1+1": what a file name cannot hold becomes "-").
    stem = f"Soirée -1-1 {before['game']['date']}"
    assert before["game"]["name"] == "Soirée =1+1"
    assert answer.headers["Content-Disposition"] == (
        f'attachment; filename="Soiree -1-1 {before["game"]["date"]}.json";'
        f" filename*=UTF-8''{quote(stem)}.json"
    )
    text = answer.get_data(True)
    assert json.loads(text)["format"] == "uno-companion/game"
    answer = post(client, "score.import", {"format": "json", "text": text}, lang="en")
    assert answer.status_code == 200, answer.get_json()
    score = answer.get_json()["score"]
    # The whole log came back: its corrections and undos too, not only the rounds.
    assert score["game"]["name"] == "Soirée =1+1" and score["revision"] == before["revision"]
    assert score["can_undo"] == before["can_undo"] and score["can_redo"] == before["can_redo"]
    assert same_game(score, client) == original


def test_without_a_game_the_game_file_export_says_so(tmp_path: Path) -> None:
    hub, scores = box(tmp_path)
    try:
        answer = make_app(hub).test_client().get("/api/export.json?lang=en")
        assert answer.status_code == 404
        assert answer.get_json()["error"] == {
            "key": "errors.no_game",
            "message": "Start or open a game first.",
        }
    finally:
        scores.close()


@pytest.mark.parametrize("asked", ["header", "query"])
@pytest.mark.parametrize(
    ("lang", "separator", "words"), [("fr", ";", "manche"), ("en", ",", "round")]
)
def test_a_score_sheet_comes_back_the_same_in_either_language(
    table: tuple[Hub, FlaskClient], lang: str, separator: str, words: str, asked: str
) -> None:
    hub, client = table
    original = same_game(hub.state()["score"], client)  # the game file's game, or a sheet's of it
    assert original["standings"] == long_game().standings().to_dict()
    if asked == "header":
        sheet = client.get("/api/export.csv", headers={"Accept-Language": lang}).get_data(True)
    else:  # what the page asks: ?lang= wins over the browser's own Accept-Language
        other = "en" if lang == "fr" else "fr"
        sheet = client.get(
            f"/api/export.csv?lang={lang}", headers={"Accept-Language": other}
        ).get_data(True)
    assert sheet.startswith("\ufeff")  # a spreadsheet reads it as UTF-8
    lines = list(csv.reader(io.StringIO(sheet.lstrip("\ufeff")), delimiter=separator))
    assert lines[2][:5] == [words, *lines[2][1:4], "'=Ana"]  # formula-like names guarded
    assert len(lines) == 3 + ROUNDS
    answer = post(client, "score.import", {"format": "csv", "text": sheet}, lang=lang)
    assert answer.status_code == 200, answer.get_json()
    score = answer.get_json()["score"]
    assert score["game"]["name"] == "Soirée =1+1" and score["game"]["players"] == list(PLAYERS)
    # The target came back: the game did not "end" early.
    assert same_game(score, client) == original
    assert not score["standings"]["finished"] and score["standings"]["rounds"] == ROUNDS
