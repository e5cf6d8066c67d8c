"""Statistics over many games: wins, averages, best round and head-to-head.

Players are matched by name across games. A team's win counts for each of its members.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.core.scoring.book import ScoreBook
from companion.core.scoring.model import GameSetup
from companion.core.scoring.tally import party_name
from companion.core.scoring.views import RoundView, Standings, same_start


@dataclass(frozen=True)
class BestRound:
    points: int
    game: str
    round: int


@dataclass(frozen=True)
class PlayerStats:
    """One player's record. ``average_hand`` is the mean of the points left in their own hand per
    round they entered a hand; ``best_round`` is the most points won in one round (winner-takes
    games only: in the other modes points are a penalty)."""

    player: str
    games: int
    finished_games: int
    wins: int
    rounds: int
    rounds_out_first: int
    average_hand: float | None
    average_points_won: float | None
    best_round: BestRound | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "games": self.games,
            "finished_games": self.finished_games,
            "wins": self.wins,
            "rounds": self.rounds,
            "rounds_out_first": self.rounds_out_first,
            "average_hand": self.average_hand,
            "average_points_won": self.average_points_won,
            "best_round": None
            if self.best_round is None
            else {
                "points": self.best_round.points,
                "game": self.best_round.game,
                "round": self.best_round.round,
            },
        }


@dataclass(frozen=True)
class HeadToHead:
    """Finished games both played in (on opposing sides): who finished ahead how often."""

    player: str
    opponent: str
    games: int
    ahead: int
    behind: int
    level: int


@dataclass(frozen=True)
class Stats:
    players: tuple[PlayerStats, ...]
    head_to_head: tuple[HeadToHead, ...]

    def player(self, name: str) -> PlayerStats:
        for stats in self.players:
            if stats.player == name:
                return stats
        raise KeyError(name)

    def versus(self, player: str, opponent: str) -> HeadToHead:
        for pair in self.head_to_head:
            if pair.player == player and pair.opponent == opponent:
                return pair
        return HeadToHead(player, opponent, 0, 0, 0, 0)


# The counts a game adds to each player's figures.
COUNTS = (
    "games", "finished", "wins", "rounds", "out_first", "hand_sum", "hand_n", "won_sum", "won_n",
)  # fmt: skip


@dataclass
class GameTally:
    """One game's share of the statistics: :func:`compute_stats` adds the shares of its games,
    so a caller may keep the share of a game that did not change (a long imported game) instead
    of going through its rounds again."""

    counts: dict[str, dict[str, int]]  # count (one of COUNTS): player: number
    best: dict[str, BestRound]
    pairs: dict[tuple[str, str], list[int]]  # games, ahead, behind, level


# A game's tally of its rounds is kept every this many rounds (see :class:`RoundsTally`).
TALLY_MARK_EVERY = 256


@dataclass
class _Marked:
    """The counts and best rounds after some rounds (a :class:`RoundsTally` keeps a few)."""

    counts: dict[str, dict[str, int]]
    best: dict[str, BestRound]

    def copy(self) -> _Marked:
        return _Marked({name: dict(table) for name, table in self.counts.items()}, dict(self.best))


class RoundsTally:
    """What a game's rounds add to the statistics, kept up to date one round at a time.

    :meth:`sync` brings it to a game's rounds (its history): the rounds it already went through
    (the same :class:`RoundView` objects, a history's unchanged start) are not gone through
    again, so a recorded round costs one round, and a corrected round the rounds from the last
    mark (every :data:`TALLY_MARK_EVERY` rounds) before it. :meth:`share` adds how the game
    ended: a game's share of the statistics, as :func:`game_tally` makes it."""

    def __init__(self, setup: GameSetup) -> None:
        self.setup = setup
        self._members = {party_name(team): team for team in setup.parties()}
        start = _Marked({name: {} for name in COUNTS}, {})
        for player in setup.players:
            start.counts["games"][player] = 1
        self._now = start.copy()
        self._marks = [start]  # _marks[j]: after j * TALLY_MARK_EVERY rounds
        self._views: list[RoundView] = []

    @property
    def tallied(self) -> int:
        """How many of the game's rounds it has gone through."""
        return len(self._views)

    def sync(self, views: Sequence[RoundView], pause: Callable[[], None] | None = None) -> None:
        """Tally ``views`` (a game's history), going through only those it has not seen."""
        mine = self._views
        same = same_start(mine, views)
        if same < len(mine):  # back to the last mark before the first changed round
            kept = same // TALLY_MARK_EVERY
            del self._marks[kept + 1 :]
            del mine[kept * TALLY_MARK_EVERY :]
            self._now = self._marks[kept].copy()
        for view in views[len(mine) :]:
            if pause is not None and view.number % 256 == 0:
                pause()
            self._add(view)
            mine.append(view)
            if len(mine) % TALLY_MARK_EVERY == 0:
                self._marks.append(self._now.copy())

    def _add(self, view: RoundView) -> None:
        counts, best, setup = self._now.counts, self._now.best, self.setup

        def bump(table: str, name: str, by: int = 1) -> None:
            counts[table][name] = counts[table].get(name, 0) + by

        bump("out_first", view.winner)
        for player, _, pts in view.hands:
            bump("rounds", player)
            if pts is not None:
                bump("hand_sum", player, pts)
                bump("hand_n", player)
        if setup.mode == "winner_takes":
            for party, pts in view.credited:
                for member in self._members[party]:
                    bump("won_sum", member, pts)
                    bump("won_n", member)
                    if pts and (member not in best or pts > best[member].points):
                        best[member] = BestRound(pts, setup.name, view.number)

    def share(self, standings: Standings) -> GameTally:
        """The game's share of the statistics, its rounds tallied and ``standings`` its end."""
        now = self._now.copy()
        counts = now.counts
        pairs: dict[tuple[str, str], list[int]] = {}
        share = GameTally(counts, now.best, pairs)
        if not standings.finished:
            return share
        setup = self.setup

        def bump(table: str, name: str) -> None:
            counts[table][name] = counts[table].get(name, 0) + 1

        place: dict[str, int] = {}
        for row in standings.rows:
            for member in row.members:
                place[member] = row.rank
        for party in standings.winners:
            for member in self._members[party]:
                bump("wins", member)
        for player in setup.players:
            bump("finished", player)
            for other in setup.players:
                if other == player or other in setup.team_of(player):
                    continue
                record = pairs.setdefault((player, other), [0, 0, 0, 0])
                record[0] += 1
                if place[player] < place[other]:
                    record[1] += 1
                elif place[player] > place[other]:
                    record[2] += 1
                else:
                    record[3] += 1
        return share


def game_tally(book: ScoreBook, pause: Callable[[], None] | None = None) -> GameTally:
    """``book``'s share of the statistics; ``pause()`` every few hundred rounds."""
    tally = RoundsTally(book.setup)
    tally.sync(book.history(), pause)
    return tally.share(book.standings())


def compute_stats(books: Sequence[ScoreBook], pause: Callable[[], None] | None = None) -> Stats:
    """Every player's figures over ``books``; ``pause()`` every few hundred rounds (a long
    game's statistics are made while the table goes on)."""
    return combine_shares(game_tally(book, pause) for book in books)


def combine_shares(shares: Iterable[GameTally]) -> Stats:
    """Every player's figures from each game's share of them (:func:`game_tally`)."""
    totals: dict[str, dict[str, int]] = {name: {} for name in COUNTS}
    best: dict[str, BestRound] = {}
    pairs: dict[tuple[str, str], list[int]] = {}
    for share in shares:
        for name, table in share.counts.items():
            total = totals[name]
            for player, number in table.items():
                total[player] = total.get(player, 0) + number
        for player, round_ in share.best.items():  # the first best round stays on a tie
            if player not in best or round_.points > best[player].points:
                best[player] = round_
        for pair, record in share.pairs.items():
            kept = pairs.setdefault(pair, [0, 0, 0, 0])
            for index, number in enumerate(record):
                kept[index] += number
    games, finished, wins = totals["games"], totals["finished"], totals["wins"]
    rounds, out_first = totals["rounds"], totals["out_first"]
    hand_sum, hand_n = totals["hand_sum"], totals["hand_n"]
    won_sum, won_n = totals["won_sum"], totals["won_n"]

    names = sorted(games, key=lambda n: (-wins.get(n, 0), n))
    players = tuple(
        PlayerStats(
            player=name,
            games=games[name],
            finished_games=finished.get(name, 0),
            wins=wins.get(name, 0),
            rounds=rounds.get(name, 0),
            rounds_out_first=out_first.get(name, 0),
            average_hand=round(hand_sum[name] / hand_n[name], 2) if hand_n.get(name) else None,
            average_points_won=round(won_sum[name] / won_n[name], 2) if won_n.get(name) else None,
            best_round=best.get(name),
        )
        for name in names
    )
    head = tuple(
        HeadToHead(a, b, rec[0], rec[1], rec[2], rec[3]) for (a, b), rec in sorted(pairs.items())
    )
    return Stats(players, head)
