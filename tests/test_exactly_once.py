"""Exactly once, and storage that notices: a phone's retry finds its ``Idempotency-Key`` kept
with the change it made (after a flood of other keys, after the box was killed between the
commit and the answer), and a state folder or database removed while the box runs is made
again before anything more is acknowledged."""

from __future__ import annotations

import random
import shutil
import signal
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.app.device_actions import DeviceActions
from companion.app.hub import Hub
from companion.app.saved_settings import SavedSettings
from companion.app.score_storage import ScoreStorage
from companion.app.scorekeeper import ScoreKeeper
from companion.app.table_memory import TableMemory
from companion.core.receipts import Receipt
from companion.core.scoring.formats import game_to_json
from companion.core.table import TableEngine
from companion.daemon import table_memory
from companion.storage import DB_NAME, MIGRATIONS, StorageGone
from companion.storage.receipts import SCHEMA, Receipts, ensure_schema
from companion.storage.secret import SECRET_NAME, session_secret
from companion.storage.table_log import TableLog
from companion.web import WebConfig, create_app
from companion.web.idempotency import KeyProblem, Remembered
from tests.helpers import kill_after_lines, python_child, wait_for
from tests.test_launcher_guards import Launcher
from tests.test_storage_faults import box
from tests.test_web_api import Clock, catalog, csrf

PLAYERS = ["Alice", "Bruno", "Chloé"]
HANDS = {"Alice": {"points": 0}, "Bruno": {"points": 12}, "Chloé": {"points": 3}}
ROUND = {"hands": HANDS, "winner": "Alice"}
COOKIE = "uno_session"


def app_of(hub: Hub, secret: bytes | None) -> Flask:
    app = create_app(hub, WebConfig(), catalog(), secret_key=secret, clock=Clock())
    app.testing = True
    return app


def send(client: FlaskClient, name: str, payload: dict[str, Any], key: str | None) -> Any:
    headers = {**csrf(client), **({"Idempotency-Key": key} if key else {})}
    return client.post(f"/api/actions/{name}", json={"payload": payload}, headers=headers)


def rounds(hub: Hub) -> int:
    return int(hub.state()["score"]["standings"]["rounds"])


def stored_rounds(state_dir: Path) -> int:
    """Rounds recorded in the file itself (read as the next start would)."""
    db = sqlite3.connect(state_dir / DB_NAME)
    try:
        rows = db.execute("SELECT entry_json FROM entries").fetchall()
    finally:
        db.close()
    return sum('"type":"round_recorded"' in text for (text,) in rows)


def started(state_dir: Path, secret: bytes | None) -> tuple[Hub, ScoreStorage, FlaskClient]:
    hub, scores = box(state_dir)
    return hub, scores, app_of(hub, secret).test_client()


def with_game(state_dir: Path, secret: bytes | None) -> tuple[Hub, ScoreStorage, FlaskClient]:
    hub, scores, client = started(state_dir, secret)
    assert send(client, "score.new_game", {"players": PLAYERS}, None).status_code == 200
    return hub, scores, client


def test_a_retry_after_1100_other_keys_is_answered_from_the_store(tmp_path: Path) -> None:
    hub, scores, client = with_game(tmp_path, None)
    first = send(client, "score.record_round", ROUND, "round-1")
    assert first.status_code == 200 and rounds(hub) == 1
    headers = csrf(client)
    for n in range(1100):  # a login flood: every key is new, none changes a thing
        flood = client.post(
            "/api/login", json={"pin": ""}, headers={**headers, "Idempotency-Key": f"f-{n}"}
        )
        assert flood.status_code == 200
    again = send(client, "score.record_round", ROUND, "round-1")
    assert again.status_code == 200, again.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert rounds(hub) == 1 and stored_rounds(tmp_path) == 1
    # The key is the same request's: another body with it is refused, as before.
    other = send(client, "score.record_round", {**ROUND, "winner": "Bruno"}, "round-1")
    assert other.status_code == 422
    assert other.get_json()["error"]["key"] == "input.idempotency_reused"
    assert rounds(hub) == 1
    scores.close()


def test_a_retry_after_the_box_was_killed_between_commit_and_answer_is_stored_once(
    tmp_path: Path,
) -> None:
    secret = session_secret(tmp_path)  # as the daemon keeps it
    _, _, client = with_game(tmp_path, secret)
    assert send(client, "score.record_round", ROUND, "round-1").status_code == 200
    cookie = client.get_cookie(COOKIE)
    assert cookie is not None
    # Killed before the answer left: nothing closed, nothing remembered in memory. The next
    # start opens the same file, with the session key kept in the state folder.
    assert (tmp_path / SECRET_NAME).stat().st_mode & 0o077 == 0
    again_secret = session_secret(tmp_path)
    assert again_secret == secret
    hub2, scores2, client2 = started(tmp_path, again_secret)
    client2.set_cookie(COOKIE, cookie.value)
    assert rounds(hub2) == 1
    again = send(client2, "score.record_round", ROUND, "round-1")
    assert again.status_code == 200, again.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert rounds(hub2) == 1 and stored_rounds(tmp_path) == 1
    # A new key is a new round.
    assert send(client2, "score.record_round", ROUND, "round-2").status_code == 200
    assert rounds(hub2) == 2
    scores2.close()


KILLED_CHILD = r"""
import sys, time
from pathlib import Path
from companion.storage.secret import session_secret
from tests.test_exactly_once import COOKIE, ROUND, send, with_game

state = Path(sys.argv[1])
hub, scores, client = with_game(state, session_secret(state))
print("cookie", client.get_cookie(COOKIE).value, flush=True)
store = scores.storage
append = store.append_entry

def committed_then_held(*args, **kwargs):
    seq = append(*args, **kwargs)
    print("committed", seq, flush=True)
    time.sleep(60)  # killed here: the round is on disk, its answer never leaves

store.append_entry = committed_then_held
send(client, "score.record_round", ROUND, "round-1")
"""


def test_a_box_sigkilled_between_commit_and_answer_stores_the_retry_once(
    tmp_path: Path,
) -> None:
    """A real process killed after the commit, before its answer; the next start answers the
    phone's retry from the store."""
    child = python_child(KILLED_CHILD, str(tmp_path))
    lines, err = kill_after_lines(child, "committed", 1, random.Random(33), jitter=0.0)
    assert child.returncode == -signal.SIGKILL, err
    said = dict(line.split(maxsplit=1) for line in lines if line.strip())
    assert said["committed"].strip() == "1", lines
    hub, scores, client = started(tmp_path, session_secret(tmp_path))
    client.set_cookie(COOKIE, said["cookie"].strip())
    assert rounds(hub) == 1
    again = send(client, "score.record_round", ROUND, "round-1")
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert rounds(hub) == 1 and stored_rounds(tmp_path) == 1
    scores.close()


def test_a_refused_change_keeps_no_receipt_and_its_retry_runs(tmp_path: Path) -> None:
    hub, scores, _ = with_game(tmp_path, None)
    receipt = Receipt("phone", "stale-1", "print")
    with pytest.raises(Exception, match="changed"):
        hub.dispatch("score.record_round", {**ROUND, "revision": 7}, receipt=receipt)
    assert hub.find_receipt("phone", "stale-1") is None
    hub.dispatch("score.record_round", ROUND, receipt=receipt)
    assert hub.find_receipt("phone", "stale-1") == "print"
    assert hub.find_receipt("other phone", "stale-1") is None  # kept per session
    scores.close()


def test_receipts_are_kept_per_session_by_count_never_by_age() -> None:
    db = sqlite3.connect(":memory:", isolation_level=None)
    ensure_schema(db)
    receipts = Receipts(per_session=50, sessions=5)
    receipts.stamp(db, Receipt("family", "round-1", "p"))
    for n in range(10_100):  # one phone floods its own keys: it pushes out only its own
        receipts.stamp(db, Receipt("flooder", f"k{n}", "p"))
    assert receipts.find(db, "family", "round-1") == "p"
    assert (
        receipts.find(db, "flooder", "k10099") == "p" and receipts.find(db, "flooder", "k0") is None
    )
    assert receipts.count(db) == 50 + 1
    # Past the sessions kept, the session that wrote longest ago goes first.
    for phone in ("b", "c", "d"):
        receipts.stamp(db, Receipt(phone, "k", "p"))
    assert receipts.find(db, "family", "round-1") == "p"  # five sessions: all kept
    receipts.stamp(db, Receipt("e", "k", "p"))
    assert receipts.find(db, "family", "round-1") is None  # a sixth pushes out the oldest
    assert receipts.find(db, "flooder", "k10099") == "p"


def test_receipts_of_an_older_database_are_kept_in_their_order(tmp_path: Path) -> None:
    """A database of the timed receipts table comes up to the sequenced one with its receipts."""
    path = tmp_path / "log.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    db.executescript(SCHEMA)
    for n, at in enumerate((30.0, 10.0, 20.0)):
        db.execute("INSERT INTO receipts VALUES ('phone', ?, 'p', ?)", (f"k{n}", at))
    ensure_schema(db)
    ensure_schema(db)  # once only
    order = db.execute("SELECT key FROM phone_receipts ORDER BY seq").fetchall()
    assert [key for (key,) in order] == ["k1", "k2", "k0"]
    assert not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'receipts'").fetchone()
    db.close()


def test_a_retry_after_the_clock_jumped_a_day_ahead_is_stored_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The box comes back with its clock 25 h ahead (no real-time clock, a wrong NTP answer):
    another phone writes first, then the first phone's retry is still found."""
    secret = session_secret(tmp_path)
    _, scores, client = with_game(tmp_path, secret)
    assert send(client, "score.record_round", ROUND, "round-1").status_code == 200
    cookie = client.get_cookie(COOKIE)
    assert cookie is not None
    scores.close()
    ahead = time.time() + 25 * 3600
    monkeypatch.setattr(time, "time", lambda: ahead)
    hub2, scores2, other = started(tmp_path, secret)
    assert send(other, "score.record_round", ROUND, "other-1").status_code == 200
    phone = app_of(hub2, secret).test_client()
    phone.set_cookie(COOKIE, cookie.value)
    again = send(phone, "score.record_round", ROUND, "round-1")
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert rounds(hub2) == 2 and stored_rounds(tmp_path) == 2
    scores2.close()


def test_the_state_folder_removed_while_running_is_made_again_with_the_game(
    tmp_path: Path,
) -> None:
    state = tmp_path / "state"
    hub, _, client = with_game(state, None)
    for n in range(2):
        assert send(client, "score.record_round", ROUND, f"r{n}").status_code == 200
    assert hub.state()["storage"]["notice"] is None
    shutil.rmtree(state)
    answer = send(client, "score.record_round", ROUND, "r2")
    assert answer.status_code == 200, answer.get_json()
    storage = answer.get_json()["storage"]
    assert storage["ok"] is True
    assert storage["notice"]["notice"] == "recreated" and storage["notice"]["what"] == "removed"
    assert storage["notice"]["games"] == 1
    fr = client.get("/api/i18n/fr").get_json()
    assert fr["storage_recreated"] and fr["storage_gone"]
    # The next start (nothing closed: as after a pulled plug) finds the game and every round.
    assert stored_rounds(state) == 3
    hub2, scores2 = box(state)
    assert rounds(hub2) == 3
    assert hub2.state()["score"]["game"]["players"] == PLAYERS
    scores2.close()


def test_a_state_folder_that_cannot_be_made_again_refuses_the_round(tmp_path: Path) -> None:
    state = tmp_path / "state"
    hub, scores, client = with_game(state, None)
    assert send(client, "score.record_round", ROUND, "r0").status_code == 200
    shutil.rmtree(state)
    state.write_text("not a folder")  # the folder cannot be made again
    refused = send(client, "score.record_round", ROUND, "r1")
    assert refused.status_code == 503
    assert refused.get_json()["error"]["key"] == "storage.gone"
    status = hub.state()["storage"]
    assert status["ok"] is False and status["problem"] == "gone"
    assert rounds(hub) == 1  # nothing acknowledged that is not on disk
    state.unlink()
    retried = send(client, "score.record_round", ROUND, "r1")  # the same key: it runs now
    assert retried.status_code == 200 and "Idempotent-Replayed" not in retried.headers
    assert hub.state()["storage"]["ok"] is True and rounds(hub) == 2
    assert stored_rounds(state) == 2
    scores.close()


def test_a_database_file_replaced_while_running_is_noticed_at_the_next_write(
    tmp_path: Path,
) -> None:
    hub, scores, client = with_game(tmp_path, None)
    assert send(client, "score.record_round", ROUND, "r0").status_code == 200
    path = tmp_path / DB_NAME
    other = tmp_path / "elsewhere.sqlite3"
    shutil.copy(path, other)  # the file as it was at the first round, then moved in its place
    other.replace(path)
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    answer = send(client, "score.record_round", ROUND, "r1")
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["storage"]["notice"]["what"] == "replaced"
    assert stored_rounds(tmp_path) == 2 and rounds(hub) == 2
    scores.close()


def test_a_press_retried_after_a_restart_does_not_press_again(tmp_path: Path) -> None:
    """The table's memory keeps a press's receipt with its line: the launcher fires once."""
    secret = session_secret(tmp_path)

    def table() -> tuple[Hub, TableMemory, FlaskClient]:
        hub = Hub(TableEngine(PLAYERS, seed=3))
        memory = table_memory(hub, tmp_path)
        memory.restore()
        hub.attach(memory)
        app = create_app(hub, WebConfig(remote_press=True), catalog(), secret_key=secret)
        app.testing = True
        return hub, memory, app.test_client()

    hub, memory, client = table()
    assert send(client, "table.press", {}, "press-1").status_code == 200
    events = hub.state()["table"]["events"]
    cookie = client.get_cookie(COOKIE)
    assert cookie is not None
    hub2, memory2, client2 = table()  # killed after the line was written: nothing closed
    client2.set_cookie(COOKIE, cookie.value)
    assert hub2.state()["table"]["events"] == events
    again = send(client2, "table.press", {}, "press-1")
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert hub2.state()["table"]["events"] == events
    assert send(client2, "table.press", {}, "press-2").status_code == 200
    assert hub2.state()["table"]["events"] == events + 1
    memory2.close()
    memory.close()


def test_the_table_log_removed_while_running_is_made_again_with_the_whole_table(
    tmp_path: Path,
) -> None:
    state = tmp_path / "state"

    def table() -> tuple[Hub, TableMemory]:
        hub = Hub(TableEngine(PLAYERS, seed=3))
        memory = table_memory(hub, state)
        memory.restore()
        hub.attach(memory)
        return hub, memory

    hub, memory = table()
    for _ in range(3):
        hub.dispatch("table.press", {})
    shutil.rmtree(state)
    hub.dispatch("table.press", {})
    assert hub.state()["table_memory"]["saved"] is True
    events = hub.state()["table"]["events"]
    table_now = hub.state()["table"]
    hub2, memory2 = table()  # nothing closed: as after a pulled plug
    assert hub2.state()["table"]["events"] == events
    assert hub2.state()["table"]["magazine"] == table_now["magazine"]
    memory2.close()
    memory.close()


def test_an_action_done_as_the_box_begins_to_stop_is_answered_applied() -> None:
    """The action ran; the table after it cannot be read because the hub is stopping: the
    phone is told it was done (never "busy, nothing was changed"), and its retry is not run."""
    hub = Hub(TableEngine(PLAYERS, seed=1))
    ran: list[int] = []
    stopper: list[threading.Thread] = []

    def count(payload: dict[str, Any]) -> None:
        ran.append(1)
        stopper.append(threading.Thread(target=hub.stop))
        stopper[0].start()
        assert wait_for(lambda: hub.phase == "stopping", 10)

    hub.register_action("test.count", {"type": "object"}, count, "table")
    client = app_of(hub, None).test_client()
    hub.start()
    first = send(client, "test.count", {}, "count-1")
    assert first.status_code == 200, first.get_json()
    assert first.get_json()["applied"] is True
    again = send(client, "test.count", {}, "count-1")
    assert again.headers["Idempotent-Replayed"] == "true" and again.status_code == 200
    stopper[0].join(10)
    assert ran == [1]


def test_a_flood_of_keys_never_evicts_a_request_still_running() -> None:
    remembered = Remembered(Clock())
    assert remembered.begin("phone", "import-1", "print") is None  # a long import, running
    for n in range(1100):
        assert remembered.begin("phone", f"login-{n}", "p") is None
        remembered.finish("phone", f"login-{n}", 200, None)
    with pytest.raises(KeyProblem) as running:
        remembered.begin("phone", "import-1", "print")
    assert running.value.status == 409
    assert remembered.begin("phone", "login-0", "p") is None  # the oldest finished one went


def test_a_test_fire_retried_after_a_restart_does_not_fire_again(tmp_path: Path) -> None:
    """A test fire keeps its key with the magazine's count it changed: once the box is back,
    the phone's retry is answered and the launcher fires nothing."""
    secret = session_secret(tmp_path)

    def launcher_box() -> tuple[Hub, ScoreStorage, Launcher, FlaskClient]:
        hub, scores = box(tmp_path)
        launcher = Launcher()
        store = SavedSettings(lambda: scores.storage)
        devices = DeviceActions(
            launcher, store, default_angles=lambda n: [0.0] * n, simulate=False, clock=Clock()
        )
        hub.attach(devices)
        hub.register_status("device", launcher.status)
        app = create_app(hub, WebConfig(remote_press=True), catalog(), secret_key=secret)
        app.testing = True
        return hub, scores, launcher, app.test_client()

    _, _, launcher, client = launcher_box()
    assert send(client, "device.test_fire", {"cards": 3}, "fire-1").status_code == 200
    assert launcher.fired() == 3
    cookie = client.get_cookie(COOKIE)
    assert cookie is not None
    _, scores2, launcher2, client2 = launcher_box()  # killed before the answer: nothing closed
    client2.set_cookie(COOKIE, cookie.value)
    again = send(client2, "device.test_fire", {"cards": 3}, "fire-1")
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert launcher2.fired() == 0
    scores2.close()


def test_a_read_only_database_from_before_receipts_never_holds_up_a_keyed_action(
    tmp_path: Path,
) -> None:
    """Scores from an older version on a read-only card: nothing to migrate, no receipts to
    find; a phone's keyed press is still answered (and its retry found in the table's log)."""
    db = sqlite3.connect(tmp_path / DB_NAME, isolation_level=None)
    db.executescript(MIGRATIONS[0])
    db.execute("PRAGMA user_version = 1")
    db.close()

    def read_only(path: Path, busy_timeout: float) -> sqlite3.Connection:
        uri = f"file:{path}?mode=ro"
        return sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)

    hub, scores = box(tmp_path, connect=read_only)
    assert scores.storage is not None and scores.storage.read_only is not None
    assert hub.find_receipt("phone", "k") is None
    client = app_of(hub, None).test_client()
    assert send(client, "table.play", {"card": "skip"}, "play-1").status_code == 200
    refused = send(client, "score.new_game", {"players": PLAYERS}, "game-1")
    assert refused.status_code == 503
    assert refused.get_json()["error"]["key"] == "storage.read_only"
    scores.close()


def test_a_table_log_whose_folder_cannot_be_made_again_says_so_and_tries_again(
    tmp_path: Path,
) -> None:
    state = tmp_path / "state"
    table_log = TableLog.open(state)
    table_log.append(["table.press", {}])
    shutil.rmtree(state)
    state.write_text("not a folder")
    for _ in range(2):
        with pytest.raises(StorageGone, match="removed"):
            table_log.append(["table.press", {}])
    state.unlink()
    with pytest.raises(StorageGone, match="made again"):  # the caller writes the whole table
        table_log.append(["table.press", {}])
    table_log.checkpoint({"table": "whole"})
    table_log.append(["table.press", {}])
    assert table_log.wait_synced(10)
    checkpoint, lines, _ = table_log.read()
    assert checkpoint == {"table": "whole"} and [line for _, line in lines] == [["table.press", {}]]
    table_log.close()


def test_an_import_stored_before_the_box_was_killed_is_not_stored_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An import is stored off the hub thread, then opened on it: the phone's key is kept with
    the stored game, so a retry after a kill between the two finds it and stores nothing."""
    killed = threading.Event()  # the box dies after storing the game, before opening it
    monkeypatch.setattr(ScoreKeeper, "open_imported", lambda _self, _prepared: killed.wait())
    secret = session_secret(tmp_path)
    _, scores, client = with_game(tmp_path, secret)
    assert send(client, "score.record_round", ROUND, "round-1").status_code == 200
    text = game_to_json(scores.storage.load_game(scores.storage.list_games()[0].game_id))
    cookie = client.get_cookie(COOKIE)
    assert cookie is not None
    answers: list[int] = []
    request = threading.Thread(
        target=lambda: answers.append(
            send(client, "score.import", {"text": text, "format": "json"}, "import-1").status_code
        )
    )
    request.start()
    try:
        wait_for(lambda: len(scores.storage.list_games()) == 2)
        monkeypatch.undo()
        _, scores2, client2 = started(tmp_path, session_secret(tmp_path))  # the box is back
        client2.set_cookie(COOKIE, cookie.value)
        again = send(client2, "score.import", {"text": text, "format": "json"}, "import-1")
        assert again.status_code == 200, again.get_json()
        assert again.headers["Idempotent-Replayed"] == "true"
        assert len(scores2.storage.list_games()) == 2
    finally:
        killed.set()
        request.join()
    assert answers == [200]
    scores2.close()
    scores.close()
