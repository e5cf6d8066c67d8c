"""Renaming a player in place: the same seat, hand and turn at the table, the same scores (the
score sheet goes on as a copy under the new names; the earlier copy stays in the list of games)
and the same colour on every phone. One action, ``players.rename {player, name}``."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from companion.core.errors import ActionError
from companion.core.events import Rename
from companion.core.limits import MAX_NAME
from companion.core.model import json_schema, option
from companion.core.names import check_name, shown_key
from companion.core.scoring import ScoreBook

from .hub import Hub

if TYPE_CHECKING:
    from .evening import EveningService
    from .round_count import RoundCount
    from .scorekeeper import ScoreKeeper


@dataclass(frozen=True, kw_only=True)
class RenamePayload:
    """A player renamed in place: the same seat, scores and colour."""

    player: str = option(help="the name now", min_length=1, max_length=MAX_NAME)
    name: str = option(help="the new name", min_length=1, max_length=MAX_NAME)


def renamed_book(book: ScoreBook, old: str, new: str) -> ScoreBook:
    """``book`` with ``old`` called ``new`` everywhere: players, teams, first dealer and every
    entry of its log (corrections, deletions, undos and redos stay as they were)."""

    def name(player: str) -> str:
        return new if player == old else player

    setup = book.setup
    setup = replace(
        setup,
        players=tuple(map(name, setup.players)),
        teams=tuple(tuple(map(name, team)) for team in setup.teams),
        first_dealer=name(setup.first_dealer),
        game_id="",
    )
    entries = []
    for entry in book.entries:
        data = entry.round
        if data is not None:
            data = replace(
                data,
                hands=tuple((name(p), hand) for p, hand in data.hands),
                winner=name(data.winner),
            )
        entries.append(replace(entry, round=data))
    return ScoreBook(setup, entries)


class PlayerNames:
    """Registers ``players.rename`` on the hub."""

    def __init__(
        self, keeper: ScoreKeeper | None, evening: EveningService, count: RoundCount | None = None
    ) -> None:
        self._hub: Hub | None = None
        self._keeper = keeper
        self._evening = evening
        self._count = count

    def attach(self, hub: Hub) -> None:
        self._hub = hub
        hub.register_action(
            "players.rename",
            json_schema(RenamePayload),
            self.rename,
            "table",
        )

    def rename(self, payload: dict[str, Any]) -> None:
        assert self._hub is not None, "attach() first"
        old, new = payload["player"], payload["name"].strip()
        seated = [p["name"] for p in self._hub.engine.snapshot()["players"]]
        keeper = self._keeper
        book = keeper.book if keeper is not None else None
        scored = list(book.setup.players) if book is not None else []
        if old not in seated and old not in scored:
            raise ActionError("unknown_player", f"no player called {old!r}", {"name": old}, 404)
        check_name(new)
        if new == old:
            raise ActionError("bad_name", "the new name is the old one", {"name": new})
        # as the names show, not as typed: "Bob" and "ｂｏｂ" are one name
        if any(p != old and shown_key(p) == shown_key(new) for p in [*seated, *scored]):
            raise ActionError("duplicate_player", "two players have the same name")
        if old in seated:  # first: the table's own checks refuse a bad name before anything
            self._hub.handle(Rename(old, new), self._hub.action_source)
        game_before = keeper.game_id if keeper is not None else None
        if keeper is not None and book is not None and old in scored:
            keeper.rename(renamed_book(book, old, new))
        self._evening.rename_player(old, new)
        if self._count is not None:
            after = keeper.game_id if keeper is not None else None
            self._count.rename_player(old, new, (game_before, after))
