"""Exactly once and storage that notices, measured: what keeping a phone's ``Idempotency-Key``
with its change costs a durable round and a press's line, the receipts' size at their bound,
the check that the file is still the one open, and how long the next round takes after the
state folder was removed with a long game open (the database made again from memory).
"""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from companion.core.limits import MAX_GAME_ROUNDS
from companion.core.receipts import KEEP_PER_SESSION, KEEP_SESSIONS, Receipt
from companion.core.scoring import GameSetup, HandEntry, builtin_ruleset
from companion.storage import DB_NAME, Storage
from companion.storage.receipts import Receipts, ensure_schema
from companion.storage.recreate import identity
from companion.storage.table_log import TableLog

PLAYERS = ("Ana", "Bo", "Cy", "Di")
ROUNDS = 300
LONG_GAMES = (250, MAX_GAME_ROUNDS - 1)  # the next round then the game's last


def _hands(rng: random.Random) -> dict[str, HandEntry]:
    winner = rng.choice(PLAYERS)
    return {
        p: HandEntry.empty() if p == winner else HandEntry.of_points(rng.randint(0, 3))
        for p in PLAYERS
    }


def _keys() -> Callable[[], Receipt]:
    count = iter(range(10**9))
    return lambda: Receipt("s" * 32, f"{next(count):036d}", "f" * 64)


def _percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"p50 {statistics.median(ordered) * 1e3:.2f} ms, p99 {p99 * 1e3:.2f} ms"


def _rounds(storage: Storage, setup: GameSetup, count: int, rng: random.Random) -> list[float]:
    """``count`` durable rounds, a new game each time one is full (a game stops at
    :data:`MAX_GAME_ROUNDS`)."""
    times = []
    for done in range(0, count, MAX_GAME_ROUNDS):
        game_id = storage.create_game(setup)
        book = storage.load_game(game_id)
        for _ in range(min(MAX_GAME_ROUNDS, count - done)):
            entry = book.new_record(_hands(rng), at="bench")
            start = time.perf_counter()
            storage.append_entry(game_id, entry, expected_revision=book.revision)
            times.append(time.perf_counter() - start)
            book.apply(entry)
    return times


def rounds_with_and_without_keys() -> None:
    rng = random.Random(33)
    setup = GameSetup("bench", PLAYERS, builtin_ruleset("classic"), target=100_000)
    with tempfile.TemporaryDirectory() as state, Storage.open(state, backups=0) as storage:
        plain = _rounds(storage, setup, ROUNDS, rng)
        storage.receipt = _keys()
        keyed = _rounds(storage, setup, ROUNDS, rng)
        print(f"receipts: a durable round without a key  {_percentiles(plain)}")
        print(f"receipts: a durable round with its key   {_percentiles(keyed)}")
        path = Path(state) / DB_NAME
        before = _file_size(path)
        _rounds(storage, setup, KEEP_PER_SESSION + 200, rng)
        after = _file_size(path)
        kept = _count(path)
        grown = (after - before) / 1e6
        print(
            f"receipts: one phone's {KEEP_PER_SESSION + 200} more keyed rounds: {kept} receipts "
            f"kept (its budget {KEEP_PER_SESSION}), database grew {grown:.1f} MB (rounds and "
            "receipts)"
        )
        looks = []
        for n in range(2000):  # a new key: looked for before its request runs
            start = time.perf_counter()
            storage.find_receipt("s" * 32, f"new-{n}")
            looks.append(time.perf_counter() - start)
        looks.sort()
        p50, p99 = statistics.median(looks) * 1e6, looks[int(len(looks) * 0.99)] * 1e6
        print(f"receipts: a new key looked for among {kept}: p50 {p50:.0f} µs, p99 {p99:.0f} µs")


def _count(path: Path) -> int:
    """The receipts in the database at ``path``, read on a connection of its own."""
    db = sqlite3.connect(path)
    try:
        return int(db.execute("SELECT count(*) FROM phone_receipts").fetchone()[0])
    finally:
        db.close()


def _file_size(path: Path) -> int:
    return sum(os.stat(f"{path}{suffix}").st_size for suffix in ("", "-wal"))


def receipts_alone() -> None:
    """The receipts' own share of the file at their bound (every session kept full), and what
    one more costs there."""
    bound = KEEP_SESSIONS * KEEP_PER_SESSION
    with tempfile.TemporaryDirectory() as state:
        path = Path(state) / "receipts.sqlite3"
        db = sqlite3.connect(path, isolation_level=None)
        ensure_schema(db)
        receipts, count = Receipts(), iter(range(10**9))
        db.execute("BEGIN")
        for n in range(bound):
            scope = f"{n % KEEP_SESSIONS:032d}"
            receipts.stamp(db, Receipt(scope, f"{next(count):036d}", "f" * 64))
        db.execute("COMMIT")
        times = []
        db.execute("BEGIN")  # as in the writer's transaction: the stamp's own cost
        for n in range(2000):
            start = time.perf_counter()
            receipts.stamp(db, Receipt(f"{n % 7:032d}", f"{next(count):036d}", "f" * 64))
            times.append(time.perf_counter() - start)
        db.execute("COMMIT")
        kept = receipts.count(db)
        db.close()
        print(
            f"receipts: at the bound ({KEEP_SESSIONS} sessions x {KEEP_PER_SESSION}) {kept} "
            f"receipts (UUID-long keys) take {path.stat().st_size / 1e6:.1f} MB; one more "
            f"stamped (pruning included) {_percentiles(times)}"
        )


def press_lines_with_and_without_keys() -> None:
    with tempfile.TemporaryDirectory() as state:
        log = TableLog.open(state)
        try:
            line = ["table.press", {}, "phone", 1700000000.0, [1, 3]]
            for keyed in (False, True):
                log.receipt = _keys() if keyed else None
                times = []
                for _ in range(2000):
                    start = time.perf_counter()
                    log.append(line)
                    times.append(time.perf_counter() - start)
                log.wait_synced(10)
                what = "with its key  " if keyed else "without a key"
                print(f"receipts: a press's line {what} {_percentiles(times)}")
        finally:
            log.close()


def file_check() -> None:
    with tempfile.TemporaryDirectory() as state:
        path = Path(state) / "probe"
        path.write_bytes(b"x")
        count = 100_000
        start = time.perf_counter()
        for _ in range(count):
            identity(path)
        per = (time.perf_counter() - start) / count
        print(f"receipts: the check that the file is the one open (stat) {per * 1e6:.1f} µs")


def folder_removed(rounds: int) -> None:
    rng = random.Random(rounds)
    setup = GameSetup("bench", PLAYERS, builtin_ruleset("classic"), target=100_000)
    with tempfile.TemporaryDirectory() as parent:
        state = Path(parent) / "state"
        storage = Storage.open(state, backups=0)
        try:
            game_id = storage.create_game(setup)
            book = storage.load_game(game_id)
            entries = []
            for _ in range(rounds):
                entry = book.new_record(_hands(rng), at="bench")
                book.apply(entry)
                entries.append(entry)
            storage.close()
            storage = Storage.open(state, backups=0)
            imported = storage.import_game(book)
            storage.keep_read(imported)
            shutil.rmtree(state)
            entry = book.new_record(_hands(rng), at="bench")
            start = time.perf_counter()
            storage.append_entry(imported, entry, expected_revision=book.revision)
            elapsed = time.perf_counter() - start
            assert storage.recreated is not None and storage.recreated.games >= 1
            size = sum(os.stat(f"{state / DB_NAME}{suffix}").st_size for suffix in ("", "-wal"))
            print(
                f"receipts: state folder removed, {rounds}-round game open: the next round "
                f"took {elapsed * 1e3:.0f} ms (database made again, game written back, "
                f"{size / 1e6:.1f} MB)"
            )
        finally:
            storage.close()


def main() -> None:
    rounds_with_and_without_keys()
    receipts_alone()
    press_lines_with_and_without_keys()
    file_check()
    for rounds in LONG_GAMES:
        folder_removed(rounds)


if __name__ == "__main__":
    main()
