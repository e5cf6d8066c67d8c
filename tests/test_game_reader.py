"""Bounded imports: a game file is read in a process of its own, the daemon takes a game no larger
than the box keeps, and a file over the limit, a garbage file or a reader that dies is a clear
refusal in the phone's language that changes nothing, the box answering on."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.app import game_reader, scorekeeper
from companion.app.game_reader import GameFile, read_apart
from companion.app.hub import Hub
from companion.app.score_page import COUNT_ASIDE, COUNTING
from companion.core.limits import MAX_GAME_ENTRIES, MAX_GAME_ROUNDS
from companion.core.scoring import (
    GameSetup,
    HandEntry,
    LogEntry,
    ScoreBook,
    ScoringError,
    builtin_ruleset,
    find_ruleset,
    formats,
    make_round,
)
from companion.core.scoring import book as book_module
from companion.core.scoring.formats import game_to_csv, game_to_json
from companion.storage import Storage
from tests.test_storage_faults import box, post
from tests.test_web_api import make_app

PLAYERS = ("Ana", "Bo", "Cy")


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Hub, FlaskClient]]:
    hub, scores = box(tmp_path_factory.mktemp("reader"))
    client = make_app(hub).test_client()
    setup = {"players": list(PLAYERS), "ruleset": "classic"}
    assert post(client, "score.new_game", setup).status_code == 200
    yield hub, client
    scores.close()


@functools.cache
def long_game(rounds: int, corrections: int = 0) -> ScoreBook:
    """``rounds`` rounds, then the first corrected ``corrections`` times: built from its log, as
    a file brings it (the box stops a game played on it at the size it keeps)."""
    setup = GameSetup("long", PLAYERS, builtin_ruleset("classic"), target=100_000)
    hands = {"Ana": HandEntry.empty(), "Bo": HandEntry.of_points(1), "Cy": HandEntry.of_points(2)}
    played = make_round(setup, hands)
    log = [LogEntry.recorded(played)] * rounds + [LogEntry.corrected(1, played)] * corrections
    return ScoreBook(setup, log)


def score(client: FlaskClient) -> dict[str, Any]:
    """What the page shows of the games: which is open, at which revision, how many stored."""
    found = client.get("/api/state").get_json()["score"]
    return {"game": found["game"]["id"], "revision": found["revision"], "games": found["games"]}


def refused(answer: Any) -> dict[str, Any]:
    assert answer.status_code == 400, answer.get_json()
    error: dict[str, Any] = answer.get_json()["error"]
    return error


@pytest.mark.parametrize("form", ["json", "csv"])
def test_a_file_over_the_round_limit_is_refused_naming_the_limit_and_nothing_changes(
    table: tuple[Hub, FlaskClient], form: str
) -> None:
    _, client = table
    book = long_game(MAX_GAME_ROUNDS + 1)
    text = game_to_json(book) if form == "json" else game_to_csv(book)
    before = score(client)
    for lang, words in (
        ("en", f"at most {MAX_GAME_ROUNDS} rounds"),
        ("fr", f"d’au plus {MAX_GAME_ROUNDS} manches"),
    ):
        error = refused(post(client, "score.import", {"format": form, "text": text}, lang=lang))
        assert error["key"] == "scoring.error.import_too_many_rounds"
        assert words in error["message"], error["message"]
    assert score(client) == before


def test_a_log_over_the_entry_limit_is_refused_naming_the_limit(
    table: tuple[Hub, FlaskClient],
) -> None:
    _, client = table
    text = game_to_json(long_game(10, corrections=MAX_GAME_ENTRIES))
    before = score(client)
    for lang, words in (("en", f"at most {MAX_GAME_ENTRIES} log"), ("fr", "entrées de journal")):
        error = refused(post(client, "score.import", {"text": text}, lang=lang))
        assert error["key"] == "scoring.error.import_too_many_entries"
        assert words in error["message"] and str(MAX_GAME_ENTRIES + 10) in error["message"]
    assert score(client) == before


def test_the_largest_game_the_box_keeps_is_read_apart_and_opened(
    table: tuple[Hub, FlaskClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, client = table

    def not_here(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a game file was read in the daemon")

    # The daemon never reads the file itself: only the reader process does.
    monkeypatch.setattr(formats, "game_from_json", not_here)
    monkeypatch.setattr(game_reader, "game_from_json", not_here)
    before = score(client)["game"]
    answer = post(client, "score.import", {"text": game_to_json(long_game(MAX_GAME_ROUNDS))})
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["score"]["standings"]["rounds"] == MAX_GAME_ROUNDS
    # The game open before is open again for the next tests (this one has no room for a round).
    assert post(client, "score.open_game", {"game": before}).status_code == 200


@pytest.mark.parametrize(
    ("reader", "words"),
    [
        ("import os; os.abort()", "the reader was stopped (SIGABRT)"),
        ("import sys; sys.exit(3)", "the reader failed (exit 3)"),
        ("print('garbage')", "the reader's answer is not JSON"),
        ("print('[1, 2]')", "the reader's answer is not a game"),
        ('print(\'{"refused": {"key": "rm -rf", "params": {}}}\')', "not a game"),
    ],
)
def test_a_reader_that_dies_or_answers_garbage_is_a_clear_refusal_and_the_box_answers_on(
    table: tuple[Hub, FlaskClient], monkeypatch: pytest.MonkeyPatch, reader: str, words: str
) -> None:
    _, client = table
    broken = functools.partial(read_apart, command=[sys.executable, "-c", reader])
    monkeypatch.setattr(scorekeeper, "read_apart", broken)
    before = score(client)
    for lang, nothing in (("en", "nothing was imported"), ("fr", "rien n’a été importé")):
        error = refused(post(client, "score.import", {"text": "{}"}, lang=lang))
        assert error["key"] == "scoring.error.import_unreadable"
        assert words in error["message"] and nothing in error["message"]
    assert score(client) == before
    # the box goes on: a round is recorded and the table plays
    hands = {"Ana": {"points": 0}, "Bo": {"points": 3}, "Cy": {"points": 4}}
    answer = post(client, "score.record_round", {"hands": hands, "winner": "Ana"})
    assert (
        answer.status_code == 200
        and answer.get_json()["score"]["revision"] == 1 + before["revision"]
    )
    assert post(client, "table.play", {"card": "skip"}).status_code == 200


def test_a_reader_answering_a_game_over_the_limit_is_not_believed() -> None:
    """The daemon checks the reader's answer again: the game it takes is bounded, whatever the
    reader says."""
    book = long_game(MAX_GAME_ROUNDS + 1)
    answer = {"game": book.setup.to_dict(), "log": [e.to_dict() for e in book.entries]}
    with pytest.raises(ScoringError) as caught:
        game_reader.game_of(answer)
    assert caught.value.key == "import_too_many_rounds"
    assert game_reader.game_of({**answer, "log": answer["log"][:-1]}).revision == MAX_GAME_ROUNDS


def test_a_reader_that_takes_too_long_is_stopped() -> None:
    file = GameFile("{}", "json", "x", find_ruleset("classic"))
    sleeper = [sys.executable, "-c", "import time; time.sleep(30)"]
    with pytest.raises(ScoringError) as caught:
        read_apart(file, seconds=0.5, command=sleeper)
    assert caught.value.key == "import_unreadable" and "0.5 s" in str(caught.value)


def test_the_reader_runs_below_the_daemon_with_its_memory_capped() -> None:
    probe = (
        "import os, resource; import companion.app.game_reader as r;"
        "r._bounded(r.READER_MEMORY, r.READER_NICENESS);"
        "print(os.nice(0), resource.getrlimit(resource.RLIMIT_AS)[0])"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    niceness, memory = (int(x) for x in done.stdout.split())
    assert niceness >= game_reader.READER_NICENESS and memory == game_reader.READER_MEMORY


def test_a_file_too_big_for_the_readers_memory_is_refused_not_a_crash(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def exhausted(file: GameFile) -> ScoreBook:
        raise MemoryError

    monkeypatch.setattr(game_reader, "read_game_file", exhausted)
    answer = game_reader.answer_of(GameFile("{}", "json", "x", find_ruleset("classic")))
    assert answer == {
        "refused": {"key": "import_unreadable", "params": {"problem": "too large to read"}}
    }
    assert json.dumps(answer)


def test_a_long_game_opened_is_read_off_the_hub_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opening a stored game replays it: on the hub's long work, never on the table's thread;
    the hub only takes the game read (again there only if it changed meanwhile)."""
    hub, scores = box(tmp_path)
    client = make_app(hub).test_client()
    try:
        setup = {"players": list(PLAYERS), "ruleset": "classic"}
        assert post(client, "score.new_game", setup).status_code == 200
        small = score(client)["game"]
        answer = post(client, "score.import", {"text": game_to_json(long_game(300))})
        assert answer.status_code == 200
        large = score(client)["game"]
        readers: list[str] = []
        real = Storage.load_game

        def load_game(self: Storage, game_id: str) -> ScoreBook:
            readers.append(threading.current_thread().name)
            return real(self, game_id)

        monkeypatch.setattr(Storage, "load_game", load_game)
        with hub.running():
            for game in (small, large):
                answer = post(client, "score.open_game", {"game": game})
                assert answer.status_code == 200 and score(client)["game"] == game
            missing = post(client, "score.open_game", {"game": "nope"})
            assert missing.status_code == 404
        assert readers and "hub" not in readers
        assert answer.get_json()["score"]["standings"]["rounds"] == 300
    finally:
        scores.close()


def test_a_change_to_an_early_round_is_checked_off_the_hub_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A correction, deletion, undo or redo replays the rounds after the one it changes: that
    check runs as the hub's long work, and the hub only stores the entry (the stored game keeps
    the check: it is not replayed again there)."""
    hub, scores = box(tmp_path)
    client = make_app(hub).test_client()
    replays: list[str] = []
    real = book_module.derive

    def derive(*args: Any, **kwargs: Any) -> Any:
        replays.append(threading.current_thread().name)
        return real(*args, **kwargs)

    try:
        setup = {"players": list(PLAYERS), "ruleset": "classic"}
        assert post(client, "score.new_game", setup).status_code == 200
        assert post(client, "score.import", {"text": game_to_json(long_game(300))}).status_code
        monkeypatch.setattr(book_module, "derive", derive)
        hands = {"Ana": {"points": 0}, "Bo": {"points": 5}, "Cy": {"points": 6}}
        with hub.running():
            changes = [
                ("score.correct_round", {"round": 3, "hands": hands, "winner": "Ana"}),
                ("score.delete_round", {"round": 7}),
                ("score.undo", {}),
                ("score.redo", {}),
            ]
            for name, payload in changes:
                answer = post(client, name, payload)
                assert answer.status_code == 200, answer.get_json()
            gone = post(client, "score.correct_round", {"round": 999, "hands": hands})
            assert refused(gone)["key"] == "scoring.error.no_such_round"
        assert replays and "hub" not in replays, replays
        standings = answer.get_json()["score"]["standings"]
        assert standings["rounds"] == 299
    finally:
        scores.close()


def test_after_a_start_the_statistics_of_many_long_games_are_counted_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A box holding many long games answers its first state at once, its statistics counted
    as long work (``counting`` until then), and tells the page when they are there."""
    with Storage.open(tmp_path, backups=0) as storage:
        for _ in range(COUNT_ASIDE // MAX_GAME_ROUNDS + 1):
            last = storage.import_game(long_game(MAX_GAME_ROUNDS))
        storage.settings_put(scorekeeper.CURRENT_GAME, last)
    go_on = threading.Event()
    real = Storage.read_game

    def read_game(self: Storage, game_id: str) -> ScoreBook:
        go_on.wait(30)  # the statistics are still being counted
        return real(self, game_id)

    monkeypatch.setattr(Storage, "read_game", read_game)
    hub, scores = box(tmp_path)
    try:
        with hub.running():
            first = hub.state()["score"]
            assert first["stats"] == COUNTING and first["revision"] == MAX_GAME_ROUNDS
            stream = hub.subscribe()
            go_on.set()
            for _ in range(100):  # the page is told once they are counted
                if (
                    stream.get(timeout=30) is None
                    or "counting" not in hub.state()["score"]["stats"]
                ):
                    break
            players = {p["player"]: p for p in hub.state()["score"]["stats"]["players"]}
            assert players["Ana"]["games"] == COUNT_ASIDE // MAX_GAME_ROUNDS + 1
            assert (
                players["Ana"]["rounds"] == (COUNT_ASIDE // MAX_GAME_ROUNDS + 1) * MAX_GAME_ROUNDS
            )
    finally:
        scores.close()
