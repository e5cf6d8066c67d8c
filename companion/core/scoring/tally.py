"""How a game's standings are worked out from its rounds: the running tally, each round's view
for the page, and the checkpoints (``marks``) a change to an old round starts again from.

:class:`~companion.core.scoring.book.ScoreBook` keeps the log; this module derives from it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from companion.core.scoring.errors import ScoringError
from companion.core.scoring.model import (
    GameSetup,
    RoundData,
    check_round,
)
from companion.core.scoring.views import RoundView, StandingRow, Standings

# A long replay calls its ``pause`` this often (about a millisecond of work here).
PAUSE_EVERY = 64

# The derived standings keep the tally every this many rounds: a change to round k replays the
# rounds from the last of these at or before k, not the whole game.
MARK_EVERY = 256


@dataclass
class Tally:
    """Where a replay of the rounds stands: totals, rounds won, eliminations, the next dealer and
    the round the game ended in. Copying it costs the same whatever the number of rounds."""

    rounds: int
    totals: dict[str, int]
    won: dict[str, int]
    eliminated: dict[str, int]
    dealer: str
    ended: int | None = None

    @classmethod
    def start(cls, setup: GameSetup) -> Tally:
        totals = {party_name(team): 0 for team in setup.parties()}
        return cls(0, totals, dict.fromkeys(totals, 0), {}, setup.dealer0)

    def after(
        self,
        setup: GameSetup,
        party_of: Mapping[str, str],
        round_id: int,
        data: RoundData,
        edits: Sequence[int] = (),
    ) -> tuple[Tally, RoundView]:
        """The tally after one more round, and that round as the history shows it.

        Raises :class:`ScoringError` for a round that can't follow: a hand for an eliminated
        player, a missing hand, or a round after the game ended."""
        if self.ended is not None:
            raise ScoringError("correction_ends_game", round=self.ended)
        mode, target, players = setup.mode, setup.target, setup.players
        number = self.rounds + 1
        points = check_round(setup, data)
        eliminated = dict(self.eliminated)
        active = [p for p in players if p not in eliminated]
        for player in points:
            if player in eliminated:
                raise ScoringError("player_eliminated", player=player, round=eliminated[player])
        winner_party = party_of[data.winner]
        for player in active:
            partner_of_winner = party_of[player] == winner_party and mode == "winner_takes"
            if player not in points and not partner_of_winner:
                raise ScoringError("missing_hand", player=player)
        credited = dict.fromkeys(self.totals, 0)
        if mode == "winner_takes":
            credited[winner_party] = sum(
                pts for p, pts in points.items() if party_of[p] != winner_party
            )
        else:
            for player, pts in points.items():
                credited[party_of[player]] += pts
        totals = {party: total + credited[party] for party, total in self.totals.items()}
        won = dict(self.won)
        won[winner_party] += 1
        ended: int | None = None
        out_now: list[str] = []
        if mode == "defi":
            out_now = [p for p in active if totals[p] >= target]
            for player in out_now:
                eliminated[player] = number
            if len(active) - len(out_now) <= 1:
                ended = number
        elif any(total >= target for total in totals.values()):
            ended = number
        view = RoundView(
            number=number,
            round_id=round_id,
            dealer=self.dealer,
            winner=data.winner,
            side=data.side,
            last_card=data.last_card,
            hands=tuple((p, data.hand(p), points.get(p)) for p in players if p in active),
            credited=tuple(credited.items()),
            totals=tuple(totals.items()),
            eliminated=tuple(out_now),
            edits=tuple(edits),
        )
        dealer = next_dealer(players, self.dealer, eliminated)
        return Tally(number, totals, won, eliminated, dealer, ended), view

    def standings(self, setup: GameSetup) -> Standings:
        mode, totals, ended = setup.mode, self.totals, self.ended
        active_now = tuple(p for p in setup.players if p not in self.eliminated)
        winners: tuple[str, ...] = ()
        if ended is not None:
            if mode == "defi":
                winners = active_now
            elif mode == "lowest_wins":
                low = min(totals.values())
                winners = tuple(party for party, total in totals.items() if total == low)
            else:
                winners = tuple(party for party, total in totals.items() if total >= setup.target)
        return Standings(
            mode=mode,
            target=setup.target,
            rounds=self.rounds,
            rows=rank(setup, totals, self.won, self.eliminated),
            finished=ended is not None,
            ended_in_round=ended,
            winners=winners,
            tie=len(winners) > 1,
            dealer=None if ended is not None else self.dealer,
            active_players=active_now,
            two_player_final=mode == "defi" and ended is None and len(active_now) == 2,
        )


class Derived:
    """The standings and the history of the rounds in effect. A round recorded after the last
    one is added to it in place (:meth:`extend`), so a game of any length records a round in
    the same time, and replaying a whole log is linear in its entries. The tally after every
    :data:`MARK_EVERY` rounds is kept (``marks``): a change to an earlier round starts again
    from the last mark before it (:meth:`resumed`)."""

    def __init__(
        self,
        setup: GameSetup,
        tally: Tally,
        views: list[RoundView],
        marks: list[Tally] | None = None,
    ) -> None:
        self.setup = setup
        self.party_of = parties_by_player(setup)
        self.tally = tally
        self._views = views
        # marks[j]: the tally after j * MARK_EVERY rounds (marks[0]: before the first).
        self.marks = [tally] if marks is None else marks
        self._standings: Standings | None = None
        self._history: tuple[RoundView, ...] | None = None

    def resumed(self, rounds: int) -> Derived:
        """A new view of these rounds cut back to the last mark at or before round
        ``rounds + 1`` (this one unchanged): what a change to that round keeps."""
        kept = min(rounds, len(self._views)) // MARK_EVERY
        return Derived(
            self.setup,
            self.marks[kept],
            self._views[: kept * MARK_EVERY],
            self.marks[: kept + 1],
        )

    def copy(self) -> Derived:
        return Derived(self.setup, self.tally, list(self._views), list(self.marks))

    @property
    def standings(self) -> Standings:
        if self._standings is None:
            self._standings = self.tally.standings(self.setup)
        return self._standings

    @property
    def history(self) -> tuple[RoundView, ...]:
        if self._history is None:
            self._history = tuple(self._views)
        return self._history

    def next(self, round_id: int, data: RoundData, edits: Sequence[int] = ()) -> NextRound:
        """One more round after the last (see :meth:`Tally.after`); this one unchanged."""
        return NextRound(*self.tally.after(self.setup, self.party_of, round_id, data, edits))

    def extend(self, tally: Tally, view: RoundView) -> None:
        """Add the round ``Tally.after`` returned (it must follow the last one)."""
        self.tally = tally
        self._views.append(view)
        if len(self._views) % MARK_EVERY == 0:
            self.marks.append(tally)
        self._standings = self._history = None


def party_name(members: Sequence[str]) -> str:
    return " & ".join(members)


def parties_by_player(setup: GameSetup) -> dict[str, str]:
    return {p: party_name(team) for team in setup.parties() for p in team}


def derive(
    setup: GameSetup,
    rounds: Sequence[tuple[int, RoundData]],
    edits: Mapping[int, Sequence[int]] | None = None,
    pause: Callable[[], None] | None = None,
    after: Derived | None = None,
) -> Derived:
    """Replay ``rounds`` (in order) under ``setup``'s counting mode; ``after``: rounds already
    derived that these follow (extended in place), else none.

    Raises :class:`ScoringError` for a sequence that can't have happened: a hand for an eliminated
    player, a missing hand, or rounds after the game ended.
    """
    derived = Derived(setup, Tally.start(setup), []) if after is None else after
    edits = edits or {}
    for number, (round_id, data) in enumerate(rounds, start=1):
        if pause is not None and number % PAUSE_EVERY == 0:
            pause()
        derived.extend(*derived.next(round_id, data, edits.get(round_id, ())).step)
    return derived


def next_dealer(players: Sequence[str], dealer: str, eliminated: Mapping[str, int]) -> str:
    """The deal passes to the left (000 §III, 001 'La donne'), skipping eliminated players."""
    start = players.index(dealer)
    for step in range(1, len(players) + 1):
        candidate = players[(start + step) % len(players)]
        if candidate not in eliminated:
            return candidate
    return dealer


def rank(
    setup: GameSetup,
    totals: Mapping[str, int],
    won: Mapping[str, int],
    eliminated: Mapping[str, int],
) -> tuple[StandingRow, ...]:
    def key(party: str) -> tuple[int, ...]:
        if setup.mode == "winner_takes":
            return (-totals[party],)
        if setup.mode == "lowest_wins":
            return (totals[party],)
        out = eliminated.get(party)
        # Still in the race first; then who lasted longest; then the lower total.
        return (0 if out is None else 1, -(out or 0), totals[party])

    members = {party_name(team): team for team in setup.parties()}
    ordered = sorted(totals, key=lambda party: (key(party), setup.players.index(members[party][0])))
    rows: list[StandingRow] = []
    for index, party in enumerate(ordered):
        rank = rows[-1].rank if rows and key(ordered[index - 1]) == key(party) else index + 1
        rows.append(
            StandingRow(
                party=party,
                members=members[party],
                total=totals[party],
                rank=rank,
                rounds_won=won[party],
                eliminated_in=eliminated.get(party) if len(members[party]) == 1 else None,
            )
        )
    return tuple(rows)


@dataclass(frozen=True)
class NextRound:
    """A round recorded after the last one: the tally it leads to and its line of history."""

    tally: Tally
    view: RoundView

    @property
    def step(self) -> tuple[Tally, RoundView]:
        return self.tally, self.view
