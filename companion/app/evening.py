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
from typing import Any

from companion.core.actions import object_schema
from companion.core.errors import ActionError
from companion.core.events import Setup
from companion.core.limits import MAX_NAME, MAX_PLAYERS
from companion.core.scoring.evening import MAX_POINTS, SIZES, Evening

from .hub import Hub
from .stores import SettingsStore

log = logging.getLogger(__name__)

EVENING_KEY = "evening"
COLOURS_KEY = "colours"
PALETTE_SIZE = 8
NAME = {"type": "string", "minLength": 1, "maxLength": MAX_NAME}


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
        sizes = {"type": "array", "items": NAME, "minItems": min(SIZES), "maxItems": max(SIZES)}
        hub.register_action(
            "evening.start", object_schema(["players"], players=sizes), self.start, "evening"
        )
        number = {"type": "integer", "minimum": 1, "maximum": 1000}
        two_tables = {"type": "integer", "minimum": 1, "maximum": 2}
        hub.register_action(
            "evening.record",
            object_schema(
                ["game", "table", "winners", "points"],
                game=number,
                table={"type": "integer", "minimum": 1, "maximum": 2},
                winners={"type": "integer", "minimum": 0, "maximum": 1},
                points={"type": "integer", "minimum": 0, "maximum": MAX_POINTS},
            ),
            self.record,
            "evening",
        )
        hub.register_action(
            "evening.forget",
            object_schema(["game", "table"], game=number, table={"type": "integer", "minimum": 1}),
            self.forget,
            "evening",
        )
        hub.register_action(
            "evening.seat",
            object_schema(["game", "table"], game=number, table=two_tables),
            self.seat,
            "evening",
        )
        hub.register_action("evening.end", object_schema([]), self.end, "evening")
        hub.register_action(
            "page.colours",
            object_schema(
                ["colours"],
                colours={
                    "type": "object",
                    "additionalProperties": {
                        "type": "integer",
                        "minimum": 0,
                        "maximum": PALETTE_SIZE - 1,
                    },
                    "maxProperties": MAX_PLAYERS,
                },
            ),
            self.set_colours,
            "page",
        )

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
        self._hub.post(Setup(game.seats()), "phone")

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
