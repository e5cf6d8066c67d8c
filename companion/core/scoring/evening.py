"""An evening of partner games as the older rule sheet (001) describes it.

Four players play four games with each of the three others as partner: 12 games, partners
sitting across. Eight players play at two tables at once, four games with each of the seven
others as partner: 28 games for each player. The team that goes out scores the cards left in its
opponents' hands, and each player keeps their own mark: both partners add the points. Whoever has
the highest mark at the end wins the evening; the lowest gets the consolation prize.

Pure and immutable: :func:`schedule` builds the games, :class:`Evening` records results and
returns a new evening each time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.core.errors import ActionError

GAMES_PER_PARTNER = 4
SIZES = (4, 8)  # players: one table, or two tables of four
MAX_POINTS = 10_000  # more than any two hands hold


@dataclass(frozen=True)
class EveningGame:
    """Game ``number`` (1-based; both tables play their game ``number`` at once) at ``table``."""

    number: int
    table: int
    teams: tuple[tuple[str, str], tuple[str, str]]

    def seats(self) -> tuple[str, str, str, str]:
        """Seat order around the table with partners across: A1, B1, A2, B2."""
        (a1, a2), (b1, b2) = self.teams
        return (a1, b1, a2, b2)

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "table": self.table, "teams": [list(t) for t in self.teams]}


def schedule(
    players: Sequence[str], games_per_partner: int = GAMES_PER_PARTNER
) -> tuple[EveningGame, ...]:
    """Every player partners every other ``games_per_partner`` times (the circle method: one
    player stays, the others turn one place per partner change)."""
    names = tuple(players)
    if len(names) not in SIZES:
        raise ActionError(
            "evening.error_size", "an evening needs 4 or 8 players", {"count": len(names)}
        )
    if len(set(names)) != len(names) or not all(n.strip() for n in names):
        raise ActionError("evening.error_names", "the players need different, non-empty names")
    fixed, turning = names[0], list(names[1:])
    games: list[EveningGame] = []
    number = 0
    for _ in range(len(names) - 1):
        line = [fixed, *turning]
        half = len(line) // 2
        pairs = [(line[i], line[-1 - i]) for i in range(half)]
        for _ in range(games_per_partner):
            number += 1
            for table in range(len(pairs) // 2):
                teams = (pairs[2 * table], pairs[2 * table + 1])
                games.append(EveningGame(number, table + 1, teams))
        turning = [turning[-1], *turning[:-1]]
    return tuple(games)


@dataclass(frozen=True)
class Result:
    """Who went out (team 0 or 1) and the points they scored."""

    winners: int
    points: int


@dataclass(frozen=True)
class Evening:
    players: tuple[str, ...]
    games: tuple[EveningGame, ...]
    results: Mapping[tuple[int, int], Result] = field(default_factory=dict)
    name: str = ""

    @classmethod
    def start(cls, players: Sequence[str], name: str = "") -> Evening:
        return cls(tuple(players), schedule(players), {}, name)

    @property
    def tables(self) -> int:
        return len(self.players) // 4

    @property
    def last_number(self) -> int:
        return self.games[-1].number if self.games else 0

    def game(self, number: int, table: int) -> EveningGame:
        for game in self.games:
            if (game.number, game.table) == (number, table):
                return game
        raise ActionError(
            "evening.error_no_game", "no such game", {"number": number, "table": table}
        )

    def record(self, number: int, table: int, winners: int, points: int) -> Evening:
        """A new evening with game ``number`` at ``table`` won by team ``winners`` (0 or 1)."""
        self.game(number, table)
        if winners not in (0, 1):
            raise ActionError("evening.error_team", "the winning team is 0 or 1")
        if not 0 <= points <= MAX_POINTS:
            raise ActionError("evening.error_points", "points are 0 to 10000", {"most": MAX_POINTS})
        results = dict(self.results)
        results[(number, table)] = Result(winners, points)
        return Evening(self.players, self.games, results, self.name)

    def forget(self, number: int, table: int) -> Evening:
        """A new evening without the result of that game (to correct it)."""
        results = {k: v for k, v in self.results.items() if k != (number, table)}
        return Evening(self.players, self.games, results, self.name)

    def pending(self) -> tuple[EveningGame, ...]:
        """The games to play now: the lowest game number not yet played at each table."""
        return tuple(
            next(g for g in self.games if g.table == t and (g.number, t) not in self.results)
            for t in range(1, self.tables + 1)
            if any(g.table == t and (g.number, t) not in self.results for g in self.games)
        )

    @property
    def finished(self) -> bool:
        return len(self.results) == len(self.games)

    def marks(self) -> dict[str, int]:
        """Each player's mark: the points their team scored in every game they won."""
        marks = dict.fromkeys(self.players, 0)
        for game in self.games:
            result = self.results.get((game.number, game.table))
            if result is not None:
                for player in game.teams[result.winners]:
                    marks[player] += result.points
        return marks

    def standings(self) -> list[tuple[int, str, int]]:
        """(rank, player, mark), best first; equal marks share a rank."""
        marks = self.marks()
        order = sorted(self.players, key=lambda p: (-marks[p], self.players.index(p)))
        return [(1 + sum(1 for q in marks.values() if q > marks[p]), p, marks[p]) for p in order]

    def winners(self) -> tuple[str, ...]:
        """The evening's winners (the highest mark), once every game is played."""
        if not self.finished:
            return ()
        best = max(self.marks().values())
        return tuple(p for p, m in self.marks().items() if m == best)

    def consolation(self) -> tuple[str, ...]:
        """Who gets the consolation prize (the lowest mark), once every game is played."""
        if not self.finished:
            return ()
        low = min(self.marks().values())
        return tuple(p for p, m in self.marks().items() if m == low)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "players": list(self.players),
            "results": [
                {"number": n, "table": t, "winners": r.winners, "points": r.points}
                for (n, t), r in sorted(self.results.items())
            ],
        }

    def view(self) -> dict[str, Any]:
        """What the page shows: the schedule with results, the games to play now, the marks."""
        data = self.to_dict()
        data.update(
            tables=self.tables,
            games=[
                {
                    **g.to_dict(),
                    "result": (
                        {"winners": r.winners, "points": r.points}
                        if (r := self.results.get((g.number, g.table)))
                        else None
                    ),
                }
                for g in self.games
            ],
            total=self.last_number,
            played=len(self.results),
            pending=[g.to_dict() for g in self.pending()],
            standings=[{"rank": r, "player": p, "mark": m} for r, p, m in self.standings()],
            finished=self.finished,
            winners=list(self.winners()),
            consolation=list(self.consolation()),
        )
        return data

    @classmethod
    def from_dict(cls, data: Any) -> Evening:
        if not isinstance(data, Mapping):
            raise ActionError("evening.error_names", "a saved evening must be an object")
        evening = cls.start(list(data.get("players") or []), str(data.get("name") or ""))
        for item in data.get("results") or []:
            evening = evening.record(
                int(item["number"]), int(item["table"]), int(item["winners"]), int(item["points"])
            )
        return evening
