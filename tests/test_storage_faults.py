"""Storage faults told apart, each with its own cure: a full disk (507, free space), a read-only
folder, a database locked by another program, a damaged file (restore a backup). Whatever the
fault, the launcher works on and the state says what is wrong; backups come back from the page
and from ``uno-companion score restore``."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.app.hub import Hub
from companion.app.score_storage import ScoreStorage
from companion.cli import main
from companion.core.events import Press
from companion.storage import (
    DB_NAME,
    Storage,
    StorageCorrupt,
    StorageFull,
    StorageLocked,
    StorageReadOnly,
    classify,
)
from companion.storage.sqlite import connect_file
from tests.helpers import wired_box
from tests.test_web_api import csrf, make_app

PLAYERS = ["Alice", "Bruno", "Chloé", "David"]
HANDS = {"Alice": {"points": 0}, "Bruno": {"points": 12}, "Chloé": {"points": 3}}


def box(state_dir: Path, **options: Any) -> tuple[Hub, ScoreStorage]:
    """The hub and score storage as the daemon wires them (``options``: the storage's)."""
    _, hub, scores, _ = wired_box(state_dir, PLAYERS, 2, busy_timeout=0.2, **options)
    return hub, scores


class Connections(list[sqlite3.Connection]):
    """A storage's ``connect``: the real connection, each one kept to look into."""

    def __call__(self, path: Path, busy_timeout: float) -> sqlite3.Connection:
        self.append(connect_file(path, busy_timeout))
        return self[-1]


@pytest.fixture
def evening(tmp_path: Path) -> Iterator[Path]:
    """A state folder holding one game of two rounds, and its backups."""
    hub, scores = box(tmp_path)
    hub.dispatch("score.new_game", {"ruleset": "extreme", "players": PLAYERS[:3]})
    for _ in range(2):
        hub.dispatch("score.record_round", {"hands": HANDS, "winner": "Alice"})
    scores.storage.backup()  # as the next start would
    scores.close()
    yield tmp_path


def post(client: Any, name: str, payload: dict[str, Any], lang: str = "en") -> Any:
    return client.post(
        f"/api/actions/{name}",
        json={"payload": payload},
        headers={**csrf(client), "Accept-Language": lang},
    )


def test_a_full_disk_answers_507_and_the_launcher_works_on(evening: Path) -> None:
    connections = Connections()
    hub, scores = box(evening, connect=connections)
    client = make_app(hub).test_client()
    db = connections[0]  # SQLite's own "database or disk is full", at the next page
    db.execute("VACUUM")  # no free page left (the receipts table a migration replaced)
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count = {pages}")
    big = {"hands": {**HANDS, "Bruno": {"points": 12}}, "winner": "Alice"}
    answers = [post(client, "score.record_round", big) for _ in range(30)]
    full = [a for a in answers if a.status_code == 507]
    assert full, [a.status_code for a in answers]
    assert full[0].get_json()["error"]["key"] == "storage.full"
    assert "full" in full[0].get_json()["error"]["message"]
    french = post(client, "score.record_round", big, lang="fr")
    assert french.status_code == 507 and "pleine" in french.get_json()["error"]["message"]
    state = client.get("/api/state").get_json()
    assert state["storage"]["ok"] is False and state["storage"]["problem"] == "full"
    assert post(client, "table.play", {"card": "skip"}).status_code == 200  # the table goes on
    stored = state["score"]["revision"]
    db.execute("PRAGMA max_page_count = 1073741823")  # space freed
    assert post(client, "score.record_round", big).status_code == 200
    state = client.get("/api/state").get_json()
    assert state["storage"]["ok"] is True and state["score"]["revision"] == stored + 1
    scores.close()


def test_a_read_only_folder_shows_its_scores_read_only(evening: Path) -> None:
    def read_only(path: Path, busy_timeout: float) -> sqlite3.Connection:
        # What SQLite does when the card or the folder cannot be written.
        uri = f"file:{path}?mode=ro"
        return sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)

    with Storage.open(evening, backups=0, connect=read_only) as storage:
        assert isinstance(storage.read_only, StorageReadOnly)
        assert "read-only" in str(storage.fault) and "restore" not in str(storage.fault)
        assert storage.list_games()[0].revision == 2
    hub, scores = box(evening, connect=read_only)
    client = make_app(hub).test_client()
    state = client.get("/api/state").get_json()
    assert state["storage"]["problem"] == "read_only" and state["storage"]["scores"] is True
    assert state["score"]["standings"]["rounds"] == 2  # the evening's game, shown
    assert len(state["score"]["history"]) == 2 and state["score"]["games"]
    refused = post(client, "score.record_round", {"hands": HANDS, "winner": "Alice"}, lang="fr")
    assert refused.status_code == 503 and refused.get_json()["error"]["key"] == "storage.read_only"
    assert hub.dispatch("table.play", {"card": "skip"})["table"]["last_card"]["card"] == "skip"
    scores.close()


class _WriteProtected:
    """A database connection whose folder was made read-only while the box runs: every write
    fails as SQLite reports it (an I/O error, EROFS underneath), reads go on."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        self.protected = False

    def execute(self, sql: str, *args: Any) -> Any:
        if self.protected and sql.startswith(("INSERT", "UPDATE", "DELETE")):
            error = sqlite3.OperationalError("disk I/O error")
            error.sqlite_errorcode = 778  # type: ignore[attr-defined]  # SQLITE_IOERR_WRITE
            raise error
        return self._db.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)


def test_a_folder_write_protected_while_running_is_called_read_only(
    evening: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder: list[_WriteProtected] = []

    def connect(path: Path, busy_timeout: float) -> Any:
        folder.append(_WriteProtected(connect_file(path, busy_timeout)))
        return folder[-1]

    hub, scores = box(evening, connect=connect)
    client = make_app(hub).test_client()
    folder[0].protected = True
    monkeypatch.setattr("companion.storage.faults.cannot_write", lambda path: True)
    refused = post(client, "score.record_round", {"hands": HANDS, "winner": "Alice"})
    assert refused.status_code == 503 and refused.get_json()["error"]["key"] == "storage.read_only"
    state = client.get("/api/state").get_json()
    assert state["storage"]["problem"] == "read_only" and state["score"]["standings"]["rounds"] == 2
    monkeypatch.setattr("companion.storage.faults.cannot_write", lambda path: False)
    other = post(client, "score.record_round", {"hands": HANDS, "winner": "Alice"})
    assert other.get_json()["error"]["key"] == "storage.unusable"  # a fault of no known cause
    folder[0].protected = False
    scores.close()


def test_a_database_locked_by_another_program(evening: Path) -> None:
    other = sqlite3.connect(evening / DB_NAME, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StorageLocked, match="locked by another program"):
            Storage.open(evening, backups=0, busy_timeout=0.1)
        hub, _ = box(evening)
        assert hub.state()["storage"]["problem"] == "locked"
    finally:
        other.execute("ROLLBACK")
        other.close()


def test_a_full_disk_found_by_the_system_is_full() -> None:
    try:
        with open("/dev/full", "wb") as device:
            device.write(b"x" * 65536)
            device.flush()
    except OSError as error:
        fault = classify(error, Path("/tmp") / DB_NAME)
    assert isinstance(fault, StorageFull) and fault.status == 507


def test_a_damaged_database_leaves_the_launcher_working_and_a_backup_restores_it(
    evening: Path,
) -> None:
    (evening / DB_NAME).write_bytes(b"this is not a database" * 100)
    for extra in ("-wal", "-shm"):
        (evening / f"{DB_NAME}{extra}").unlink(missing_ok=True)
    with pytest.raises(StorageCorrupt, match="score restore"):
        Storage.open(evening, backups=0)
    hub, scores = box(evening)
    client = make_app(hub).test_client()
    state = client.get("/api/state").get_json()
    assert state["storage"]["problem"] == "damaged" and state["storage"]["backups"]
    assert post(client, "table.play", {"card": "skip"}).status_code == 200
    for action, payload in [
        ("score.record_round", {"hands": HANDS}),
        ("score.new_game", {}),
        ("score.announce", {}),
        ("score.import", {"text": "{}"}),
    ]:
        refused = post(client, action, payload)
        assert refused.status_code == 503, action
        assert refused.get_json()["error"]["key"] == "storage.damaged", action
    assert state["score"] == {"game": None, "games": [], "available": False}
    name = state["storage"]["backups"][0]["name"]
    restored = post(client, "storage.restore", {"backup": name})
    assert restored.status_code == 200, restored.get_json()
    state = restored.get_json()
    assert state["storage"]["ok"] is True and state["score"]["revision"] == 2
    assert state["table"]["last_card"]["card"] == "skip"  # the table as it was
    assert (
        post(client, "score.record_round", {"hands": HANDS, "winner": "Alice"}).status_code == 200
    )
    scores.close()


def test_score_restore_on_the_command_line(
    evening: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (evening / DB_NAME).write_bytes(b"damaged" * 100)
    assert main(["score", "--state-dir", str(evening), "restore"]) == 0
    listing = capsys.readouterr().out
    assert "scores.1.sqlite3" in listing and "1 games, 2 score entries" in listing
    assert main(["score", "--state-dir", str(evening), "restore", "scores.9.sqlite3"]) == 1
    assert "no backup called" in capsys.readouterr().err
    assert main(["score", "--state-dir", str(evening), "restore", "scores.1.sqlite3"]) == 0
    assert "damaged-1" in capsys.readouterr().out
    with Storage.open(evening, backups=0) as storage:
        assert storage.list_games()[0].revision == 2


def test_the_daemon_starts_on_a_damaged_database_and_the_launcher_fires(evening: Path) -> None:
    from companion.config import Config
    from companion.daemon import Daemon, DaemonOptions

    (evening / DB_NAME).write_bytes(b"damaged" * 100)
    options = DaemonOptions(state_dir=evening, backend="mock", seed=3, web=False, voice=False)
    daemon = Daemon(Config(), options).start()
    try:
        state = daemon.hub.state()
        assert state["storage"]["problem"] == "damaged"
        assert state["table_memory"]["saved"]  # the table is kept in a file of its own
        assert daemon.post(Press()).result(timeout=5).event == "press"
        daemon.hub.dispatch("table.reload", {"cards": 50})
        assert daemon.hub.state()["table"]["magazine"] == 50
    finally:
        daemon.stop()
    again = Daemon(Config(), options).start()
    try:
        assert again.hub.state()["table"]["magazine"] == 50
    finally:
        again.stop()
