"""The statistics over every stored game, kept up to date a game (and a round) at a time.

Each stored game's share of the statistics is kept while the game is unchanged, and the open
game's tally of its rounds is brought up to date round by round: after a round of tonight's game
only that round is gone through, not that game again nor a long game imported earlier.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict
from typing import Any, Protocol

from companion.core.scoring.book import ScoreBook
from companion.core.scoring.stats import GameTally, RoundsTally, combine_shares


class StoredGame(Protocol):
    """A game as a store lists it: enough to know its statistics are those of a share made
    already."""

    @property
    def game_id(self) -> str: ...

    @property
    def revision(self) -> int: ...


class GameShares:
    """Each game's share of the statistics, by (game id, revision), and the open game's tally of
    its rounds. Not thread-safe: one owner at a time (:meth:`aside` makes one for another)."""

    def __init__(self, shares: dict[tuple[str, int], GameTally] | None = None) -> None:
        self.shares: dict[tuple[str, int], GameTally] = shares or {}
        # Each game's rounds as the stats tallied them (the open game's only, once computed).
        self.tallies: dict[str, RoundsTally] = {}

    def aside(self) -> GameShares:
        """A copy of the shares, no tallies, for work off the owner's thread: what it computes
        may later replace the owner's (:meth:`compute` changes only the copy)."""
        return GameShares(dict(self.shares))

    def compute(
        self,
        games: Sequence[StoredGame],
        read: Callable[[str], ScoreBook],
        open_game: str | None,
        *,
        pause: Callable[[], None] | None = None,
    ) -> dict[str, Any]:
        """Wins, averages, best rounds and head-to-head over ``games`` (``read(game_id)``: a
        game to read only), as the page shows them. The shares of games no longer listed are
        dropped; the tallies of games other than ``open_game`` too (a tally holds every round of
        its game, and only the open game changes)."""
        shares, tallies = self.shares, self.tallies

        def share(game: StoredGame) -> GameTally:
            kept = shares.get((game.game_id, game.revision))
            if kept is not None:  # the game need not be read again (it may have left a cache)
                return kept
            book = read(game.game_id)
            game_id = book.setup.game_id
            tally = tallies.get(game_id)
            if tally is None or tally.setup != book.setup:
                tally = tallies[game_id] = RoundsTally(book.setup)
            tally.sync(book.history(), pause)
            kept = shares[(game_id, book.revision)] = tally.share(book.standings())
            return kept

        stats = combine_shares(share(game) for game in games)
        alive = {(game.game_id, game.revision) for game in games}
        for key in [k for k in shares if k not in alive]:
            shares.pop(key, None)
        for game_id in [g for g in tallies if g != open_game]:
            del tallies[game_id]
        return {
            "players": [p.to_dict() for p in stats.players],
            "head_to_head": [asdict(h) for h in stats.head_to_head],
        }
