"""The things a score sheet is made of: hands, rounds, log entries and the game's setup.

All are frozen dataclasses with ``to_dict``/``from_dict`` for the JSON game format. A hand is
entered either card by card (``HandEntry.of_cards({"n7": 2, "wild": 1})``) or as raw points
(``HandEntry.of_points(64)``); :func:`check_round` refuses a round the deck cannot hold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from companion.core.limits import (
    MAX_DATE,
    MAX_GAME_ID,
    MAX_GAME_NAME,
    MAX_NAME,
    MAX_PLAYERS,
    MIN_PLAYERS,
)
from companion.core.names import name_problem, shown_key
from companion.core.scoring.errors import ScoringError
from companion.core.scoring.rulesets import Ruleset, bounded_text

MODES = ("winner_takes", "lowest_wins", "defi")
ENTRY_TYPES = ("round_recorded", "round_corrected", "round_deleted", "undo", "redo")
DEFAULT_TARGET = 500
SIDE_FR: Mapping[str, str] = MappingProxyType({"light": "clair", "dark": "sombre"})


@dataclass(frozen=True)
class HandEntry:
    """What one player held at the end of a round: card counts by kind, or raw points."""

    cards: tuple[tuple[str, int], ...] | None = None
    points: int | None = None

    @classmethod
    def of_cards(cls, counts: Mapping[str, int]) -> HandEntry:
        return cls(cards=tuple(sorted((k, n) for k, n in counts.items() if n != 0)))

    @classmethod
    def of_points(cls, points: int) -> HandEntry:
        return cls(points=points)

    @classmethod
    def empty(cls) -> HandEntry:
        return cls(cards=())

    @property
    def is_empty(self) -> bool:
        """True if the player surely holds no card (went out)."""
        return self.cards is not None and not self.cards

    def score(self, ruleset: Ruleset) -> int:
        """Points in this hand (assumes :func:`check_round` accepted it)."""
        if self.cards is None:
            return self.points or 0
        total = 0
        for key, n in self.cards:
            kind = ruleset.kind(key)
            total += n * (kind.value if kind else 0)
        return total

    def to_dict(self) -> dict[str, Any]:
        if self.cards is not None:
            return {"cards": dict(self.cards)}
        return {"points": self.points}

    @classmethod
    def from_dict(cls, data: Any, where: str) -> HandEntry:
        if not isinstance(data, Mapping) or ("cards" in data) == ("points" in data):
            raise ScoringError(
                "import_field", field=where, problem="must be {'cards': {...}} or {'points': n}"
            )
        if "points" in data:
            return cls(points=data["points"])  # checked by check_round
        cards = data["cards"]
        if not isinstance(cards, Mapping) or not all(isinstance(k, str) for k in cards):
            raise ScoringError(
                "import_field", field=f"{where}.cards", problem="must map card kinds to counts"
            )
        return cls(cards=tuple(sorted(cards.items())))


@dataclass(frozen=True)
class RoundData:
    """One round as entered: each player's hand, who went out, the side it ended on (Flip) and,
    optionally, the last card played (it lies on the discard pile, so hands can't hold it)."""

    hands: tuple[tuple[str, HandEntry], ...]
    winner: str
    side: str = ""
    last_card: str | None = None

    def hand(self, player: str) -> HandEntry | None:
        for name, hand in self.hands:
            if name == player:
                return hand
        return None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "winner": self.winner,
            "hands": {name: hand.to_dict() for name, hand in self.hands},
        }
        if self.side:
            data["side"] = self.side
        if self.last_card:
            data["last_card"] = self.last_card
        return data

    @classmethod
    def from_dict(cls, data: Any, where: str) -> RoundData:
        if not isinstance(data, Mapping):
            raise ScoringError("import_field", field=where, problem="must be an object")
        hands = data.get("hands")
        if not isinstance(hands, Mapping):
            raise ScoringError("import_field", field=f"{where}.hands", problem="must be an object")
        winner, side, last = data.get("winner"), data.get("side", ""), data.get("last_card")
        if not isinstance(winner, str):
            raise ScoringError("import_field", field=f"{where}.winner", problem="must be a name")
        if not isinstance(side, str):
            raise ScoringError("import_field", field=f"{where}.side", problem="must be text")
        if last is not None and not isinstance(last, str):
            raise ScoringError(
                "import_field", field=f"{where}.last_card", problem="must be a card kind"
            )
        return cls(
            hands=tuple(
                (str(name), HandEntry.from_dict(h, f"{where}.hands.{name}"))
                for name, h in hands.items()
            ),
            winner=winner,
            side=side,
            last_card=last,
        )


@dataclass(frozen=True)
class LogEntry:
    """One line of the append-only score log.

    ``round_recorded`` carries ``round`` (its round id is the entry's own sequence number);
    ``round_corrected`` carries ``round_id`` and the new ``round``; ``round_deleted`` carries
    ``round_id``; ``undo``/``redo`` carry nothing. ``at`` is a timestamp supplied by the caller
    (the core reads no clock).
    """

    type: str
    round: RoundData | None = None
    round_id: int | None = None
    at: str = ""

    @classmethod
    def recorded(cls, data: RoundData, at: str = "") -> LogEntry:
        return cls("round_recorded", round=data, at=at)

    @classmethod
    def corrected(cls, round_id: int, data: RoundData, at: str = "") -> LogEntry:
        return cls("round_corrected", round=data, round_id=round_id, at=at)

    @classmethod
    def deleted(cls, round_id: int, at: str = "") -> LogEntry:
        return cls("round_deleted", round_id=round_id, at=at)

    @classmethod
    def undo(cls, at: str = "") -> LogEntry:
        return cls("undo", at=at)

    @classmethod
    def redo(cls, at: str = "") -> LogEntry:
        return cls("redo", at=at)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type}
        if self.round_id is not None:
            data["round_id"] = self.round_id
        if self.round is not None:
            data["round"] = self.round.to_dict()
        if self.at:
            data["at"] = self.at
        return data

    @classmethod
    def from_dict(cls, data: Any, where: str = "entry") -> LogEntry:
        if not isinstance(data, Mapping):
            raise ScoringError("import_field", field=where, problem="must be an object")
        kind = data.get("type")
        if kind not in ENTRY_TYPES:
            raise ScoringError(
                "import_field",
                field=f"{where}.type",
                problem=f"must be one of {', '.join(ENTRY_TYPES)}, not {kind!r}",
            )
        at = bounded_text(data.get("at", ""), f"{where}.at", MAX_DATE)
        round_id = data.get("round_id")
        needs_id = kind in ("round_corrected", "round_deleted")
        if needs_id and (isinstance(round_id, bool) or not isinstance(round_id, int)):
            raise ScoringError(
                "import_field", field=f"{where}.round_id", problem="must be a round id"
            )
        needs_round = kind in ("round_recorded", "round_corrected")
        rnd = RoundData.from_dict(data.get("round"), f"{where}.round") if needs_round else None
        return cls(str(kind), round=rnd, round_id=round_id if needs_id else None, at=at)


@dataclass(frozen=True)
class GameSetup:
    """Who plays what: seat order going left, the ruleset, the counting mode, target and teams.

    ``teams`` is empty for everyone-for-themselves; otherwise each tuple is one team (001:
    partners across the table, or alternating seats for 4-6-8-10 players; see :func:`teams_across`
    and :func:`teams_alternating`).
    """

    name: str
    players: tuple[str, ...]
    ruleset: Ruleset
    mode: str = "winner_takes"
    target: int = DEFAULT_TARGET
    teams: tuple[tuple[str, ...], ...] = ()
    first_dealer: str = ""
    date: str = ""
    game_id: str = ""

    @property
    def dealer0(self) -> str:
        return self.first_dealer or self.players[0]

    def team_of(self, player: str) -> tuple[str, ...]:
        for team in self.teams:
            if player in team:
                return team
        return (player,)

    def parties(self) -> tuple[tuple[str, ...], ...]:
        """Who scores together: the teams, or each player alone."""
        return self.teams if self.teams else tuple((p,) for p in self.players)

    def validate(self) -> GameSetup:
        if not self.name.strip() or len(self.name) > MAX_GAME_NAME or "\n" in self.name:
            raise ScoringError("bad_name")
        if not MIN_PLAYERS <= len(self.players) <= MAX_PLAYERS:
            raise ScoringError(
                "too_few_players", count=len(self.players), fewest=MIN_PLAYERS, most=MAX_PLAYERS
            )
        seen: set[str] = set()
        for player in self.players:
            if (
                not isinstance(player, str)
                or not player.strip()
                or player != player.strip()
                or len(player) > MAX_NAME
                or "\n" in player
            ):
                raise ScoringError("bad_player_name", player=player, longest=MAX_NAME)
            if player in seen:
                raise ScoringError("duplicate_player", player=player)
            seen.add(player)
        if self.mode not in MODES:
            raise ScoringError("bad_mode", mode=self.mode, modes=", ".join(MODES))
        if (
            isinstance(self.target, bool)
            or not isinstance(self.target, int)
            or not (1 <= self.target <= 100_000)
        ):
            raise ScoringError("bad_target", target=self.target)
        if self.first_dealer and self.first_dealer not in seen:
            raise ScoringError("bad_dealer", player=self.first_dealer)
        if self.teams:
            if self.mode != "winner_takes":
                raise ScoringError("teams_need_winner_takes")
            members = [p for team in self.teams for p in team]
            if sorted(members) != sorted(self.players):
                raise ScoringError("bad_teams", problem="every player must be in exactly one team")
            if len(self.teams) < 2 or any(len(team) < 2 for team in self.teams):
                raise ScoringError("bad_teams", problem="at least two teams of two or more")
        self.ruleset.validate()
        return self

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.game_id,
            "name": self.name,
            "date": self.date,
            "players": list(self.players),
            "mode": self.mode,
            "target": self.target,
            "teams": [list(t) for t in self.teams],
            "first_dealer": self.dealer0,
            "ruleset": self.ruleset.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Any, where: str = "game") -> GameSetup:
        if not isinstance(data, Mapping):
            raise ScoringError("import_field", field=where, problem="must be an object")
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise ScoringError(
                "import_field", field=f"{where}.players", problem="must be a list of names"
            )
        teams = data.get("teams", [])
        if not isinstance(teams, list) or not all(
            isinstance(t, list) and all(isinstance(p, str) for p in t) for t in teams
        ):
            raise ScoringError(
                "import_field", field=f"{where}.teams", problem="must be a list of name lists"
            )
        texts: dict[str, str] = {}
        for name, longest in (
            ("id", MAX_GAME_ID),
            ("name", MAX_GAME_NAME),
            ("date", MAX_DATE),
            ("mode", MAX_NAME),
            ("first_dealer", MAX_NAME),
        ):
            texts[name] = bounded_text(data.get(name, ""), f"{where}.{name}", longest)
        setup = cls(
            name=texts["name"],
            players=tuple(players),
            ruleset=Ruleset.from_dict(data.get("ruleset"), f"{where}.ruleset"),
            mode=texts["mode"] or "winner_takes",
            target=data.get("target", DEFAULT_TARGET),
            teams=tuple(tuple(t) for t in teams),
            first_dealer=texts["first_dealer"],
            date=texts["date"],
            game_id=texts["id"],
        )
        return setup.validate()


def check_new_names(players: Sequence[str]) -> None:
    """Names a new game may take (from a phone or a file): each shows as typed, and no two show
    the same (:mod:`companion.core.names`). Games stored earlier are not held to it."""
    seen: set[str] = set()
    for player in players:
        problem = name_problem(player)
        if problem is not None:
            raise ScoringError("name_not_shown", player=_escaped(player), code=problem[1])
        key = shown_key(player)
        if key in seen:
            raise ScoringError("duplicate_player", player=_escaped(player))
        seen.add(key)


def _escaped(name: str) -> str:
    """A name safe to repeat in a message: hidden characters written as escapes, cut short."""
    text = name.encode("unicode_escape").decode("ascii") if name_problem(name) else name
    return text if len(text) <= 40 else text[:39] + "…"


def teams_across(players: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """Partners sit face to face (001, four players): seat i with seat i + n/2."""
    n = len(players)
    if n < 4 or n % 2:
        raise ScoringError("bad_teams", problem="partners across the table need an even count ≥ 4")
    half = n // 2
    return tuple((players[i], players[i + half]) for i in range(half))


def teams_alternating(players: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """Two teams in alternate seats (001, 4-6-8-10 players)."""
    n = len(players)
    if n not in (4, 6, 8, 10):
        raise ScoringError("bad_teams", problem="alternating teams need 4, 6, 8 or 10 players")
    return (tuple(players[0::2]), tuple(players[1::2]))


def check_hand(ruleset: Ruleset, player: str, hand: HandEntry, side: str) -> int:
    """Check one hand against the deck and return its points."""
    if (hand.cards is None) == (hand.points is None):
        raise ScoringError("hand_needs_one_form", player=player)
    if hand.cards is None:
        points = hand.points
        if isinstance(points, bool) or not isinstance(points, int) or points < 0:
            raise ScoringError("bad_points", player=player, points=points)
        most = ruleset.deck_points(side)
        if points > most:
            raise ScoringError("impossible_points", player=player, points=points, most=most)
        return points
    total = 0
    for key, count in hand.cards:
        kind = ruleset.kind(key)
        if kind is None:
            raise ScoringError("unknown_kind", player=player, kind=key, ruleset=ruleset.key)
        if kind.side != side:
            raise ScoringError(
                "kind_wrong_side",
                player=player,
                kind=kind.label_en,
                kind_fr=kind.label_fr,
                kind_side=kind.side,
                kind_side_fr=SIDE_FR.get(kind.side, kind.side),
                side=side,
                side_fr=SIDE_FR.get(side, side),
            )
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ScoringError(
                "bad_count", player=player, kind=kind.label_en, kind_fr=kind.label_fr, count=count
            )
        if count > kind.count:
            raise ScoringError(
                "impossible_count",
                player=player,
                kind=kind.label_en,
                kind_fr=kind.label_fr,
                count=count,
                deck=kind.count,
            )
        total += count * kind.value
    return total


def check_round(setup: GameSetup, data: RoundData) -> dict[str, int]:
    """Check a round against the players and the deck; return each entered hand's points.

    Order-independent checks only (eliminations and game end depend on earlier rounds and are
    checked when standings are derived).
    """
    ruleset = setup.ruleset
    if data.side not in ruleset.sides:
        raise ScoringError(
            "bad_side", side=data.side, sides=", ".join(repr(s) for s in ruleset.sides)
        )
    players = set(setup.players)
    if data.winner not in players:
        raise ScoringError("unknown_player", player=data.winner)
    points: dict[str, int] = {}
    for player, hand in data.hands:
        if player not in players or player in points:
            raise ScoringError("unknown_player", player=player)
        points[player] = check_hand(ruleset, player, hand, data.side)
    if points.get(data.winner, 0) != 0:
        raise ScoringError("winner_has_cards", player=data.winner, points=points[data.winner])
    # Together the hands (and the last card, on the discard pile) can't exceed the deck.
    used: dict[str, int] = {}
    if data.last_card is not None:
        kind = ruleset.kind(data.last_card)
        if kind is None or kind.side != data.side:
            raise ScoringError(
                "unknown_kind", player=data.winner, kind=data.last_card, ruleset=ruleset.key
            )
        used[kind.key] = 1
    for _, hand in data.hands:
        for key, count in hand.cards or ():
            used[key] = used.get(key, 0) + count
    for key, count in used.items():
        kind = ruleset.kind(key)
        if kind is not None and count > kind.count:
            raise ScoringError(
                "impossible_total",
                kind=kind.label_en,
                kind_fr=kind.label_fr,
                count=count,
                deck=kind.count,
            )
    return points


def make_round(
    setup: GameSetup,
    hands: Mapping[str, HandEntry],
    winner: str | None = None,
    side: str | None = None,
    last_card: str | None = None,
) -> RoundData:
    """Build a checked :class:`RoundData`, finding who went out if ``winner`` is not given.

    The one player with an empty card-count hand went out; failing that, the one player with
    0 raw points. The winner's hand may be left out (it is empty by definition).
    """
    side = setup.ruleset.default_side if side is None else side
    if winner is None:
        empty = [p for p, h in hands.items() if h.is_empty]
        if len(empty) != 1:
            empty = [p for p, h in hands.items() if h.cards is None and h.points == 0]
        if len(empty) != 1:
            raise ScoringError("winner_unknown")
        winner = empty[0]
    order = {p: i for i, p in enumerate(setup.players)}
    for player in hands:
        if player not in order:
            raise ScoringError("unknown_player", player=player)
    entered = dict(hands)
    entered.setdefault(winner, HandEntry.empty())
    data = RoundData(
        hands=tuple(sorted(entered.items(), key=lambda item: order.get(item[0], 99))),
        winner=winner,
        side=side,
        last_card=last_card,
    )
    check_round(setup, data)
    return data
