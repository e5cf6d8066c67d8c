"""The table engine: whose turn it is, who owes how many presses, what the launcher does.

It follows the UNO Extrême rules (``shared/rules/000``, section X) with the options of
:class:`companion.config.RulesConfig`. One call to :meth:`TableEngine.handle` takes one event, runs
it to completion and returns the commands to carry out (eject, turn, sound, say). The engine holds
no thread and does no I/O: given the same seed and events it produces the same outcomes.

Seats are numbered in the order players sit going left (clockwise seen from above); direction
``+1`` is "to the left", the way play starts (000 §IV).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.config import Config, LauncherConfig, RulesConfig

from .commands import Command, Cue, Eject, Priority, Say, Turn
from .errors import ActionError
from .events import (
    COLOURS,
    CallUno,
    CardsSeen,
    ContreUno,
    Eliminate,
    Event,
    Jam,
    Play,
    Press,
    Reinstate,
    Reload,
    RoundWon,
    SetHand,
    Setup,
    StartRound,
    Suggestion,
    Undo,
)
from .launcher import AUTHENTIC, GENTLE, EjectionProfile, Launcher, fixed_profile

HAND_SIZE = 7  # cards dealt to each player (000 §III)
MAX_HAND = 108  # no hand can hold more than a whole deck
MAX_PLAYERS = 10
MAX_NAME = 40

# Presses owed by each card that makes the next player press (000 §X; any-deck option for +2/+4).
PRESS_CARDS = {"hit2": 2, "draw2": 2, "draw4": 4}
# Cards that need a rules option to be in the deck.
OPTIONAL_CARDS = {
    "wild_all_hit": "wild_all_hit",
    "wild_hit_fire": "hit_fire",
    "draw2": "any_deck",
    "draw4": "any_deck",
}
# Start cards that go back into the deck (000 §V: a Super Joker turned up is put back; the same
# for any card that makes someone choose a victim before play has begun).
START_CARDS_PUT_BACK = frozenset({"draw4", "coup_extreme", "wild_all_hit", "wild_hit_fire"})


@dataclass
class Seat:
    name: str
    hand: int = HAND_SIZE
    uno: bool = False  # said UNO for their last card
    eliminated: bool = False


@dataclass
class Owed:
    """Presses one player owes, in the order they must be made."""

    seat: int
    presses: int
    reason: str
    until_fire: bool = False  # Wild Hit-Fire: press until the launcher fires
    made: int = 0  # presses already made against this entry


@dataclass
class TableState:
    seats: list[Seat]
    dealer: int = 0
    active: int = 1
    direction: int = 1
    owed: list[Owed] = field(default_factory=list)
    round: int = 0
    round_over: bool = False
    winner: int | None = None
    game_over: bool = False
    last_card: dict[str, Any] | None = None
    contre_uno_window: int | None = None  # seat that may still be caught for a forgotten UNO
    round_may_be_over: int | None = None  # seat whose hand is estimated empty
    last_fire: tuple[int, int] | None = None  # (seat, cards) of the last firing
    jam: bool = False
    warned_low: bool = False


@dataclass(frozen=True)
class Outcome:
    """What handling one event produced."""

    event: str
    commands: tuple[Command, ...]
    fired: int
    snapshot: dict[str, Any]


def profile_from_config(config: LauncherConfig) -> EjectionProfile:
    """The ejection profile named by ``launcher.profile``."""
    if config.profile == "authentic":
        return AUTHENTIC
    if config.profile == "gentle":
        return GENTLE
    if config.profile == "fixed":
        return fixed_profile(config.fixed_cards)
    custom = config.profiles[config.profile]
    pairs = tuple(zip(custom.cards[::2], custom.cards[1::2], strict=True))
    extra = (custom.forced_extra[0], custom.forced_extra[1])
    return EjectionProfile(config.profile, tuple(custom.fire_chance), pairs, extra)


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
        rules: RulesConfig | None = None,
        launcher: LauncherConfig | None = None,
        seed: int = 0,
    ) -> None:
        self.rules = rules or RulesConfig()
        self.launcher_config = launcher or LauncherConfig()
        self.launcher = Launcher(
            profile_from_config(self.launcher_config),
            magazine=self.launcher_config.magazine,
            low_warning=self.launcher_config.low_warning,
            rng=random.Random(seed),
        )
        self.seed = seed
        self.events_handled = 0
        self.last_fired = 0
        self._history: list[tuple[TableState, int, int]] = []
        self.state = TableState(seats=[])
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
        }

    @classmethod
    def from_config(cls, config: Config, seed: int) -> TableEngine:
        return cls(
            config.table.players,
            dealer=config.table.dealer or None,
            rules=config.rules,
            launcher=config.launcher,
            seed=seed,
        )

    # ------------------------------------------------------------------ public API

    def handle(self, event: Event) -> Outcome:
        """Run ``event`` to completion. On :class:`ActionError` the table is unchanged."""
        handler = self._handlers.get(type(event))
        if handler is None:
            raise ActionError("unknown_event", f"unknown event {event!r}")
        before_state = copy.deepcopy(self.state)
        before_launcher = (self.launcher.magazine, self.launcher.presses_since_fire)
        before_facing = self.facing_seat()
        try:
            commands = handler(event)
        except ActionError:
            self.state = before_state
            self.launcher.magazine, self.launcher.presses_since_fire = before_launcher
            raise
        if isinstance(event, Press | CardsSeen | Jam):
            self._history.clear()  # cards are out on the table: no taking that back
        elif not isinstance(event, Undo):
            self._history.append((before_state, *before_launcher))
            del self._history[:-50]
        commands += self._epilogue(before_facing)
        self.events_handled += 1
        self.last_fired = sum(c.cards for c in commands if isinstance(c, Eject))
        return Outcome(_event_name(event), tuple(commands), self.last_fired, self.snapshot())

    def facing_seat(self) -> int:
        """The seat the launcher must face: whoever owes a press, else the active player."""
        st = self.state
        return st.owed[0].seat if st.owed else st.active

    def snapshot(self) -> dict[str, Any]:
        """The table as plain JSON-ready data, for the page and the script trace.

        ``fired`` is the number of cards the last handled event fired."""
        st = self.state
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
                for i, s in enumerate(st.seats)
            ],
            "dealer": st.seats[st.dealer].name,
            "active": st.seats[st.active].name,
            "direction": "left" if st.direction == 1 else "right",
            "facing": st.seats[facing].name,
            "facing_seat": facing,
            "owed": [
                {
                    "player": st.seats[o.seat].name,
                    "presses": 1 if o.until_fire else o.presses - o.made,
                    "reason": o.reason,
                    "until_fire": o.until_fire,
                }
                for o in st.owed
            ],
            "magazine": self.launcher.magazine,
            "magazine_low": self.launcher.low,
            "needs_reload": self.launcher.empty or st.jam,
            "jam": st.jam,
            "profile": self.launcher.profile.name,
            "presses_since_fire": self.launcher.presses_since_fire,
            "suspense": self.launcher.suspense(),
            "round": st.round,
            "round_over": st.round_over,
            "winner": None if st.winner is None else st.seats[st.winner].name,
            "game_over": st.game_over,
            "round_may_be_over": _name_or_none(st, st.round_may_be_over),
            "contre_uno_window": _name_or_none(st, st.contre_uno_window),
            "last_card": st.last_card,
            "fired": self.last_fired,
            "can_undo": bool(self._history),
            "events": self.events_handled,
        }

    # ------------------------------------------------------------------ seating and turns

    def _seat_players(self, players: Sequence[str], dealer: str | None) -> None:
        names = [str(p).strip() for p in players]
        if not 2 <= len(names) <= MAX_PLAYERS:
            raise ActionError(
                "player_count",
                f"UNO is for 2 to {MAX_PLAYERS} players, got {len(names)}",
                {"count": len(names)},
            )
        for name in names:
            if not name or len(name) > MAX_NAME:
                raise ActionError(
                    "bad_name", f"a player name needs 1 to {MAX_NAME} characters", {"name": name}
                )
        if len({n.casefold() for n in names}) != len(names):
            raise ActionError("duplicate_player", "two players have the same name")
        self.state = TableState(seats=[Seat(n) for n in names])
        dealer_seat = self._seat_of(dealer) if dealer else 0
        self._deal(dealer_seat, start_card=None, colour=None)

    def _seat_of(self, name: str | None) -> int:
        if name is None:
            raise ActionError("missing_player", "a player name is needed")
        folded = name.strip().casefold()
        for i, seat in enumerate(self.state.seats):
            if seat.name.casefold() == folded:
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
        st.round_over = False
        st.winner = None
        st.contre_uno_window = None
        st.round_may_be_over = None
        st.last_fire = None
        st.last_card = None
        for seat in st.seats:
            seat.hand = 0 if seat.eliminated else HAND_SIZE
            seat.uno = False
        self.launcher.magazine = self.launcher_config.magazine
        st.jam = False
        st.warned_low = False
        first = self._step(dealer, 1)
        st.active = first
        commands: list[Command] = [Cue("reload")]
        if start_card is None:
            return commands
        st.last_card = {"card": start_card, "colour": colour, "player": None}
        if start_card == "reverse":
            # 000 §V Inversion: the dealer plays first, then play goes right.
            st.direction = -1
            st.active = dealer
        elif start_card == "skip":
            # 000 §V Passer: the player left of the dealer misses a turn.
            st.active = self._step(first)
        elif start_card in PRESS_CARDS:
            # 000 §X Appuyer 2x (and +2 with the any-deck option): the player left of the dealer
            # presses and play starts with the next one.
            self._owe(first, PRESS_CARDS[start_card], start_card)
            st.active = self._step(first)
        # number, wild (left of dealer picks the colour), discard_all: the player left of the
        # dealer starts (000 §V Joker, §X Poser Tout).
        return commands

    def _start_round(self, ev: StartRound) -> list[Command]:
        st = self.state
        if st.game_over:
            raise ActionError("game_over", "the game is over: seat the players again", status=409)
        card = ev.start_card
        if card is not None:
            self._check_card_in_deck(card)
            if card in START_CARDS_PUT_BACK:
                raise ActionError(
                    "start_card_back",
                    "this card cannot start the game: put it back and turn another (000 §V)",
                    {"card": card},
                )
        _check_colour(ev.colour)
        redeal = not st.round_over
        if ev.dealer is not None:
            dealer = self._in_play(ev.dealer)
        elif redeal:
            dealer = st.dealer  # the round in progress, dealt again (its first card turned up)
        else:
            dealer = self._step(st.dealer, 1)  # the deal passes to the left each round
        commands = self._deal(dealer, card, ev.colour, redeal=redeal)
        commands.append(
            Say("table.new_round", {"round": st.round, "dealer": self._name(st.dealer)})
        )
        return commands

    def _setup(self, ev: Setup) -> list[Command]:
        self._seat_players(ev.players, ev.dealer)
        self._history.clear()
        return [Cue("start"), Say("table.setup", {"count": len(ev.players)})]

    def _check_round_running(self) -> None:
        if self.state.round_over:
            raise ActionError("round_over", "the round is over: start a new one", status=409)

    # ------------------------------------------------------------------ presses

    def _owe(self, seat: int, presses: int, reason: str, until_fire: bool = False) -> None:
        self.state.owed.append(Owed(seat, presses, reason, until_fire))

    def _press(self, ev: Press) -> list[Command]:
        st = self.state
        self._check_round_running()
        if st.owed:
            presser = st.owed[0].seat
            if ev.player is not None and self._seat_of(ev.player) != presser:
                raise ActionError(
                    "not_your_press",
                    f"{self._name(presser)} must press first",
                    {"player": self._name(presser)},
                    status=409,
                )
        else:
            presser = st.active
            if ev.player is not None and self._seat_of(ev.player) != presser:
                raise ActionError(
                    "not_your_turn",
                    f"it is {self._name(presser)}'s turn",
                    {"player": self._name(presser)},
                    status=409,
                )
        if self.launcher.empty or st.jam:
            # 000 §X.C: reshuffle and reload when it can no longer serve. The press is not used up.
            return [Cue("error"), Say("table.reload_needed", {}, Priority.WARNING)]
        commands: list[Command] = [Cue("ding")]
        firing = self.launcher.press()
        if firing.fired:
            seat = st.seats[presser]
            seat.hand = min(MAX_HAND, seat.hand + firing.cards)
            if seat.hand > 1:
                seat.uno = False
            st.last_fire = (presser, firing.cards)
            commands += [Eject(firing.cards, firing.forced), Cue("burst")]
            commands.append(Say("table.fired", {"player": seat.name, "cards": firing.cards}))
            if firing.cards < firing.wanted:
                commands.append(Say("table.reload_needed", {}, Priority.WARNING))
        else:
            commands.append(Cue("suspense", self.launcher.suspense()))
        if st.contre_uno_window is not None and st.contre_uno_window != presser:
            st.contre_uno_window = None
        if st.owed:
            entry = st.owed[0]
            entry.made += 1
            done = firing.fired if entry.until_fire else entry.made >= entry.presses
            if done:
                st.owed.pop(0)
                commands += self._announce_head_or_turn("turn")
        else:
            # 000 §X.B: fired or not, the turn passes to the next player.
            st.active = self._step(presser)
            commands += self._announce_head_or_turn("turn")
        if st.round_may_be_over == presser and st.seats[presser].hand > 0:
            st.round_may_be_over = None
        commands += self._check_empty_hands()
        return commands

    def _announce_head_or_turn(self, reason: str) -> list[Command]:
        """Say who must press next, or whose turn it is when nobody owes a press."""
        st = self.state
        if st.owed:
            entry = st.owed[0]
            if entry.until_fire:
                return [
                    Say(
                        "table.press_until_fire",
                        {"player": self._name(entry.seat)},
                        Priority.PROMPT,
                    )
                ]
            left = entry.presses - entry.made
            key = "table.press_owed_one" if left == 1 else "table.press_owed"
            return [
                Say(
                    key,
                    {"player": self._name(entry.seat), "presses": left, "reason": entry.reason},
                    Priority.PROMPT,
                )
            ]
        return [Say("table.turn", {"player": self._name(st.active), "reason": reason})]

    # ------------------------------------------------------------------ cards

    def _check_card_in_deck(self, card: str) -> None:
        needs = OPTIONAL_CARDS.get(card)
        if needs and not getattr(self.rules, needs):
            raise ActionError(
                "card_not_in_deck",
                f"{card} is not in this deck (rules option '{needs}' is off)",
                {"card": card, "option": needs},
            )

    def _play(self, ev: Play) -> list[Command]:
        st = self.state
        self._check_round_running()
        self._check_card_in_deck(ev.card)
        _check_colour(ev.colour)
        if ev.player is not None:
            player = self._in_play(ev.player)
        elif st.owed and self._can_stack(st.owed[0].seat, ev.card):
            player = st.owed[0].seat  # 003 "Riposte": the one who owes the presses answers
        else:
            player = st.active
        stacking = self._can_stack(player, ev.card)
        if st.owed and not stacking:
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
        if ev.count < 1 or ev.count > MAX_HAND or (ev.count > 1 and ev.card != "discard_all"):
            raise ActionError(
                "bad_count", "only a Poser Tout lays down more than one card", {"count": ev.count}
            )
        if ev.value is not None:
            lowest = 0 if self.rules.any_deck else 1  # 000 §X: the Extrême deck has no 0
            if ev.card != "number" or not lowest <= ev.value <= 9:
                raise ActionError(
                    "bad_value", f"a number card is {lowest} to 9", {"value": ev.value}
                )
        target = None
        if ev.card == "coup_extreme":
            if ev.target is None:
                raise ActionError("needs_target", "a Coup Extrême needs a target player")
            target = self._in_play(ev.target)
        elif ev.target is not None:
            raise ActionError("no_target", "only a Coup Extrême has a target", {"card": ev.card})

        seat = st.seats[player]
        seat.hand = max(0, seat.hand - ev.count)
        st.last_card = {
            "card": ev.card,
            "colour": ev.colour,
            "value": ev.value,
            "player": seat.name,
            "target": None if target is None else self._name(target),
        }
        if st.contre_uno_window is not None and st.contre_uno_window != player:
            st.contre_uno_window = None
        commands: list[Command] = []
        if stacking:
            commands += self._stack(player, ev.card)
        else:
            commands += self._card_effect(player, ev.card, target, ev.colour)
        commands += self._after_hand_change(player)
        return commands

    def _card_effect(
        self, player: int, card: str, target: int | None, colour: str | None
    ) -> list[Command]:
        st = self.state
        nxt = self._step(player)
        reason = "turn"
        commands: list[Command] = []
        if card == "reverse":
            if self._two_player():
                # 000 §X.H: with two players Inversion acts as Passer: play again.
                st.active = player
                reason = "skip"
            else:
                st.direction = -st.direction
                st.active = self._step(player)
                reason = "reverse"
        elif card == "skip":
            # With two players this gives the turn straight back (000 §X.H).
            st.active = self._step(nxt)
            reason = "skip"
        elif card in PRESS_CARDS:
            # 000 §X Appuyer 2x: the next player presses twice and loses the turn; with two players
            # the first player plays again (000 §X.H).
            self._owe(nxt, PRESS_CARDS[card], card)
            st.active = self._step(nxt)
        elif card == "coup_extreme" and target is not None:
            # 000 §X Coup Extrême: the target presses once (launcher turned to them), then the
            # attacker presses twice; play goes on after the attacker.
            self._owe(target, 1, "coup_extreme_target")
            self._owe(player, 2, "coup_extreme_attacker")
            after = self._step(player)
            if self.rules.coup_extreme_resume == "second":
                after = self._step(after)
            st.active = after
            commands.append(
                Say(
                    "table.coup_extreme",
                    {
                        "attacker": self._name(player),
                        "target": self._name(target),
                        "colour": colour or "",
                    },
                    Priority.PROMPT,
                )
            )
            return commands
        elif card == "wild_all_hit":
            # UNO Attack Wild All Hit: every other player, from the left, presses once.
            seat = self._step(player, 1)
            while seat != player:
                self._owe(seat, 1, "wild_all_hit")
                seat = self._step(seat, 1)
            st.active = nxt
        elif card == "wild_hit_fire":
            # UNO Attack Wild Hit-Fire: the next player presses until it fires, loses the turn.
            self._owe(nxt, 1, "wild_hit_fire", until_fire=True)
            st.active = self._step(nxt)
        else:  # number, wild, discard_all
            st.active = nxt
        if colour and card in ("wild", "wild_all_hit", "wild_hit_fire", "draw4"):
            commands.append(Say(f"table.colour_{colour}", {}))
        commands += self._announce_head_or_turn(reason)
        return commands

    def _can_stack(self, player: int, card: str) -> bool:
        """003 "Riposte": whoever owes a +2/+4/Appuyer 2x may pass it on with another one."""
        st = self.state
        if not (self.rules.stacking and st.owed and card in PRESS_CARDS):
            return False
        head = st.owed[0]
        return head.seat == player and head.reason in PRESS_CARDS and head.made == 0

    def _stack(self, player: int, card: str) -> list[Command]:
        st = self.state
        entry = st.owed.pop(0)
        victim = self._step(player)
        st.owed.insert(0, Owed(victim, entry.presses + PRESS_CARDS[card], card))
        st.active = self._step(victim)
        return self._announce_head_or_turn("turn")

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
        commands += self._check_empty_hands()
        return commands

    def _check_empty_hands(self) -> list[Command]:
        """Notice a hand estimated empty once its owner owes no press: the round may be over."""
        st = self.state
        owing = {o.seat for o in st.owed}
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
        commands: list[Command] = [Say(f"table.{reason}", params, Priority.PENALTY)]
        if len(self.state.owed) == 1:
            commands += self._announce_head_or_turn("turn")
        return commands

    def _contre_uno(self, ev: ContreUno) -> list[Command]:
        # 000 §X.B: a forgotten UNO costs two presses in UNO Extrême.
        seat = self._in_play(ev.player)
        if self.state.seats[seat].uno:
            # Said UNO in time, or already caught for this card (two phones tapping at once).
            raise ActionError(
                "no_contre_uno",
                f"{self._name(seat)} said UNO or was already caught",
                {"player": self._name(seat)},
                status=409,
            )
        self.state.seats[seat].uno = True  # caught: no second penalty for the same card
        if self.state.contre_uno_window == seat:
            self.state.contre_uno_window = None
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
        cards = self.launcher_config.magazine if ev.cards is None else ev.cards
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
        st.round_over = True
        st.winner = seat
        st.owed = []
        st.round_may_be_over = None
        st.contre_uno_window = None
        return [Say("table.round_won", {"player": self._name(seat)}, Priority.RESULT)]

    def _eliminate(self, ev: Eliminate) -> list[Command]:
        # 000 §X.I "Jeu défi": at the points limit a player leaves; the last one wins.
        seat = self._in_play(ev.player)
        st = self.state
        st.seats[seat].eliminated = True
        st.seats[seat].hand = 0
        st.owed = [o for o in st.owed if o.seat != seat]
        if st.active == seat:
            st.active = self._step(seat)
        commands: list[Command] = [
            Say("table.eliminated", {"player": self._name(seat)}, Priority.RESULT)
        ]
        if self._players_in() == 1:
            st.game_over = True
            st.round_over = True
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
        if st.game_over:
            st.game_over = False
            st.round_over = False
            st.winner = None
        return [Say("table.reinstated", {"player": self._name(seat)}, Priority.RESULT)]

    def _undo(self, ev: Undo) -> list[Command]:
        if not self._history:
            raise ActionError(
                "nothing_to_undo",
                "nothing to undo (a press cannot be taken back: correct the hand instead)",
                status=409,
            )
        self.state, self.launcher.magazine, self.launcher.presses_since_fire = self._history.pop()
        return [Say("table.undone", {})]

    # ------------------------------------------------------------------ after every event

    def _epilogue(self, before_facing: int) -> list[Command]:
        commands: list[Command] = []
        st = self.state
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


def _name_or_none(state: TableState, seat: int | None) -> str | None:
    return None if seat is None else state.seats[seat].name


def _check_colour(colour: str | None) -> None:
    if colour is not None and colour not in COLOURS:
        raise ActionError(
            "bad_colour",
            f"{colour!r} is not a colour (red, yellow, green, blue)",
            {"colour": colour},
        )


def _event_name(event: Event) -> str:
    name = type(event).__name__
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name).lstrip("_")
