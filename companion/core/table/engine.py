"""The table engine: one event at a time, run to completion, the commands to carry out.

It follows the UNO Extrême rules (``000`` section X) and the other decks' texts with the options
of :class:`companion.core.options.RulesOptions`; what each card does is data in
:mod:`companion.core.cards`. One call to :meth:`TableEngine.handle` takes one event, runs it to
completion and returns the commands to carry out (eject, turn, sound, say). The engine holds no
thread and does no I/O: given the same seed and events it produces the same outcomes.
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from ..commands import Command, Cue, Eject, Priority, Say, Turn
from ..errors import ActionError
from ..events import (
    CallUno,
    CardsSeen,
    Challenge,
    ColourCame,
    ContreUno,
    Eliminate,
    Event,
    Jam,
    Lacked,
    MimicBroken,
    Play,
    Press,
    Reinstate,
    Reload,
    Rename,
    RoundWon,
    SetHand,
    SetRules,
    Setup,
    Source,
    StartRound,
    Suggestion,
    Undo,
)
from ..firing import FiringModel, profile_from_options
from ..options import LauncherOptions, RulesOptions
from .answers import challenge, colour_came, lacked, mimic_broken
from .calls import call_uno, contre_uno, round_won, set_hand, suggestion
from .counts import count_firing
from .effects import play
from .log import RoundLog
from .mending import LOG_CHANGES, mend
from .presses import cards_seen, jam, press, reload
from .renaming import rename
from .rounds import eliminate, reinstate, seat_players, set_rules, setup, start_round
from .state import Table, TableState
from .turns import facing_seat, name
from .view import log_view, table_view

ANY_PRESS = Press()
Handler = Callable[[Table, Any], list[Command]]
HANDLERS: dict[type, Handler] = {
    Setup: setup,
    StartRound: start_round,
    Press: press,
    Play: play,
    CallUno: call_uno,
    ContreUno: contre_uno,
    Suggestion: suggestion,
    Reload: reload,
    CardsSeen: cards_seen,
    Jam: jam,
    SetHand: set_hand,
    RoundWon: round_won,
    Eliminate: eliminate,
    Reinstate: reinstate,
    Challenge: challenge,
    ColourCame: colour_came,
    Lacked: lacked,
    MimicBroken: mimic_broken,
    SetRules: set_rules,
}


def event_name(kind: type) -> str:
    """``CallUno`` -> ``"call_uno"``: the outcome's name for events of ``kind``."""
    text = kind.__name__
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in text).lstrip("_")


# Lines that leave a round as it was dealt: the launcher may still be tested.
BEFORE_PLAY = (Setup, StartRound, SetRules, Reload, CardsSeen, Jam)

EVENT_NAMES = {kind: event_name(kind) for kind in (*HANDLERS, *LOG_CHANGES, Rename)}


class Outcome:
    """What handling one event produced: the event's name, its commands, the cards it fired and
    :attr:`snapshot`, the table as the event left it."""

    __slots__ = (
        "__weakref__",
        "_make",
        "_snapshot",
        "commands",
        "event",
        "fired",
        "handled",
        "source",
    )

    def __init__(
        self,
        event: str,
        commands: tuple[Command, ...],
        fired: int,
        snapshot: dict[str, Any] | None = None,
        *,
        make: Callable[[], dict[str, Any]] | None = None,
        source: Source = "script",
        handled: Event | None = None,
    ) -> None:
        if snapshot is None and make is None:
            raise ValueError("an outcome needs its snapshot or a way to make it")
        self.event = event
        self.commands = commands
        self.fired = fired
        self._snapshot = snapshot
        self._make = make
        self.source = source
        self.handled = handled  # the event itself (what the table's memory writes down)

    @property
    def snapshot(self) -> dict[str, Any]:
        """Made when first read (see :meth:`TableEngine.handle`): the hub reads it on its own
        thread once the launcher has its commands, so no other thread ever makes it."""
        if self._snapshot is None:
            assert self._make is not None
            self._snapshot, self._make = self._make(), None
        return self._snapshot

    def __repr__(self) -> str:
        return f"Outcome({self.event!r}, {self.commands!r}, fired={self.fired})"


class TableEngine(Table):
    """The rules of the table, run one event at a time, and the round's log they came from.

    >>> engine = TableEngine(["Alice", "Bruno", "Chloé"], seed=1)
    >>> engine.snapshot()["active"]  # the player left of the dealer (Alice) starts
    'Bruno'
    """

    def __init__(
        self,
        players: Sequence[str],
        *,
        dealer: str | None = None,
        rules: RulesOptions | None = None,
        launcher: LauncherOptions | None = None,
        seed: int = 0,
        clock: Callable[[], float] | None = None,
    ) -> None:
        """``clock`` (seconds, e.g. ``time.time``), if given, dates each line of the round's
        log; the core reads no clock of its own, so a session replays the same without it."""
        super().__init__()
        self.clock = clock
        self.launcher_options = launcher or LauncherOptions()
        self.firing = FiringModel(
            profile_from_options(self.launcher_options),
            magazine=self.launcher_options.magazine,
            low_warning=self.launcher_options.low_warning,
            rng=random.Random(seed),
        )
        self.seed = seed
        self.events_handled = 0
        self.last_fired = 0
        self._unread: weakref.ref[Outcome] | None = None  # the last outcome, until settled
        self.state = TableState(seats=[], rules=rules or RulesOptions())
        seat_players(self, players, dealer)
        self.log = RoundLog(self.checkpoint())
        # The round a setup replaced, until anything else happens: Undo gives it back.
        self.before_setup: RoundLog | None = None

    @property
    def rules(self) -> RulesOptions:
        """The rules the table plays by now (the options it started with, as edited since);
        they are part of :attr:`state`, so saving the state saves the house rules."""
        return self.state.rules

    @rules.setter
    def rules(self, rules: RulesOptions) -> None:
        self._settle_outcome()
        self.state.rules = rules
        for mark in self.log.marks:  # a replay of the round plays by them too
            mark.state.rules = rules

    # ------------------------------------------------------------------ public API

    def handle(
        self, event: Event, source: Source = "script", *, at: float | None = None
    ) -> Outcome:
        """Run ``event`` to completion. On :class:`ActionError` the table is unchanged.
        ``source`` says where the event came from and ``at`` when (seconds, if the caller
        keeps time); the outcome carries the source, the round's log both.

        The outcome's snapshot is made when first read. An outcome still held but unread when
        the table changes next (here or through :attr:`rules`) has its snapshot made first, so
        it always shows the table as its event left it."""
        self._settle_outcome()
        kind = type(event)
        if at is None and self.clock is not None:
            at = self.clock()
        if isinstance(event, Rename):  # not a line of the round: the name changes in all of it
            logs = [self.log] if self.before_setup is None else [self.log, self.before_setup]
            commands = rename(self.state, logs, event)
            self.last_fired = 0
        elif isinstance(event, CardsSeen):  # not a line: the count amends the press it counts
            before_facing = facing_seat(self.state)
            commands = count_firing(self, self.log, self.run, event)
            commands += self._epilogue(before_facing)
            self.log.next_seq += 1  # numbered as when it was a line: the saved lines agree
            self.last_fired = 0
        elif kind is Undo and not self.log.undo and self.before_setup is not None:
            commands = self._undo_setup()
        elif kind in LOG_CHANGES:
            before_facing = facing_seat(self.state)
            commands = mend(self, self.log, self.run, event, source)
            commands += self._epilogue(before_facing)
            self.last_fired = 0
            self._forget_setup_once_played()
        else:
            if kind not in HANDLERS:
                raise ActionError("unknown_event", f"unknown event {event!r}")
            if kind is Press and event == ANY_PRESS:
                event = ANY_PRESS  # one object for the many presses a round's log holds
            start = self.checkpoint() if kind is StartRound else None
            commands = self.run(event)
            log = self.log
            entry = log.new_entry(event, source, self.pressed if kind is Press else None, at)
            if kind is Setup:  # a new table: its log starts seated and dealt
                self.log = RoundLog(self.checkpoint(), log.next_seq)
                self.before_setup = log
            elif start is not None:  # a new round: its log starts with the deal
                self.log = RoundLog(start, log.next_seq)
                self.log.append(entry, self)
            else:
                log.append(entry, self)
                if entry.firing is not None and entry.firing.fired:
                    log.awaiting = entry.seq  # its cards' count comes from the beam
            if kind is not Setup:
                self._forget_setup_once_played()
            self.last_fired = sum(c.cards for c in commands if isinstance(c, Eject))
        self.events_handled += 1
        outcome = Outcome(
            EVENT_NAMES[kind],
            tuple(commands),
            self.last_fired,
            make=self.snapshot,
            source=source,
            handled=event,
        )
        self._unread = weakref.ref(outcome)
        return outcome

    def _forget_setup_once_played(self) -> None:
        """The round a setup replaced stays for Undo while the new table holds nothing but
        rule changes (a new score game puts its deck on the table right after its setup: one
        Undo takes the deck back, the next the setup); anything else forgets it."""
        if any(type(entry.event) is not SetRules for entry in self.log.entries):
            self.before_setup = None

    def _undo_setup(self) -> list[Command]:
        """Undo right after a setup: the table and round it replaced come back as they were."""
        assert self.before_setup is not None
        before_facing = facing_seat(self.state)
        self.log, self.before_setup = self.before_setup, None
        self.log.replay(self, self.run, len(self.log.entries))
        return [Say("table.undone", {}), *self._epilogue(before_facing)]

    def run(self, event: Event) -> list[Command]:
        """Apply ``event`` to the table (live, or replaying the log): its commands."""
        self.pressed = self.actor = None
        before_facing = facing_seat(self.state)
        commands = HANDLERS[type(event)](self, event)
        commands += self._epilogue(before_facing)
        return commands

    def replay(self, start: int = 0) -> None:
        """Recompute the table from the round's log, from line index ``start`` on."""
        self._settle_outcome()
        self.log.replay(self, self.run, start)

    def _settle_outcome(self) -> None:
        """Before the table changes: the snapshot of the last outcome, if it is still held and
        has not been read (a dropped outcome costs nothing)."""
        last = self._unread() if self._unread is not None else None
        self._unread = None
        if last is not None:
            last.snapshot  # noqa: B018  (made now, while the table is as its event left it)

    @property
    def round_under_way(self) -> bool:
        """A card played or a press made in this round, and the round not over: the launcher
        is the players' until the round ends."""
        if self.state.phase in ("over", "game_over"):
            return False
        return any(type(entry.event) not in BEFORE_PLAY for entry in self.log.entries)

    def acted_since(self, seq: int, event: Event) -> bool:
        """Whether ``event``'s player did such a thing (pressed, played, called) in a line of
        this round from ``seq`` on: a second phone's copy of it, or a second tap, is already
        done. An event that names no player was done by nobody in particular: False. A press
        or a card of the player a press or a card is for now is theirs to make again (presses
        owed, a turn come back): False."""
        player = getattr(event, "player", None)
        if not isinstance(player, str):
            return False
        if isinstance(event, Press | Play) and self.presser() == player:
            return False
        names = [seat.name for seat in self.state.seats]
        return self.log.acted_since(seq, type(event), player, names)

    def presser(self) -> str:
        """Who a press is for now: whoever owes presses first, else the active player."""
        st = self.state
        return name(st, st.owed[0].seat if st.owed else st.active)

    def facing_seat(self) -> int:
        """The seat the launcher must face: whoever gets the owed presses' cards, else the
        active player."""
        return facing_seat(self.state)

    def snapshot(self) -> dict[str, Any]:
        """The table as plain JSON-ready data, for the page and the script trace.

        ``fired`` is the number of cards the last handled event fired; ``log`` the round's
        last lines (each with its card and source), ``last_event`` the last of them."""
        view = table_view(self)
        view["fired"] = self.last_fired
        view["can_undo"] = bool(self.log.undo)
        view["can_redo"] = bool(self.log.redo)
        view["events"] = self.events_handled
        lines = log_view(self.log, [seat.name for seat in self.state.seats])
        view["log"] = lines
        view["last_event"] = lines[-1] if lines else None
        return view

    def _epilogue(self, before_facing: int) -> list[Command]:
        commands: list[Command] = []
        st = self.state
        if st.mimic is not None and st.mimic_played and st.active == st.mimic and not st.owed:
            st.mimic = None  # 004: the mimic is kept "jusqu'à son prochain tour"
        facing = facing_seat(st)
        if facing != before_facing:
            commands.append(Turn(facing, name(st, facing)))
        launcher = self.firing
        if launcher.low and not st.warned_low and not launcher.empty:
            st.warned_low = True
            commands += [
                Cue("warning"),
                Say("table.magazine_low", {"cards": launcher.magazine}, Priority.WARNING),
            ]
        return commands
