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

from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
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
from companion.core.scoring.size import check_room
from companion.core.scoring.tally import (
    PAUSE_EVERY,
    Derived,
    NextRound,
    Tally,
    derive,
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
    edits: dict[int, tuple[int, ...]] = field(default_factory=dict)  # round id: its entries
    changed: int = 0  # the id of the round the last entry changed
    recorded: int = 0  # entries that recorded a round (what the game's size is counted in)

    def clone(self) -> _LogState:
        return _LogState(
            dict(self.rounds),
            list(self.undo_stack),
            list(self.redo_stack),
            dict(self.edits),
            self.changed,
            self.recorded,
        )

    def _set(self, round_id: int, data: RoundData | None, seq: int) -> None:
        if data is None:
            self.rounds.pop(round_id, None)
        else:
            self.rounds[round_id] = data
        self.edits[round_id] = (*self.edits.get(round_id, ()), seq)
        self.changed = round_id

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
            self.recorded += 1
        else:
            round_id = entry.round_id if entry.round_id is not None else -1
            if round_id not in self.rounds:
                raise ScoringError("no_such_round", round=round_id)
            after = entry.round if entry.type == "round_corrected" else None
            op = _Op(round_id, self.rounds[round_id], after)
        self._set(op.round_id, op.after, seq)
        self.undo_stack.append(op)
        self.redo_stack.clear()


class ScoreBook:
    """One game: its setup and its log. Every query is derived from the log.

    ``revision`` is the number of log entries; storage refuses an append naming an older revision
    (:class:`StaleWrite`), which is how two phones editing at once are told apart.
    """

    def __init__(
        self,
        setup: GameSetup,
        entries: Sequence[LogEntry] = (),
        *,
        verify: bool = True,
        pause: Callable[[], None] | None = None,
    ) -> None:
        """A book replaying ``entries``. ``verify=False`` checks only the final state (for logs
        this program stored itself, each entry already checked). Either way the replay is linear
        in the entries (see :meth:`_replay`); ``pause()`` is called every
        :data:`PAUSE_EVERY` entries (a long import lets other work run)."""
        self.setup = setup.validate()
        self._entries: list[LogEntry] = []
        self._state = _LogState()
        self._derived = derive(setup, ())
        # The entry ``new_*`` checked last: (entry, seq, its state or None for a round recorded
        # after the last one, and what it leads to).
        self._pending: tuple[LogEntry, int, _LogState | None, Derived | NextRound] | None = None
        self._replay(entries, verify, pause)

    def copy(self) -> ScoreBook:
        """An independent book with the same log, without replaying it."""
        other = ScoreBook.__new__(ScoreBook)
        other.setup, other._entries, other._state = (
            self.setup,
            list(self._entries),
            self._state.clone(),
        )
        other._derived = self._derived.copy()
        other._pending = None
        return other

    def _replay(
        self, entries: Sequence[LogEntry], verify: bool, pause: Callable[[], None] | None
    ) -> None:
        """Apply ``entries`` in order, each refused as it would have been when it was made.

        A recorded round is checked against the standings of its moment, at the cost of one
        round. After a correction, deletion, undo or redo the standings are derived again (the
        cost of every round) only once as many entries have passed as there are rounds, so a
        log full of corrections still replays in linear time; the final standings are always
        derived in full, so whatever was left unchecked on the way is checked there."""
        setup, state = self.setup, self._state
        derived = Derived(setup, Tally.start(setup), [])
        current, derived_at = True, 0
        for seq, entry in enumerate(entries, start=1):
            if pause is not None and seq % PAUSE_EVERY == 0:
                pause()
            try:
                if entry.type == "round_recorded" and verify:
                    if entry.round is None:
                        raise ScoringError("import_field", field="round", problem="is missing")
                    if not current and seq - derived_at > len(state.rounds):
                        derived = derive(setup, sorted(state.rounds.items()), state.edits)
                        current, derived_at = True, seq
                    if current:
                        if derived.tally.ended is not None:
                            raise ScoringError("game_over", round=derived.tally.ended)
                        derived.extend(*derived.next(seq, entry.round, (seq,)).step)
                    else:
                        check_round(setup, entry.round)  # the round on its own, at least
                else:
                    current = False
                state.apply(entry, seq)
            except ScoringError as error:
                raise ScoringError("import_entry", index=seq, problem=str(error)) from error
        self._entries = list(entries)
        if not current or not verify:
            try:
                derived = derive(setup, sorted(state.rounds.items()), state.edits, pause)
            except ScoringError as error:
                raise ScoringError(
                    "import_entry", index=len(self._entries), problem=str(error)
                ) from error
        self._derived = derived

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
        views = self.history()  # the rounds in effect, in play order
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(views):
            raise ScoringError("no_such_round", round=number)
        return views[number - 1].round_id

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
        derived = self._attempt(entry)[1]
        if isinstance(derived, NextRound):
            return derived.tally.standings(self.setup)
        return derived.standings

    # -- changing the book --------------------------------------------------------------------
    def apply(self, entry: LogEntry, expected_revision: int | None = None) -> int:
        """Append ``entry`` if valid; return its sequence number (1-based)."""
        if expected_revision is not None and expected_revision != self.revision:
            raise StaleWrite(expected_revision, self.revision)
        seq = len(self._entries) + 1
        state, derived = self._attempt(entry)
        if isinstance(derived, NextRound):  # a round after the last: added in place
            self._state.apply(entry, seq)
            self._derived.extend(derived.tally, derived.view)
        else:
            assert state is not None
            self._state, self._derived = state, derived
        self._entries.append(entry)
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

    def _attempt(self, entry: LogEntry) -> tuple[_LogState | None, Derived | NextRound]:
        """What ``entry`` leads to, the book unchanged: every entry appended (and every
        ``new_*``) goes through here, so this is where a game stops growing at the size the box
        keeps. A log replayed is not stopped: a game stored larger than that still opens."""
        seq = len(self._entries) + 1
        check_room(entry.type, len(self._entries), self._state.recorded)
        pending = self._pending
        if pending is not None and pending[0] is entry and pending[1] == seq:
            return pending[2], pending[3]  # checked a moment ago by ``new_*``
        result: tuple[_LogState | None, Derived | NextRound]
        if entry.type == "round_recorded":
            if entry.round is None:
                raise ScoringError("import_field", field="round", problem="is missing")
            if self.standings().finished:
                raise ScoringError("game_over", round=self.standings().ended_in_round)
            # A new round follows every round in effect (its id is the newest): one more step.
            result = (None, self._derived.next(seq, entry.round, (seq,)))
        else:
            state = self._state.clone()
            state.apply(entry, seq)
            # Only the changed round and those after it are replayed: from the last mark
            # before it (the rounds before it, and their edits, are the same).
            views = self._derived.history
            before = bisect_left(views, state.changed, key=lambda view: view.round_id)
            derived = self._derived.resumed(before)
            rounds = sorted(state.rounds.items())
            for number in range(len(derived.history), before):  # as they were: views kept
                derived.extend(derived.next(*rounds[number]).tally, views[number])
            result = (state, derive(self.setup, rounds[before:], state.edits, after=derived))
        self._pending = (entry, seq, *result)
        return result
