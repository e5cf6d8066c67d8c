"""A long game file comes in without holding the table: its replay is linear in the entries,
its file is read in a process of its own and stored in pieces, off the hub thread, and a
half-stored game never shows."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from companion.app.hub import Hub
from companion.app.scorekeeper import ScoreKeeper
from companion.core.scoring import (
    GameSetup,
    HandEntry,
    LogEntry,
    ScoreBook,
    ScoringError,
    builtin_ruleset,
    make_round,
)
from companion.core.scoring import tally as tally_module
from companion.core.scoring.book import RoundView
from companion.core.scoring.formats import game_from_json, game_to_json
from companion.core.scoring.stats import RoundsTally, compute_stats
from companion.core.table import TableEngine
from companion.storage import DB_NAME, Storage, StorageError
from companion.storage.sqlite import BookCache

PLAYERS = ("Ana", "Bo", "Cy")


@pytest.fixture
def keeper(tmp_path: Path) -> Iterator[tuple[Hub, ScoreKeeper, Storage]]:
    """A score keeper on a hub (not started: actions run inline until a test starts it)."""
    storage = Storage.open(tmp_path, backups=0)
    hub = Hub(TableEngine(list(PLAYERS), seed=1))
    keeper = ScoreKeeper(lambda: storage)
    keeper.attach(hub)
    yield hub, keeper, storage
    storage.close()


def every_game(storage: Storage) -> list[ScoreBook]:
    """Every stored game, read (again if the storage let go of it)."""
    return [storage.read_game(game.game_id) for game in storage.list_games()]


def long_game(rounds: int, corrections: bool = False) -> ScoreBook:
    """Built from its log, as a file or an older stored game brings it: it may be larger than
    the box lets a game played on it grow."""
    setup = GameSetup("long", PLAYERS, builtin_ruleset("classic"), target=100_000)
    log: list[LogEntry] = []
    for number in range(1, rounds + 1):
        hands = {
            "Ana": HandEntry.empty(),
            "Bo": HandEntry.of_points(number % 3),
            "Cy": HandEntry.of_points(1),
        }
        log.append(LogEntry.recorded(make_round(setup, hands)))
        if corrections:  # the worst case: the first round corrected after every round
            fixed = {**hands, "Cy": HandEntry.of_points(number % 5)}
            log.append(LogEntry.corrected(1, make_round(setup, fixed)))
    return ScoreBook(setup, log)


@pytest.mark.parametrize("corrections", [False, True])
def test_replaying_a_log_costs_a_bounded_number_of_round_steps(
    monkeypatch: pytest.MonkeyPatch, corrections: bool
) -> None:
    rounds = 150
    game = long_game(rounds, corrections)
    steps = 0
    real_after = tally_module.Tally.after

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal steps
        steps += 1
        return real_after(*args, **kwargs)

    monkeypatch.setattr(tally_module.Tally, "after", counted)
    again = game_from_json(game_to_json(game))
    assert again.standings() == game.standings() and again.history() == game.history()
    # Each entry at most one step, plus re-derivations at most once per `rounds` entries.
    assert steps <= 3 * len(game.entries) + rounds, steps


def test_a_round_recorded_after_a_correction_is_still_checked() -> None:
    game = ScoreBook(GameSetup("short", PLAYERS, builtin_ruleset("classic"), target=100))
    hands = {"Ana": HandEntry.empty(), "Bo": HandEntry.of_points(10), "Cy": HandEntry.of_points(1)}
    game.record_round(hands)
    game.correct_round(1, {**hands, "Bo": HandEntry.of_points(120)})  # Ana reaches 100: over
    late = LogEntry.recorded(game.make_round(hands))  # a round after the end, written by hand
    with pytest.raises(ScoringError) as refused:
        ScoreBook(game.setup, [*game.entries, late])
    assert refused.value.key == "import_entry" and refused.value.params["index"] == 3
    assert "ended in round 1" in str(refused.value)


def test_a_file_nested_thousands_deep_is_refused_as_too_deep() -> None:
    text = '{"format": "uno-companion/game", "log": [' + "[" * 5000 + "]" * 5000 + "]}"
    with pytest.raises(ScoringError) as refused:
        game_from_json(text)
    assert refused.value.key == "import_too_deep"


def test_an_import_that_fails_half_way_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = long_game(600)
    pieces = 0

    def failing_pause() -> None:
        nonlocal pieces
        pieces += 1
        if pieces == 2:
            raise StorageError("the card went away")

    with Storage.open(tmp_path, backups=0) as storage:
        with pytest.raises(StorageError):
            storage.import_game(game, pause=failing_pause)
        assert storage.list_games() == []
        assert count(tmp_path, "SELECT count(*) FROM entries") == 0


def test_a_game_left_half_stored_by_a_crash_is_removed_at_the_next_start(tmp_path: Path) -> None:
    game = long_game(600)
    with Storage.open(tmp_path, backups=0) as storage:
        kept = storage.import_game(long_game(2))
        with closing(sqlite3.connect(tmp_path / DB_NAME, isolation_level=None)) as db:
            db.execute(  # what a crash between two pieces leaves
                "INSERT INTO games (id, name, created_at, setup_json, revision) "
                "VALUES ('half', 'half', '', '{}', -1)"
            )
            db.execute(
                "INSERT INTO entries VALUES ('half', 1, ?, '')",
                (json.dumps(game.entries[0].to_dict()),),
            )
        assert [g.game_id for g in storage.list_games()] == [kept]
    with Storage.open(tmp_path, backups=0) as storage:
        assert count(tmp_path, "SELECT count(*) FROM games") == 1
        assert count(tmp_path, "SELECT count(*) FROM entries WHERE game_id = 'half'") == 0
        assert storage.load_game(kept).revision == 2


def count(state_dir: Path, query: str) -> int:
    """A count read from the score database by a connection of its own."""
    with closing(sqlite3.connect(state_dir / DB_NAME)) as db:
        return int(db.execute(query).fetchone()[0])


def test_the_table_answers_while_a_game_file_is_read(
    keeper: tuple[Hub, ScoreKeeper, Storage], monkeypatch: pytest.MonkeyPatch
) -> None:
    hub, _, _ = keeper
    reading, go_on = threading.Event(), threading.Event()
    readers: set[str] = set()

    def held_import() -> None:
        readers.add(threading.current_thread().name)
        reading.set()
        go_on.wait(10)

    monkeypatch.setattr(hub, "stand_aside", held_import)
    text = game_to_json(long_game(300))
    answers: list[dict[str, Any]] = []
    with hub.running():
        importer = threading.Thread(
            target=lambda: answers.append(hub.dispatch("score.import", {"text": text})),
            name="phone",
        )
        importer.start()
        assert reading.wait(10)
        # The import is half-way through its file: the table still answers at once.
        assert hub.dispatch("table.play", {"card": "skip"})["table"]["last_card"]["card"] == "skip"
        assert answers == []
        go_on.set()
        importer.join(10)
    # the file was read on a thread of its own (the phone's request waits for it, and checks
    # the text first, standing aside as well), never on the hub's
    assert "long-work" in readers and readers <= {"long-work", "phone"}
    assert answers[0]["score"]["standings"]["rounds"] == 300
    assert answers[0]["score"]["history"][-1]["number"] == 300


def test_the_page_history_follows_every_kind_of_change(
    keeper: tuple[Hub, ScoreKeeper, Storage], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A round recorded after the last adds one line to the page's history and its tally; any
    other change makes them again: either way they are the book's history and statistics."""
    hub, book_keeper, _ = keeper
    hands = {"Ana": {"points": 0}, "Bo": {"points": 4}, "Cy": {"points": 7}}
    steps: list[tuple[str, dict[str, Any]]] = [
        ("score.new_game", {"players": list(PLAYERS)}),
        *[("score.record_round", {"hands": hands, "winner": "Ana"})] * 3,
        ("score.correct_round", {"round": 2, "hands": {**hands, "Cy": {"points": 1}}}),
        ("score.record_round", {"hands": hands, "winner": "Ana"}),
        ("score.undo", {}),
        ("score.redo", {}),
        ("score.delete_round", {"round": 1}),
        ("score.record_round", {"hands": hands, "winner": "Ana"}),
    ]
    lines_made: dict[str, int] = {}
    to_dict = RoundView.to_dict

    def counted(view: RoundView, hands: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        kind = action if hands is None else f"{action}, hands kept"
        lines_made[kind] = lines_made.get(kind, 0) + 1
        return to_dict(view, hands)

    def line(view: RoundView) -> dict[str, Any]:  # the test's own, not counted
        return to_dict(view)

    monkeypatch.setattr(RoundView, "to_dict", counted)
    for action, payload in steps:
        score = hub.dispatch(action, payload)["score"]
        assert book_keeper.book is not None
        views = book_keeper.book.history()
        assert score["history"] == [line(view) for view in views], action
        assert score["history_count"] == len(views)
        for row in book_keeper.book.standings().rows:
            held = [{p: pts or 0 for p, _, pts in view.hands} for view in views]
            assert score["game_stats"][row.party] == {
                "played": sum(1 for hands in held if set(hands) & set(row.members)),
                "costliest": max((h.get(m, 0) for h in held for m in row.members), default=0),
            }, action
    # A recorded round makes its own line only (the test's own check above is not counted); a
    # correction of round 2 makes round 2's line, and rounds 1 and 3 around their hands as they
    # were (the keeper goes on with a copy of the stored game, whose rounds are its own);
    # an undo of the last round keeps every other line, its redo makes that round's again; a
    # deletion of round 1 keeps the hands of the rounds after it.
    assert lines_made == {
        "score.record_round": 5,
        "score.correct_round": 1,
        "score.correct_round, hands kept": 2,
        "score.redo": 1,
        "score.delete_round, hands kept": 3,
    }


def test_statistics_go_through_a_long_game_once(
    keeper: tuple[Hub, ScoreKeeper, Storage], monkeypatch: pytest.MonkeyPatch
) -> None:
    hub, _, storage = keeper
    hub.dispatch("score.import", {"text": game_to_json(long_game(300))})
    tallied: list[int] = []
    real = RoundsTally.sync

    def sync(tally: RoundsTally, views: Any, pause: Any = None) -> None:
        before = tally.tallied
        real(tally, views, pause)
        tallied.extend(range(before + 1, tally.tallied + 1))

    monkeypatch.setattr(RoundsTally, "sync", sync)
    hub.dispatch("score.new_game", {"players": list(PLAYERS)})
    hands = {"Ana": {"points": 0}, "Bo": {"points": 4}, "Cy": {"points": 7}}
    for _ in range(3):
        stats = hub.dispatch("score.record_round", {"hands": hands})["score"]["stats"]
    # The long game's rounds, tallied by its import, are not gone through again; each round of
    # the new game is tallied once.
    assert tallied == [1, 2, 3]
    everything = compute_stats(every_game(storage))
    assert stats["players"] == [p.to_dict() for p in everything.players]
    assert stats["players"][0]["rounds"] == 303


def test_a_change_to_an_old_round_replays_the_rounds_from_the_mark_before_it_once(
    keeper: tuple[Hub, ScoreKeeper, Storage], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the keeper (checked on the stored game, which the keeper then copies): a change
    to round k replays the rounds from the last mark at or before k, once."""
    hub, book_keeper, _ = keeper
    hub.dispatch("score.import", {"text": game_to_json(long_game(500))})
    steps: list[int] = []
    real_after = tally_module.Tally.after

    def counted(tally: Any, *args: Any, **kwargs: Any) -> Any:
        steps.append(tally.rounds + 1)
        return real_after(tally, *args, **kwargs)

    monkeypatch.setattr(tally_module.Tally, "after", counted)
    hands = {"Ana": {"points": 0}, "Bo": {"points": 4}, "Cy": {"points": 7}}
    for number in (490, 2):
        steps.clear()
        hub.dispatch("score.correct_round", {"round": number, "hands": hands})
        mark = (number - 1) // tally_module.MARK_EVERY * tally_module.MARK_EVERY
        assert steps == list(range(mark + 1, 501)), number
    hub.dispatch("score.undo", {})
    assert book_keeper.book is not None
    whole = ScoreBook(book_keeper.book.setup, book_keeper.book.entries)
    assert book_keeper.book.history() == whole.history()
    assert book_keeper.book.standings() == whole.standings()


def test_the_storage_keeps_a_bounded_number_of_rounds_read_and_the_statistics_stay_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three long games imported, room for one read at a time: each game is read again only
    when its statistics are not known yet; tonight's rounds do not read them again."""
    storage = Storage.open(tmp_path, backups=0, kept_entries=500)  # a 450-round game at a time
    hub = Hub(TableEngine(list(PLAYERS), seed=1))
    ScoreKeeper(lambda: storage).attach(hub)
    for _ in range(3):
        hub.dispatch("score.import", {"text": game_to_json(long_game(450))})
    games = storage.list_games()
    assert [storage.is_read(game.game_id) for game in games] == [False, False, True]
    read: list[str] = []
    real = Storage.read_game
    monkeypatch.setattr(Storage, "read_game", lambda s, g: read.append(g) or real(s, g))
    hub.dispatch("score.new_game", {"players": list(PLAYERS)})
    hands = {"Ana": {"points": 0}, "Bo": {"points": 4}, "Cy": {"points": 7}}
    stats = hub.dispatch("score.record_round", {"hands": hands})["score"]["stats"]
    assert not set(read) & {game.game_id for game in games}
    everything = compute_stats(every_game(storage))  # every game read again: the same
    assert stats["players"] == [p.to_dict() for p in everything.players]
    assert stats["players"][0]["rounds"] == 3 * 450 + 1
    storage.close()


def test_the_book_cache_lets_the_least_recently_read_go_first() -> None:
    cache = BookCache(budget=5)
    books = {name: long_game(rounds) for name, rounds in (("a", 2), ("b", 2), ("c", 2))}
    cache.put("a", books["a"])
    cache.put("b", books["b"])
    assert cache.get("a") is books["a"]  # a read last: b goes first
    cache.put("c", books["c"])
    assert "b" not in cache and cache.get("a") is books["a"] and cache.get("c") is books["c"]
    cache.put("big", long_game(9))  # over the budget alone: it stays, the others go
    assert "big" in cache and "a" not in cache and "c" not in cache
