"""The score book: an append-only log of entries, and everything else derived from it.

Nothing is ever overwritten: a correction, a deletion, an undo or a redo is one more entry, and
the totals, standings, winner, eliminations and dealer are recomputed from the log. So a wrong tap
can always be taken back, and an exported game can be replayed to the same standings.

Typical use (the page)::

    book = ScoreBook(setup)
    book.record_round({"Bruno": HandEntry.of_cards({"n7": 1, "wild": 1}),
                       "Chloé": HandEntry.of_points(12), "Alice": HandEntry.empty()})
    book.standings().rows[0].party      # who leads
    book.correct_round(1, {...}); book.undo(); book.redo()

With storage in between, build the entry first (``book.new_record(...)`` checks it without
changing the book), store it, then ``book.apply(entry)``.

Counting modes (``GameSetup.mode``):

- ``winner_takes`` (000 §VII): who went out scores the points left in the others' hands; with
  teams (001) the points in the opponents' hands go to the winner's team. First to the target wins.
- ``lowest_wins`` (000 §XI.I, 001 "Variante", 002, 004): each player adds their own hand; when
  someone reaches the target the lowest total wins (a tie for lowest is shown, the texts don't
  break it).
- ``defi`` (001 "Défi UNO", 000 §X.I): each adds their own hand; reaching the target eliminates;
  the last one standing wins (the final two play by the two-player rules, 000 §X.H).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypedDict, Unpack

from companion.core.scoring.errors import ScoringError, StaleWrite
from companion.core.scoring.model import (
    GameSetup,
    HandEntry,
    LogEntry,
    RoundData,
    check_round,
    make_round,
)
from companion.core.scoring.views import RoundView, StandingRow, Standings

__all__ = ["RoundFacts", "RoundView", "ScoreBook", "StandingRow", "Standings", "derive"]


class RoundFacts(TypedDict, total=False):
    """What may be said about a round besides the hands (each found or defaulted if left out):
    who went out, the side it ended on (Flip) and the last card laid."""

    winner: str | None
    side: str | None
    last_card: str | None


@dataclass(frozen=True)
class _Op:
    """A reversible change to the set of rounds (what undo takes back)."""

    round_id: int
    before: RoundData | None
    after: RoundData | None


@dataclass
class _LogState:
    """Rounds by id plus the undo and redo stacks, as replayed from the log."""

    rounds: dict[int, RoundData] = field(default_factory=dict)
    undo_stack: list[_Op] = field(default_factory=list)
    redo_stack: list[_Op] = field(default_factory=list)
    edits: dict[int, list[int]] = field(default_factory=dict)

    def clone(self) -> _LogState:
        return _LogState(
            dict(self.rounds),
            list(self.undo_stack),
            list(self.redo_stack),
            {k: list(v) for k, v in self.edits.items()},
        )

    def _set(self, round_id: int, data: RoundData | None, seq: int) -> None:
        if data is None:
            self.rounds.pop(round_id, None)
        else:
            self.rounds[round_id] = data
        self.edits.setdefault(round_id, []).append(seq)

    def apply(self, entry: LogEntry, seq: int) -> None:
        if entry.type == "undo":
            if not self.undo_stack:
                raise ScoringError("nothing_to_undo")
            op = self.undo_stack.pop()
            self._set(op.round_id, op.before, seq)
            self.redo_stack.append(op)
            return
        if entry.type == "redo":
            if not self.redo_stack:
                raise ScoringError("nothing_to_redo")
            op = self.redo_stack.pop()
            self._set(op.round_id, op.after, seq)
            self.undo_stack.append(op)
            return
        if entry.type == "round_recorded":
            op = _Op(seq, None, entry.round)
        else:
            round_id = entry.round_id if entry.round_id is not None else -1
            if round_id not in self.rounds:
                raise ScoringError("no_such_round", round=round_id)
            after = entry.round if entry.type == "round_corrected" else None
            op = _Op(round_id, self.rounds[round_id], after)
        self._set(op.round_id, op.after, seq)
        self.undo_stack.append(op)
        self.redo_stack.clear()


@dataclass(frozen=True)
class _Derived:
    standings: Standings
    history: tuple[RoundView, ...]


def _party_name(members: Sequence[str]) -> str:
    return " & ".join(members)


def derive(
    setup: GameSetup,
    rounds: Sequence[tuple[int, RoundData]],
    edits: Mapping[int, Sequence[int]] | None = None,
) -> _Derived:
    """Replay ``rounds`` (in order) under ``setup``'s counting mode.

    Raises :class:`ScoringError` for a sequence that can't have happened: a hand for an eliminated
    player, a missing hand, or rounds after the game ended.
    """
    edits = edits or {}
    mode, target, players = setup.mode, setup.target, setup.players
    parties = setup.parties()
    party_of = {p: _party_name(team) for team in parties for p in team}
    totals = {_party_name(team): 0 for team in parties}
    won = dict.fromkeys(totals, 0)
    eliminated: dict[str, int] = {}
    dealer = setup.dealer0
    ended: int | None = None
    history: list[RoundView] = []
    for number, (round_id, data) in enumerate(rounds, start=1):
        if ended is not None:
            raise ScoringError("correction_ends_game", round=ended)
        points = check_round(setup, data)
        active = [p for p in players if p not in eliminated]
        for player in points:
            if player in eliminated:
                raise ScoringError("player_eliminated", player=player, round=eliminated[player])
        winner_party = party_of[data.winner]
        for player in active:
            partner_of_winner = party_of[player] == winner_party and mode == "winner_takes"
            if player not in points and not partner_of_winner:
                raise ScoringError("missing_hand", player=player)
        credited = dict.fromkeys(totals, 0)
        if mode == "winner_takes":
            credited[winner_party] = sum(
                pts for p, pts in points.items() if party_of[p] != winner_party
            )
        else:
            for player, pts in points.items():
                credited[party_of[player]] += pts
        for party, pts in credited.items():
            totals[party] += pts
        won[winner_party] += 1
        out_now: list[str] = []
        if mode == "defi":
            out_now = [p for p in active if totals[p] >= target]
            for player in out_now:
                eliminated[player] = number
            if len(active) - len(out_now) <= 1:
                ended = number
        elif any(total >= target for total in totals.values()):
            ended = number
        history.append(
            RoundView(
                number=number,
                round_id=round_id,
                dealer=dealer,
                winner=data.winner,
                side=data.side,
                last_card=data.last_card,
                hands=tuple((p, data.hand(p), points.get(p)) for p in players if p in active),
                credited=tuple(credited.items()),
                totals=tuple(totals.items()),
                eliminated=tuple(out_now),
                edits=tuple(edits.get(round_id, ())),
            )
        )
        dealer = _next_dealer(players, dealer, eliminated)
    active_now = tuple(p for p in players if p not in eliminated)
    rows = _rank(setup, totals, won, eliminated)
    winners: tuple[str, ...] = ()
    if ended is not None:
        if mode == "defi":
            winners = active_now
        elif mode == "lowest_wins":
            low = min(totals.values())
            winners = tuple(party for party, total in totals.items() if total == low)
        else:
            winners = tuple(party for party, total in totals.items() if total >= target)
    standings = Standings(
        mode=mode,
        target=target,
        rounds=len(rounds),
        rows=rows,
        finished=ended is not None,
        ended_in_round=ended,
        winners=winners,
        tie=len(winners) > 1,
        dealer=None if ended is not None else dealer,
        active_players=active_now,
        two_player_final=mode == "defi" and ended is None and len(active_now) == 2,
    )
    return _Derived(standings, tuple(history))


def _next_dealer(players: Sequence[str], dealer: str, eliminated: Mapping[str, int]) -> str:
    """The deal passes to the left (000 §III, 001 'La donne'), skipping eliminated players."""
    start = players.index(dealer)
    for step in range(1, len(players) + 1):
        candidate = players[(start + step) % len(players)]
        if candidate not in eliminated:
            return candidate
    return dealer


def _rank(
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

    members = {_party_name(team): team for team in setup.parties()}
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


class ScoreBook:
    """One game: its setup and its log. Every query is derived from the log.

    ``revision`` is the number of log entries; storage refuses an append naming an older revision
    (:class:`StaleWrite`), which is how two phones editing at once are told apart.
    """

    def __init__(
        self, setup: GameSetup, entries: Sequence[LogEntry] = (), *, verify: bool = True
    ) -> None:
        """A book replaying ``entries``. ``verify=False`` checks only the final state (for logs
        this program stored itself, each entry already checked): loading is then linear."""
        self.setup = setup.validate()
        self._entries: list[LogEntry] = []
        self._state = _LogState()
        self._derived = derive(setup, ())
        self._pending: tuple[LogEntry, int, _LogState, _Derived] | None = None
        if not verify:
            for seq, entry in enumerate(entries, start=1):
                try:
                    self._state.apply(entry, seq)
                except ScoringError as error:
                    raise ScoringError("import_entry", index=seq, problem=str(error)) from error
            self._entries = list(entries)
            self._derived = derive(setup, sorted(self._state.rounds.items()), self._state.edits)
            return
        for index, entry in enumerate(entries):
            try:
                self.apply(entry)
            except ScoringError as error:
                raise ScoringError("import_entry", index=index + 1, problem=str(error)) from error

    # -- queries ---------------------------------------------------------------------------
    @property
    def revision(self) -> int:
        return len(self._entries)

    @property
    def entries(self) -> tuple[LogEntry, ...]:
        return tuple(self._entries)

    @property
    def can_undo(self) -> bool:
        return bool(self._state.undo_stack)

    @property
    def can_redo(self) -> bool:
        return bool(self._state.redo_stack)

    def standings(self) -> Standings:
        return self._derived.standings

    def history(self) -> tuple[RoundView, ...]:
        return self._derived.history

    def rounds(self) -> tuple[tuple[int, RoundData], ...]:
        """The rounds in effect, in play order, with their ids."""
        return tuple(sorted(self._state.rounds.items()))

    def round_id(self, number: int) -> int:
        """The id of the ``number``-th round in effect (1-based, as the history shows)."""
        ids = sorted(self._state.rounds)
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(ids):
            raise ScoringError("no_such_round", round=number)
        return ids[number - 1]

    # -- building entries (checked, the book unchanged) ---------------------------------------
    def make_round(
        self,
        hands: Mapping[str, HandEntry],
        winner: str | None = None,
        side: str | None = None,
        last_card: str | None = None,
    ) -> RoundData:
        return make_round(self.setup, hands, winner, side, last_card)

    def new_record(
        self, hands: Mapping[str, HandEntry], *, at: str = "", **facts: Unpack[RoundFacts]
    ) -> LogEntry:
        standings = self.standings()
        if standings.finished:
            raise ScoringError("game_over", round=standings.ended_in_round)
        return self._checked(LogEntry.recorded(self.make_round(hands, **facts), at))

    def new_correction(
        self,
        number: int,
        hands: Mapping[str, HandEntry],
        *,
        at: str = "",
        **facts: Unpack[RoundFacts],
    ) -> LogEntry:
        data = self.make_round(hands, **facts)
        return self._checked(LogEntry.corrected(self.round_id(number), data, at))

    def new_deletion(self, number: int, at: str = "") -> LogEntry:
        return self._checked(LogEntry.deleted(self.round_id(number), at))

    def new_undo(self, at: str = "") -> LogEntry:
        return self._checked(LogEntry.undo(at))

    def new_redo(self, at: str = "") -> LogEntry:
        return self._checked(LogEntry.redo(at))

    def _checked(self, entry: LogEntry) -> LogEntry:
        self.check(entry)
        return entry

    def check(self, entry: LogEntry) -> Standings:
        """The standings ``entry`` would lead to; raises if it would be refused."""
        return self._attempt(entry)[1].standings

    # -- changing the book --------------------------------------------------------------------
    def apply(self, entry: LogEntry, expected_revision: int | None = None) -> int:
        """Append ``entry`` if valid; return its sequence number (1-based)."""
        if expected_revision is not None and expected_revision != self.revision:
            raise StaleWrite(expected_revision, self.revision)
        state, derived = self._attempt(entry)
        self._entries.append(entry)
        self._state, self._derived = state, derived
        self._pending = None
        return len(self._entries)

    def record_round(
        self, hands: Mapping[str, HandEntry], *, at: str = "", **facts: Unpack[RoundFacts]
    ) -> LogEntry:
        return self._applied(self.new_record(hands, at=at, **facts))

    def correct_round(
        self,
        number: int,
        hands: Mapping[str, HandEntry],
        *,
        at: str = "",
        **facts: Unpack[RoundFacts],
    ) -> LogEntry:
        return self._applied(self.new_correction(number, hands, at=at, **facts))

    def delete_round(self, number: int, at: str = "") -> LogEntry:
        return self._applied(self.new_deletion(number, at))

    def undo(self, at: str = "") -> LogEntry:
        return self._applied(self.new_undo(at))

    def redo(self, at: str = "") -> LogEntry:
        return self._applied(self.new_redo(at))

    def _applied(self, entry: LogEntry) -> LogEntry:
        self.apply(entry)
        return entry

    def _attempt(self, entry: LogEntry) -> tuple[_LogState, _Derived]:
        seq = len(self._entries) + 1
        pending = self._pending
        if pending is not None and pending[0] is entry and pending[1] == seq:
            return pending[2], pending[3]  # checked a moment ago by ``new_*``
        if entry.type == "round_recorded":
            if entry.round is None:
                raise ScoringError("import_field", field="round", problem="is missing")
            if self.standings().finished:
                raise ScoringError("game_over", round=self.standings().ended_in_round)
        state = self._state.clone()
        state.apply(entry, seq)
        derived = derive(self.setup, sorted(state.rounds.items()), state.edits)
        self._pending = (entry, seq, state, derived)
        return state, derived
