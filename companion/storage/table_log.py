"""The table's round log on disk: one row per line, a checkpoint per round (SQLite, WAL).

The table is kept in ``table.sqlite3`` beside the score database, in a file of its own: a score
import's long transactions never hold up a press, and restoring a score backup leaves the table
as it is.

- :meth:`TableLog.append` writes one line in one short transaction on the caller's thread (the
  hub's) *without waiting for the card* (``synchronous=NORMAL``): when it returns the line is in
  the kernel, so a killed process loses nothing (tens of microseconds).
- A sync thread flushes the journal to the card right after (``fsync``), many lines at once
  when they come fast; :meth:`TableLog.wait_synced` returns once every line appended before the
  call is on the card (what a phone is told has happened is durable). A power cut can lose
  only the lines not yet flushed: SQLite drops a torn end of its journal, the rest stays whole.
- :meth:`TableLog.checkpoint` stores a round's starting point; the lines of the rounds before
  the previous checkpoint are deleted with it. Lines are never updated (a trigger refuses it).
- The journal is folded into the file by the sync thread on a connection of its own, never on
  the caller's: after a new round's checkpoint (the deal, when nobody presses), or past
  :data:`FOLD_ALWAYS_BYTES`; and once more at :meth:`TableLog.close`. Folding while presses
  come would hold them up (measured: a press's write p99 0.2 ms without, 4 to 6 ms with).
- Small pages (512 bytes): a line fills part of one page, so a press writes one page to the
  journal whatever the round's length.
- Each write first checks that the file at the path is the one open (device and inode): after
  the state folder or the file was removed or replaced, a new log is made there and the write
  refused with :class:`StorageGone` (``problem`` "gone"), so that the table's memory writes the
  whole table into it as a checkpoint at once (:mod:`companion.app.table_memory`).
- A phone's action sent with an ``Idempotency-Key`` (a press from the page) keeps its receipt
  in the same transaction as its line (:attr:`TableLog.receipt`): a retry after a restart finds
  it and the launcher does not fire twice.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import Any

from companion.core.receipts import Receipt

from .faults import StorageCorrupt, StorageError, StorageGone, classify
from .receipts import Receipts, ensure_schema
from .recreate import identity, remove_journal

log = logging.getLogger(__name__)

DB_NAME = "table.sqlite3"
PAGE_SIZE = 512
FOLD_AFTER_ROUND_BYTES = 256 << 10  # a new round folds the journal in past this size
FOLD_ALWAYS_BYTES = 16 << 20  # ... and any write past this one
SYNC_DELAY_S = 0.002  # a line waits this long before its flush starts
LOST = (-1, -1)  # the identity of a log whose file went and could not be made again

SCHEMA = """
CREATE TABLE IF NOT EXISTS checkpoints (
    n INTEGER PRIMARY KEY,  -- the number of the first line after it
    data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS lines (
    n INTEGER PRIMARY KEY,
    line TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS marks (
    n INTEGER PRIMARY KEY,  -- the line it marks
    mark TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS lines_append_only BEFORE UPDATE ON lines
BEGIN SELECT RAISE(ABORT, 'table log lines are append-only'); END;
"""


class TableLog:
    """The table log of one state directory. Build with :meth:`open`; :meth:`close` it.

    One writer (the hub thread) appends; :attr:`bytes_written` counts the text it stored."""

    def __init__(self, path: Path, db: sqlite3.Connection) -> None:
        self.path = path
        self._db = db
        self._lock = threading.Lock()  # the writer's connection: appends, checkpoints, reads
        self._next = self._read_next()
        self.bytes_written = 0  # text stored since opening (lines, checkpoints, marks)
        self.fault: StorageError | None = None  # the last flush's fault (None: it worked)
        self._synced = threading.Condition()
        self._appended = 0  # transactions written since opening
        self._flushed = 0  # ... of which on the card
        self._fold_due = False  # a new round began: a good moment to fold the journal in
        # The receipt of the phone's action running on the calling thread (None: none).
        self.receipt: Callable[[], Receipt | None] | None = None
        self._receipts = Receipts()
        self._identity = identity(path)  # the file open: (device, inode)
        self._start_sync()

    def _start_sync(self) -> None:
        """The journal's descriptor, the folding connection and the sync thread."""
        self._closing = False
        self._syncing = True
        self._stop = threading.Event()  # set at close: the flush starts at once
        self._journal_fd = os.open(f"{self.path}-wal", os.O_RDONLY)
        self._folder = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._folder.execute("PRAGMA synchronous = FULL")  # the file synced after a fold
        self._thread = threading.Thread(target=self._sync_loop, name="table-log-sync", daemon=True)
        self._thread.start()

    def _stop_sync(self) -> None:
        if not self._syncing:
            return
        self._syncing = False
        with self._synced:
            self._closing = True
            self._synced.notify_all()
        self._stop.set()
        self._thread.join(10.0)
        with suppress(OSError):
            os.fsync(self._journal_fd)
        os.close(self._journal_fd)
        self._folder.close()

    def _still_there(self) -> None:
        """Under the lock, before a write: the file at the path is the one open. If it went, a
        new log is made there and :class:`StorageGone` raised (the write was not stored: the
        caller writes a checkpoint of the whole table instead)."""
        if identity(self.path) == self._identity:
            return
        what = "removed" if identity(self.path) is None else "replaced"
        log.error("table log %s was %s while the box ran: making it again", self.path, what)
        if self._syncing:  # the old one's: folded into the old file, then closed
            self._identity = LOST
            self._stop_sync()
            with suppress(sqlite3.Error):
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self._db.close()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            remove_journal(self.path)
            self._db = self._connect(self.path)
            self._start_sync()
        except (OSError, sqlite3.Error) as error:
            with suppress(sqlite3.Error):
                self._db.close()  # (closed twice is fine; the next write tries again)
            raise StorageGone(f"table log {self.path} was {what}: {error}") from error
        self._identity = identity(self.path)
        self._next = self._read_next()
        raise StorageGone(f"table log {self.path} was {what}: made again, the table is rewritten")

    @classmethod
    def open(cls, state_dir: str | os.PathLike[str]) -> TableLog:
        """Open (creating if needed) ``state_dir/table.sqlite3``. A file that is not a
        database any more is set aside (``.damaged``) and a new one begun: the table then
        starts as configured. Raises :class:`StorageError` when the folder cannot be written."""
        path = Path(state_dir) / DB_NAME
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            try:
                db = cls._connect(path)
            except sqlite3.DatabaseError as error:
                if not isinstance(classify(error, path), StorageCorrupt) or not path.exists():
                    raise
                path.replace(path.with_name(DB_NAME + ".damaged"))
                for suffix in ("-wal", "-shm"):
                    Path(f"{path}{suffix}").unlink(missing_ok=True)
                db = cls._connect(path)
            return cls(path, db)
        except (OSError, sqlite3.Error) as error:
            raise classify(error, path) from error

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        # Another program holding the file (two boxes on one folder) fails a line fast: the
        # hub never waits on it, the next write is a checkpoint holding what was missed.
        db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=0.2)
        try:
            rows = db.execute("PRAGMA quick_check").fetchall()
            if [tuple(r) for r in rows] != [("ok",)]:
                raise sqlite3.DatabaseError(f"damaged: {rows[0][0]}")
            db.execute(f"PRAGMA page_size = {PAGE_SIZE}")  # a new file only
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = NORMAL")  # the sync thread flushes
            db.execute("PRAGMA wal_autocheckpoint = 0")  # folded in by the sync thread
            db.executescript(SCHEMA)
            ensure_schema(db)
        except BaseException:
            db.close()
            raise
        return db

    def _read_next(self) -> int:
        row = self._db.execute(
            "SELECT max(n) FROM (SELECT max(n) + 1 AS n FROM lines "
            "UNION ALL SELECT max(n) FROM checkpoints)"
        ).fetchone()
        return int(row[0] or 0)

    # ------------------------------------------------------------------ writing

    def append(self, line: Any) -> int:
        """Store ``line`` (JSON-ready) after the others; in the kernel when it returns, on the
        card soon after. Returns the bytes of text stored."""
        text = _dumps(line)
        receipt = self.receipt() if self.receipt is not None else None
        with self._lock:
            self._still_there()
            if receipt is None:
                self._write("INSERT INTO lines (n, line) VALUES (?, ?)", (self._next, text))
            else:
                self._transaction(
                    lambda db: db.execute(
                        "INSERT INTO lines (n, line) VALUES (?, ?)", (self._next, text)
                    ),
                    receipt,
                )
            self._next += 1
        return self._wrote(len(text))

    def _transaction(
        self, work: Callable[[sqlite3.Connection], Any], receipt: Receipt | None
    ) -> None:
        """``work(db)`` and ``receipt`` (if any) in one transaction (the caller holds the lock)."""
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            work(db)
            if receipt is not None:
                self._receipts.stamp(db, receipt)
            db.execute("COMMIT")
        except BaseException as error:
            if db.in_transaction:
                db.execute("ROLLBACK")
            if isinstance(error, OSError | sqlite3.Error):
                raise classify(error, self.path) from error
            raise

    def find_receipt(self, scope: str, key: str) -> str | None:
        """The fingerprint of the request that left receipt ``key`` of session ``scope``."""
        with self._lock:
            return Receipts.find(self._db, scope, key)

    def checkpoint(self, data: Any) -> int:
        """Store a starting point: :meth:`read` gives it and the lines after it. The lines from
        before the previous checkpoint go. Returns the bytes of text stored."""
        text = _dumps(data)
        receipt = self.receipt() if self.receipt is not None else None

        def store(db: sqlite3.Connection) -> None:
            previous = db.execute("SELECT max(n) FROM checkpoints").fetchone()[0]
            if previous is not None:
                db.execute("DELETE FROM lines WHERE n < ?", (previous,))
                db.execute("DELETE FROM checkpoints WHERE n < ?", (previous,))
                db.execute("DELETE FROM marks WHERE n < ?", (previous,))
            db.execute(
                "INSERT OR REPLACE INTO checkpoints (n, data) VALUES (?, ?)", (self._next, text)
            )

        with self._lock:
            self._still_there()
            self._transaction(store, receipt)
        self._fold_due = True
        return self._wrote(len(text))

    def mark(self, n: int, mark: Any) -> None:
        """Mark line ``n`` (what the table found out about it later, e.g. at a restart)."""
        with self._lock:
            self._write("INSERT OR REPLACE INTO marks (n, mark) VALUES (?, ?)", (n, _dumps(mark)))
        self._wrote(0)

    def _write(self, sql: str, params: tuple[Any, ...]) -> None:
        try:
            self._db.execute(sql, params)  # one statement: its own transaction
        except (OSError, sqlite3.Error) as error:
            raise classify(error, self.path) from error

    def _wrote(self, size: int) -> int:
        self.bytes_written += size
        with self._synced:
            self._appended += 1
            self._synced.notify_all()
        return size

    def wait_synced(self, timeout: float | None = None) -> bool:
        """Wait until what was written before this call is on the card; False if ``timeout``
        passed first or the flush failed (:attr:`fault` says why)."""
        with self._synced:
            target = self._appended
            done = self._synced.wait_for(lambda: self._flushed >= target or self._closing, timeout)
        return done and self.fault is None

    def _sync_loop(self) -> None:
        while True:
            with self._synced:
                self._synced.wait_for(lambda: self._appended > self._flushed or self._closing)
                if self._closing and self._appended == self._flushed:
                    return
            # The line's event is being carried out now (the ding, the ejector): out of its way,
            # and the lines that follow it are flushed with it.
            self._stop.wait(SYNC_DELAY_S)
            with self._synced:
                target = self._appended
            try:
                os.fsync(self._journal_fd)
                fault = None
            except OSError as error:
                fault = classify(error, self.path)
            self.fault = fault
            with self._synced:
                self._flushed = target
                self._synced.notify_all()
            size = _size(f"{self.path}-wal") if fault is None else 0
            if size > FOLD_ALWAYS_BYTES or (self._fold_due and size > FOLD_AFTER_ROUND_BYTES):
                self._fold_due = False
                with suppress(sqlite3.Error):  # folded in next time
                    self._folder.execute("PRAGMA wal_checkpoint(PASSIVE)")

    # ------------------------------------------------------------------ reading

    def read(self) -> tuple[Any | None, list[tuple[int, Any]], dict[int, Any]]:
        """The last checkpoint's data (None: none yet), the lines after it as ``(n, line)``,
        and the marks on those lines by ``n``."""
        with self._lock:
            db = self._db
            row = db.execute("SELECT n, data FROM checkpoints ORDER BY n DESC LIMIT 1").fetchone()
            first = 0 if row is None else int(row[0])
            lines = db.execute("SELECT n, line FROM lines WHERE n >= ? ORDER BY n", (first,))
            found = [(int(n), json.loads(text)) for n, text in lines]
            marks = db.execute("SELECT n, mark FROM marks WHERE n >= ?", (first,))
            marked = {int(n): json.loads(text) for n, text in marks}
        return (None if row is None else json.loads(row[1])), found, marked

    def last_line(self) -> int:
        """The number of the last line written (-1: none)."""
        return self._next - 1

    # ------------------------------------------------------------------ closing

    def close(self) -> None:
        """Flush, fold the journal into the file, close."""
        self._stop_sync()  # (stopped already if the file went and none could be made again)
        with self._lock:
            with suppress(sqlite3.Error):  # a full or read-only disk: folded in next time
                self._db.execute("PRAGMA synchronous = FULL")
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self._db.close()

    def __enter__(self) -> TableLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
