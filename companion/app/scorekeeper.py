"""The score keeper: the score actions on the hub, the game open now, every entry on disk.

Each action builds a log entry with the pure :class:`~companion.core.scoring.ScoreBook` (which
checks it), stores it durably (:meth:`ScoreStore.append_entry` returns once it is on disk) and
only then applies it to the book in memory, so what the phones see is always what is stored.
An action may name the game ``revision`` it was based on: if another phone changed the game
first, it is refused (409) instead of silently overwriting. What the page reads of the games is
:class:`~companion.app.score_page.ScorePage`'s; what the box says, :mod:`.score_results`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from datetime import UTC, datetime
from typing import Any, TypeVar

from companion.core.cards import counted_deck
from companion.core.errors import ActionError, StoreFault
from companion.core.events import Eliminate, Reinstate, SetRules
from companion.core.limits import MAX_NAME, MAX_PLAYERS
from companion.core.options import DECKS
from companion.core.scoring import (
    GameSetup,
    HandEntry,
    ScoreBook,
    ScoringError,
    StaleWrite,
    find_ruleset,
    teams_across,
    teams_alternating,
)
from companion.core.scoring.book import RoundFacts
from companion.core.scoring.model import LogEntry, check_new_names

from .game_reader import GameFile, read_apart
from .hub import Hub
from .score_limits import GameStarts
from .score_page import ScorePage
from .score_payloads import SCORE_ACTION_SCHEMAS, ImportPayload, NewGamePayload
from .score_results import round_results, standings_said
from .stores import ScoreDatabase

R = TypeVar("R")
Build = Callable[[ScoreBook], LogEntry]  # a change's log entry, built (and checked) on a book
CURRENT_GAME = "score.current_game"


def scoring_error(error: ScoringError) -> ActionError:
    """A scoring refusal as the hub's error (a stale write or a full game is a 409 conflict)."""
    params = {k: v if isinstance(v, int) else str(v) for k, v in error.params.items()}
    return ActionError(error.catalog_key, str(error), params, error.status)


class ScoreKeeper:
    """The ``score.*`` actions and the game open now, over ``database()`` (the database open now,
    or it raises why none is); join with :meth:`attach`, read again with :meth:`reopened`."""

    def __init__(
        self,
        database: Callable[[], ScoreDatabase],
        *,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self._database = database
        self._clock = clock or (lambda: datetime.now(UTC))
        self.starts = GameStarts()  # games started a minute (tests give it their clock)
        self._hub: Hub | None = None
        self.book: ScoreBook | None = None
        self.game_id: str | None = None
        self.changes = 0  # every change of the games: tells whether views made aside still hold
        self.page = ScorePage(self)

    def attach(self, hub: Hub) -> None:
        """Register the actions, the ``score`` status and the score queries; open the game
        that was open at the last stop."""
        self._hub = hub
        handlers: dict[str, Callable[[dict[str, Any]], None]] = {
            "score.new_game": self.starts.limited(self.new_game),
            "score.open_game": self.open_read,
            "score.record_round": self.record_round,
            "score.import": self.open_imported,
            "score.announce": self.announce_standings,
        }
        prepare: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
            "score.import": self.starts.limited(self.import_game),
            "score.open_game": self.read_game,
        }
        # A change to an earlier round replays the rounds after it: checked off the hub thread
        # (prepare), the hub then only stores it (see _append).
        changes: dict[str, Callable[[dict[str, Any]], Build]] = {
            "score.correct_round": self._correction,
            "score.delete_round": lambda p: lambda b: b.new_deletion(p["round"]),
            "score.undo": lambda p: lambda b: b.new_undo(self._now()),
            "score.redo": lambda p: lambda b: b.new_redo(self._now()),
        }
        for name, build_of in changes.items():
            handlers[name], prepare[name] = _checked_first(self, build_of)
        for name, handler in handlers.items():
            hub.register_action(
                name,
                SCORE_ACTION_SCHEMAS[name],
                _translated(handler),
                "score",
                _translated(prepare[name]) if name in prepare else None,
            )
        self.page.attach(hub)
        self._open_last()

    @property
    def hub(self) -> Hub:
        assert self._hub is not None, "attach the score keeper to the hub first"
        return self._hub

    def store(self) -> ScoreDatabase:
        """The score database open now; raises the :class:`StoreFault` saying why none is."""
        return self._database()

    def reopened(self) -> None:
        """The database was put back from a backup (or reopened as it was): read it again."""
        self.book = self.game_id = None
        self.page.forget()
        self._open_last()
        self._changed()

    def _open_last(self) -> None:
        try:
            store = self.store()
        except StoreFault:
            return  # no database: every action answers why
        game_id = store.settings_get(CURRENT_GAME)
        if isinstance(game_id, str):
            try:
                self._open(game_id)
            except Exception:
                self.book = None  # the game was removed: start without one
        self.page.count_aside()

    # ------------------------------------------------------------------ actions

    def _now(self) -> str:
        return self._clock().isoformat(timespec="seconds")

    def new_game(self, payload: dict[str, Any]) -> None:
        store = self.store()
        table = self.hub.engine.snapshot()
        players = payload.get("players") or [p["name"] for p in table["players"]]
        check_new_names(players)
        # The first dealer: the table's when the game is the table's players, else the game's
        # own first player (the table's dealer may not even play in it).
        own_players = "players" in payload
        dealer = players[0] if own_players else table["dealer"]
        defaults = NewGamePayload
        ruleset = find_ruleset(payload.get("ruleset", defaults.ruleset), store.custom_rulesets())
        teams_kind = payload.get("teams", defaults.teams)
        teams = {
            "none": (),
            "across": teams_across(players) if teams_kind == "across" else (),
            "alternating": teams_alternating(players) if teams_kind == "alternating" else (),
        }[teams_kind]
        now = self._clock()
        setup = GameSetup(
            name=payload.get("name") or f"UNO {now:%Y-%m-%d %H:%M}",
            players=tuple(players),
            ruleset=ruleset,
            mode=payload.get("mode", defaults.mode),
            target=payload.get("target", defaults.target),
            teams=teams,
            first_dealer=payload.get("first_dealer", dealer),
            date=now.date().isoformat(),
        ).validate()
        self._open(store.create_game(setup))
        if (
            "ruleset" in payload
            and ruleset.key in DECKS
            and ruleset.key != counted_deck(self.hub.engine.rules)
        ):
            # The deck the game is scored with is the deck on the table (launcher load, cards);
            # Extrême rules played with a classic deck already count classic hands.
            self.hub.post(SetRules((("deck", ruleset.key),)), self.hub.action_source)

    def record_round(self, payload: dict[str, Any]) -> None:
        hands = _hands(payload["hands"])
        self._append(
            payload,
            lambda b: b.new_record(hands, at=self._now(), **_round_facts(payload)),
            record=True,
        )
        assert self.book is not None
        says = round_results(self.book)
        if says:
            self.hub.announce("score.round", list(says))

    def announce_standings(self, payload: dict[str, Any]) -> None:
        """Speak the standings, best first (a button on the page)."""
        self.store()  # no database: the reason, as for every score action
        if self.book is None:
            raise ActionError("no_game", "start or open a game first", status=409)
        self.hub.announce("score.standings", [standings_said(self.book)])

    def _correction(self, payload: dict[str, Any]) -> Build:
        hands = _hands(payload["hands"])
        return lambda b: b.new_correction(
            payload["round"], hands, at=self._now(), **_round_facts(payload)
        )

    def import_game(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Read, check and store a game file off the hub thread (the action's ``prepare``): read
        in a process of its own (:mod:`.game_reader`), stored as the hub's long work. The hub
        then only opens it (:meth:`open_imported`)."""
        store = self.store()  # no database: refused before the file is read
        changes = self.changes
        # A CSV sheet holds points only: it joins with the current game's rules.
        current = self.book
        file = GameFile(
            text=payload["text"],
            format=payload.get("format", ImportPayload.format),
            name=f"Import {self._now()}",
            ruleset=current.setup.ruleset if current else find_ruleset("classic"),
            rulesets=tuple(store.custom_rulesets()),
        )
        pause = self.hub.stand_aside
        return self.hub.run_long(
            lambda: self.stored(read_apart(file, pause=pause), changes, pause), lasting=True
        )

    def stored(
        self, book: ScoreBook, changes: int, pause: Callable[[], None] | None = None
    ) -> dict[str, Any]:
        """Store ``book`` as a new game and make what the page reads of it (its history, the
        statistics), off the hub thread, for :meth:`open_imported`; ``changes``: the keeper's
        :attr:`changes` when the work began."""
        game_id = self.store().import_game(book, pause=pause)
        made = self.page.made_aside(book, game_id, pause)
        return {"game_id": game_id, "book": book, "changes": changes, "made": made}

    def open_imported(self, prepared: dict[str, Any]) -> None:
        """Open the game :meth:`import_game` stored (on the hub thread: nothing long here)."""
        self.store().settings_put(CURRENT_GAME, prepared["game_id"])
        self._adopt(prepared)

    def read_game(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Read a stored game and what the page shows of it as the hub's long work (the
        ``score.open_game`` action's ``prepare``); the hub then opens it (:meth:`open_read`)."""
        store = self.store()
        changes, game_id = self.changes, payload["game"]

        def read() -> dict[str, Any]:
            try:
                book = store.load_game(game_id)
            except KeyError:
                raise ActionError(
                    "unknown_game", f"no game {game_id[:64]!r}", {"game": game_id[:64]}, 404
                ) from None
            made = self.page.made_aside(book, game_id, self.hub.stand_aside)
            return {"game_id": game_id, "book": book, "changes": changes, "made": made}

        return self.hub.run_long(read, lasting=True)

    def open_read(self, prepared: dict[str, Any]) -> None:
        """Open the game :meth:`read_game` read (on the hub thread: nothing long here); read
        again here if it changed meanwhile."""
        stored = self.store().cached_game(prepared["game_id"])
        if stored is None or stored.revision != prepared["book"].revision:
            self._open(prepared["game_id"])
            return
        with suppress(StoreFault):  # read-only scores: the game is open all the same, to look at
            self.store().settings_put(CURRENT_GAME, prepared["game_id"])
        self._adopt(prepared)

    def _adopt(self, prepared: dict[str, Any]) -> None:
        book: ScoreBook = prepared["book"]
        game_id: str = prepared["game_id"]
        unchanged = prepared["changes"] == self.changes
        self.book, self.game_id = book, game_id
        self.store().keep_read(game_id)
        self._changed()
        # No other game changed while it was read: the statistics made aside hold.
        self.page.adopt(game_id, book, prepared["made"], unchanged)

    def _changed(self) -> None:
        self.changes += 1

    def rename(self, book: ScoreBook) -> None:
        """Go on with ``book`` (this game with a player renamed), stored as a game of its own."""
        self._open(self.store().import_game(book))
        self.hub.changed("score")

    def _append(
        self,
        payload: dict[str, Any],
        build: Build,
        *,
        record: bool = False,
        checked: tuple[str, int, LogEntry] | None = None,
    ) -> None:
        store = self.store()
        if self.book is None or self.game_id is None:
            raise ActionError("no_game", "start or open a game first", status=409)
        expected = payload.get("revision")
        if expected is not None and expected != self.book.revision:
            raise StaleWrite(expected, self.book.revision)
        # A round recorded after the last costs one round: the keeper's book takes it. Any other
        # change replays the rounds after the one it changes: it is checked once, on the stored
        # game (which keeps that check for the append), and the keeper goes on with a copy.
        book = self.book if record else self._stored_book(store, self.game_id, self.book.revision)
        # Checked aside on this game at this revision: the same entry (the storage checks it
        # again, at no cost when the stored game kept that check).
        aside = checked is not None and checked[:2] == (self.game_id, self.book.revision)
        entry = checked[2] if checked is not None and aside else build(book)
        store.append_entry(self.game_id, entry, self.book.revision)
        if book is self.book:
            self.book.apply(entry)
        else:
            self.book = book.copy()
        self._changed()
        self._sync_eliminations()

    def _stored_book(self, store: ScoreDatabase, game_id: str, revision: int) -> ScoreBook:
        """The store's own book of game ``game_id`` if it is at ``revision`` (else the
        keeper's): only checked here, its :meth:`~ScoreBook.check` kept for the append."""
        book = store.cached_game(game_id)
        if book is not None and book.revision == revision:
            return book
        assert self.book is not None
        return self.book

    def _sync_eliminations(self) -> None:
        """The table's eliminated players are the score sheet's (000 §X.I), also after an undo,
        a deletion or a correction."""
        assert self.book is not None
        if self.book.setup.mode != "defi":
            return  # only "Défi" games eliminate; a table elimination by hand stays as it is
        out = {m for row in self.book.standings().rows if row.eliminated_in for m in row.members}
        for player in self.hub.engine.snapshot()["players"]:
            name = player["name"]
            if name in out and not player["eliminated"]:
                self.hub.post(Eliminate(name), self.hub.action_source)
            elif name not in out and player["eliminated"] and name in self.book.setup.players:
                self.hub.post(Reinstate(name), self.hub.action_source)

    def _open(self, game_id: str) -> None:
        store = self.store()
        try:
            self.book = store.load_game(game_id)
        except KeyError:
            raise ActionError(
                "unknown_game", f"no game {game_id[:64]!r}", {"game": game_id[:64]}, 404
            ) from None
        self.game_id = game_id
        store.keep_read(game_id)
        with suppress(StoreFault):  # read-only scores: the game is open all the same, to look at
            store.settings_put(CURRENT_GAME, game_id)
        self._changed()


def _checked_first(
    keeper: ScoreKeeper, build_of: Callable[[dict[str, Any]], Build]
) -> tuple[Callable[[dict[str, Any]], None], Callable[[dict[str, Any]], dict[str, Any]]]:
    """A change's handler and its ``prepare``, which checks the change aside first."""

    def prepare(payload: dict[str, Any]) -> dict[str, Any]:
        try:
            checked = keeper.hub.run_long(lambda: _checked_aside(keeper, build_of(payload)))
        except (ValueError, LookupError, RuntimeError):
            # Refused here (or the game changed under the check): the hub checks it again and
            # says why, on the game as it is then.
            checked = None
        return {"payload": payload, "checked": checked}

    def handle(prepared: dict[str, Any]) -> None:
        payload = prepared["payload"]
        keeper._append(payload, build_of(payload), checked=prepared["checked"])

    return handle, prepare


def _checked_aside(keeper: ScoreKeeper, build: Build) -> tuple[str, int, LogEntry] | None:
    """``build``'s entry, checked on the stored game off the hub thread, with the game and
    revision it was checked at (None without a game: the hub says why). The stored game keeps
    that check for the append (see :meth:`ScoreBook.check`)."""
    game_id, book = keeper.game_id, keeper.book
    if game_id is None or book is None:
        return None
    stored = keeper.store().cached_game(game_id)
    if stored is None or stored.revision != book.revision:
        return None
    return game_id, stored.revision, build(stored)


def _round_facts(payload: dict[str, Any]) -> RoundFacts:
    return {
        "winner": payload.get("winner"),
        "side": payload.get("side"),
        "last_card": payload.get("last_card"),
    }


def _hands(raw: dict[str, Any]) -> dict[str, HandEntry]:
    if len(raw) > MAX_PLAYERS:
        raise ScoringError("import_field", field="hands", problem=f"at most {MAX_PLAYERS} players")
    return {
        str(name)[:MAX_NAME]: HandEntry.from_dict(v, f"hands.{name}") for name, v in raw.items()
    }


def _translated(handler: Callable[[dict[str, Any]], R]) -> Callable[[dict[str, Any]], R]:
    """Scoring refusals become the hub's ActionError (with their catalog key)."""

    def run(payload: dict[str, Any]) -> R:
        try:
            return handler(payload)
        except ScoringError as error:
            raise scoring_error(error) from None
        except StoreFault as fault:  # disk full (507), read-only, locked: nothing was stored
            raise fault.refusal() from None

    return run
