"""A game played on the box stops at the size the box keeps (the size a file may have to be
imported): round 501, or a log entry past 1,000, is refused with a message saying so in the
phone's language, nothing changes, the table goes on, and the game's own export imports back."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.app.hub import Hub
from companion.app.round_count import RoundCount
from companion.core.limits import MAX_GAME_ENTRIES, MAX_GAME_ROUNDS
from companion.core.scoring import (
    GameFull,
    GameSetup,
    HandEntry,
    LogEntry,
    ScoreBook,
    builtin_ruleset,
    game_from_csv,
    game_from_json,
    game_to_csv,
    game_to_json,
)
from tests.helpers import wired_box
from tests.test_storage_faults import post
from tests.test_web_api import make_app

PLAYERS = ("Ana", "Bo", "Cy")
HANDS = {"Ana": HandEntry.empty(), "Bo": HandEntry.of_points(1), "Cy": HandEntry.of_points(2)}
SETUP = GameSetup("long", PLAYERS, builtin_ruleset("classic"), target=100_000)


@functools.cache
def full_game() -> ScoreBook:
    """A game played to the last round it may hold (built once: copy it before changing it)."""
    book = ScoreBook(SETUP)
    for _ in range(MAX_GAME_ROUNDS):
        book.record_round(HANDS)
    return book


def as_it_is(book: ScoreBook) -> tuple[Any, ...]:
    return book.revision, book.entries, book.standings(), book.history(), book.can_redo


def test_round_501_is_refused_naming_the_limit_and_the_book_is_unchanged() -> None:
    book = full_game().copy()
    before = as_it_is(book)
    for attempt in (lambda: book.record_round(HANDS), lambda: book.new_record(HANDS)):
        with pytest.raises(GameFull) as refused:
            attempt()
        error = refused.value
        assert error.key == "game_full" and error.status == 409
        assert error.params == {"limit": MAX_GAME_ROUNDS, "rounds": MAX_GAME_ROUNDS}
        assert f"reached {MAX_GAME_ROUNDS} rounds" in str(error) and "new game" in str(error)
        assert as_it_is(book) == before
    # The rounds there are can still be mended, and a change taken back.
    book.correct_round(3, {**HANDS, "Cy": HandEntry.of_points(7)})
    book.undo()
    book.delete_round(MAX_GAME_ROUNDS)
    book.undo()
    assert book.standings() == before[2]


def test_a_round_counts_once_recorded_as_an_import_counts_it() -> None:
    """A round recorded then undone still holds its place in the log: the game's file would
    hold 501 recorded rounds, which the box does not import."""
    book = full_game().copy()
    book.undo()  # round 500 taken back: 499 in effect
    assert len(book.history()) == MAX_GAME_ROUNDS - 1
    with pytest.raises(GameFull) as refused:
        book.record_round(HANDS)
    assert refused.value.key == "game_full"
    book.redo()  # the round comes back, as it was
    assert len(book.history()) == MAX_GAME_ROUNDS


def test_a_full_log_refuses_every_change_but_one_last_undo() -> None:
    book = ScoreBook(SETUP)
    book.record_round(HANDS)
    book.record_round(HANDS)
    while book.revision < MAX_GAME_ENTRIES - 1:
        book.correct_round(1, {**HANDS, "Cy": HandEntry.of_points(book.revision % 7)})
    before = as_it_is(book)
    attempts = {
        "record": lambda: book.record_round(HANDS),
        "correct": lambda: book.correct_round(2, HANDS),
        "delete": lambda: book.delete_round(2),
        "redo": book.redo,
    }
    for name, attempt in attempts.items():
        with pytest.raises(GameFull) as refused:
            attempt()
        assert refused.value.key == "game_log_full", name
        assert refused.value.params == {"limit": MAX_GAME_ENTRIES, "entries": book.revision}
        assert as_it_is(book) == before
    # The last place is an undo's: the last change (a correction of round 1) taken back.
    book.undo()
    assert book.revision == MAX_GAME_ENTRIES
    with pytest.raises(GameFull) as refused:
        book.undo()
    assert refused.value.key == "game_log_full"
    assert f"at most {MAX_GAME_ENTRIES} changes" in str(refused.value)
    # The game's file holds as much as a file may: it comes back whole.
    again = game_from_json(game_to_json(book))
    assert as_it_is(again) == as_it_is(book)


def test_a_full_game_exported_imports_back() -> None:
    book = full_game()
    again = game_from_json(game_to_json(book))
    assert as_it_is(again) == as_it_is(book)
    sheet = game_from_csv(game_to_csv(book, "fr"), name="sheet", ruleset=builtin_ruleset("classic"))
    assert sheet.standings() == book.standings()
    assert len(sheet.history()) == MAX_GAME_ROUNDS


def test_a_stored_game_larger_than_the_box_keeps_still_opens_and_stays_as_it_is() -> None:
    more = [LogEntry.recorded(full_game().make_round(HANDS)) for _ in range(3)]
    book = ScoreBook(SETUP, [*full_game().entries, *more])
    assert len(book.history()) == MAX_GAME_ROUNDS + 3
    with pytest.raises(GameFull):
        book.record_round(HANDS)
    book.correct_round(1, HANDS)  # its rounds may still be mended while there is room


@pytest.fixture
def full_box(tmp_path: Path) -> Iterator[tuple[Hub, FlaskClient, Any]]:
    """A box with a full game open (as a game file's import opens it, without the file)."""
    _, hub, scores, keeper = wired_box(tmp_path, list(PLAYERS), 2, busy_timeout=0.2)
    RoundCount(scores.storage).attach(hub)
    book = full_game()
    hub.call(lambda: keeper.open_imported(keeper.stored(book, keeper.changes))).result()
    hub.changed("score")
    yield hub, make_app(hub).test_client(), keeper
    scores.close()


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("fr", f"atteint {MAX_GAME_ROUNDS} manches"),
        ("en", f"reached {MAX_GAME_ROUNDS} rounds"),
    ],
)
def test_the_phone_is_told_the_game_is_full_in_its_language_and_the_table_goes_on(
    full_box: tuple[Hub, FlaskClient, Any], lang: str, words: str
) -> None:
    hub, client, keeper = full_box
    state = client.get("/api/state").get_json()
    revision = state["score"]["revision"]
    count = {"game": keeper.game_id, "round": 1, "winner": "Ana"}
    counted = post(client, "count.hand", {**count, "player": "Bo", "points": 12})
    assert counted.status_code == 200, counted.get_json()
    hands = {"Ana": {"points": 0}, "Bo": {"points": 12}, "Cy": {"points": 3}}
    answer = post(client, "score.record_round", {"hands": hands, "winner": "Ana"}, lang=lang)
    assert answer.status_code == 409, answer.get_json()
    error = answer.get_json()["error"]
    assert error["key"] == "scoring.error.game_full"
    assert words in error["message"]
    assert ("nouvelle partie" if lang == "fr" else "new game") in error["message"]
    # Nothing changed: the game as it was, the hands counted on the phones kept.
    after = client.get("/api/state").get_json()
    assert after["score"]["revision"] == revision
    assert after["score"]["history_count"] == MAX_GAME_ROUNDS
    assert after["count"]["hands"] == {"Bo": {"points": 12}}
    assert keeper.store().load_game(keeper.game_id).revision == revision
    # The table goes on, and a new game takes the round.
    assert post(client, "table.play", {"card": "skip"}).status_code == 200
    new = post(client, "score.new_game", {"players": list(PLAYERS), "ruleset": "classic"})
    assert new.status_code == 200, new.get_json()
    answer = post(client, "score.record_round", {"hands": hands, "winner": "Ana"}, lang=lang)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["score"]["history_count"] == 1
    assert hub.state()["score"]["revision"] == 1
