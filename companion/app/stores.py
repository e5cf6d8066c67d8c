"""The stores the services are handed, as typed ports: the score store and the settings store.

The composition root opens the storage adapter (:class:`companion.storage.Storage` is both
stores in one database) and hands it in; the services know it only through these Protocols, so
``mypy --strict`` checks every call across the seam.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from companion.core.errors import StoreFault
from companion.core.receipts import Receipt
from companion.core.scoring import GameSetup, LogEntry, Ruleset, ScoreBook
from companion.core.scoring.shares import StoredGame


class SettingsStore(Protocol):
    """Where a service keeps its settings (JSON values by key), durable when ``settings_put``
    returns."""

    def settings_get(self, key: str) -> Any: ...

    def settings_put(self, key: str, value: Any) -> None: ...


class ListedGame(StoredGame, Protocol):
    """A stored game as the list of games shows it."""

    @property
    def name(self) -> str: ...

    @property
    def date(self) -> str: ...

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def ruleset(self) -> str: ...

    @property
    def mode(self) -> str: ...


class ScoreStore(Protocol):
    """The stored games: each one a setup and an append-only log of entries."""

    def create_game(self, setup: GameSetup) -> str: ...

    def import_game(self, book: ScoreBook, *, pause: Callable[[], None] | None = None) -> str: ...

    def append_entry(
        self, game_id: str, entry: LogEntry, expected_revision: int | None = None
    ) -> int: ...

    def load_game(self, game_id: str) -> ScoreBook: ...

    def read_game(self, game_id: str) -> ScoreBook: ...

    def cached_game(self, game_id: str) -> ScoreBook | None: ...

    def keep_read(self, game_id: str | None) -> None: ...

    def list_games(self) -> Sequence[ListedGame]: ...

    def custom_rulesets(self) -> list[Ruleset]: ...


class ScoreDatabase(ScoreStore, SettingsStore, Protocol):
    """The score store with a settings store beside it in the same database (the open game is
    a setting of the database that holds it)."""


class Database(ScoreDatabase, Protocol):
    """One open database holding both stores, with its health."""

    # Called (with no argument) when ``fault`` appears or clears.
    on_fault_change: Callable[[], None] | None
    # The receipt of the phone's action running on the calling thread: kept with its change.
    receipt: Callable[[], Receipt | None] | None

    @property
    def fault(self) -> StoreFault | None: ...

    def notice(self) -> dict[str, Any] | None:
        """What the page should know though all is well (the file went and was made again)."""
        ...

    def find_receipt(self, scope: str, key: str) -> str | None: ...

    def close(self) -> None: ...
