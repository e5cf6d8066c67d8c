"""What one phone can make of the stored games: how fast games are started, how many the state
lists.

Every game started (``score.new_game``, ``score.import``) is kept for good, and every phone
receives the list of games at each change: a phone tapping "New game" in a loop would grow both
without end. So at most :data:`NEW_GAMES_PER_MINUTE` games start in any minute (a family starts
one an evening), and the state lists the :data:`LISTED_GAMES` newest games (``games_total`` says
how many are stored; the command line lists them all).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any, TypeVar

from companion.core.errors import ActionError

from .stores import ScoreStore

R = TypeVar("R")

NEW_GAMES_PER_MINUTE = 12
LISTED_GAMES = 100


class GameStarts:
    """Counts the games started in the last minute; thread-safe (an import is stored off the
    hub thread)."""

    def __init__(
        self, clock: Callable[[], float] = time.monotonic, per_minute: int = NEW_GAMES_PER_MINUTE
    ) -> None:
        self._clock = clock
        self._started: deque[float] = deque(maxlen=per_minute)
        self._lock = threading.Lock()

    def take(self) -> None:
        """Count one more game started now, or raise (429) if the minute's are all taken."""
        with self._lock:
            self._check(self._clock())
            self._started.append(self._clock())

    def _check(self, now: float) -> None:
        started = self._started
        if len(started) == started.maxlen and now - started[0] < 60:
            seconds = int(60 - (now - started[0])) + 1
            raise ActionError("too_many_new_games", "too many new games", {"seconds": seconds}, 429)

    def limited(self, action: Callable[[dict[str, Any]], R]) -> Callable[[dict[str, Any]], R]:
        """``action``, which starts a game, refused past the minute's games; only a game that
        did start counts (a file refused as unreadable starts none)."""

        def start(payload: dict[str, Any]) -> R:
            with self._lock:
                self._check(self._clock())
            done = action(payload)
            with self._lock:
                self._started.append(self._clock())
            return done

        return start


def stored_game_ids(store: ScoreStore) -> set[str]:
    """The ids of the games ``store`` holds."""
    return {game.game_id for game in store.list_games()}


def players_of(store: ScoreStore, game_id: str) -> tuple[str, ...] | None:
    """The players of the game ``game_id`` in ``store`` (None: no such game)."""
    for game in store.list_games():
        if game.game_id == game_id:
            return tuple(game.players)
    return None
