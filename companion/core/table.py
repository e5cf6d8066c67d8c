"""The table engine: whose turn it is, who owes how many presses, what the launcher does.

It follows the UNO Extrême rules (``000`` section X) and the other decks' texts with the options
of :class:`companion.core.options.RulesOptions`; what each card does is data in
:mod:`companion.core.cards`. One call to :meth:`TableEngine.handle` takes one event, runs it to
completion and returns the commands to carry out (eject, turn, sound, say). The engine holds no
thread and does no I/O: given the same seed and events it produces the same outcomes.

Everything that changes during a game is in :class:`TableState` (plain dataclasses of plain
values), so the table can be saved after each event and taken back with :class:`Undo`.

Seats are numbered in the order players sit going left (clockwise seen from above); direction
``+1`` is "to the left", the way play starts (000 §IV).
"""

from __future__ import annotations

import functools
import random
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from .cards import CARDS, CardRule, in_deck, lowest_number
from .commands import Command, Cue, Eject, Priority, Say, Turn
from .errors import ActionError
from .events import (
    COLOURS,
    DARK_COLOURS,
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
    RoundWon,
    SetHand,
    SetRules,
    Setup,
    Source,
    StartRound,
    Suggestion,
    Undo,
)
from .launcher import AUTHENTIC, GENTLE, EjectionProfile, Launcher, fixed_profile
from .limits import MAX_HAND, MAX_NAME, MAX_PLAYERS, MIN_PLAYERS
from .names import shown_key
from .options import LauncherOptions, RulesOptions, with_changes
from .scoring.rulesets import builtin_ruleset

HAND_SIZE = 7  # cards dealt to each player (000 §III)
UNDO_DEPTH = 50

# The round's phase: cards being played; the table must answer a question (who lacked Lotso's
# colour); the round is won but presses are still owed (000 §VI: those cards count); over.
Phase = Literal["playing", "asking", "settling", "over", "game_over"]


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
    phase: Phase = "playing"
    winner: int | None = None
    last_card: dict[str, Any] | None = None  # replaced, never changed in place
    contre_uno_window: int | None = None  # seat that may still be caught for a forgotten UNO
    round_may_be_over: int | None = None  # seat whose hand is estimated empty
    last_fire: tuple[int, int] | None = None  # (seat, cards) of the last firing
    jam: bool = False
    warned_low: bool = False
    side: str = ""  # UNO Flip: "light" or "dark" (000 §XI.B); "" for one-sided decks
    asking: int | None = None  # seat that played the Lotso the table must answer about
    asking_colour: str = ""
    mimic: int | None = None  # UNO Emoji: seat holding a mimic until their next turn (004)
    mimic_played: bool = False

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
class UndoStep:
    """The table as it was before one event that :class:`Undo` can take back, with the
    launcher's count then (the magazine and the presses since its last firing)."""

    state: TableState
    magazine: int
    presses_since_fire: int


class Outcome:
    """What handling one event produced: the event's name, its commands, the cards it fired and
    :attr:`snapshot`, the table as the event left it."""

    __slots__ = ("__weakref__", "_make", "_snapshot", "commands", "event", "fired", "source")

    def __init__(
        self,
        event: str,
        commands: tuple[Command, ...],
        fired: int,
        snapshot: dict[str, Any] | None = None,
        *,
        make: Callable[[], dict[str, Any]] | None = None,
        source: Source = "script",
    ) -> None:
        if snapshot is None and make is None:
            raise ValueError("an outcome needs its snapshot or a way to make it")
        self.event = event
        self.commands = commands
        self.fired = fired
        self._snapshot = snapshot
        self._make = make
        self.source = source

    @property
    def snapshot(self) -> dict[str, Any]:
        """Made when first read: the daemon builds the page's state on its own, so most
        outcomes are never asked for one (see :meth:`TableEngine.handle`)."""
        if self._snapshot is None:
            assert self._make is not None
            self._snapshot, self._make = self._make(), None
        return self._snapshot

    def __repr__(self) -> str:
        return f"Outcome({self.event!r}, {self.commands!r}, fired={self.fired})"


def profile_from_options(options: LauncherOptions) -> EjectionProfile:
    """The ejection profile named by ``launcher.profile``."""
    if options.profile == "authentic":
        return AUTHENTIC
    if options.profile == "gentle":
        return GENTLE
    if options.profile == "fixed":
        return fixed_profile(options.fixed_cards)
    custom = options.profiles[options.profile]
    pairs = tuple(zip(custom.cards[::2], custom.cards[1::2], strict=True))
    extra = (custom.forced_extra[0], custom.forced_extra[1])
    return EjectionProfile(options.profile, tuple(custom.fire_chance), pairs, extra)


class TableEngine:
    """The rules of the table, run one event at a time.

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
    ) -> None:
        self.launcher_options = launcher or LauncherOptions()
        self.launcher = Launcher(
            profile_from_options(self.launcher_options),
            magazine=self.launcher_options.magazine,
            low_warning=self.launcher_options.low_warning,
            rng=random.Random(seed),
        )
        self.seed = seed
        self.events_handled = 0
        self.last_fired = 0
        self._unread: weakref.ref[Outcome] | None = None  # the last outcome, until settled
        self._history: list[UndoStep] = []
        self.state = TableState(seats=[], rules=rules or RulesOptions())
        self._seat_players(players, dealer)
        self._handlers: dict[type, Callable[[Any], list[Command]]] = {
            Setup: self._setup,
            StartRound: self._start_round,
            Press: self._press,
            Play: self._play,
            CallUno: self._call_uno,
            ContreUno: self._contre_uno,
            Suggestion: self._suggestion,
            Reload: self._reload,
            CardsSeen: self._cards_seen,
            Jam: self._jam,
            SetHand: self._set_hand,
            RoundWon: self._round_won,
            Eliminate: self._eliminate,
            Reinstate: self._reinstate,
            Undo: self._undo,
            Challenge: self._challenge,
            ColourCame: self._colour_came,
            Lacked: self._lacked,
            MimicBroken: self._mimic_broken,
            SetRules: self._set_rules,
        }
        self._event_names = {kind: _event_name(kind) for kind in self._handlers}

    @property
    def rules(self) -> RulesOptions:
        """The rules the table plays by now (the options it started with, as edited since);
        they are part of :attr:`state`, so saving the state saves the house rules."""
        return self.state.rules

    @rules.setter
    def rules(self, rules: RulesOptions) -> None:
        self._settle_outcome()
        self.state.rules = rules

    # ------------------------------------------------------------------ public API

    def handle(self, event: Event, source: Source = "script") -> Outcome:
        """Run ``event`` to completion. On :class:`ActionError` the table is unchanged.
        ``source`` says where the event came from; the outcome carries it.

        The outcome's snapshot is made when first read. An outcome still held but unread when
        the table changes next (here or through :attr:`rules` / :attr:`undo_history`) has its
        snapshot made first, so it always shows the table as its event left it."""
        self._settle_outcome()
        handler = self._handlers.get(type(event))
        if handler is None:
            raise ActionError("unknown_event", f"unknown event {event!r}")
        before = UndoStep(
            self.state.copy(), self.launcher.magazine, self.launcher.presses_since_fire
        )
        before_facing = self.facing_seat()
        try:
            commands = handler(event)
        except ActionError:
            self._put_back(before)
            raise
        if isinstance(event, Press | CardsSeen | Jam):
            self._history.clear()  # cards are out on the table: no taking that back
        elif not isinstance(event, Undo):
            self._history.append(before)
            if len(self._history) > UNDO_DEPTH:
                del self._history[0]
        commands += self._epilogue(before_facing)
        self.events_handled += 1
        self.last_fired = sum(c.cards for c in commands if isinstance(c, Eject))
        outcome = Outcome(
            self._event_names[type(event)],
            tuple(commands),
            self.last_fired,
            make=self.snapshot,
            source=source,
        )
        self._unread = weakref.ref(outcome)
        return outcome

    def _settle_outcome(self) -> None:
        """Before the table changes: the snapshot of the last outcome, if it is still held and
        has not been read (a dropped outcome costs nothing)."""
        last = self._unread() if self._unread is not None else None
        self._unread = None
        if last is not None:
            last.snapshot  # noqa: B018  (made now, while the table is as its event left it)

    @property
    def undo_history(self) -> tuple[UndoStep, ...]:
        """What :class:`Undo` can take back, oldest first (at most :data:`UNDO_DEPTH` steps;
        cards on the table clear it). Never changed in place: the table's memory keeps it."""
        return tuple(self._history)

    @undo_history.setter
    def undo_history(self, steps: Sequence[UndoStep]) -> None:
        self._settle_outcome()
        self._history = list(steps)[-UNDO_DEPTH:]

    def facing_seat(self) -> int:
        """The seat the launcher must face: whoever gets the owed presses' cards, else the
        active player."""
        st = self.state
        return st.owed[0].gets if st.owed else st.active

    def full_magazine(self) -> int:
        """What the launcher holds after a deal: the deck minus the hands and the first card
        (000 §III, §X.A), unless the launcher options set a load."""
        if self.launcher_options.magazine:
            return self.launcher_options.magazine
        rules = self.state.rules
        deck = "classic" if rules.deck == "extreme" and rules.any_deck else rules.deck
        dealt = HAND_SIZE * self._players_in() + 1
        return max(0, _deck_size(deck) - dealt)

    def snapshot(self) -> dict[str, Any]:
        """The table as plain JSON-ready data, for the page and the script trace.

        ``fired`` is the number of cards the last handled event fired; ``rules`` holds only the
        house rules that differ from the defaults, and the deck."""
        st = self.state
        seats = st.seats
        facing = self.facing_seat()
        return {
            "players": [
                {
                    "name": s.name,
                    "seat": i,
                    "hand": s.hand,
                    "uno": s.uno,
                    "eliminated": s.eliminated,
                }
                for i, s in enumerate(seats)
            ],
            "dealer": seats[st.dealer].name,
            "active": seats[st.active].name,
            "direction": "left" if st.direction == 1 else "right",
            "facing": seats[facing].name,
            "facing_seat": facing,
            "owed": [
                {
                    "player": seats[o.seat].name,
                    "for": seats[o.gets].name,
                    "presses": 1 if o.until else o.presses - o.made,
                    "made": o.made,
                    "reason": o.reason,
                    "until": o.until,
                    "until_fire": o.until == "fire",
                    "colour": o.colour,
                }
                for o in st.owed
            ],
            "magazine": self.launcher.magazine,
            "magazine_full": self.full_magazine(),
            "magazine_low": self.launcher.low,
            "needs_reload": self.launcher.empty or st.jam,
            "jam": st.jam,
            "profile": self.launcher.profile.name,
            "presses_since_fire": self.launcher.presses_since_fire,
            "suspense": self.launcher.suspense(),
            "round": st.round,
            "phase": st.phase,
            "round_over": st.phase in ("over", "game_over"),
            "winner": None if st.winner is None else seats[st.winner].name,
            "game_over": st.phase == "game_over",
            "round_may_be_over": _name_or_none(st, st.round_may_be_over),
            "contre_uno_window": _name_or_none(st, st.contre_uno_window),
            "last_card": st.last_card,
            "side": st.side,
            "lowest_number": lowest_number(st.rules),
            "asking": None
            if st.asking is None
            else {"card": "lotso", "player": seats[st.asking].name, "colour": st.asking_colour},
            "mimic": _name_or_none(st, st.mimic),
            "rules": dict(_changed_rules(st.rules)),
            "fired": self.last_fired,
            "can_undo": bool(self._history),
            "events": self.events_handled,
        }

    # ------------------------------------------------------------------ seating and turns

    def _seat_players(self, players: Sequence[str], dealer: str | None) -> None:
        names = [str(p).strip() for p in players]
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise ActionError(
                "player_count",
                f"UNO is for {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(names)}",
                {"count": len(names)},
            )
        for name in names:
            if not name or len(name) > MAX_NAME:
                raise ActionError(
                    "bad_name", f"a player name needs 1 to {MAX_NAME} characters", {"name": name}
                )
        if len({shown_key(n) for n in names}) != len(names):  # as they show, not as typed
            raise ActionError("duplicate_player", "two players have the same name")
        self.state = TableState(seats=[Seat(n) for n in names], rules=self.state.rules)
        dealer_seat = self._seat_of(dealer) if dealer else 0
        self._deal(dealer_seat, start_card=None, colour=None)

    def _seat_of(self, name: str | None) -> int:
        if name is None:
            raise ActionError("missing_player", "a player name is needed")
        folded = shown_key(name)
        for i, seat in enumerate(self.state.seats):
            if shown_key(seat.name) == folded:
                return i
        raise ActionError("unknown_player", f"no player called {name!r}", {"name": name}, 404)

    def _in_play(self, name: str | None) -> int:
        seat = self._seat_of(name)
        if self.state.seats[seat].eliminated:
            raise ActionError(
                "eliminated", f"{name} is out of the game", {"name": str(name)}, status=409
            )
        return seat

    def _players_in(self) -> int:
        return sum(not s.eliminated for s in self.state.seats)

    def _step(self, seat: int, direction: int | None = None) -> int:
        """The next seat still in the game, going ``direction`` (default: the play direction)."""
        st = self.state
        step = st.direction if direction is None else direction
        n = len(st.seats)
        for k in range(1, n + 1):
            candidate = (seat + step * k) % n
            if not st.seats[candidate].eliminated:
                return candidate
        return seat

    def _others(self, player: int, direction: int | None = None) -> list[int]:
        """Every other player still in the game, from the one after ``player``."""
        seats = []
        seat = self._step(player, direction)
        while seat != player:
            seats.append(seat)
            seat = self._step(seat, direction)
        return seats

    def _two_player(self) -> bool:
        return self._players_in() == 2 and self.rules.two_player_rules

    def _name(self, seat: int) -> str:
        return self.state.seats[seat].name

    # ------------------------------------------------------------------ rounds

    def _deal(
        self, dealer: int, start_card: str | None, colour: str | None, *, redeal: bool = False
    ) -> list[Command]:
        """A new round: 7 cards each, the magazine loaded, the start card's effect (000 §V, §X).

        ``redeal``: the same round dealt again (the first card turned up, a misdeal)."""
        st = self.state
        if st.seats[dealer].eliminated:
            dealer = self._step(dealer, 1)
        st.dealer = dealer
        st.direction = 1
        st.owed = []
        if not redeal:
            st.round += 1
        st.phase = "playing"
        st.winner = None
        st.contre_uno_window = None
        st.round_may_be_over = None
        st.last_fire = None
        st.last_card = None
        st.side = "light" if st.rules.deck == "flip" else ""  # 000 §XI.C: light side up
        st.asking = None
        st.mimic = None
        for seat in st.seats:
            seat.hand = 0 if seat.eliminated else HAND_SIZE
            seat.uno = False
        self.launcher.magazine = self.full_magazine()
        st.jam = False
        st.warned_low = False
        first = self._step(dealer, 1)
        st.active = first
        commands: list[Command] = [Cue("reload")]
        if start_card is None:
            return commands
        st.last_card = {"card": start_card, "colour": colour, "player": None}
        start = CARDS[start_card].start
        if start == "reverse":
            # 000 §V Inversion: the dealer plays first, then play goes right.
            st.direction = -1
            st.active = dealer
        elif start == "skip":
            # 000 §V Passer: the player left of the dealer misses a turn.
            st.active = self._step(first)
        elif start == "owe":
            # 000 §X Appuyer 2x, §V +2, §XI.E +1: the player left of the dealer presses and play
            # starts with the next one.
            card = CARDS[start_card]
            self._owe(first, card.presses, start_card)
            st.active = self._step(first)
        # number, wild (left of dealer picks the colour), discard_all: the player left of the
        # dealer starts (000 §V Joker, §X Poser Tout).
        return commands

    def _start_round(self, ev: StartRound) -> list[Command]:
        st = self.state
        if st.phase == "game_over":
            raise ActionError("game_over", "the game is over: seat the players again", status=409)
        if st.phase == "settling":
            self._refuse_settling()
        if ev.start_card is not None:
            card = self._card(ev.start_card, side="light" if st.rules.deck == "flip" else "")
            if card.start == "back":
                raise ActionError(
                    "start_card_back",
                    "this card cannot start the game: put it back and turn another (000 §V)",
                    {"card": card.key},
                )
        _check_colour(ev.colour)
        redeal = st.phase != "over"
        if ev.dealer is not None:
            dealer = self._in_play(ev.dealer)
        elif redeal:
            dealer = st.dealer  # the round in progress, dealt again (its first card turned up)
        else:
            dealer = self._step(st.dealer, 1)  # the deal passes to the left each round
        commands = self._deal(dealer, ev.start_card, ev.colour, redeal=redeal)
        commands.append(
            Say("table.new_round", {"round": st.round, "dealer": self._name(st.dealer)})
        )
        return commands

    def _setup(self, ev: Setup) -> list[Command]:
        self._seat_players(ev.players, ev.dealer)
        self._history.clear()
        return [Cue("start"), Say("table.setup", {"count": len(ev.players)})]

    def _check_round_running(self) -> None:
        phase = self.state.phase
        if phase in ("over", "game_over", "settling"):
            raise ActionError("round_over", "the round is over: start a new one", status=409)
        if phase == "asking":
            self._refuse_asking()

    def _refuse_asking(self) -> None:
        st = self.state
        assert st.asking is not None
        raise ActionError(
            "decks.error_answer_lotso",
            "say first who lacked the colour of the Lotso (002)",
            {"player": self._name(st.asking), "colour": st.asking_colour},
            status=409,
        )

    def _refuse_settling(self) -> None:
        head = self.state.owed[0]
        raise ActionError(
            "decks.error_presses_after_win",
            f"{self._name(head.seat)} still owes presses: those cards count (000 §VI)",
            {"player": self._name(head.seat)},
            status=409,
        )

    # ------------------------------------------------------------------ presses

    def _owe(
        self,
        seat: int,
        presses: int,
        reason: str,
        until: str = "",
        *,
        receiver: int | None = None,
        colour: str = "",
        by: int | None = None,
    ) -> None:
        self.state.owed.append(
            Owed(seat, presses, reason, until, receiver=receiver, colour=colour, by=by)
        )

    def _press(self, ev: Press) -> list[Command]:
        st = self.state
        if st.phase == "settling" and st.owed:
            pass  # 000 §VI: the round is won, the owed presses still count
        else:
            self._check_round_running()
        if st.owed:
            presser, refusal, message = st.owed[0].seat, "not_your_press", "{} must press first"
        else:
            presser, refusal, message = st.active, "not_your_turn", "it is {}'s turn"
        if ev.player is not None and self._seat_of(ev.player) != presser:
            name = self._name(presser)
            raise ActionError(refusal, message.format(name), {"player": name}, status=409)
        if self.launcher.empty or st.jam:
            # 000 §X.C: reshuffle and reload when it can no longer serve. The press is not used up.
            return [Cue("error"), Say("table.reload_needed", {}, Priority.WARNING)]
        receiver = st.owed[0].gets if st.owed else presser
        commands: list[Command] = [Cue("ding")]
        firing = self.launcher.press()
        if firing.fired:
            seat = st.seats[receiver]
            seat.hand = min(MAX_HAND, seat.hand + firing.cards)
            if seat.hand > 1:
                seat.uno = False
            st.last_fire = (receiver, firing.cards)
            commands += [Eject(firing.cards, firing.forced), Cue("burst")]
            commands.append(Say("table.fired", {"player": seat.name, "cards": firing.cards}))
            if firing.cards < firing.wanted:
                commands.append(Say("table.reload_needed", {}, Priority.WARNING))
        else:
            commands.append(Cue("suspense", self.launcher.suspense()))
        if st.contre_uno_window is not None and st.contre_uno_window != presser:
            st.contre_uno_window = None  # 000 §VI: the next player has acted
        if st.owed:
            entry = st.owed[0]
            entry.made += 1
            if entry.until == "colour":
                done = False  # the table says when the colour came (ColourCame)
                if firing.fired:
                    commands.append(
                        Say(
                            "decks.colour_came_ask",
                            {"player": self._name(receiver), "colour": entry.colour},
                            Priority.PROMPT,
                        )
                    )
            elif entry.until == "fire":
                done = firing.fired
            else:
                done = entry.made >= entry.presses
            if done:
                st.owed.pop(0)
                commands += self._next_owed_or_turn("turn")
        else:
            # 000 §X.B: fired or not, the turn passes to the next player.
            if st.mimic == presser:
                st.mimic_played = True
            st.active = self._step(presser)
            commands += self._announce_head_or_turn("turn")
        if st.round_may_be_over == receiver and st.seats[receiver].hand > 0:
            st.round_may_be_over = None
        if st.phase == "playing":
            commands += self._check_empty_hands()
        return commands

    def _next_owed_or_turn(self, reason: str) -> list[Command]:
        """After an owed entry is done: the next one, the turn, or the end of a won round."""
        st = self.state
        if st.phase == "settling" and not st.owed:
            st.phase = "over"
            assert st.winner is not None
            return [Say("decks.round_settled", {"player": self._name(st.winner)}, Priority.RESULT)]
        return self._announce_head_or_turn(reason)

    def _announce_head_or_turn(self, reason: str) -> list[Command]:
        """Say who must press next, or whose turn it is when nobody owes a press."""
        st = self.state
        if st.owed:
            entry = st.owed[0]
            if entry.until == "fire":
                return [
                    Say(
                        "table.press_until_fire",
                        {"player": self._name(entry.seat)},
                        Priority.PROMPT,
                    )
                ]
            if entry.until == "colour":
                return [
                    Say(
                        "decks.press_until_colour",
                        {"player": self._name(entry.seat), "colour": entry.colour},
                        Priority.PROMPT,
                    )
                ]
            left = entry.presses - entry.made
            if entry.receiver is not None and entry.receiver != entry.seat:
                return [
                    Say(
                        "decks.press_owed_for",
                        {
                            "player": self._name(entry.seat),
                            "presses": left,
                            "target": self._name(entry.receiver),
                        },
                        Priority.PROMPT,
                    )
                ]
            return [
                Say(
                    "table.press_owed",
                    {"player": self._name(entry.seat), "presses": left, "reason": entry.reason},
                    Priority.PROMPT,
                )
            ]
        if st.phase == "settling":
            return []
        return [Say("table.turn", {"player": self._name(st.active), "reason": reason})]

    # ------------------------------------------------------------------ cards

    def _card(self, key: str, side: str | None = None) -> CardRule:
        """The rule of card ``key``, checked to be in the deck and on the side in play."""
        rules = self.rules
        card = CARDS.get(key)
        if card is None:
            raise ActionError("card_not_in_deck", f"unknown card {key!r}", {"card": key[:40]})
        if not in_deck(card, rules):
            if card.option and rules.deck == "extreme" and rules.deck in card.decks:
                message = f"{key} is not in this deck (rules option '{card.option}' is off)"
            else:
                message = f"{key} is not in the {rules.deck} deck"
            raise ActionError(
                "card_not_in_deck", message, {"card": key, "option": card.option or rules.deck}
            )
        side = self.state.side if side is None else side
        if card.side and side and card.side != side:
            raise ActionError(
                "decks.error_wrong_side",
                f"{key} is on the {card.side} side; the table plays the {side} side (000 §XI)",
                {"card": key, "side": side},
                status=409,
            )
        return card

    def _play(self, ev: Play) -> list[Command]:
        st = self.state
        self._check_round_running()
        card = self._card(ev.card)
        _check_colour(ev.colour, st.side)
        if ev.player is not None:
            player = self._in_play(ev.player)
        elif st.owed and self._can_stack(st.owed[0].seat, card):
            player = st.owed[0].seat  # 003 "Riposte": the one who owes the presses answers
        else:
            player = st.active
        stacking = self._can_stack(player, card)
        if st.owed and not stacking:
            self._check_riposte_mix(st.owed[0].seat if ev.player is None else player, card)
            head = self._name(st.owed[0].seat)
            raise ActionError(
                "must_press_first", f"{head} must press first", {"player": head}, status=409
            )
        if player != st.active and not stacking:
            raise ActionError(
                "not_your_turn",
                f"it is {self._name(st.active)}'s turn",
                {"player": self._name(st.active)},
                status=409,
            )
        if ev.count < 1 or ev.count > MAX_HAND or (ev.count > 1 and card.effect != "discard_all"):
            raise ActionError(
                "bad_count", "only a Poser Tout lays down more than one card", {"count": ev.count}
            )
        if ev.value is not None:
            lowest = lowest_number(self.rules)  # 000 §X: the Extrême deck has no 0
            if card.key != "number" or not lowest <= ev.value <= 9:
                raise ActionError(
                    "bad_value", f"a number card is {lowest} to 9", {"value": ev.value}
                )
        if ev.colour is None and (card.effect == "lotso" or card.until == "colour"):
            raise ActionError(
                "decks.error_needs_colour",
                f"a {card.label_en} names the colour asked for",
                {"card": card.key},
            )
        swap = card.key == "number" and ev.value == 7 and self.rules.seven_swap
        target = None
        if card.target or swap:
            if ev.target is None:
                raise ActionError("needs_target", f"a {card.label_en} needs a target player")
            target = self._in_play(ev.target)
        elif ev.target is not None:
            raise ActionError("no_target", "only a Coup Extrême has a target", {"card": ev.card})

        seat = st.seats[player]
        seat.hand = max(0, seat.hand - ev.count)
        st.last_card = {
            "card": card.key,
            "colour": ev.colour,
            "value": ev.value,
            "player": seat.name,
            "target": None if target is None else self._name(target),
        }
        if st.contre_uno_window is not None and st.contre_uno_window != player:
            st.contre_uno_window = None  # 000 §VI: the next player has played
        if st.mimic == player:
            st.mimic_played = True
        commands: list[Command] = []
        if stacking:
            commands += self._stack(player, card)
        else:
            commands += self._card_effect(player, card, target, ev.colour, ev.value)
        commands += self._after_hand_change(player)
        if target is not None and swap:
            commands += self._after_hand_change(target)
        return commands

    def _card_effect(
        self, player: int, card: CardRule, target: int | None, colour: str | None, value: int | None
    ) -> list[Command]:
        st = self.state
        nxt = self._step(player)
        reason = "turn"
        commands: list[Command] = []
        st.active = nxt
        if card.effect == "flip":
            # 000 §XI.E Flip: the whole table turns to the other side.
            st.side = "dark" if st.side == "light" else "light"
            commands.append(Say(f"decks.side_{st.side}", {}))
        if card.reverse:
            if self._two_player():
                # 000 §X.H: with two players Inversion acts as Passer: play again.
                st.active = player
                reason = "skip"
            else:
                st.direction = -st.direction
                st.active = self._step(player)
                reason = "reverse"
        elif card.skip_all:
            # 000 §XI.E Passer tous un tour: "le joueur qui a posé la carte joue de nouveau".
            st.active = player
            reason = "skip"
        elif card.effect == "coup_extreme" and target is not None:
            return commands + self._coup_extreme(player, card, target, colour)
        elif card.to == "others":
            # UNO Attack Wild All Hit: every other player, from the left, presses once.
            for seat in self._others(player, 1):
                self._owe(seat, card.presses, card.key, by=player)
        elif card.to == "next":
            # 000 §X Appuyer 2x, §V +2/+4, §XI.E +1/+5/blanche +2/Piger une couleur: the next
            # player presses and loses the turn; with two players the first plays again (§X.H).
            self._owe(nxt, card.presses, card.key, card.until, colour=colour or "", by=player)
            if card.skip:
                st.active = self._step(nxt)
        elif card.skip:
            # With two players this gives the turn straight back (000 §X.H).
            st.active = self._step(nxt)
            reason = "skip"
        elif card.effect == "lotso":
            # 002 Lotso: each opponent shows a card of the colour; the table says who could not.
            st.phase = "asking"
            st.asking = player
            st.asking_colour = colour or ""
            commands.append(
                Say(
                    "decks.lotso_ask",
                    {"player": self._name(player), "colour": colour or ""},
                    Priority.PROMPT,
                )
            )
            return commands
        elif card.effect == "mimic":
            # 004 Emoji: the next player copies the face and keeps it until their next turn.
            st.mimic = nxt
            st.mimic_played = False
            commands.append(Say("decks.mimic", {"player": self._name(nxt)}, Priority.PROMPT))
        elif card.effect == "custom":
            commands += self._custom_card(player, nxt)
        elif card.key == "number":
            commands += self._zero_seven(player, target, value)
        if colour and card.colour:
            commands.append(Say(f"table.colour_{colour}", {}))
        commands += self._announce_head_or_turn(reason)
        return commands

    def _coup_extreme(
        self, player: int, card: CardRule, target: int, colour: str | None
    ) -> list[Command]:
        # 000 §X Coup Extrême: the target presses once, "Le Distributeur est alors dirigé vers le
        # joueur qui a été désigné", and the attacker presses twice: the launcher stays on the
        # target, so what those presses fire is the target's. Play goes on after the attacker.
        st = self.state
        self._owe(target, card.presses, "coup_extreme_target", by=player)
        self._owe(player, card.player_presses, "coup_extreme_attacker", receiver=target)
        after = self._step(player)
        if st.rules.coup_extreme_resume == "second":
            after = self._step(after)
        st.active = after
        return [
            Say(
                "table.coup_extreme",
                {
                    "attacker": self._name(player),
                    "target": self._name(target),
                    "colour": colour or "",
                },
                Priority.PROMPT,
            )
        ]

    def _custom_card(self, player: int, nxt: int) -> list[Command]:
        """004 "Carte à personnaliser": the rule the table wrote on it for this game."""
        st = self.state
        rules = st.rules
        presses = rules.custom_card_presses
        if presses:
            if rules.custom_card_to == "next":
                self._owe(nxt, presses, "custom", by=player)
            elif rules.custom_card_to == "player":
                self._owe(player, presses, "custom")
            elif rules.custom_card_to == "others":
                for seat in self._others(player, 1):
                    self._owe(seat, presses, "custom", by=player)
        if rules.custom_card_skip:
            st.active = self._step(nxt)
        return []

    def _zero_seven(self, player: int, target: int | None, value: int | None) -> list[Command]:
        """003 "Règle des 0/7": a 7 swaps hands with a chosen player; a 0 passes every hand on.

        Whose turn it is does not change; the hand estimates follow the cards."""
        st = self.state
        seats = st.seats
        if value == 7 and target is not None and st.rules.seven_swap:
            seats[player].hand, seats[target].hand = seats[target].hand, seats[player].hand
            seats[player].uno = seats[target].uno = False
            return [
                Say(
                    "decks.seven_swap", {"player": self._name(player), "target": self._name(target)}
                )
            ]
        if value == 0 and st.rules.zero_pass:
            order = [player, *self._others(player)]
            hands = [seats[s].hand for s in order]
            for i, seat in enumerate(order):
                seats[self._step(seat)].hand = hands[i]
            for seat in order:
                seats[seat].uno = False
            return [Say("decks.zero_pass", {})]
        return []

    def _can_stack(self, player: int, card: CardRule) -> bool:
        """003 "Riposte": whoever owes a +2/+4/Appuyer 2x may pass it on with another one; a +2
        does not answer a +4 nor the other way round unless the house rule allows it."""
        st = self.state
        if not (st.rules.stacking and st.owed and card.stack):
            return False
        head = st.owed[0]
        owed_card = CARDS.get(head.reason)
        if owed_card is None or not owed_card.stack or head.seat != player or head.made:
            return False
        return st.rules.stacking_mix or owed_card.stack == card.stack

    def _check_riposte_mix(self, player: int, card: CardRule) -> None:
        st = self.state
        head = st.owed[0]
        owed_card = CARDS.get(head.reason)
        if (
            st.rules.stacking
            and card.stack
            and owed_card is not None
            and owed_card.stack
            and head.seat == player
            and not head.made
            and owed_card.stack != card.stack
        ):
            raise ActionError(
                "decks.error_riposte_mix",
                "003 Riposte: a +2 cannot answer a +4, nor a +4 a +2",
                {"card": card.key, "owed": owed_card.key},
                status=409,
            )

    def _stack(self, player: int, card: CardRule) -> list[Command]:
        st = self.state
        entry = st.owed.pop(0)
        victim = self._step(player)
        st.owed.insert(0, Owed(victim, entry.presses + card.presses, card.key, by=player))
        st.active = self._step(victim)
        return self._announce_head_or_turn("turn")

    # ------------------------------------------------------------------ answers from the table

    def _challenge(self, ev: Challenge) -> list[Command]:
        """000 §XI.E, 001 "Pénalisations", 002, 003 "Bluff", 004: the player hit by a +4 (in Flip
        a Wild Draw Two or Draw Colour) challenges it; the table looked at the hand."""
        st = self.state
        self._check_round_running()
        head = st.owed[0] if st.owed else None
        card = CARDS.get(head.reason) if head else None
        if not st.rules.challenge or head is None or card is None or not card.challenge:
            raise ActionError(
                "decks.error_no_challenge",
                "there is no +4 to challenge now",
                {},
                status=409,
            )
        if head.made or head.by is None:
            raise ActionError(
                "decks.error_no_challenge",
                "too late: the presses have begun (001: only the player hit may challenge)",
                {},
                status=409,
            )
        culprit = head.by
        victim = head.seat
        rules = st.rules
        if ev.guilty and st.seats[culprit].eliminated:
            # The bluffer has left the game since: nobody can press in their place, and the
            # challenger was right not to. The +4 is simply cancelled.
            st.owed.pop(0)
            key = "decks.challenge_guilty_gone"
        elif ev.guilty:
            st.owed.pop(0)
            presses = head.presses
            if rules.challenge_guilty == "plus_two":
                presses += rules.challenge_presses  # 003 Bluff: "les 4 cartes plus deux autres"
            entry = Owed(culprit, presses, head.reason, head.until, colour=head.colour)
            st.owed.insert(0, entry)
            if rules.challenge_guilty == "replay":
                # 001: takes the card back, plays the right card, presses four; then play goes on.
                st.seats[culprit].hand = min(MAX_HAND, st.seats[culprit].hand + 1)
                st.active = culprit
            key = "decks.challenge_guilty"
        else:
            if head.until:
                # 000 §XI.E Piger une couleur: until the colour comes "PLUS 2 autres cartes".
                st.owed.insert(1, Owed(victim, rules.challenge_presses, "challenge"))
            else:
                head.presses += rules.challenge_presses
            key = "decks.challenge_innocent"
        return [
            Say(key, {"player": self._name(culprit), "challenger": self._name(victim)}),
            *self._announce_head_or_turn("turn"),
        ]

    def _colour_came(self, ev: ColourCame) -> list[Command]:
        """000 §XI.E Piger une couleur: the presses end when a card of the colour came out."""
        st = self.state
        head = st.owed[0] if st.owed else None
        if head is None or head.until != "colour" or not head.made:
            raise ActionError(
                "decks.error_no_colour_wait",
                "nobody is pressing for a colour now",
                {},
                status=409,
            )
        st.owed.pop(0)
        return self._next_owed_or_turn("turn")

    def _lacked(self, ev: Lacked) -> list[Command]:
        """002 Lotso: "Tout adversaire qui n'a pas une carte de cette couleur doit piger 3 cartes.
        Cependant, si TOUS les adversaires ont une carte de cette couleur, c'est au JOUEUR qui a
        joué la carte Lotso de piger 3 cartes!"."""
        st = self.state
        if st.phase != "asking" or st.asking is None:
            raise ActionError(
                "decks.error_no_lotso", "there is no Lotso waiting for an answer", {}, status=409
            )
        player = st.asking
        lacking = {self._in_play(name) for name in ev.players}
        if player in lacking:
            raise ActionError(
                "decks.error_lotso_self",
                "the player of the Lotso does not show a card",
                {"player": self._name(player)},
            )
        presses = st.rules.lotso_presses
        if lacking:
            for seat in self._others(player):
                if seat in lacking:
                    self._owe(seat, presses, "lotso", by=player)
        else:
            self._owe(player, presses, "lotso")
        st.phase = "playing"
        st.asking = None
        commands: list[Command] = (
            [Say(f"table.colour_{st.asking_colour}", {})] if st.asking_colour else []
        )
        if not st.owed:
            return commands + self._announce_head_or_turn("turn")
        return commands + self._announce_head_or_turn("turn")

    def _mimic_broken(self, ev: MimicBroken) -> list[Command]:
        """004 Emoji: "Si le joueur ne parvient pas à conserver cette mimique jusqu'au tour
        suivant, il doit piger 4 cartes!"."""
        st = self.state
        seat = self._in_play(ev.player)
        if st.mimic != seat:
            raise ActionError(
                "decks.error_no_mimic",
                f"{self._name(seat)} holds no mimic now",
                {"player": self._name(seat)},
                status=409,
            )
        st.mimic = None
        return self._penalty(ev.player, st.rules.mimic_presses, "mimic")

    def _set_rules(self, ev: SetRules) -> list[Command]:
        """The table's house rules changed (kept with the table, undoable)."""
        st = self.state
        changes = dict(ev.changes)
        new = with_changes(st.rules, changes)
        deck_changed = new.deck != st.rules.deck
        st.rules = new
        if deck_changed:
            st.side = "light" if new.deck == "flip" else ""  # a deck starts light side up
            if st.last_card is None and st.last_fire is None:
                # Nothing played since the deal: the launcher holds the new deck's rest.
                self.launcher.magazine = self.full_magazine()
        return [Say("decks.rules_changed", {"count": len(changes)})]

    # ------------------------------------------------------------------ hands and UNO

    def _after_hand_change(self, seat: int) -> list[Command]:
        st = self.state
        hand = st.seats[seat].hand
        commands: list[Command] = []
        if hand == 1 and not st.seats[seat].uno:
            # 000 §VI / §X.B: the others may call Contre-UNO until the next player has played.
            st.contre_uno_window = seat
            if self.rules.uno_reminder:
                commands.append(
                    Say("table.uno_reminder", {"player": self._name(seat)}, Priority.PENALTY)
                )
        elif hand != 1:
            st.seats[seat].uno = False
        if st.phase == "playing":
            commands += self._check_empty_hands()
        return commands

    def _check_empty_hands(self) -> list[Command]:
        """Notice a hand estimated empty once its owner owes no press: the round may be over."""
        st = self.state
        owing = {o.seat for o in st.owed} | {o.gets for o in st.owed}
        for i, seat in enumerate(st.seats):
            if seat.hand == 0 and not seat.eliminated and i not in owing:
                if st.round_may_be_over != i:
                    st.round_may_be_over = i
                    return [Say("table.round_may_be_over", {"player": seat.name}, Priority.PROMPT)]
                return []
        st.round_may_be_over = None
        return []

    def _call_uno(self, ev: CallUno) -> list[Command]:
        seat = self._in_play(ev.player)
        self.state.seats[seat].uno = True
        if self.state.contre_uno_window == seat:
            self.state.contre_uno_window = None
        return [Say("table.uno", {"player": self._name(seat)})]

    def _penalty(self, name: str, presses: int, reason: str) -> list[Command]:
        self._check_round_running()
        seat = self._in_play(name)
        if presses == 0:
            return []
        self._owe(seat, presses, reason)
        params: dict[str, str | int] = {"player": self._name(seat), "presses": presses}
        key = f"decks.{reason}" if reason == "mimic" else f"table.{reason}"
        commands: list[Command] = [Say(key, params, Priority.PENALTY)]
        if len(self.state.owed) == 1:
            commands += self._announce_head_or_turn("turn")
        return commands

    def _contre_uno(self, ev: ContreUno) -> list[Command]:
        # 000 §X.B: a forgotten UNO costs two presses in UNO Extrême; 000 §VI: only "avant que le
        # joueur suivant n'ait joué".
        st = self.state
        seat = self._in_play(ev.player)
        if st.seats[seat].uno:
            # Said UNO in time, or already caught for this card (two phones tapping at once).
            raise ActionError(
                "no_contre_uno",
                f"{self._name(seat)} said UNO or was already caught",
                {"player": self._name(seat)},
                status=409,
            )
        if st.contre_uno_window != seat:
            raise ActionError(
                "decks.error_contre_uno_late",
                f"too late: the next player has already played since {self._name(seat)}'s "
                "last card but one (000 §VI)",
                {"player": self._name(seat)},
                status=409,
            )
        st.seats[seat].uno = True  # caught: no second penalty for the same card
        st.contre_uno_window = None
        return self._penalty(ev.player, self.rules.contre_uno_presses, "contre_uno")

    def _suggestion(self, ev: Suggestion) -> list[Command]:
        # 000 §X.G: suggesting a play to another player costs four presses.
        return self._penalty(ev.player, self.rules.suggestion_presses, "suggestion")

    def _set_hand(self, ev: SetHand) -> list[Command]:
        seat = self._in_play(ev.player)
        if not 0 <= ev.cards <= MAX_HAND:
            raise ActionError(
                "bad_hand", f"a hand holds 0 to {MAX_HAND} cards", {"cards": ev.cards}
            )
        self.state.seats[seat].hand = ev.cards
        return self._after_hand_change(seat)

    # ------------------------------------------------------------------ launcher upkeep

    def _reload(self, ev: Reload) -> list[Command]:
        cards = self.full_magazine() if ev.cards is None else ev.cards
        self.launcher.reload(cards)
        self.state.jam = False
        self.state.warned_low = False
        return [Cue("reload"), Say("table.reloaded", {"cards": cards})]

    def _cards_seen(self, ev: CardsSeen) -> list[Command]:
        st = self.state
        if st.last_fire is None:
            return []
        if not 0 <= ev.cards <= MAX_HAND:
            raise ActionError("bad_hand", "a firing is 0 to 108 cards", {"cards": ev.cards})
        seat, modelled = st.last_fire
        if ev.expected is not None and ev.expected != modelled:
            return []  # a report about another firing (a test fire): not this player's cards
        delta = ev.cards - modelled
        st.seats[seat].hand = max(0, st.seats[seat].hand + delta)
        self.launcher.correct(delta)
        st.last_fire = (seat, ev.cards)
        return []

    def _jam(self, ev: Jam) -> list[Command]:
        self.state.jam = True
        return [Cue("error"), Say("table.jam", {}, Priority.WARNING)]

    # ------------------------------------------------------------------ end of round and game

    def _round_won(self, ev: RoundWon) -> list[Command]:
        self._check_round_running()
        seat = self._in_play(ev.player)
        st = self.state
        st.winner = seat
        # 000 §VI: "Si la dernière carte jouée est une carte +2 ou un Super Joker, le joueur
        # suivant doit piger 2 ou 4 cartes. Ces cartes seront prises en compte dans le calcul des
        # points." Presses owed to the others stay owed; the winner's own are dropped.
        st.owed = [o for o in st.owed if o.gets != seat]
        st.round_may_be_over = None
        st.contre_uno_window = None
        st.mimic = None
        commands: list[Command] = [
            Say("table.round_won", {"player": self._name(seat)}, Priority.RESULT)
        ]
        if st.owed:
            st.phase = "settling"
            head = st.owed[0]
            commands.append(
                Say("decks.won_presses_owed", {"player": self._name(head.seat)}, Priority.PROMPT)
            )
            commands += self._announce_head_or_turn("turn")
        else:
            st.phase = "over"
        return commands

    def _eliminate(self, ev: Eliminate) -> list[Command]:
        # 000 §X.I "Jeu défi": at the points limit a player leaves; the last one wins.
        seat = self._in_play(ev.player)
        st = self.state
        if st.phase == "game_over":  # the last one in has won: there is nobody to leave
            raise ActionError("game_over", "the game is over: seat the players again", status=409)
        st.seats[seat].eliminated = True
        st.seats[seat].hand = 0
        st.owed = [o for o in st.owed if o.seat != seat and o.gets != seat]
        if st.active == seat:
            st.active = self._step(seat)
        if st.asking == seat:
            st.asking = None
            st.phase = "playing"
        if st.mimic == seat:
            st.mimic = None
        if st.phase == "settling" and not st.owed:
            st.phase = "over"
        commands: list[Command] = [
            Say("table.eliminated", {"player": self._name(seat)}, Priority.RESULT)
        ]
        if self._players_in() == 1:
            st.phase = "game_over"
            st.owed = []
            st.asking = None
            st.winner = st.active
            commands.append(
                Say("table.game_won", {"player": self._name(st.active)}, Priority.RESULT)
            )
        return commands

    def _reinstate(self, ev: Reinstate) -> list[Command]:
        seat = self._seat_of(ev.player)
        st = self.state
        if not st.seats[seat].eliminated:
            return []
        st.seats[seat].eliminated = False
        st.seats[seat].hand = HAND_SIZE  # back with a fresh hand, as at a deal
        if st.seats[st.active].eliminated:  # nobody else was left to play
            st.active = seat
        if st.phase == "game_over":
            st.phase = "playing"
            st.winner = None
        return [Say("table.reinstated", {"player": self._name(seat)}, Priority.RESULT)]

    def _undo(self, ev: Undo) -> list[Command]:
        if not self._history:
            raise ActionError(
                "nothing_to_undo",
                "nothing to undo (a press cannot be taken back: correct the hand instead)",
                status=409,
            )
        self._put_back(self._history.pop())
        return [Say("table.undone", {})]

    def _put_back(self, step: UndoStep) -> None:
        self.state = step.state
        self.launcher.magazine = step.magazine
        self.launcher.presses_since_fire = step.presses_since_fire

    # ------------------------------------------------------------------ after every event

    def _epilogue(self, before_facing: int) -> list[Command]:
        commands: list[Command] = []
        st = self.state
        if st.mimic is not None and st.mimic_played and st.active == st.mimic and not st.owed:
            st.mimic = None  # 004: the mimic is kept "jusqu'à son prochain tour"
        facing = self.facing_seat()
        if facing != before_facing:
            commands.append(Turn(facing, self._name(facing)))
        launcher = self.launcher
        if launcher.low and not st.warned_low and not launcher.empty:
            st.warned_low = True
            commands += [
                Cue("warning"),
                Say("table.magazine_low", {"cards": launcher.magazine}, Priority.WARNING),
            ]
        return commands


_DEFAULT_RULES = RulesOptions()


@functools.cache
def _deck_size(deck: str) -> int:
    return builtin_ruleset(deck).deck_size()


@functools.lru_cache(maxsize=16)
def _changed_rules(rules: RulesOptions) -> dict[str, Any]:
    """The deck and every house rule that differs from the default."""
    if rules == _DEFAULT_RULES:
        return {"deck": rules.deck}
    changed = {
        f.name: getattr(rules, f.name)
        for f in fields(rules)
        if getattr(rules, f.name) != getattr(_DEFAULT_RULES, f.name)
    }
    return {"deck": rules.deck, **changed}


def _name_or_none(state: TableState, seat: int | None) -> str | None:
    return None if seat is None else state.seats[seat].name


def _check_colour(colour: str | None, side: str = "") -> None:
    """A colour of the side in play: 000 §XI.A gives the dark side its own four colours."""
    allowed = DARK_COLOURS if side == "dark" else COLOURS
    if colour is not None and colour not in allowed:
        raise ActionError(
            "bad_colour",
            f"{colour!r} is not a colour ({', '.join(allowed)})",
            {"colour": colour},
        )


def _event_name(kind: type) -> str:
    """``CallUno`` -> ``"call_uno"``: the outcome's name for events of ``kind``."""
    name = kind.__name__
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name).lstrip("_")
