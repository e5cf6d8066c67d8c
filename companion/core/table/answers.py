"""Answers the table gives when a card asks it something: a challenged +4, the colour that came
out, who lacked Lotso's colour, a broken Emoji face."""

from __future__ import annotations

from ..cards import CARDS
from ..commands import Command, Say
from ..errors import ActionError
from ..events import Challenge, ColourCame, Lacked, MimicBroken
from ..limits import MAX_HAND
from .calls import penalty
from .presses import announce_head_or_turn, next_owed_or_turn, owe
from .state import Owed, Table
from .turns import check_round_running, in_play, name, others


def challenge(t: Table, ev: Challenge) -> list[Command]:
    """000 §XI.E, 001 "Pénalisations", 002, 003 "Bluff", 004: the player hit by a +4 (in Flip
    a Wild Draw Two or Draw Colour) challenges it; the table looked at the hand."""
    st = t.state
    check_round_running(st)
    head = st.owed[0] if st.owed else None
    card = CARDS.get(head.reason) if head else None
    if not st.rules.challenge or head is None or card is None or not card.challenge:
        raise ActionError(
            "decks.error_no_challenge", "there is no +4 to challenge now", {}, status=409
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
        Say(key, {"player": name(st, culprit), "challenger": name(st, victim)}),
        *announce_head_or_turn(st, "turn"),
    ]


def colour_came(t: Table, ev: ColourCame) -> list[Command]:
    """000 §XI.E Piger une couleur: the presses end when a card of the colour came out."""
    st = t.state
    head = st.owed[0] if st.owed else None
    if head is None or head.until != "colour" or not head.made:
        raise ActionError(
            "decks.error_no_colour_wait", "nobody is pressing for a colour now", {}, status=409
        )
    st.owed.pop(0)
    return next_owed_or_turn(st, "turn")


def lacked(t: Table, ev: Lacked) -> list[Command]:
    """002 Lotso: "Tout adversaire qui n'a pas une carte de cette couleur doit piger 3 cartes.
    Cependant, si TOUS les adversaires ont une carte de cette couleur, c'est au JOUEUR qui a
    joué la carte Lotso de piger 3 cartes!"."""
    st = t.state
    if st.phase != "asking" or st.asking is None:
        raise ActionError(
            "decks.error_no_lotso", "there is no Lotso waiting for an answer", {}, status=409
        )
    player = st.asking
    lacking = {in_play(st, who) for who in ev.players}
    if player in lacking:
        raise ActionError(
            "decks.error_lotso_self",
            "the player of the Lotso does not show a card",
            {"player": name(st, player)},
        )
    presses = st.rules.lotso_presses
    if lacking:
        for seat in others(st, player):
            if seat in lacking:
                owe(st, seat, presses, "lotso", by=player)
    else:
        owe(st, player, presses, "lotso")
    st.move_to("playing")
    st.asking = None
    commands: list[Command] = (
        [Say(f"table.colour_{st.asking_colour}", {})] if st.asking_colour else []
    )
    return commands + announce_head_or_turn(st, "turn")


def mimic_broken(t: Table, ev: MimicBroken) -> list[Command]:
    """004 Emoji: "Si le joueur ne parvient pas à conserver cette mimique jusqu'au tour
    suivant, il doit piger 4 cartes!"."""
    st = t.state
    seat = in_play(st, ev.player)
    if st.mimic != seat:
        raise ActionError(
            "decks.error_no_mimic",
            f"{name(st, seat)} holds no mimic now",
            {"player": name(st, seat)},
            status=409,
        )
    check_round_running(st)
    st.mimic = None
    return penalty(st, seat, st.rules.mimic_presses, "mimic")
