"""A played card: checked against the deck and the turn, then its effect as the card table
(:mod:`companion.core.cards`) describes it, and the effects that are more than data."""

from __future__ import annotations

from ..cards import CARDS, CardRule, counted_deck, in_deck, lowest_number
from ..commands import Command, Priority, Say
from ..errors import ActionError
from ..events import Play
from ..limits import MAX_HAND
from .hands import after_hand_change, close_contre_uno, open_contre_uno
from .presses import announce_head_or_turn, owe
from .state import Owed, Table, TableState
from .turns import check_colour, check_round_running, in_play, name, others, step, two_player


def card_rule(st: TableState, key: str, side: str | None = None) -> CardRule:
    """The rule of card ``key``, checked to be in the deck and on the side in play."""
    rules = st.rules
    card = CARDS.get(key)
    if card is None:
        raise ActionError("card_not_in_deck", f"unknown card {key!r}", {"card": key[:40]})
    if not in_deck(card, rules):
        deck = counted_deck(rules)
        if card.option and deck == "extreme" and deck in card.decks:
            raise ActionError(
                "card_not_in_deck",
                f"{key} is not in this deck (rules option '{card.option}' is off)",
                {"card": key, "option": card.option},
            )
        raise ActionError(
            "card_not_in_the_deck", f"{key} is not in the {deck} deck", {"card": key, "deck": deck}
        )
    side = st.side if side is None else side
    if card.side and side and card.side != side:
        raise ActionError(
            "decks.error_wrong_side",
            f"{key} is on the {card.side} side; the table plays the {side} side (000 §XI)",
            {"card": key, "side": side},
            status=409,
        )
    return card


def play(t: Table, ev: Play) -> list[Command]:
    st = t.state
    check_round_running(st)
    card = card_rule(st, ev.card)
    check_colour(ev.colour, st.side)
    if ev.player is not None:
        player = in_play(st, ev.player)
    elif st.owed and can_stack(st, st.owed[0].seat, card):
        player = st.owed[0].seat  # 003 "Riposte": the one who owes the presses answers
    else:
        player = st.active
    stacking = can_stack(st, player, card)
    if st.owed and not stacking:
        check_riposte_mix(st, st.owed[0].seat if ev.player is None else player, card)
        head = name(st, st.owed[0].seat)
        raise ActionError(
            "must_press_first", f"{head} must press first", {"player": head}, status=409
        )
    if player != st.active and not stacking:
        active = name(st, st.active)
        raise ActionError("not_your_turn", f"it is {active}'s turn", {"player": active}, 409)
    if ev.count < 1 or ev.count > MAX_HAND or (ev.count > 1 and card.effect != "discard_all"):
        raise ActionError(
            "bad_count", "only a Poser Tout lays down more than one card", {"count": ev.count}
        )
    if ev.value is not None:
        lowest = lowest_number(st.rules)  # 000 §X: the Extrême deck has no 0
        if card.key != "number" or not lowest <= ev.value <= 9:
            raise ActionError("bad_value", f"a number card is {lowest} to 9", {"value": ev.value})
    if ev.colour is None and (card.effect == "lotso" or card.until == "colour"):
        raise ActionError(
            "decks.error_needs_colour",
            f"a {card.label_en} names the colour asked for",
            {"card": card.key},
        )
    swap = card.key == "number" and ev.value == 7 and st.rules.seven_swap
    target = None
    if card.target or swap:
        if ev.target is None:
            raise ActionError("needs_target", f"a {card.label_en} needs a target player")
        target = in_play(st, ev.target)
    elif ev.target is not None:
        raise ActionError("no_target", "only a Coup Extrême has a target", {"card": ev.card})

    t.actor = player
    seat = st.seats[player]
    said_uno = seat.uno  # said on their turn, before laying the card: one card left after it
    seat.hand = max(0, seat.hand - ev.count)
    if said_uno and seat.hand > 1:
        seat.hand = 1
    st.last_card = {
        "card": card.key,
        "colour": ev.colour,
        "value": ev.value,
        "player": seat.name,
        "target": None if target is None else name(st, target),
    }
    close_contre_uno(st, player)
    if not seat.uno:
        open_contre_uno(st, player)  # 000 §VI: caught if UNO is missing, until the next one acts
    if st.mimic == player:
        st.mimic_played = True
    commands: list[Command] = []
    if stacking:
        commands += stack(st, player, card)
    else:
        commands += card_effect(st, player, card, target, ev.colour, ev.value)
    commands += after_hand_change(st, player)
    if target is not None and swap:
        commands += after_hand_change(st, target)
    return commands


def card_effect(
    st: TableState,
    player: int,
    card: CardRule,
    target: int | None,
    colour: str | None,
    value: int | None,
) -> list[Command]:
    nxt = step(st, player)
    reason = "turn"
    commands: list[Command] = []
    st.active = nxt
    if card.effect == "flip":
        # 000 §XI.E Flip: the whole table turns to the other side.
        st.side = "dark" if st.side == "light" else "light"
        commands.append(Say(f"decks.side_{st.side}", {}))
    if card.reverse:
        if two_player(st):
            # 000 §X.H: with two players Inversion acts as Passer: play again.
            st.active = player
            reason = "skip"
        else:
            st.direction = -st.direction
            st.active = step(st, player)
            reason = "reverse"
    elif card.skip_all:
        # 000 §XI.E Passer tous un tour: "le joueur qui a posé la carte joue de nouveau".
        st.active = player
        reason = "skip"
    elif card.effect == "coup_extreme" and target is not None:
        return commands + coup_extreme(st, player, card, target, colour)
    elif card.to == "others":
        # UNO Attack Wild All Hit: every other player, from the left, presses once.
        for seat in others(st, player, 1):
            owe(st, seat, card.presses, card.key, by=player)
    elif card.to == "next":
        # 000 §X Appuyer 2x, §V +2/+4, §XI.E +1/+5/blanche +2/Piger une couleur: the next
        # player presses and loses the turn; with two players the first plays again (§X.H).
        owe(st, nxt, card.presses, card.key, card.until, colour=colour or "", by=player)
        if card.skip:
            st.active = step(st, nxt)
    elif card.skip:
        # With two players this gives the turn straight back (000 §X.H).
        st.active = step(st, nxt)
        reason = "skip"
    elif card.effect == "lotso":
        # 002 Lotso: each opponent shows a card of the colour; the table says who could not.
        st.move_to("asking")
        st.asking = player
        st.asking_colour = colour or ""
        params = {"player": name(st, player), "colour": colour or ""}
        commands.append(Say("decks.lotso_ask", params, Priority.PROMPT))
        return commands
    elif card.effect == "mimic":
        # 004 Emoji: the next player copies the face and keeps it until their next turn.
        st.mimic = nxt
        st.mimic_played = False
        commands.append(Say("decks.mimic", {"player": name(st, nxt)}, Priority.PROMPT))
    elif card.effect == "custom":
        custom_card(st, player, nxt)
    elif card.key == "number":
        commands += zero_seven(st, player, target, value)
    if colour and card.colour:
        commands.append(Say(f"table.colour_{colour}", {}))
    commands += announce_head_or_turn(st, reason)
    return commands


def coup_extreme(
    st: TableState, player: int, card: CardRule, target: int, colour: str | None
) -> list[Command]:
    # 000 §X Coup Extrême: the target presses once, "Le Distributeur est alors dirigé vers le
    # joueur qui a été désigné", and the attacker presses twice: the launcher stays on the
    # target, so what those presses fire is the target's. Play goes on after the attacker.
    owe(st, target, card.presses, "coup_extreme_target", by=player)
    owe(st, player, card.player_presses, "coup_extreme_attacker", receiver=target)
    after = step(st, player)
    if st.rules.coup_extreme_resume == "second":
        after = step(st, after)
    st.active = after
    params = {"attacker": name(st, player), "target": name(st, target), "colour": colour or ""}
    return [Say("table.coup_extreme", params, Priority.PROMPT)]


def custom_card(st: TableState, player: int, nxt: int) -> None:
    """004 "Carte à personnaliser": the rule the table wrote on it for this game."""
    rules = st.rules
    presses = rules.custom_card_presses
    if presses:
        if rules.custom_card_to == "next":
            owe(st, nxt, presses, "custom", by=player)
        elif rules.custom_card_to == "player":
            owe(st, player, presses, "custom")
        elif rules.custom_card_to == "others":
            for seat in others(st, player, 1):
                owe(st, seat, presses, "custom", by=player)
    if rules.custom_card_skip:
        st.active = step(st, nxt)


def zero_seven(st: TableState, player: int, target: int | None, value: int | None) -> list[Command]:
    """003 "Règle des 0/7": a 7 swaps hands with a chosen player; a 0 passes every hand on.

    Whose turn it is does not change; the hand estimates follow the cards."""
    seats = st.seats
    if value == 7 and target is not None and st.rules.seven_swap:
        seats[player].hand, seats[target].hand = seats[target].hand, seats[player].hand
        seats[player].uno = seats[target].uno = False
        params = {"player": name(st, player), "target": name(st, target)}
        return [Say("decks.seven_swap", params)]
    if value == 0 and st.rules.zero_pass:
        order = [player, *others(st, player)]
        hands = [seats[s].hand for s in order]
        for i, seat in enumerate(order):
            seats[step(st, seat)].hand = hands[i]
        for seat in order:
            seats[seat].uno = False
        return [Say("decks.zero_pass", {})]
    return []


def can_stack(st: TableState, player: int, card: CardRule) -> bool:
    """003 "Riposte": whoever owes a +2/+4/Appuyer 2x may pass it on with another one; a +2
    does not answer a +4 nor the other way round unless the house rule allows it."""
    if not (st.rules.stacking and st.owed and card.stack):
        return False
    head = st.owed[0]
    owed_card = CARDS.get(head.reason)
    if owed_card is None or not owed_card.stack or head.seat != player or head.made:
        return False
    return st.rules.stacking_mix or owed_card.stack == card.stack


def check_riposte_mix(st: TableState, player: int, card: CardRule) -> None:
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


def stack(st: TableState, player: int, card: CardRule) -> list[Command]:
    entry = st.owed.pop(0)
    victim = step(st, player)
    st.owed.insert(0, Owed(victim, entry.presses + card.presses, card.key, by=player))
    st.active = step(st, victim)
    return announce_head_or_turn(st, "turn")
