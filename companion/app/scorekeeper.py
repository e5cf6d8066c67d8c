"""The score keeper: score actions on the hub, the score book in memory, every entry on disk.

Each action builds a log entry with the pure :class:`~companion.core.scoring.ScoreBook` (which
checks it), stores it durably (:meth:`Storage.append_entry` returns once it is on disk) and only
then applies it to the book in memory, so what the phones see is always what is stored.
An action may name the game ``revision`` it was based on: if another phone changed the game
first, it is refused (409) instead of silently overwriting.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any, Protocol, TypeVar

from companion.core.actions import object_schema
from companion.core.commands import Priority, Say
from companion.core.errors import ActionError, StoreFault
from companion.core.events import Eliminate, Reinstate, SetRules
from companion.core.limits import MAX_NAME, MAX_PLAYERS, MIN_PLAYERS
from companion.core.options import DECKS
from companion.core.scoring import (
    MODES,
    GameSetup,
    HandEntry,
    ScoreBook,
    ScoringError,
    StaleWrite,
    builtin_rulesets,
    find_ruleset,
    game_from_csv,
    game_from_json,
    teams_across,
    teams_alternating,
)
from companion.core.scoring.book import RoundFacts, RoundView
from companion.core.scoring.model import LogEntry, check_new_names
from companion.core.scoring.stats import GameTally, RoundsTally, combine_shares
from companion.core.scoring.views import same_start

from .hub import Hub

R = TypeVar("R")
CURRENT_GAME = "score.current_game"
LET_GO_AT_ONCE = 2_000  # objects freed in one step at most on the hub thread
HISTORY_TAIL = 50  # the rounds the state carries; older ones are read page by page
PAGE_LIMIT = 200  # the most rounds one page of history holds
HISTORY_MARK_EVERY = 256  # the page's history keeps its tally every this many rounds
_NAME = {"type": "string", "minLength": 1, "maxLength": MAX_NAME}
_REVISION = {"type": "integer", "minimum": 0, "maximum": 10**9}
_HANDS = {"type": "object"}  # checked in depth by HandEntry / check_round
# Any round of an imported game (a 20 MB file holds fewer rounds): the book refuses one that
# does not exist.
_ROUND = {"type": "integer", "minimum": 1, "maximum": 10**6}


SCORE_ACTION_SCHEMAS: dict[str, dict[str, Any]] = {
    "score.new_game": object_schema(
        [],
        name={"type": "string", "minLength": 0, "maxLength": 80},
        players={
            "type": "array",
            "items": _NAME,
            "minItems": MIN_PLAYERS,
            "maxItems": MAX_PLAYERS,
        },
        ruleset=_NAME,
        mode={"type": "string", "enum": list(MODES)},
        target={"type": "integer", "minimum": 1, "maximum": 100_000},
        teams={"type": "string", "enum": ["none", "across", "alternating"]},
        first_dealer=_NAME,
    ),
    "score.open_game": object_schema(
        ["game"], game={"type": "string", "minLength": 1, "maxLength": 64}
    ),
    "score.record_round": object_schema(
        ["hands"],
        hands=_HANDS,
        winner=_NAME,
        side={"type": "string", "minLength": 0, "maxLength": 20},
        last_card=_NAME,
        revision=_REVISION,
    ),
    "score.correct_round": object_schema(
        ["round", "hands"],
        round=_ROUND,
        hands=_HANDS,
        winner=_NAME,
        side={"type": "string", "minLength": 0, "maxLength": 20},
        last_card=_NAME,
        revision=_REVISION,
    ),
    "score.delete_round": object_schema(["round"], round=_ROUND, revision=_REVISION),
    "score.undo": object_schema([], revision=_REVISION),
    "score.redo": object_schema([], revision=_REVISION),
    "score.announce": object_schema([]),
    "score.import": object_schema(
        ["text"],
        format={"type": "string", "enum": ["json", "csv"]},
        text={"type": "string", "minLength": 1, "maxLength": 5_000_000, "x-multiline": True},
    ),
}


class StoredGame(Protocol):
    """A game as the storage lists it (``Storage.list_games``): enough to know its statistics
    are those of a share already made."""

    @property
    def game_id(self) -> str: ...

    @property
    def revision(self) -> int: ...


def scoring_error(error: ScoringError) -> ActionError:
    """A scoring refusal as the hub's error (a stale write is a 409 conflict)."""
    params = {k: v if isinstance(v, int) else str(v) for k, v in error.params.items()}
    status = 409 if isinstance(error, StaleWrite) else 400
    return ActionError(error.catalog_key, str(error), params, status)


class ScoreKeeper:
    """Registers the ``score.*`` actions and the ``score`` part of the state on ``hub``."""

    def __init__(
        self, storage: Any, hub: Hub, *, clock: Callable[[], datetime] | None = None
    ) -> None:
        self.storage = storage
        self.hub = hub
        # A long game the storage stops keeping read is freed a piece at a time, off the table.
        storage.on_book_dropped = lambda book: self._let_go(book.parts())
        self._clock = clock or (lambda: datetime.now(UTC))
        self.book: ScoreBook | None = None
        self.game_id: str | None = None
        self._stats: dict[str, Any] | None = None
        # The game's history as the page gets it, for (game id, revision): rebuilt when it changes.
        self._history: tuple[tuple[str | None, int], History] = ((None, -1), History())
        self._status: tuple[int, dict[str, Any]] | None = None  # the last status, at _changes
        self._changes = 0  # every change of the games: tells whether stats made aside still hold
        self._shares: dict[tuple[str, int], GameTally] = {}  # each game's share of the stats
        # Each game's rounds as the stats tallied them, brought up to date round by round.
        self._tallies: dict[str, RoundsTally] = {}
        game_id = storage.settings_get(CURRENT_GAME)
        if isinstance(game_id, str):
            try:
                self._open(game_id)
            except Exception:
                self.book = None  # the game was removed: start without one
        handlers: dict[str, Callable[[dict[str, Any]], None]] = {
            "score.new_game": self.new_game,
            "score.open_game": lambda p: self._open(p["game"]),
            "score.record_round": self.record_round,
            "score.correct_round": self.correct_round,
            "score.delete_round": lambda p: self._append(p, lambda b: b.new_deletion(p["round"])),
            "score.undo": lambda p: self._append(p, lambda b: b.new_undo(self._now())),
            "score.redo": lambda p: self._append(p, lambda b: b.new_redo(self._now())),
            "score.import": self.open_imported,
            "score.announce": self.announce_standings,
        }
        prepare = {"score.import": self.import_game}
        for name, handler in handlers.items():
            hub.register_action(
                name,
                SCORE_ACTION_SCHEMAS[name],
                _translated(handler),
                "score",
                _translated(prepare[name]) if name in prepare else None,
            )
        hub.register_status("score", self.status)
        hub.register_query("score.rounds", self.rounds_page)
        hub.register_query("score.sheet", self.sheet)
        hub.register_query("score.book", self.book_copy)

    # ------------------------------------------------------------------ actions

    def _now(self) -> str:
        return self._clock().isoformat(timespec="seconds")

    def new_game(self, payload: dict[str, Any]) -> None:
        table = self.hub.engine.snapshot()
        players = payload.get("players") or [p["name"] for p in table["players"]]
        check_new_names(players)
        # The first dealer: the table's when the game is the table's players, else the game's
        # own first player (the table's dealer may not even play in it).
        own_players = "players" in payload
        dealer = players[0] if own_players else table["dealer"]
        ruleset = find_ruleset(payload.get("ruleset", "extreme"), self.storage.custom_rulesets())
        teams_kind = payload.get("teams", "none")
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
            mode=payload.get("mode", "winner_takes"),
            target=payload.get("target", 500),
            teams=teams,
            first_dealer=payload.get("first_dealer", dealer),
            date=now.date().isoformat(),
        ).validate()
        self._open(self.storage.create_game(setup))
        if (
            "ruleset" in payload
            and ruleset.key in DECKS
            and ruleset.key != self.hub.engine.rules.deck
        ):
            # The deck the game is scored with is the deck on the table (launcher load, cards).
            self.hub.post(SetRules((("deck", ruleset.key),)), self.hub.action_source)

    def record_round(self, payload: dict[str, Any]) -> None:
        hands = _hands(payload["hands"])
        self._append(
            payload,
            lambda b: b.new_record(hands, at=self._now(), **_round_facts(payload)),
            record=True,
        )

        self._announce_round()

    def _announce_round(self) -> None:
        """Say who won the round (and the game), and take eliminated players off the table."""
        assert self.book is not None
        history = self.book.history()
        if not history:
            return
        last = history[-1]
        standings = self.book.standings()
        says: list[Say] = []
        setup = self.book.setup
        if setup.mode == "winner_takes":
            party = next(p for p, _ in last.credited) if len(last.credited) == 1 else None
            party = party or " & ".join(setup.team_of(last.winner))
            points = dict(last.credited).get(party, 0)
            total = dict(last.totals).get(party, 0)
            key = "results.round_winner_team" if setup.teams else "results.round_winner_total"
            says.append(
                Say(
                    key,
                    {"player": last.winner, "team": party, "points": points, "total": total},
                    Priority.RESULT,
                )
            )
        elif standings.rows:
            leader = standings.rows[0]
            says.append(
                Say(
                    "results.standings_leader",
                    {"player": leader.party, "points": leader.total},
                    Priority.RESULT,
                )
            )
        for player in last.eliminated:
            says.append(
                Say(
                    "results.eliminated_points",
                    {"player": player, "points": standings.total(player)},
                    Priority.RESULT,
                )
            )
        if standings.finished and standings.winners:
            winner = standings.winners[0]
            key = {
                "lowest_wins": "results.game_winner_lowest",
            }.get(setup.mode, "results.game_winner_team" if setup.teams else "results.game_winner")
            says.append(
                Say(
                    key,
                    {"player": winner, "team": winner, "points": standings.total(winner)},
                    Priority.RESULT,
                )
            )
        self.hub.announce("score.round", list(says))

    def announce_standings(self, payload: dict[str, Any]) -> None:
        """Speak the standings, best first (a button on the page)."""
        if self.book is None:
            raise ActionError("no_game", "start or open a game first", status=409)
        params: dict[str, str | int] = {}
        for i, row in enumerate(self.book.standings().rows, start=1):
            params[f"player{i}"] = row.party
            params[f"points{i}"] = row.total
        self.hub.announce("score.standings", [Say("results.standings", params, Priority.INFO)])

    def correct_round(self, payload: dict[str, Any]) -> None:
        hands = _hands(payload["hands"])
        self._append(
            payload,
            lambda b: b.new_correction(
                payload["round"], hands, at=self._now(), **_round_facts(payload)
            ),
        )

    def import_game(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Read, check and store a game file, off the hub thread (the action's ``prepare``):
        the work is linear in the rounds, stands aside every millisecond or so and runs as the
        hub's long work (a thread of its own, at a lower priority), so the table answers presses
        meanwhile. The hub then only opens it (:meth:`open_imported`)."""
        return self.hub.run_long(lambda: self._import_game(payload), lasting=True)

    def _import_game(self, payload: dict[str, Any]) -> dict[str, Any]:
        changes = self._changes
        text = payload["text"]
        if payload.get("format", "json") == "json":
            book = game_from_json(text, self.hub.stand_aside)
        else:
            # A CSV sheet holds points only: it joins with the current game's rules.
            current = self.book
            ruleset = current.setup.ruleset if current else find_ruleset("classic")
            book = game_from_csv(
                text,
                name=f"Import {self._now()}",
                ruleset=ruleset,
                pause=self.hub.stand_aside,
                rulesets=self.storage.custom_rulesets(),
            )
        return self.stored(book, changes, self.hub.stand_aside)

    def stored(
        self, book: ScoreBook, changes: int, pause: Callable[[], None] | None = None
    ) -> dict[str, Any]:
        """Store ``book`` as a new game and make what the page reads of it (its history, the
        statistics), off the hub thread, for :meth:`open_imported`; ``changes``: the keeper's
        count of changes when the work began."""
        game_id = self.storage.import_game(book, pause=pause)
        shares = dict(self._shares)  # its own copy: the hub thread may change the keeper's
        tallies: dict[str, RoundsTally] = {}  # those it makes, the imported game's among them
        history = History.of(book.history(), pause)
        return {
            "game_id": game_id,
            "book": book,
            "history": history,
            "stats": self._compute_stats(pause, shares, tallies, open_game=game_id),
            "shares": shares,
            "tallies": tallies,
            "changes": changes,
        }

    def open_imported(self, prepared: dict[str, Any]) -> None:
        """Open the game :meth:`import_game` stored (on the hub thread: nothing long here)."""
        book: ScoreBook = prepared["book"]
        game_id: str = prepared["game_id"]
        self.storage.settings_put(CURRENT_GAME, game_id)
        unchanged = prepared["changes"] == self._changes
        self.book, self.game_id = book, game_id
        self.storage.keep_read(game_id)
        self._changed()
        self._let_go([list(self._history[1])])  # an export may still read the old one
        self._history = ((game_id, book.revision), prepared["history"])
        if unchanged:  # no other game changed while it was read: its stats hold
            self._stats = prepared["stats"]
            self._shares = prepared["shares"]
            # The imported game's rounds tallied: its next round adds one round to them.
            self._tallies = prepared["tallies"]

    def _let_go(self, parts: list[list[Any]]) -> None:
        """Parts of a long game the keeper no longer holds, in lists of their own (a reader may
        still go through the list they came from): freed a piece at a time, off the table (a
        short one at once)."""
        if sum(len(part) for part in parts) > LET_GO_AT_ONCE:
            self.hub.let_go(parts)

    def _changed(self) -> None:
        self._changes += 1
        self._stats = None
        self._status = None

    def rename(self, book: ScoreBook) -> None:
        """Go on with ``book`` (this game with a player renamed), stored as a game of its own."""
        self._open(self.storage.import_game(book))
        self.hub.changed("score")

    def _append(
        self,
        payload: dict[str, Any],
        build: Callable[[ScoreBook], LogEntry],
        *,
        record: bool = False,
    ) -> None:
        if self.book is None or self.game_id is None:
            raise ActionError("no_game", "start or open a game first", status=409)
        expected = payload.get("revision")
        if expected is not None and expected != self.book.revision:
            raise StaleWrite(expected, self.book.revision)
        # A round recorded after the last costs one round: the keeper's book takes it. Any other
        # change replays the rounds after the one it changes: it is checked once, on the stored
        # game (which keeps that check for the append), and the keeper goes on with a copy.
        book = self.book if record else self._stored_book(self.game_id, self.book.revision)
        entry = build(book)
        self.storage.append_entry(self.game_id, entry, self.book.revision)
        if book is self.book:
            self.book.apply(entry)
        else:
            self.book = book.copy()
        self._changed()
        self._sync_eliminations()

    def _stored_book(self, game_id: str, revision: int) -> ScoreBook:
        """The storage's own book of game ``game_id`` if it is at ``revision`` (else the
        keeper's): only checked here, its :meth:`~ScoreBook.check` kept for the append."""
        book: ScoreBook | None = self.storage.cached_game(game_id)
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
        try:
            self.book = self.storage.load_game(game_id)
        except KeyError:
            raise ActionError(
                "unknown_game", f"no game {game_id[:64]!r}", {"game": game_id[:64]}, 404
            ) from None
        self.game_id = game_id
        self.storage.keep_read(game_id)
        with suppress(StoreFault):  # read-only scores: the game is open all the same, to look at
            self.storage.settings_put(CURRENT_GAME, game_id)
        self._changed()

    # ------------------------------------------------------------------ state

    def status(self) -> dict[str, Any]:
        """The ``score`` part of the state: the same object until a game changes (so the page's
        encoder can reuse its bytes, and a press does not rebuild a long history)."""
        if self._status is None or self._status[0] != self._changes:
            self._status = (self._changes, self._build_status())
        return self._status[1]

    def _build_status(self) -> dict[str, Any]:
        book = self.book
        rulesets = [*builtin_rulesets(), *self.storage.custom_rulesets()]
        status: dict[str, Any] = {
            "game": None,
            "modes": list(MODES),
            # Names only: the card kinds of the game in play are in "game"; every ruleset's kinds
            # would triple what each phone receives at every change.
            "rulesets": [
                {"key": r.key, "name_fr": r.name_fr, "name_en": r.name_en, "source": r.source}
                for r in rulesets
            ],
            "games": [
                {
                    "id": g.game_id,
                    "name": g.name,
                    "date": g.date,
                    "players": list(g.players),
                    "ruleset": g.ruleset,
                    "mode": g.mode,
                    "revision": g.revision,
                }
                for g in self.storage.list_games()
            ],
        }
        if book is not None:
            setup = book.setup.to_dict()
            setup["id"] = self.game_id
            history = self._history_of(book)
            standings = book.standings()
            status.update(
                game=setup,
                revision=book.revision,
                standings=standings.to_dict(),
                # The last rounds only, whatever the game's length: older ones are read page
                # by page (the ``score.rounds`` query, GET /api/score/rounds).
                history=history.page(None, HISTORY_TAIL),
                history_count=len(history),
                game_stats={
                    row.party: history.party_stats(row.members or (row.party,))
                    for row in standings.rows
                },
                can_undo=book.can_undo,
                can_redo=book.can_redo,
                stats=self.stats(),
            )
        return status

    def rounds_page(self, params: dict[str, Any]) -> dict[str, Any]:
        """The ``score.rounds`` query (on the hub thread): at most ``limit`` rounds before
        round ``before`` of the game open now, oldest first, with the game's revision."""
        book = self.book
        if book is None:
            return {"game": None, "revision": None, "total": 0, "rounds": []}
        history = self._history_of(book)
        limit = max(1, min(int(params.get("limit") or PAGE_LIMIT), PAGE_LIMIT))
        return {
            "game": self.game_id,
            "revision": book.revision,
            "total": len(history),
            "rounds": history.page(params.get("before"), limit),
        }

    def sheet(self, params: dict[str, Any]) -> dict[str, Any]:
        """The ``score.sheet`` query (on the hub thread): the game open now with every round,
        for the chart and the export, which the web thread then goes through (the history is
        never changed once made, so it is handed over as it is)."""
        status = self.status()
        book = self.book
        if book is None or status.get("game") is None:
            return {"game": None, "history": [], "revision": None}
        return {**status, "history": self._history_of(book)}

    def book_copy(self, params: dict[str, Any]) -> ScoreBook | None:
        """The ``score.book`` query (on the hub thread): a copy of the game open now, or None,
        for the game file export, which the web thread then encodes while the game goes on."""
        return None if self.book is None or self.game_id is None else self.book.copy()

    def _history_of(self, book: ScoreBook) -> History:
        key = (self.game_id, book.revision)
        (game_id, _), cached = self._history
        if self._history[0] == key:
            return cached
        # The same game changed: the lines of the rounds before the first changed one stand.
        same_game = game_id == self.game_id
        history = History.of(book.history(), previous=cached if same_game else None)
        self._history = (key, history)
        if not same_game:  # (the same game's new history goes on with most of the old lines)
            self._let_go([list(cached)])
        return history

    def stats(self) -> dict[str, Any]:
        """Wins, averages, best rounds and head-to-head over every stored game (cached)."""
        if self._stats is None:
            self._stats = self._compute_stats()
        return self._stats

    def _compute_stats(
        self,
        pause: Callable[[], None] | None = None,
        shares: dict[tuple[str, int], GameTally] | None = None,
        tallies: dict[str, RoundsTally] | None = None,
        open_game: str | None = None,
    ) -> dict[str, Any]:
        """The statistics, keeping each game's share in ``shares`` while the game is unchanged
        and the open game's tally of its rounds in ``tallies`` (the keeper's own, on the hub
        thread; off it, a copy of its shares and tallies of its own, ``open_game`` the game it
        opens): after a round of tonight's game only that round is gone through, not that game
        again nor a long game imported earlier. The other games' tallies are let go: a tally
        holds every round of its game, and only the open game changes."""
        if shares is None or tallies is None:
            shares, tallies, open_game = self._shares, self._tallies, self.game_id

        def share(game: StoredGame) -> GameTally:
            kept = shares.get((game.game_id, game.revision))
            if kept is not None:  # the game need not be read again (it may have left the cache)
                return kept
            book = self.storage.read_game(game.game_id)
            game_id = book.setup.game_id
            tally = tallies.get(game_id)
            if tally is None or tally.setup != book.setup:
                tally = tallies[game_id] = RoundsTally(book.setup)
            tally.sync(book.history(), pause)
            kept = shares[(game_id, book.revision)] = tally.share(book.standings())
            return kept

        games = self.storage.list_games()
        stats = combine_shares(share(game) for game in games)
        alive = {(game.game_id, game.revision) for game in games}
        for key in [k for k in shares if k not in alive]:
            shares.pop(key, None)
        for game_id in [g for g in tallies if g != open_game]:
            self._let_go(tallies.pop(game_id).parts())
        return {
            "players": [p.to_dict() for p in stats.players],
            "head_to_head": [asdict(h) for h in stats.head_to_head],
        }


class History(list[dict[str, Any]]):
    """A game's rounds as the page reads them (one dict per round, oldest first), with a tally
    of who held a hand in how many rounds and each player's costliest hand: the Score screen's
    statistics over the whole game, which the state carries instead of the rounds.

    Made again after every change (a history handed to the web thread never changes), but from
    the one before (:meth:`of` with ``previous``): the lines of the rounds before the first
    changed one are kept, and the tally starts again from the last mark (every
    :data:`HISTORY_MARK_EVERY` rounds) before it, so a recorded round costs one line and a
    corrected one the lines from it on."""

    def __init__(self) -> None:
        super().__init__()
        # How many rounds each set of hand holders played, and each player's costliest hand.
        self.holders: dict[tuple[str, ...], int] = {}
        self.costliest: dict[str, int] = {}
        self.views: list[RoundView] = []  # the rounds the lines were made from
        self.marks: list[tuple[dict[tuple[str, ...], int], dict[str, int]]] = [({}, {})]

    def _count(self, line: dict[str, Any]) -> None:
        hands = line.get("hands") or []
        holders = tuple(sorted(str(h["player"]) for h in hands))
        self.holders[holders] = self.holders.get(holders, 0) + 1
        for hand in hands:
            points = hand.get("points") or 0
            if points > self.costliest.get(hand["player"], 0):
                self.costliest[hand["player"]] = points
            else:
                self.costliest.setdefault(hand["player"], 0)

    def party_stats(self, members: Sequence[str]) -> dict[str, int]:
        """The rounds a party (one player, or a team's ``members``) held a hand in, and the
        most points left in one hand of its own."""
        return {
            "played": sum(n for held, n in self.holders.items() if any(m in held for m in members)),
            "costliest": max((self.costliest.get(m, 0) for m in members), default=0),
        }

    def page(self, before: int | None, limit: int) -> list[dict[str, Any]]:
        """At most ``limit`` rounds numbered below ``before`` (all: after the last), oldest
        first; rounds are numbered from 1 in order."""
        end = len(self) if before is None else max(0, min(before - 1, len(self)))
        return self[max(0, end - limit) : end]

    @classmethod
    def of(
        cls,
        views: Sequence[RoundView],
        pause: Callable[[], None] | None = None,
        previous: History | None = None,
    ) -> History:
        """The history of ``views``, ``pause()`` every few hundred rounds; ``previous``: the
        history of the same game before its last change (its unchanged lines are kept)."""
        history = cls()
        old = previous.views if previous is not None else []
        same = same_start(old, views)
        if previous is not None and same:
            # Rounds added after the last: the tally goes on; else it starts from the mark.
            going_on = same == len(old)
            kept = same if going_on else same // HISTORY_MARK_EVERY * HISTORY_MARK_EVERY
            history.extend(previous[:kept])
            history.views = old[:kept]
            history.marks = previous.marks[: kept // HISTORY_MARK_EVERY + 1]
            holders, costliest = (
                (previous.holders, previous.costliest) if going_on else history.marks[-1]
            )
            history.holders, history.costliest = dict(holders), dict(costliest)
        was = same  # where the round of that id was in ``old`` (both go by id)
        for number in range(len(history) + 1, len(views) + 1):
            if pause is not None and number % 256 == 0:
                pause()
            view = views[number - 1]
            if previous is not None and number <= same:
                line = previous[number - 1]
            else:  # a round after the change: its totals moved, its hands' lines may stand
                while was < len(old) and old[was].round_id < view.round_id:
                    was += 1
                alike = was < len(old) and old[was].round_id == view.round_id
                alike = alike and previous is not None and old[was].hands == view.hands
                line = view.to_dict(previous[was]["hands"] if alike and previous else None)
            history.append(line)
            history.views.append(view)
            history._count(line)
            if number % HISTORY_MARK_EVERY == 0:
                history.marks.append((dict(history.holders), dict(history.costliest)))
        return history


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
