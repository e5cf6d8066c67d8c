"""Score storage in SQLite, built so an evening's scores survive the Pi being unplugged.

- WAL journal with ``synchronous=FULL``: when :meth:`Storage.append_entry` returns, the entry is
  on disk (SQLite fsyncs the WAL at each commit).
- One connection, one lock: every call is a short transaction taken under the lock, so threads
  of the web server can share one :class:`Storage` (one writer at a time).
- ``PRAGMA quick_check`` at open; a damaged file raises :class:`StorageCorrupt` naming the
  backups to restore with :func:`~companion.storage.backups.restore_backup`
  (``uno-companion score restore``).
- Faults are told apart, because the cure differs (:mod:`companion.storage.faults`): only a
  damaged file calls for a backup: restoring one drops every round since it was written.
- A rotating set of backups (``backups/scores.1.sqlite3`` newest …) written with SQLite's online
  backup API at open and on :meth:`Storage.backup`.
- The score log is append-only (a trigger refuses UPDATE of an entry); totals are never stored,
  they are derived by :class:`companion.core.scoring.ScoreBook`.
- Schema version in ``PRAGMA user_version``; :data:`MIGRATIONS` bring old files up to date.
- A phone's ``Idempotency-Key`` is kept as a receipt in the same transaction as the change its
  action made (:attr:`Storage.receipt`, :mod:`companion.storage.receipts`): a retry after a
  restart finds it.
- Each write first checks that the file at the path is still the one open (device and inode):
  a state folder or database removed or replaced while the box runs is noticed at the next
  write, a new database is made in its place with the games the storage holds in memory and
  the settings it knows (:mod:`companion.storage.recreate`), and the write goes there. If none
  can be made the write is refused (:class:`StorageGone`): nothing is acknowledged that is not
  on disk.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from companion.core.receipts import Receipt
from companion.core.scoring import GameSetup, LogEntry, Ruleset, ScoreBook, StaleWrite

from . import recreate
from .faults import (
    StorageCorrupt,
    StorageError,
    StorageGone,
    StorageReadOnly,
    UnknownGame,
    classify,
)
from .layout import BACKUP_DIR, DB_NAME, backup_files
from .receipts import SCHEMA as RECEIPTS_SCHEMA
from .receipts import SEQUENCED as RECEIPTS_SEQUENCED
from .receipts import Receipts, statements

log = logging.getLogger(__name__)

DEFAULT_BACKUPS = 5
BOOK_CACHE_ENTRIES = 30_000  # log entries of the games kept read at once (see BookCache)
IMPORT_CHUNK = 100  # log entries written per transaction by an import
HIDDEN = -1  # the revision of a game being imported: not listed, not loaded

# Each migration brings the schema from version i to i + 1 (index i).
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE games (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        created_at TEXT NOT NULL,
        setup_json TEXT NOT NULL,
        revision INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE entries (
        game_id TEXT NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        entry_json TEXT NOT NULL,
        stored_at TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID;
    CREATE TRIGGER entries_append_only BEFORE UPDATE ON entries
    BEGIN SELECT RAISE(ABORT, 'score log entries are append-only'); END;
    CREATE TABLE rulesets (
        key TEXT PRIMARY KEY,
        ruleset_json TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value_json TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    """,
    RECEIPTS_SCHEMA,
    RECEIPTS_SEQUENCED,
)


@dataclass(frozen=True)
class GameSummary:
    game_id: str
    name: str
    date: str
    created_at: str
    players: tuple[str, ...]
    ruleset: str
    mode: str
    revision: int


def _summary(game_id: str, created_at: str, setup: dict[str, Any]) -> GameSummary:
    return GameSummary(
        game_id=game_id,
        name=setup.get("name", ""),
        date=setup.get("date", ""),
        created_at=created_at,
        players=tuple(setup.get("players", ())),
        ruleset=setup.get("ruleset", {}).get("key", ""),
        mode=setup.get("mode", ""),
        revision=-1,
    )


class BookCache:
    """The games the storage keeps read, least recently used first out, within ``budget`` log
    entries in all (the one asked for last and the open one always stay): a 26,000-round game
    is about 90 MB read, and a Pi Zero 2 W has 512 MB."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.kept: str | None = None  # the game open now: never let go of
        self._books: OrderedDict[str, ScoreBook] = OrderedDict()

    def get(self, game_id: str) -> ScoreBook | None:
        book = self._books.get(game_id)
        if book is not None:
            self._books.move_to_end(game_id)
        return book

    def put(self, game_id: str, book: ScoreBook) -> None:
        self._books[game_id] = book
        self._books.move_to_end(game_id)
        self._trim(game_id)

    def keep(self, game_id: str | None) -> None:
        """``game_id`` (the game open now) stays; another one kept before may go."""
        self.kept = game_id
        if game_id is not None and game_id in self._books:
            self._trim(game_id)

    def _trim(self, last: str) -> None:
        held = sum(b.revision for b in self._books.values())
        for oldest in [g for g in self._books if g not in (last, self.kept)]:
            if held <= self.budget:
                break
            held -= self._books.pop(oldest).revision

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._books

    def items(self) -> list[tuple[str, ScoreBook]]:
        return list(self._books.items())


Connect = Callable[[Path, float], sqlite3.Connection]


def connect_file(path: Path, busy_timeout: float) -> sqlite3.Connection:
    """The connection :meth:`Storage.open` uses: shared by threads under the storage's lock,
    transactions begun explicitly."""
    return sqlite3.connect(
        path, check_same_thread=False, isolation_level=None, timeout=busy_timeout
    )


def _now() -> str:
    return recreate.stamp()


class Storage:
    """The score database of one state directory. Build with :meth:`open`; :meth:`close` it."""

    def __init__(
        self,
        connection: sqlite3.Connection,
        path: Path,
        backups: int,
        kept_entries: int = BOOK_CACHE_ENTRIES,
        *,
        connect: Connect | None = None,
        busy_timeout: float = 10.0,
    ) -> None:
        self._db = connection
        self.path = path
        self.backup_count = backups
        self._connect = connect or connect_file  # to make the file again if it goes
        self._busy_timeout = busy_timeout
        self._identity = recreate.identity(path)  # the file open: (device, inode)
        # What the storage knows besides the games it holds: to write back if the file goes.
        self._known = recreate.Known()
        # Set when the file went while the box ran and was made again: said on the page.
        self.recreated: recreate.Recreated | None = None
        # The receipt of the phone's action running on the calling thread (None: none).
        self.receipt: Callable[[], Receipt | None] | None = None
        self._receipts = Receipts()
        self._lock = threading.Lock()
        self._books = BookCache(kept_entries)  # as the stored logs
        self._listed: dict[tuple[str, str], GameSummary] = {}  # (id, created_at): as listed
        self.fault: StorageError | None = None  # the last write's fault; None once one succeeds
        # Set when the database could only be opened to read (a read-only folder or card).
        self.read_only: StorageReadOnly | None = None
        # Called (with no argument) when ``fault`` appears or clears, so the page can be told.
        self.on_fault_change: Callable[[], None] | None = None

    # -- opening and closing ------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        state_dir: str | os.PathLike[str],
        *,
        backups: int = DEFAULT_BACKUPS,
        busy_timeout: float = 10.0,
        kept_entries: int = BOOK_CACHE_ENTRIES,
        connect: Connect | None = None,
    ) -> Storage:
        """Open (creating if needed) ``state_dir/scores.sqlite3``, check it, migrate it and
        write a fresh backup. Raises a :class:`StorageError` saying which fault it met.

        ``kept_entries``: the log entries of the games kept read at once; ``connect(path,
        busy_timeout)``: the connection to the file (:func:`connect_file`, or a test's)."""
        directory = Path(state_dir)
        path = directory / DB_NAME
        try:
            directory.mkdir(parents=True, exist_ok=True)
            db = (connect_file if connect is None else connect)(path, busy_timeout)
        except (OSError, sqlite3.Error) as error:
            raise classify(error, path) from error
        try:
            cls._prepare(db, path)
        except (OSError, sqlite3.Error) as error:
            db.close()
            fault = classify(error, path)
            if isinstance(fault, StorageReadOnly) and path.exists():
                return cls._open_read_only(path, fault, kept_entries)
            raise fault from error
        except BaseException:
            db.close()
            raise
        storage = cls(db, path, backups, kept_entries, connect=connect, busy_timeout=busy_timeout)
        if backups > 0:
            try:
                storage.backup()
            except StorageError:
                storage.close()
                raise
        return storage

    @classmethod
    def _prepare(cls, db: sqlite3.Connection, path: Path) -> None:
        """Check, set up and migrate a database just connected to."""
        cls._check(db, path)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        cls._migrate(db, path)
        cls._probe_write(db)
        cls._forget_unfinished_imports(db)

    @classmethod
    def _open_read_only(cls, path: Path, fault: StorageReadOnly, kept_entries: int) -> Storage:
        """The stored scores of a folder that cannot be written, to read only: the page shows
        them (with the fault), every write is refused with it, nothing is lost."""
        db: sqlite3.Connection | None = None
        # A WAL database needs its shared-memory file to be read; on a read-only folder that
        # cannot be made, so the file is then read as it is ("immutable": nobody writes it).
        for options in ("mode=ro", "mode=ro&immutable=1"):
            try:
                db = sqlite3.connect(
                    f"{path.as_uri()}?{options}", uri=True, check_same_thread=False,
                    isolation_level=None,
                )  # fmt: skip
                cls._check(db, path)
                db.execute("SELECT count(*) FROM games").fetchone()
                break
            except (StorageError, sqlite3.Error):
                if db is not None:
                    db.close()
                db = None
        if db is None:
            raise fault
        storage = cls(db, path, 0, kept_entries)
        storage.read_only = StorageReadOnly(
            f"{fault}; the stored scores are shown read-only, nothing new is stored"
        )
        storage.fault = storage.read_only
        return storage

    @staticmethod
    def _check(db: sqlite3.Connection, path: Path) -> None:
        try:
            rows = db.execute("PRAGMA quick_check").fetchall()
        except sqlite3.Error as error:  # damaged, or locked, read-only...: classify tells
            raise classify(error, path) from error
        result = "; ".join(str(row[0]) for row in rows)
        if result != "ok":
            raise StorageCorrupt(path, result[:300], backup_files(path.parent))

    @staticmethod
    def _probe_write(db: sqlite3.Connection) -> None:
        """One small write, so a read-only card or folder is found now, not at the first score."""
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute(f"PRAGMA user_version = {version}")
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    @staticmethod
    def _forget_unfinished_imports(db: sqlite3.Connection) -> None:
        """Remove games a crash left half imported (still hidden)."""
        hidden = [row[0] for row in db.execute("SELECT id FROM games WHERE revision < 0")]
        for game_id in hidden:
            db.execute("BEGIN IMMEDIATE")
            try:
                _forget_game(db, game_id)
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    @staticmethod
    def _migrate(db: sqlite3.Connection, path: Path) -> None:
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        if version > len(MIGRATIONS):
            raise StorageError(
                f"score database {path} has schema version {version}, newer than this program "
                f"({len(MIGRATIONS)}): update uno-companion"
            )
        for target in range(version + 1, len(MIGRATIONS) + 1):
            db.execute("BEGIN IMMEDIATE")
            try:
                for statement in statements(MIGRATIONS[target - 1]):
                    db.execute(statement)
                db.execute(f"PRAGMA user_version = {target}")
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    def close(self) -> None:
        """Fold the WAL back into the database file and close."""
        with self._lock:
            try:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error:
                pass  # a full or read-only disk: the WAL stays, SQLite folds it in next time
            finally:
                self._db.close()

    def __enter__(self) -> Storage:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _write(self, *, durable: bool = True, stamped: bool = True) -> Iterator[sqlite3.Connection]:
        """A short write transaction under the lock (BEGIN IMMEDIATE: no upgrade deadlocks).
        SQLite's errors come out as the :class:`StorageError` they mean.

        ``durable=False`` skips the flush to the card at commit (``synchronous=NORMAL`` for
        this one transaction): only for the pieces of an import, which the import's last,
        durable commit flushes with it (the WAL is written in order).

        ``stamped``: the transaction is the change of the action running on this thread, so
        its receipt (:attr:`receipt`) is kept with it; not for a step that a crash undoes
        (the pieces of an import before the last)."""
        if self.read_only is not None:
            raise self.read_only
        receipt = self.receipt() if stamped and self.receipt is not None else None
        with self._lock:
            try:
                self._still_there()
                if not durable:
                    self._db.execute("PRAGMA synchronous=NORMAL")
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                    if receipt is not None:
                        self._receipts.stamp(self._db, receipt)
                    self._db.execute("COMMIT")
                except BaseException:
                    if self._db.in_transaction:
                        self._db.execute("ROLLBACK")
                    raise
                finally:
                    if not durable:
                        self._db.execute("PRAGMA synchronous=FULL")
            except (OSError, sqlite3.Error, StorageGone) as error:
                fault = classify(error, self.path)
                self._set_fault(fault)
                raise fault from error
            self._set_fault(None)

    def _still_there(self) -> None:
        """Under the lock, before a write: the file at the path is the one open; if it went
        (removed, replaced), a database is made again there and the write goes to it."""
        if self._identity is None or recreate.identity(self.path) == self._identity:
            return
        what = "removed" if recreate.identity(self.path) is None else "replaced"
        log.error("score database %s was %s while the box ran: making it again", self.path, what)
        # What the old connection's journal holds goes into the old file (gone with it), so
        # its journal files at the path cannot be taken for the new file's.
        with suppress(sqlite3.Error):
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            recreate.remove_journal(self.path)
            db = self._connect(self.path, self._busy_timeout)
        except (OSError, sqlite3.Error) as error:
            raise StorageGone(f"score database {self.path} was {what}: {error}") from error
        try:
            self._prepare(db, self.path)
            books = [(game_id, book) for game_id, book in self._books.items()]
            written = recreate.write_back(db, books, self._known)
        except (OSError, sqlite3.Error, StorageError) as error:
            db.close()
            raise StorageGone(
                f"score database {self.path} was {what} and cannot be made again: {error}"
            ) from error
        with suppress(sqlite3.Error):
            self._db.close()
        self._db = db
        self._identity = recreate.identity(self.path)
        self.recreated = recreate.Recreated(what, _now(), written)
        if self.on_fault_change is not None:
            self.on_fault_change()

    def notice(self) -> dict[str, Any] | None:
        """What the page should know though all is well: the file went and was made again."""
        if self.recreated is None:
            return None
        return {"notice": "recreated", **self.recreated.to_dict()}

    def find_receipt(self, scope: str, key: str) -> str | None:
        """The fingerprint of the request that left receipt ``key`` of session ``scope``."""
        with self._lock:
            try:
                return Receipts.find(self._db, scope, key)
            except sqlite3.Error:
                if self.fault is None:
                    raise  # a healthy database that cannot say: the caller does not guess
                # Read only from before receipts were kept, locked, damaged: it stores no
                # change now, so an action it refuses is not done twice; the table's go on.
                return None

    def _set_fault(self, fault: StorageError | None) -> None:
        changed = (fault is None) != (self.fault is None)
        self.fault = fault
        if changed and self.on_fault_change is not None:
            self.on_fault_change()

    # -- backups --------------------------------------------------------------------------------
    def backup(self) -> Path:
        """Write a consistent copy to ``backups/scores.1.sqlite3``, shifting older ones up and
        keeping ``backup_count`` of them."""
        if self.read_only is not None:
            raise self.read_only
        try:
            return self._backup()
        except (OSError, sqlite3.Error) as error:
            raise classify(error, self.path) from error

    def _backup(self) -> Path:
        directory = self.path.parent / BACKUP_DIR
        directory.mkdir(exist_ok=True)
        fresh = directory / f".{DB_NAME}.partial"
        target = sqlite3.connect(fresh)
        try:
            with self._lock:
                self._db.backup(target)
            target.execute("PRAGMA journal_mode=DELETE")
        finally:
            target.close()
        keep = max(self.backup_count, 1)
        for index in range(keep, 0, -1):
            older = directory / f"scores.{index}.sqlite3"
            if older.exists():
                if index == keep:
                    older.unlink()
                else:
                    older.replace(directory / f"scores.{index + 1}.sqlite3")
        newest = directory / "scores.1.sqlite3"
        fresh.replace(newest)
        return newest

    def create_game(self, setup: GameSetup, *, created_at: str | None = None) -> str:
        """Store a new game and return its id (``setup.game_id`` or a fresh one)."""
        return self.import_game(ScoreBook(setup), created_at=created_at)

    def import_game(
        self,
        book: ScoreBook,
        *,
        created_at: str | None = None,
        pause: Callable[[], None] | None = None,
    ) -> str:
        """Store a whole game (setup and log); returns its id. A game whose id is already stored
        gets a new id (nothing is overwritten).

        A long log is written :data:`IMPORT_CHUNK` entries per transaction, ``pause()`` between
        them, so other writes (the table's memory after each press) are never held up for long.
        Until the last transaction the game is hidden (revision -1): a reader never sees half of
        it, and one left half-written by a crash is removed at the next :meth:`open`."""
        game_id = book.setup.game_id or uuid.uuid4().hex
        stamp = created_at or _now()
        entries = book.entries
        with self._write(stamped=not entries) as db:
            if db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone():
                game_id = uuid.uuid4().hex
            setup = _with_id(book.setup, game_id)
            db.execute(
                "INSERT INTO games (id, name, created_at, setup_json, revision) "
                "VALUES (?, ?, ?, ?, ?)",
                (game_id, setup.name, stamp, _dumps(setup.to_dict()), HIDDEN if entries else 0),
            )
        try:
            for first in range(0, len(entries), IMPORT_CHUNK):
                rows = [
                    (game_id, seq, _dumps(entry.to_dict()), stamp)
                    for seq, entry in enumerate(
                        entries[first : first + IMPORT_CHUNK], start=first + 1
                    )
                ]
                if pause is not None:
                    pause()
                with self._write(durable=False, stamped=False) as db:
                    db.executemany(
                        "INSERT INTO entries (game_id, seq, entry_json, stored_at) "
                        "VALUES (?, ?, ?, ?)",
                        rows,
                    )
            if entries:
                with self._write() as db:
                    db.execute(
                        "UPDATE games SET revision = ? WHERE id = ?", (len(entries), game_id)
                    )
        except BaseException:
            with suppress(StorageError), self._write(stamped=False) as db:
                _forget_game(db, game_id)
            raise
        cached = book.copy()
        cached.setup = setup  # as stored: with its id
        with self._lock:
            self._known.created[game_id] = stamp
            self._books.put(game_id, cached)  # the caller keeps its own copy to change
        return game_id

    def append_entry(
        self, game_id: str, entry: LogEntry, expected_revision: int | None = None
    ) -> int:
        """Check ``entry`` against the stored game and append it; returns its sequence number.

        Durable when it returns. ``expected_revision`` (the revision the caller's copy had) makes
        the append refuse with :class:`StaleWrite` if someone else appended meanwhile.
        """
        with self._write() as db:
            book = self._book(db, game_id)
            if expected_revision is not None and expected_revision != book.revision:
                raise StaleWrite(expected_revision, book.revision)
            book.check(entry)  # raises if refused; the result is kept for apply() below
            seq = book.revision + 1
            db.execute(
                "INSERT INTO entries (game_id, seq, entry_json, stored_at) VALUES (?, ?, ?, ?)",
                (game_id, seq, _dumps(entry.to_dict()), _now()),
            )
            db.execute("UPDATE games SET revision = ? WHERE id = ?", (seq, game_id))
        book.apply(entry)  # only once the commit succeeded: the cache mirrors the disk
        return seq

    def load_game(self, game_id: str) -> ScoreBook:
        """The game as a fresh :class:`ScoreBook` (the caller may change its copy freely)."""
        with self._lock:
            book = self._book(self._db, game_id)
        return ScoreBook(book.setup, book.entries, verify=False)

    def list_games(self) -> list[GameSummary]:
        """Every stored game, oldest first; a game's setup is read once (it never changes):
        every change of the scores lists them all, and a thousand setups are 40 ms to parse."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, created_at, revision FROM games WHERE revision >= 0 "
                "ORDER BY created_at, id"
            ).fetchall()
            summaries = []
            for game_id, created_at, revision in rows:
                known = self._listed.get((game_id, created_at))
                if known is None:
                    (setup_json,) = self._db.execute(
                        "SELECT setup_json FROM games WHERE id = ?", (game_id,)
                    ).fetchone()
                    known = _summary(game_id, created_at, json.loads(setup_json))
                if known.revision != revision:
                    known = replace(known, revision=revision)
                    self._listed[(game_id, created_at)] = known
                summaries.append(known)
        return summaries

    def read_game(self, game_id: str) -> ScoreBook:
        """Game ``game_id`` to read only (statistics): the storage's own book, not a copy."""
        with self._lock:
            return self._book(self._db, game_id)

    def keep_read(self, game_id: str | None) -> None:
        """Game ``game_id`` (the one open) stays read whatever else is read."""
        with self._lock:
            self._books.keep(game_id)

    def is_read(self, game_id: str) -> bool:
        """Whether game ``game_id`` is kept read now (the cache's order unchanged)."""
        with self._lock:
            return game_id in self._books

    def cached_game(self, game_id: str) -> ScoreBook | None:
        """The storage's own book of ``game_id`` if it holds it now (never read for this)."""
        with self._lock:
            return self._books.get(game_id)

    def _book(self, db: sqlite3.Connection, game_id: str) -> ScoreBook:
        row = db.execute(
            "SELECT setup_json, revision, created_at FROM games WHERE id = ? AND revision >= 0",
            (game_id,),
        ).fetchone()
        if row is None:
            raise UnknownGame(game_id)
        self._known.created[game_id] = row[2]
        cached = self._books.get(game_id)
        if cached is not None and cached.revision == row[1]:
            return cached
        setup = GameSetup.from_dict(json.loads(row[0]))
        entries = [
            LogEntry.from_dict(json.loads(text))
            for (text,) in db.execute(
                "SELECT entry_json FROM entries WHERE game_id = ? ORDER BY seq", (game_id,)
            )
        ]
        book = ScoreBook(setup, entries, verify=False)
        self._books.put(game_id, book)
        return book

    # -- rulesets -------------------------------------------------------------------------------
    def custom_rulesets(self) -> list[Ruleset]:
        with self._lock:
            rows = self._db.execute(
                "SELECT key, ruleset_json FROM rulesets ORDER BY key"
            ).fetchall()
            self._known.rulesets.update((key, text) for key, text in rows)
        return [Ruleset.from_dict(json.loads(text)) for _, text in rows]

    # -- settings -------------------------------------------------------------------------------
    def settings_get(self, key: str, default: Any = None) -> Any:
        """The JSON value stored under ``key`` (``default`` if none)."""
        with self._lock:
            row = self._db.execute(
                "SELECT value_json FROM settings WHERE key = ?", (key,)
            ).fetchone()
            if row is not None:
                self._known.settings.setdefault(key, row[0])
        return default if row is None else json.loads(row[0])

    def settings_put(self, key: str, value: Any) -> None:
        """Store a JSON-serialisable value under ``key`` (durable when it returns)."""
        text = _dumps(value)
        with self._write() as db:
            db.execute(
                "INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value_json = excluded.value_json, "
                "updated_at = excluded.updated_at",
                (key, text, _now()),
            )
        with self._lock:
            self._known.settings[key] = text

    def integrity_check(self) -> str:
        """``PRAGMA integrity_check`` ("ok" when all is well)."""
        with self._lock:
            rows = self._db.execute("PRAGMA integrity_check").fetchall()
        return "; ".join(str(row[0]) for row in rows)


def _forget_game(db: sqlite3.Connection, game_id: str) -> None:
    db.execute("DELETE FROM entries WHERE game_id = ?", (game_id,))
    db.execute("DELETE FROM games WHERE id = ?", (game_id,))


def _with_id(setup: GameSetup, game_id: str) -> GameSetup:
    return replace(setup, game_id=game_id)


_dumps = recreate.dumps
