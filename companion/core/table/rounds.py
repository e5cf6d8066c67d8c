"""Rounds and the game: seating, the deal and its first card, players leaving and coming back,
the house rules changed during a game."""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import CARDS
from ..commands import Command, Cue, Priority, Say
from ..errors import ActionError
from ..events import Eliminate, Reinstate, SetRules, Setup, StartRound
from ..limits import MAX_PLAYERS, MIN_PLAYERS
from ..names import check_name, shown_key
from ..options import RulesOptions, with_changes
from .effects import card_rule
from .presses import full_magazine, owe
from .state import HAND_SIZE, Seat, Table, TableState
from .turns import (
    check_colour,
    in_play,
    name,
    players_in,
    refuse_game_over,
    refuse_settling,
    seat_of,
    step,
)


def seat_players(t: Table, players: Sequence[str], dealer: str | None) -> None:
    names = [str(p).strip() for p in players]
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise ActionError(
            "player_count",
            f"UNO is for {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(names)}",
            {"count": len(names)},
        )
    for who in names:
        check_name(who)
    if len({shown_key(n) for n in names}) != len(names):  # as they show, not as typed
        raise ActionError("duplicate_player", "two players have the same name")
    seated = TableState(seats=[Seat(n) for n in names], rules=t.state.rules)
    dealer_seat = seat_of(seated, dealer) if dealer else 0
    t.state = seated
    deal(t, dealer_seat, start_card=None, colour=None)


def deal(
    t: Table,
    dealer: int,
    start_card: str | None,
    colour: str | None,
    *,
    redeal: bool = False,
    value: int | None = None,
) -> list[Command]:
    """A new round: 7 cards each, the magazine loaded, the start card's effect (000 §V, §X).

    ``redeal``: the same round dealt again (the first card turned up, a misdeal)."""
    st = t.state
    if st.seats[dealer].eliminated:
        dealer = step(st, dealer, 1)
    st.dealer = dealer
    st.direction = 1
    st.owed = []
    if not redeal:
        st.round += 1
    st.move_to("playing")
    st.winner = None
    st.contre_uno_window = None
    st.contre_uno_closed = st.contre_uno_closed_by = None
    st.round_may_be_over = None
    st.last_fire = None
    st.last_card = None
    st.side = start_side(st.rules)
    st.asking = None
    st.mimic = None
    for seat in st.seats:
        seat.hand = 0 if seat.eliminated else HAND_SIZE
        seat.uno = False
    t.firing.magazine = full_magazine(t)
    st.jam = False
    st.jam_fault = ""
    st.warned_low = False
    first = step(st, dealer, 1)
    st.active = first
    commands: list[Command] = [Cue("reload")]
    if start_card is None:
        return commands
    st.last_card = {"card": start_card, "colour": colour, "value": value, "player": None}
    card = CARDS[start_card]
    if card.start == "reverse":
        # 000 §V Inversion: the dealer plays first, then play goes right.
        st.direction = -1
        st.active = dealer
    elif card.start == "skip":
        # 000 §V Passer: the player left of the dealer misses a turn.
        st.active = step(st, first)
    elif card.start == "owe":
        # 000 §X Appuyer 2x, §V +2, §XI.E +1: the player left of the dealer presses and play
        # starts with the next one.
        owe(st, first, card.presses, start_card)
        st.active = step(st, first)
    # number, wild (left of dealer picks the colour), discard_all: the player left of the
    # dealer starts (000 §V Joker, §X Poser Tout).
    return commands


def start_side(rules: RulesOptions) -> str:
    """The side a round starts on: a Flip deck's light side (000 §XI.C), else none."""
    return "light" if rules.deck == "flip" else ""


def start_round(t: Table, ev: StartRound) -> list[Command]:
    st = t.state
    refuse_game_over(st)
    if st.phase == "settling":
        refuse_settling(st)
    if ev.start_card is not None:
        card = card_rule(st, ev.start_card, side=start_side(st.rules))
        if card.start == "back":
            raise ActionError(
                "start_card_back",
                "this card cannot start the game: put it back and turn another (000 §V)",
                {"card": card.key},
            )
    check_colour(ev.colour)
    redeal = st.phase != "over"
    if ev.dealer is not None:
        dealer = in_play(st, ev.dealer)
    elif redeal:
        dealer = st.dealer  # the round in progress, dealt again (its first card turned up)
    else:
        dealer = step(st, st.dealer, 1)  # the deal passes to the left each round
    commands = deal(t, dealer, ev.start_card, ev.colour, redeal=redeal, value=ev.value)
    commands.append(Say("table.new_round", {"round": st.round, "dealer": name(st, st.dealer)}))
    return commands


def setup(t: Table, ev: Setup) -> list[Command]:
    seat_players(t, ev.players, ev.dealer)
    return [Cue("start"), Say("table.setup", {"count": len(ev.players)})]


def eliminate(t: Table, ev: Eliminate) -> list[Command]:
    # 000 §X.I "Jeu défi": at the points limit a player leaves; the last one wins.
    st = t.state
    seat = in_play(st, ev.player)
    refuse_game_over(st)  # the last one in has won: there is nobody to leave
    st.seats[seat].eliminated = True
    st.seats[seat].hand = 0
    st.owed = [o for o in st.owed if o.seat != seat and o.gets != seat]
    if st.active == seat:
        st.active = step(st, seat)
    if st.asking == seat:
        st.asking = None
        st.move_to("playing")
    if st.mimic == seat:
        st.mimic = None
    if st.phase == "settling" and not st.owed:
        st.move_to("over")
    commands: list[Command] = [Say("table.eliminated", {"player": name(st, seat)}, Priority.RESULT)]
    if players_in(st) == 1:
        st.move_to("game_over")
        st.owed = []
        st.asking = None
        st.winner = st.active
        commands.append(Say("table.game_won", {"player": name(st, st.active)}, Priority.RESULT))
    return commands


def reinstate(t: Table, ev: Reinstate) -> list[Command]:
    st = t.state
    seat = seat_of(st, ev.player)
    if not st.seats[seat].eliminated:
        return []
    st.seats[seat].eliminated = False
    st.seats[seat].hand = HAND_SIZE  # back with a fresh hand, as at a deal
    if st.seats[st.active].eliminated:  # nobody else was left to play
        st.active = seat
    if st.phase == "game_over":
        st.move_to("playing")
        st.winner = None
    return [Say("table.reinstated", {"player": name(st, seat)}, Priority.RESULT)]


def set_rules(t: Table, ev: SetRules) -> list[Command]:
    """The table's house rules changed (kept with the table, undoable)."""
    st = t.state
    changes = dict(ev.changes)
    new = with_changes(st.rules, changes)
    deck_changed = new.deck != st.rules.deck
    st.rules = new
    if deck_changed:
        st.side = start_side(new)
        if st.last_card is None and st.last_fire is None:
            # Nothing played since the deal: the launcher holds the new deck's rest.
            t.firing.magazine = full_magazine(t)
    return [Say("decks.rules_changed", {"count": len(changes)})]
