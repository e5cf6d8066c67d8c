"""The evening service: the 001 schedule of partner games, its results and the players' colours.

State sections: ``evening`` (the schedule with results, the games to play now, each player's
mark, the winner and consolation prize at the end; empty when no evening runs) and ``page``
(each player's colour, a palette index chosen at setup, so every phone shows the same colours).
Both are kept in the settings store, so a restart keeps them.

With eight players the two tables play at once and the box serves one of them: ``evening.seat``
seats the launcher's table with the game the players picked, whichever table it is.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from companion.core.errors import ActionError
from companion.core.events import Setup
from companion.core.limits import MAX_NAME, MAX_PLAYERS
from companion.core.model import json_schema, option
from companion.core.scoring.evening import MAX_POINTS, SIZES, Evening

from .hub import Hub
from .stores import SettingsStore

log = logging.getLogger(__name__)

EVENING_KEY = "evening"
COLOURS_KEY = "colours"
PALETTE_SIZE = 8
NAME = {"min_length": 1, "max_length": MAX_NAME}  # a player's name


@dataclass(frozen=True, kw_only=True)
class StartPayload:
    """An evening of several games at two tables begins."""

    players: list[str] = option(
        help="everyone playing tonight", min_length=min(SIZES), max_length=max(SIZES), items=NAME
    )


@dataclass(frozen=True, kw_only=True)
class GamePayload:
    """One game of the evening: its number and its table."""

    game: int = option(help="the game's number", min=1, max=1000)
    table: int = option(help="the table it is played at", min=1, max=2)


@dataclass(frozen=True, kw_only=True)
class ResultPayload(GamePayload):
    """The result of one game of the evening."""

    winners: int = option(help="the pair that won it: 0 or 1", min=0, max=1)
    points: int = option(help="the points it won", min=0, max=MAX_POINTS)


@dataclass(frozen=True, kw_only=True)
class ForgetPayload:
    """One game of the evening recorded by mistake."""

    game: int = option(help="the game's number", min=1, max=1000)
    table: int = option(help="the table it was played at", min=1)


@dataclass(frozen=True)
class EndPayload:
    """The evening is over."""


@dataclass(frozen=True, kw_only=True)
class ColoursPayload:
    """The colour each player shows in on every phone."""

    colours: dict[str, int] = option(
        help="each player's colour, a place in the page's palette",
        max_length=MAX_PLAYERS,
        items={"min": 0, "max": PALETTE_SIZE - 1},
    )


class EveningService:
    def __init__(self, store: SettingsStore | None) -> None:
        self._hub: Hub | None = None
        self._store = store
        self.evening: Evening | None = None
        self.colours: dict[str, int] = {}

    def rename_player(self, old: str, new: str) -> None:
        """``old`` is called ``new``: they keep their colour."""
        if old in self.colours:
            self.colours[new] = self.colours.pop(old)
            if self._store is not None:
                self._store.settings_put(COLOURS_KEY, self.colours)
            if self._hub is not None:
                self._hub.changed("page")

    def attach(self, hub: Hub) -> None:
        """Put back what was saved; register the actions and statuses."""
        self._hub = hub
        if self._store is not None:
            try:
                saved = self._store.settings_get(EVENING_KEY)
                self.evening = Evening.from_dict(saved) if saved else None
            except (ActionError, KeyError, TypeError, ValueError) as exc:
                log.warning("saved evening ignored: %s", exc)
            colours = self._store.settings_get(COLOURS_KEY)
            if isinstance(colours, dict):
                self.colours = {
                    str(k): v
                    for k, v in colours.items()
                    if isinstance(v, int) and 0 <= v < PALETTE_SIZE
                }
        hub.register_status("evening", lambda: self.evening.view() if self.evening else {})
        hub.register_status("page", lambda: {"colours": dict(self.colours)})
        register = hub.register_action
        register("evening.start", json_schema(StartPayload), self.start, "evening")
        register("evening.record", json_schema(ResultPayload), self.record, "evening")
        register("evening.forget", json_schema(ForgetPayload), self.forget, "evening")
        register("evening.seat", json_schema(GamePayload), self.seat, "evening")
        register("evening.end", json_schema(EndPayload), self.end, "evening")
        register("page.colours", json_schema(ColoursPayload), self.set_colours, "page")

    def _running(self) -> Evening:
        if self.evening is None:
            raise ActionError("evening.error_none", "no evening is running", status=409)
        return self.evening

    def _save(self) -> None:
        if self._store is not None:
            self._store.settings_put(EVENING_KEY, self.evening.to_dict() if self.evening else None)

    def start(self, payload: dict[str, Any]) -> None:
        self.evening = Evening.start(payload["players"])
        self._save()
        self._keep_colours(self.evening.players)

    def seat(self, payload: dict[str, Any]) -> None:
        """Seat the box's table with game ``game`` of table ``table`` (partners across)."""
        evening = self._running()
        game = evening.game(payload["game"], payload["table"])
        self._keep_colours(evening.players)
        # Queued behind this action, as the score keeper does: the table engine handles it next.
        assert self._hub is not None  # (an action: the service is attached)
        self._hub.post(Setup(game.seats()), self._hub.action_source)

    def _keep_colours(self, players: tuple[str, ...]) -> None:
        """Give each evening player without a chosen colour one of their own (the first free
        ones, in seat order): reseating for each game, or playing at the other table, must not
        change anyone's colour on the phones. Colours of people not in the evening are dropped."""
        kept = {p: self.colours[p] for p in players if p in self.colours}
        free = [i for i in range(PALETTE_SIZE) if i not in kept.values()]
        colours = {p: kept[p] if p in kept else free.pop(0) for p in players}
        if colours != self.colours:
            self.colours = colours
            if self._store is not None:
                self._store.settings_put(COLOURS_KEY, self.colours)

    def record(self, payload: dict[str, Any]) -> None:
        self.evening = self._running().record(
            payload["game"], payload["table"], payload["winners"], payload["points"]
        )
        self._save()

    def forget(self, payload: dict[str, Any]) -> None:
        self.evening = self._running().forget(payload["game"], payload["table"])
        self._save()

    def end(self, payload: dict[str, Any]) -> None:
        self.evening = None
        self._save()

    def set_colours(self, payload: dict[str, Any]) -> None:
        colours = payload["colours"]
        if len(colours) > MAX_PLAYERS:
            raise ActionError("bad_length", f"at most {MAX_PLAYERS} players' colours", {})
        for name, index in colours.items():
            if not (isinstance(index, int) and 0 <= index < PALETTE_SIZE) or len(name) > MAX_NAME:
                raise ActionError(
                    "bad_range", f"colour of {name!r}: 0 to {PALETTE_SIZE - 1}", {"field": name}
                )
        self.colours = dict(colours)
        if self._store is not None:
            self._store.settings_put(COLOURS_KEY, self.colours)
