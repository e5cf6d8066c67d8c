"""The stored games as the Score screen lists them: renamed, put away and brought back.

A game is never replaced: a new game and an import add one and open it, the games before stay
in the score database. This service keeps what the players changed about the list (state section
``games_kept``): a name given to a game, and the games deleted from the list, which an Undo
brings back as they were (a deleted game's rounds stay in the database). Both live in the
settings store, so a restart keeps them.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from companion.core.errors import ActionError
from companion.core.model import json_schema, option

from .hub import Hub
from .stores import SettingsStore

KEPT_KEY = "score.games_kept"
MAX_GAME_NAME = 80
MAX_KEPT = 10_000  # names and deletions remembered


@dataclass(frozen=True, kw_only=True)
class RenamePayload:
    """A stored game gets a name of its own."""

    game: str = option(help="the game's id", min_length=1, max_length=64)
    name: str = option(help="its new name", min_length=1, max_length=MAX_GAME_NAME)


@dataclass(frozen=True, kw_only=True)
class GamePayload:
    """One stored game."""

    game: str = option(help="the game's id", min_length=1, max_length=64)


class StoredGames:
    """Names and deletions of the stored games (see the module's docstring)."""

    def __init__(
        self,
        store: SettingsStore | None,
        games: Callable[[], Collection[str]] | None = None,
    ) -> None:
        """``games()``: the ids of the stored games; renaming or deleting another is refused
        (a made-up id would be kept)."""
        self._store = store
        self._games = games
        self.names: dict[str, str] = {}
        self.deleted: list[str] = []

    def attach(self, hub: Hub) -> None:
        if self._store is not None:
            saved = self._store.settings_get(KEPT_KEY)
            if isinstance(saved, dict):
                names, deleted = saved.get("names"), saved.get("deleted")
                if isinstance(names, dict):
                    self.names = {str(k): str(v) for k, v in names.items()}
                if isinstance(deleted, list):
                    self.deleted = [str(g) for g in deleted]
        hub.register_status("games_kept", self.view)
        register = hub.register_action
        register("score.rename_game", json_schema(RenamePayload), self.rename, "games_kept")
        register("score.delete_game", json_schema(GamePayload), self.delete, "games_kept")
        register("score.restore_game", json_schema(GamePayload), self.restore, "games_kept")

    def view(self) -> dict[str, Any]:
        return {"names": dict(self.names), "deleted": list(self.deleted)}

    def rename(self, payload: dict[str, Any]) -> None:
        name = " ".join(payload["name"].split())  # blank names are refused by the payload check
        self._check_stored(payload["game"])
        self._check_room(payload["game"] in self.names)
        self.names[payload["game"]] = name
        self._save()

    def delete(self, payload: dict[str, Any]) -> None:
        if payload["game"] not in self.deleted:
            self._check_stored(payload["game"])
            self._check_room(False)
            self.deleted.append(payload["game"])
            self._save()

    def restore(self, payload: dict[str, Any]) -> None:
        if payload["game"] in self.deleted:
            self.deleted.remove(payload["game"])
            self._save()

    def _check_stored(self, game: str) -> None:
        if self._games is not None and game not in self._games():
            raise ActionError("unknown_game", "no such game", {"game": game}, 404)

    def _check_room(self, known: bool) -> None:
        if not known and len(self.names) + len(self.deleted) >= MAX_KEPT:
            raise ActionError("too_many_kept", "too many games renamed or deleted", status=409)

    def _save(self) -> None:
        if self._store is not None:
            self._store.settings_put(KEPT_KEY, self.view())
