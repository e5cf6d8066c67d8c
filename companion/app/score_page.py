"""What the page reads of the scores: the ``score`` part of the state and the score queries.

The views themselves are the core's (:class:`~companion.core.scoring.history.History`,
:class:`~companion.core.scoring.shares.GameShares`); this keeps them for the game open now, made
again only when a game changes, so a press does not rebuild a long history and the page's encoder
can reuse the bytes of an unchanged part.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from companion.core.errors import StoreFault
from companion.core.scoring import MODES, ScoreBook, builtin_rulesets
from companion.core.scoring.history import History
from companion.core.scoring.shares import GameShares

from .hub import Hub
from .score_limits import LISTED_GAMES
from .stores import ListedGame, ScoreStore

HISTORY_TAIL = 50  # the rounds the state carries; older ones are read page by page
PAGE_LIMIT = 200  # the most rounds one page of history holds
UNAVAILABLE: dict[str, Any] = {"game": None, "games": [], "available": False}
# Log entries of the stored games past which a start counts the statistics aside (about 50 ms
# of work here; twenty of the longest games the box keeps are seconds, more on a Pi).
COUNT_ASIDE = 5_000
COUNTING: dict[str, Any] = {"players": [], "head_to_head": [], "counting": True}


class OpenGame(Protocol):
    """The game the keeper has open (:class:`~companion.app.scorekeeper.ScoreKeeper`)."""

    @property
    def book(self) -> ScoreBook | None: ...

    @property
    def game_id(self) -> str | None: ...

    @property
    def changes(self) -> int: ...  # counts every change of the games

    def store(self) -> ScoreStore: ...


class ScorePage:
    """The ``score`` status and the ``score.rounds``, ``score.sheet`` and ``score.book``
    queries, over ``game``; every method runs on the hub thread, but :meth:`made_aside`."""

    def __init__(self, game: OpenGame) -> None:
        self._game = game
        self._hub: Hub | None = None
        self._status: tuple[int, dict[str, Any]] | None = None  # at ``changes``
        self._stats: tuple[int, dict[str, Any]] | None = None
        # The game's history as the page gets it, for (game id, revision): rebuilt when it changes.
        self._history: tuple[tuple[str | None, int], History] = ((None, -1), History())
        self._shares = GameShares()
        self._counting = False  # the statistics are being counted aside (count_aside)
        self._counted: GameShares | None = None  # what that counted, for the hub thread
        self._counted_lock = threading.Lock()

    def attach(self, hub: Hub) -> None:
        self._hub = hub
        hub.register_status("score", self.status)
        hub.register_query("score.rounds", self.rounds_page)
        hub.register_query("score.sheet", self.sheet)
        hub.register_query("score.book", self.book_copy)

    def forget(self) -> None:
        """Another database: nothing made from the old one holds."""
        self._history = ((None, -1), History())
        self._shares = GameShares()

    # ------------------------------------------------------------------ the state

    def status(self) -> dict[str, Any]:
        """The ``score`` part of the state: the same object until a game changes."""
        changes = self._game.changes
        if self._status is None or self._status[0] != changes:
            try:
                self._status = (changes, self._build_status(self._game.store()))
            except StoreFault:
                self._status = (changes, UNAVAILABLE)
        return self._status[1]

    def _build_status(self, store: ScoreStore) -> dict[str, Any]:
        book = self._game.book
        rulesets = [*builtin_rulesets(), *store.custom_rulesets()]
        games = store.list_games()
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
                for g in games[-LISTED_GAMES:]  # the newest: the list is oldest first
            ],
            "games_total": len(games),
        }
        if book is not None:
            setup = book.setup.to_dict()
            setup["id"] = self._game.game_id
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
                stats=self.stats(games),
            )
        return status

    def count_aside(self) -> None:
        """After a start or a restore, the statistics over many stored games (past
        :data:`COUNT_ASIDE` log entries) are counted as the hub's long work, not while the hub
        builds its first state: until they are, the page's statistics are empty and say
        ``counting``, and the page is told when they are there."""
        hub = self._hub
        try:
            store = self._game.store()
            games = store.list_games()
        except StoreFault:
            return
        if hub is None or sum(game.revision for game in games) <= COUNT_ASIDE:
            return
        self._counting = True
        shares = self._shares.aside()

        def count() -> None:
            try:
                shares.compute(games, store.read_game, None, pause=hub.stand_aside)
            finally:  # counted or not: the hub counts what is missing
                with self._counted_lock:
                    self._counted = shares
                hub.call(self._show_counted)

        threading.Thread(target=lambda: hub.run_long(count), name="stats", daemon=True).start()

    def _show_counted(self) -> None:
        self._status = self._stats = None
        if self._hub is not None:
            self._hub.changed("score")

    def stats(self, games: Sequence[ListedGame] | None = None) -> dict[str, Any]:
        """Wins, averages, best rounds and head-to-head over every stored game (cached);
        ``games``: the stored games, when just listed."""
        with self._counted_lock:
            counted, self._counted = self._counted, None
        if counted is not None:
            for key, share in counted.shares.items():
                self._shares.shares.setdefault(key, share)
            self._counting = False
        if self._counting:
            return COUNTING
        changes = self._game.changes
        if self._stats is None or self._stats[0] != changes:
            store = self._game.store()
            listed = store.list_games() if games is None else games
            stats = self._shares.compute(listed, store.read_game, self._game.game_id)
            self._stats = (changes, stats)
        return self._stats[1]

    # ------------------------------------------------------------------ the queries

    def rounds_page(self, params: dict[str, Any]) -> dict[str, Any]:
        """The ``score.rounds`` query: at most ``limit`` rounds before round ``before`` of the
        game open now, oldest first, with the game's revision."""
        book = self._game.book
        if book is None:
            return {"game": None, "revision": None, "total": 0, "rounds": []}
        history = self._history_of(book)
        limit = max(1, min(int(params.get("limit") or PAGE_LIMIT), PAGE_LIMIT))
        return {
            "game": self._game.game_id,
            "revision": book.revision,
            "total": len(history),
            "rounds": history.page(params.get("before"), limit),
        }

    def sheet(self, params: dict[str, Any]) -> dict[str, Any]:
        """The ``score.sheet`` query: the game open now with every round, for the chart and the
        export, which the web thread then goes through (the history is never changed once
        made, so it is handed over as it is)."""
        status = self.status()
        book = self._game.book
        if book is None or status.get("game") is None:
            return {"game": None, "history": [], "revision": None}
        return {**status, "history": self._history_of(book)}

    def book_copy(self, params: dict[str, Any]) -> ScoreBook | None:
        """The ``score.book`` query: a copy of the game open now, or None, for the game file
        export, which the web thread then encodes while the game goes on."""
        book = self._game.book
        return None if book is None or self._game.game_id is None else book.copy()

    # ------------------------------------------------------------------ the views

    def _history_of(self, book: ScoreBook) -> History:
        key = (self._game.game_id, book.revision)
        (game_id, _), cached = self._history
        if self._history[0] == key:
            return cached
        # The same game changed: the lines of the rounds before the first changed one stand.
        same_game = game_id == self._game.game_id
        history = History.of(book.history(), previous=cached if same_game else None)
        self._history = (key, history)
        return history

    def made_aside(
        self, book: ScoreBook, game_id: str, pause: Callable[[], None] | None
    ) -> dict[str, Any]:
        """What the page will read of ``book`` (stored as ``game_id``, about to be opened): its
        history and the statistics, made off the hub thread (``pause()`` now and then), for
        :meth:`adopt`."""
        store = self._game.store()
        shares = self._shares.aside()  # its own copy: the hub thread may change the page's
        stats = shares.compute(store.list_games(), store.read_game, game_id, pause=pause)
        return {"history": History.of(book.history(), pause), "stats": stats, "shares": shares}

    def adopt(self, game_id: str, book: ScoreBook, made: dict[str, Any], unchanged: bool) -> None:
        """Take what :meth:`made_aside` made, the game now open; its statistics only if
        ``unchanged`` (no other game changed while they were made)."""
        self._history = ((game_id, book.revision), made["history"])
        if unchanged:
            self._stats = (self._game.changes, made["stats"])
            # The imported game's rounds tallied: its next round adds one round to them.
            self._shares = made["shares"]
