"""What changes during a game: seats, owed presses, the phase, and the context the rules run in.

Everything in :class:`TableState` is plain dataclasses of plain values, so the table can be saved
after each event, and copied as the checkpoint a replay of the round's log starts from.

Seats are numbered in the order players sit going left (clockwise seen from above); direction
``+1`` is "to the left", the way play starts (000 §IV).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from ..firing import Firing, FiringModel
from ..options import LauncherOptions, RulesOptions

HAND_SIZE = 7  # cards dealt to each player (000 §III)

# The round's phase: cards being played; the table must answer a question (who lacked Lotso's
# colour); the round is won but presses are still owed (000 §VI: those cards count); over.
Phase = Literal["playing", "asking", "settling", "over", "game_over"]

# Every move of the round's phase the rules make: a deal starts play again (a misdeal from any
# phase in play); a Lotso asks and its answer (or its player leaving) resumes play; a won round
# settles what is owed, then is over; a last player left wins the game, until someone is let
# back in.
PHASE_MOVES: dict[Phase, frozenset[Phase]] = {
    "playing": frozenset({"playing", "asking", "settling", "over", "game_over"}),
    "asking": frozenset({"playing", "game_over"}),
    "settling": frozenset({"over", "game_over"}),
    "over": frozenset({"playing", "game_over"}),
    "game_over": frozenset({"playing"}),
}


class PhaseMoveError(RuntimeError):
    """A move of the round's phase that :data:`PHASE_MOVES` does not hold: a bug in the rules."""


@dataclass
class Seat:
    name: str
    hand: int = HAND_SIZE
    uno: bool = False  # said UNO for their last card
    eliminated: bool = False


@dataclass
class Owed:
    """Presses one player owes, in the order they must be made.

    ``receiver`` gets what the presses fire and the launcher faces them (the Coup Extrême target
    while the attacker presses, 000 §X); None: the presser. ``until`` "fire": press until the
    launcher fires; "colour": until the table says a card of ``colour`` came out. ``by`` is who
    played the card that caused them (the one a challenge is about)."""

    seat: int
    presses: int
    reason: str
    until: str = ""
    made: int = 0  # presses already made against this entry
    receiver: int | None = None
    colour: str = ""
    by: int | None = None

    @property
    def gets(self) -> int:
        return self.seat if self.receiver is None else self.receiver


@dataclass
class TableState:
    seats: list[Seat]
    rules: RulesOptions = field(default_factory=RulesOptions)  # the table's house rules
    dealer: int = 0
    active: int = 1
    direction: int = 1
    owed: list[Owed] = field(default_factory=list)
    round: int = 0
    phase: Phase = "playing"  # changed by :meth:`move_to` only
    winner: int | None = None
    last_card: dict[str, Any] | None = None  # replaced, never changed in place
    contre_uno_window: int | None = None  # seat that may still be caught for a forgotten UNO
    contre_uno_closed: int | None = None  # whose window closed last (a call now is too late)
    contre_uno_closed_by: int | None = None  # ... and who closed it by acting
    round_may_be_over: int | None = None  # seat whose hand is estimated empty
    last_fire: tuple[int, int] | None = None  # (seat, cards) of the last firing
    jam: bool = False
    jam_fault: str = ""  # JamFault while jammed: "jam", "stuck" or "empty"
    warned_low: bool = False
    side: str = ""  # UNO Flip: "light" or "dark" (000 §XI.B); "" for one-sided decks
    asking: int | None = None  # seat that played the Lotso the table must answer about
    asking_colour: str = ""
    mimic: int | None = None  # UNO Emoji: seat holding a mimic until their next turn (004)
    mimic_played: bool = False

    def move_to(self, phase: Phase) -> None:
        """Move the round to ``phase``, one of the moves :data:`PHASE_MOVES` holds."""
        if phase not in PHASE_MOVES[self.phase]:
            raise PhaseMoveError(f"the round cannot go from {self.phase!r} to {phase!r}")
        self.phase = phase

    def copy(self) -> TableState:
        """A copy that shares nothing mutable with this one: cheaper than a deep copy."""
        new: TableState = _shallow(self)
        new.seats = [_shallow(s) for s in self.seats]
        new.owed = [_shallow(o) for o in self.owed]
        return new


def _shallow(obj: Any) -> Any:
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


@dataclass(frozen=True)
class Checkpoint:
    """The table at one moment with the firing model's count then (the magazine and the presses
    since its last firing): where a replay of the round's log starts."""

    state: TableState
    magazine: int
    presses_since_fire: int


class Table:
    """What the rules read and change: the state, the firing model and its options.

    While the round's log is replayed, :attr:`replaying` holds what each press really did, so
    a replay counts the same cards and never rolls the dice again."""

    state: TableState
    firing: FiringModel
    launcher_options: LauncherOptions

    def __init__(self) -> None:
        self.replaying = False
        self.recorded: Firing | None = None  # the replayed press's fact (None: it did not serve)
        self.pressed: Firing | None = None  # what the press just handled did (None: no firing)
        self.actor: int | None = None  # whose card or press the event just handled was

    def checkpoint(self) -> Checkpoint:
        return Checkpoint(self.state.copy(), self.firing.magazine, self.firing.presses_since_fire)

    def put_back(self, point: Checkpoint) -> None:
        self.state = point.state.copy()
        self.firing.magazine = point.magazine
        self.firing.presses_since_fire = point.presses_since_fire
