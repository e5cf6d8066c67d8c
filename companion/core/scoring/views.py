"""What the score book shows: the standings and each round of the history, as plain data."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.core.scoring.model import HandEntry


@dataclass(frozen=True)
class StandingRow:
    """One line of the standings: a player, or a team (``party`` is then "A & C")."""

    party: str
    members: tuple[str, ...]
    total: int
    rank: int
    rounds_won: int
    eliminated_in: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "party": self.party,
            "members": list(self.members),
            "total": self.total,
            "rank": self.rank,
            "rounds_won": self.rounds_won,
            "eliminated_in": self.eliminated_in,
        }


@dataclass(frozen=True)
class Standings:
    """Where the game stands after the last round.

    ``winners`` is empty while the game goes on; it has several names only for an unbroken tie
    (``tie`` is then True). ``dealer`` deals the next round (None once the game is over);
    ``two_player_final`` tells the table to switch to the two-player rules (Défi).
    """

    mode: str
    target: int
    rounds: int
    rows: tuple[StandingRow, ...]
    finished: bool
    ended_in_round: int | None
    winners: tuple[str, ...]
    tie: bool
    dealer: str | None
    active_players: tuple[str, ...]
    two_player_final: bool

    def total(self, party: str) -> int:
        for row in self.rows:
            if row.party == party or party in row.members:
                return row.total
        raise KeyError(party)

    def to_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "target": self.target,
            "rounds": self.rounds,
            "finished": self.finished,
            "ended_in_round": self.ended_in_round,
            "winners": list(self.winners),
            "tie": self.tie,
            "dealer": self.dealer,
            "active_players": list(self.active_players),
            "two_player_final": self.two_player_final,
            "rows": [row.to_dict() for row in self.rows],
        }


@dataclass(frozen=True)
class RoundView:
    """One round of the history as the page shows it."""

    number: int
    round_id: int
    dealer: str
    winner: str
    side: str
    last_card: str | None
    hands: tuple[tuple[str, HandEntry | None, int | None], ...]  # player, hand, its points
    credited: tuple[tuple[str, int], ...]  # party, points added this round
    totals: tuple[tuple[str, int], ...]  # party, running total after this round
    eliminated: tuple[str, ...]
    edits: tuple[int, ...]  # sequence numbers of the log entries that changed this round

    def to_dict(self, hands: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """The round as plain data; ``hands``: its hands as such, if already made (a round
        whose running totals changed but not its hands)."""
        return {
            "number": self.number,
            "round_id": self.round_id,
            "dealer": self.dealer,
            "winner": self.winner,
            "side": self.side,
            "last_card": self.last_card,
            "hands": [
                {"player": p, "hand": h.to_dict() if h else None, "points": pts}
                for p, h, pts in self.hands
            ]
            if hands is None
            else hands,
            "credited": dict(self.credited),
            "totals": dict(self.totals),
            "eliminated": list(self.eliminated),
            "edits": list(self.edits),
        }


def same_start(old: Sequence[RoundView], new: Sequence[RoundView]) -> int:
    """How many rounds ``old`` and ``new`` (two histories of one game) begin with alike: the
    same objects, since a score book makes a round's view once and keeps the views before the
    first round a change touches."""
    if old and len(new) >= len(old) and new[len(old) - 1] is old[-1]:
        return len(old)  # rounds added after the last: the start is the same
    same, most = 0, min(len(old), len(new))
    while same < most and new[same] is old[same]:
        same += 1
    return same
