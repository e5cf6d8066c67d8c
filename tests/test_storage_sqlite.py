"""The SQLite adapter: games, log entries, stale writes, rulesets, settings, backups, damage."""

from __future__ import annotations

import json
import sqlite3
import threading
from contextlib import closing
from dataclasses import replace
from pathlib import Path

import pytest

from companion.core.scoring import (
    GameSetup,
    HandEntry,
    LogEntry,
    ScoreBook,
    ScoringError,
    StaleWrite,
    builtin_ruleset,
    game_from_json,
    game_to_json,
)
from companion.storage import (
    DB_NAME,
    MIGRATIONS,
    Storage,
    StorageCorrupt,
    StorageError,
    UnknownGame,
    restore_backup,
)
from companion.storage.sqlite import connect_file

H = HandEntry
PLAYERS = ("Ana", "Bo")


def setup(name: str = "g") -> GameSetup:
    return GameSetup(name, PLAYERS, builtin_ruleset("classic"), date="2024-05-03")


def test_a_game_survives_reopening_and_pragmas_are_set(tmp_path: Path) -> None:
    connections: list[sqlite3.Connection] = []

    def connect(path: Path, busy_timeout: float) -> sqlite3.Connection:
        connections.append(connect_file(path, busy_timeout))
        return connections[-1]

    with Storage.open(tmp_path, connect=connect) as storage:
        game_id = storage.create_game(setup())
        book = storage.load_game(game_id)
        entry = book.new_record({"Ana": H.empty(), "Bo": H.of_cards({"wild": 1})})
        assert storage.append_entry(game_id, entry, expected_revision=0) == 1
        [db] = connections
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert not (tmp_path / f"{DB_NAME}-wal").exists() or (
        (tmp_path / f"{DB_NAME}-wal").stat().st_size == 0
    )  # checkpointed on close
    with Storage.open(tmp_path) as storage:
        book = storage.load_game(game_id)
        assert book.standings().total("Ana") == 50 and book.setup.game_id == game_id
        [summary] = storage.list_games()
        assert (summary.name, summary.revision, summary.ruleset) == ("g", 1, "classic")
    with closing(sqlite3.connect(tmp_path / DB_NAME)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)


def test_stale_writes_and_invalid_entries_are_refused_and_store_nothing(tmp_path: Path) -> None:
    with Storage.open(tmp_path) as storage:
        game_id = storage.create_game(setup())
        phone1, phone2 = storage.load_game(game_id), storage.load_game(game_id)
        storage.append_entry(
            game_id, phone1.new_record({"Ana": H.empty(), "Bo": H.of_points(5)}), 0
        )
        with pytest.raises(StaleWrite):
            storage.append_entry(
                game_id, phone2.new_record({"Bo": H.empty(), "Ana": H.of_points(5)}), 0
            )
        with pytest.raises(ScoringError) as refused:
            storage.append_entry(game_id, LogEntry.redo())
        assert refused.value.key == "nothing_to_redo"
        with pytest.raises(UnknownGame):
            storage.load_game("nope")
        assert storage.load_game(game_id).revision == 1
        with (
            closing(sqlite3.connect(tmp_path / DB_NAME)) as other,
            pytest.raises(sqlite3.DatabaseError, match="append-only"),
        ):
            other.execute("UPDATE entries SET entry_json = '{}'")


def test_concurrent_appends_from_threads_are_serialised(tmp_path: Path) -> None:
    with Storage.open(tmp_path) as storage:
        game_id = storage.create_game(
            GameSetup("t", PLAYERS, builtin_ruleset("classic"), target=100_000)
        )
        book = storage.load_game(game_id)
        entry = book.new_record({"Ana": H.empty(), "Bo": H.of_points(1)})

        def writer() -> None:
            for _ in range(20):
                storage.append_entry(game_id, entry)

        threads = [threading.Thread(target=writer) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert storage.load_game(game_id).standings().total("Ana") == 80
        assert storage.integrity_check() == "ok"


def test_settings_and_custom_rulesets(tmp_path: Path) -> None:
    with Storage.open(tmp_path) as storage:
        assert storage.settings_get("seats", default=[]) == []
        storage.settings_put("seats", {"Ana": 30, "Bo": 150})
        storage.settings_put("magazine", 41)
        storage.settings_put("magazine", 40)
    # A house ruleset the database holds (the rulesets table of the schema).
    house = replace(builtin_ruleset("extreme"), key="maison", name_fr="Maison", builtin=False)
    db = sqlite3.connect(tmp_path / DB_NAME)
    with db:
        db.execute(
            "INSERT INTO rulesets (key, ruleset_json, updated_at) VALUES (?, ?, ?)",
            ("maison", json.dumps(house.to_dict()), "2026-11-26T00:00:00Z"),
        )
    db.close()
    with Storage.open(tmp_path) as storage:
        assert storage.settings_get("seats") == {"Ana": 30, "Bo": 150}
        assert storage.settings_get("magazine") == 40
        assert storage.custom_rulesets() == [house]


def test_import_stores_a_whole_game_or_nothing(tmp_path: Path) -> None:
    book = ScoreBook(setup("imported"))
    book.record_round({"Ana": H.empty(), "Bo": H.of_points(9)})
    text = game_to_json(book)
    with Storage.open(tmp_path) as storage:
        first = storage.import_game(game_from_json(text))
        second = storage.import_game(game_from_json(text))
        assert first != second  # the same file twice overwrites nothing
        with pytest.raises(ScoringError):
            storage.import_game(game_from_json(text.replace('"points": 9', '"points": -9')))
        assert len(storage.list_games()) == 2
        assert storage.load_game(first).standings().total("Ana") == 9


def test_backups_rotate_and_a_damaged_database_is_reported_then_restored(tmp_path: Path) -> None:
    for _ in range(4):
        with Storage.open(tmp_path, backups=3) as storage:
            if not storage.list_games():
                storage.create_game(setup("keep me"))
    backups = sorted((tmp_path / "backups").glob("scores.*.sqlite3"))
    assert [p.name for p in backups] == [
        "scores.1.sqlite3",
        "scores.2.sqlite3",
        "scores.3.sqlite3",
    ]
    db = tmp_path / DB_NAME
    raw = bytearray(db.read_bytes())
    raw[4096 : 4096 + 2000] = b"\xff" * 2000  # scribble over a page of the table
    db.write_bytes(bytes(raw))
    with pytest.raises(StorageCorrupt) as damaged:
        Storage.open(tmp_path)
    assert str(tmp_path / "backups" / "scores.1.sqlite3") in str(damaged.value)
    aside = restore_backup(tmp_path, damaged.value.backups[0])
    assert aside.exists()
    with Storage.open(tmp_path) as storage:
        assert [g.name for g in storage.list_games()] == ["keep me"]


def test_not_a_database_and_newer_schema_are_clear_errors(tmp_path: Path) -> None:
    (tmp_path / DB_NAME).write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StorageCorrupt, match="damaged"):
        Storage.open(tmp_path)
    other = tmp_path / "newer"
    other.mkdir()
    connection = sqlite3.connect(other / DB_NAME)
    connection.execute("PRAGMA user_version = 99")
    connection.close()
    with pytest.raises(StorageError, match="newer than this program"):
        Storage.open(other)
