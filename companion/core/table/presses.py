"""Owed presses and the launcher's queue: who must press, what a press fires, the magazine."""

from __future__ import annotations

import functools

from ..cards import counted_deck
from ..commands import Command, Cue, Eject, Priority, Say
from ..errors import ActionError
from ..events import CardsSeen, Jam, Press, Reload
from ..limits import MAX_HAND
from ..scoring.rulesets import builtin_ruleset
from .hands import check_empty_hands, close_contre_uno
from .state import HAND_SIZE, Owed, Table, TableState
from .turns import check_round_running, name, players_in, seat_of, step

# What the voice says for each launcher fault (box.toml): each one tells the players what to do.
JAM_PHRASES = {"jam": "box.clear_jam", "stuck": "box.card_stuck", "empty": "box.magazine_empty"}


def owe(
    st: TableState,
    seat: int,
    presses: int,
    reason: str,
    until: str = "",
    *,
    receiver: int | None = None,
    colour: str = "",
    by: int | None = None,
) -> None:
    st.owed.append(Owed(seat, presses, reason, until, receiver=receiver, colour=colour, by=by))


def press(t: Table, ev: Press) -> list[Command]:
    st = t.state
    if st.phase == "settling" and st.owed:
        pass  # 000 §VI: the round is won, the owed presses still count
    else:
        check_round_running(st)
    if st.owed:
        presser, refusal, message = st.owed[0].seat, "not_your_press", "{} must press first"
    else:
        presser, refusal, message = st.active, "not_your_turn", "it is {}'s turn"
    if ev.player is not None and seat_of(st, ev.player) != presser:
        who = name(st, presser)
        raise ActionError(refusal, message.format(who), {"player": who}, status=409)
    t.actor = presser
    launcher = t.firing
    served = t.recorded is not None if t.replaying else not (launcher.empty or st.jam)
    if not served:
        # 000 §X.C: reshuffle and reload when it can no longer serve. The press is not used up.
        t.pressed = None
        return [Cue("error"), Say("table.reload_needed", {}, Priority.WARNING)]
    receiver = st.owed[0].gets if st.owed else presser
    commands: list[Command] = [Cue("ding")]
    if t.replaying:
        assert t.recorded is not None
        firing = t.recorded
        launcher.replay(firing)
    else:
        firing = launcher.press()
    t.pressed = firing
    if firing.fired:
        seat = st.seats[receiver]
        seat.hand = min(MAX_HAND, seat.hand + firing.cards)
        if seat.hand > 1:
            seat.uno = False
        st.last_fire = (receiver, firing.cards)
        commands += [Eject(firing.cards, firing.forced, receiver), Cue("burst")]
        commands.append(Say("table.fired", {"player": seat.name, "cards": firing.cards}))
        if firing.cards < firing.wanted:
            commands.append(Say("table.reload_needed", {}, Priority.WARNING))
    else:
        commands.append(Cue("suspense", launcher.suspense()))
    close_contre_uno(st, presser)
    if st.owed:
        entry = st.owed[0]
        entry.made += 1
        if entry.until == "colour":
            done = False  # the table says when the colour came (ColourCame)
            if firing.fired:
                commands.append(
                    Say(
                        "decks.colour_came_ask",
                        {"player": name(st, receiver), "colour": entry.colour},
                        Priority.PROMPT,
                    )
                )
        elif entry.until == "fire":
            done = firing.fired
        else:
            done = entry.made >= entry.presses
        if done:
            st.owed.pop(0)
            commands += next_owed_or_turn(st, "turn")
    else:
        # 000 §X.B: fired or not, the turn passes to the next player.
        if st.mimic == presser:
            st.mimic_played = True
        st.active = step(st, presser)
        commands += announce_head_or_turn(st, "turn")
    if st.round_may_be_over == receiver and st.seats[receiver].hand > 0:
        st.round_may_be_over = None
    if st.phase == "playing":
        commands += check_empty_hands(st)
    return commands


def next_owed_or_turn(st: TableState, reason: str) -> list[Command]:
    """After an owed entry is done: the next one, the turn, or the end of a won round."""
    if st.phase == "settling" and not st.owed:
        st.move_to("over")
        assert st.winner is not None
        return [Say("decks.round_settled", {"player": name(st, st.winner)}, Priority.RESULT)]
    return announce_head_or_turn(st, reason)


def announce_head_or_turn(st: TableState, reason: str) -> list[Command]:
    """Say who must press next, or whose turn it is when nobody owes a press."""
    if st.owed:
        entry = st.owed[0]
        who = name(st, entry.seat)
        if entry.until == "fire":
            return [Say("table.press_until_fire", {"player": who}, Priority.PROMPT)]
        if entry.until == "colour":
            params = {"player": who, "colour": entry.colour}
            return [Say("decks.press_until_colour", params, Priority.PROMPT)]
        left = entry.presses - entry.made
        if entry.receiver is not None and entry.receiver != entry.seat:
            target = name(st, entry.receiver)
            params_for: dict[str, str | int] = {"player": who, "presses": left, "target": target}
            return [Say("decks.press_owed_for", params_for, Priority.PROMPT)]
        owed: dict[str, str | int] = {"player": who, "presses": left, "reason": entry.reason}
        return [Say("table.press_owed", owed, Priority.PROMPT)]
    if st.phase == "settling":
        return []
    return [Say("table.turn", {"player": name(st, st.active), "reason": reason})]


# ---------------------------------------------------------------------- the magazine


def full_magazine(t: Table) -> int:
    """What the launcher holds after a deal: the deck minus the hands and the first card
    (000 §III, §X.A), unless the launcher options set a load."""
    if t.launcher_options.magazine:
        return t.launcher_options.magazine
    dealt = HAND_SIZE * players_in(t.state) + 1
    return max(0, _deck_size(counted_deck(t.state.rules)) - dealt)


@functools.cache
def _deck_size(deck: str) -> int:
    return builtin_ruleset(deck).deck_size()


def reload(t: Table, ev: Reload) -> list[Command]:
    cards = full_magazine(t) if ev.cards is None else ev.cards
    t.firing.reload(cards)
    t.state.jam = False
    t.state.jam_fault = ""
    t.state.warned_low = False
    return [Cue("reload"), Say("table.reloaded", {"cards": cards})]


def cards_seen(t: Table, ev: CardsSeen) -> list[Command]:
    st = t.state
    if st.last_fire is None:
        return []
    if not 0 <= ev.cards <= MAX_HAND:
        raise ActionError("bad_hand", f"a firing is 0 to {MAX_HAND} cards", {"cards": ev.cards})
    seat, modelled = st.last_fire
    if ev.expected is not None and ev.expected != modelled:
        return []  # a report about another firing (a test fire): not this player's cards
    delta = ev.cards - modelled
    st.seats[seat].hand = max(0, st.seats[seat].hand + delta)
    t.firing.correct(delta)
    st.last_fire = (seat, ev.cards)
    if ev.doubles:
        # Two cards came out together: the player keeps them (the beam counted both).
        said: dict[str, str | int] = {"player": name(st, seat), "cards": ev.cards}
        return [Say("box.double", said, Priority.WARNING)]
    return []


def jam(t: Table, ev: Jam) -> list[Command]:
    fault = ev.fault
    if fault == "jam" and t.firing.low:
        # Nothing came out of a magazine the model says is nearly empty: it ran out.
        fault = "empty"
    t.state.jam = True
    t.state.jam_fault = fault
    return [Cue("error"), Say(JAM_PHRASES[fault], {}, Priority.WARNING)]
