"""The round's count: the hands left at a round's end, one draft on the box for every phone.

When a round ends each player counts their own hand on their own phone (by its cards or as
points); every phone sees the same draft live (state section ``count``): who is still counting,
the points so far. Any phone saves the round with ``score.record_round`` once all are in, so
nothing typed on one phone is lost by another phone's save.

The draft belongs to one table round of one score game (``game``, ``round``, ``winner``): a hand
counted for another round starts a new draft. It is kept in the settings store, so a restart
keeps what was counted.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from companion.core.errors import ActionError
from companion.core.limits import MAX_HAND, MAX_NAME
from companion.core.model import json_schema, option

from .hub import Hub
from .stores import SettingsStore

log = logging.getLogger(__name__)

COUNT_KEY = "round_count"
MAX_HAND_POINTS = 10_000  # a hand's points, as the score sheet takes them
MAX_KINDS = 64  # card kinds in one hand
MAX_ROUND = 10**6
GAME_ID = {"min_length": 1, "max_length": 64}


@dataclass(frozen=True, kw_only=True)
class HandCountPayload:
    """One player's hand counted (or no longer counted) for the round that just ended."""

    game: str = option(help="the score game's id", min_length=1, max_length=64)
    round: int = option(help="the table's round number", min=0, max=MAX_ROUND)
    winner: str = option(help="who went out", min_length=1, max_length=MAX_NAME)
    player: str = option(help="whose hand", min_length=1, max_length=MAX_NAME)
    points: int | None = option(None, "the hand's points", min=0, max=MAX_HAND_POINTS)
    cards: dict[str, int] | None = option(
        None,
        "the hand's cards, by the score game's card kinds (the box counts their points)",
        max_length=MAX_KINDS,
        items={"min": 0, "max": MAX_HAND},
    )


class RoundCount:
    """The shared count of the hands left at a round's end (see the module's docstring)."""

    def __init__(
        self,
        store: SettingsStore | None,
        players_of: Callable[[str], Collection[str] | None] | None = None,
    ) -> None:
        """``players_of(game)``: the players of that stored score game, None if there is none;
        a hand of a game or player not there is refused (a made-up name would be kept)."""
        self._store = store
        self._players_of = players_of
        self._hub: Hub | None = None
        self.draft: dict[str, Any] = {}

    def attach(self, hub: Hub) -> None:
        """Put back the saved draft; register the action and the ``count`` status."""
        self._hub = hub
        if self._store is not None:
            saved = self._store.settings_get(COUNT_KEY)
            if isinstance(saved, dict) and isinstance(saved.get("hands"), dict):
                self.draft = saved
            elif saved is not None:
                log.warning("saved round count ignored: %r", type(saved).__name__)
        hub.register_status("count", self.view)
        hub.register_action("count.hand", json_schema(HandCountPayload), self.count_hand, "count")

    def view(self) -> dict[str, Any]:
        """The draft as every phone shows it (empty when no round was counted yet)."""
        if not self.draft:
            return {}
        return {**self.draft, "hands": {p: dict(h) for p, h in self.draft["hands"].items()}}

    def count_hand(self, payload: dict[str, Any]) -> None:
        """Keep one hand of the draft: by cards, as points, or neither (still counting)."""
        self._check_names(payload)
        belongs = {"game": payload["game"], "round": payload["round"], "winner": payload["winner"]}
        if any(self.draft.get(k) != v for k, v in belongs.items()):
            self.draft = {**belongs, "hands": {}}
        hands = self.draft["hands"]
        player = payload["player"]
        if payload.get("cards") is not None:
            hands[player] = {"cards": {k: n for k, n in payload["cards"].items() if n > 0}}
        elif payload.get("points") is not None:
            hands[player] = {"points": payload["points"]}
        else:
            hands.pop(player, None)
        self._keep()

    def _check_names(self, payload: dict[str, Any]) -> None:
        if self._players_of is None:
            return
        players = self._players_of(payload["game"])
        if players is None:
            raise ActionError("unknown_game", "no such game", {"game": payload["game"]}, 404)
        for name in (payload["winner"], payload["player"]):
            if name not in players:
                raise ActionError("unknown_player", "no such player", {"name": name}, 404)

    def rename_player(self, old: str, new: str, game: tuple[str | None, str | None]) -> None:
        """``old`` is called ``new`` during the count: their hand and win stay theirs. ``game``:
        the score game's id before and after the rename (the renamed game is a copy)."""
        if not self.draft:
            return
        before, after = game
        if before is not None and after is not None and self.draft["game"] == before:
            self.draft["game"] = after
        if self.draft["winner"] == old:
            self.draft["winner"] = new
        hands = self.draft["hands"]
        self.draft["hands"] = {new if p == old else p: hand for p, hand in hands.items()}
        self._keep()
        if self._hub is not None:
            self._hub.changed("count")

    def _keep(self) -> None:
        if self._store is not None:
            self._store.settings_put(COUNT_KEY, self.draft)
