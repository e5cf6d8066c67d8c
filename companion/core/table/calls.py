"""Calls by the table: UNO, Contre-UNO, a suggestion, a corrected hand, the round won."""

from __future__ import annotations

from ..commands import Command, Priority, Say
from ..errors import ActionError
from ..events import CallUno, ContreUno, RoundWon, SetHand, Suggestion
from ..limits import MAX_HAND
from .hands import after_hand_change
from .presses import announce_head_or_turn, owe
from .state import Table, TableState
from .turns import check_round_running, in_play, name, refuse_round_over


def call_uno(t: Table, ev: CallUno) -> list[Command]:
    """The table heard ``player`` say UNO: their word stands over the estimate. Said by the
    one who just played (nobody has acted since), it means one card left."""
    st = t.state
    seat = in_play(st, ev.player)
    refuse_round_over(st)
    st.seats[seat].uno = True
    if st.contre_uno_window == seat:
        st.contre_uno_window = None
        st.seats[seat].hand = 1
    return [Say("table.uno", {"player": name(st, seat)})]


def penalty(st: TableState, seat: int, presses: int, reason: str) -> list[Command]:
    """``seat`` owes ``presses`` for ``reason``; the caller checked the round is running."""
    if presses == 0:
        return []
    owe(st, seat, presses, reason)
    params: dict[str, str | int] = {"player": name(st, seat), "presses": presses}
    key = f"decks.{reason}" if reason == "mimic" else f"table.{reason}"
    commands: list[Command] = [Say(key, params, Priority.PENALTY)]
    if len(st.owed) == 1:
        commands += announce_head_or_turn(st, "turn")
    return commands


def contre_uno(t: Table, ev: ContreUno) -> list[Command]:
    """000 §X.B: a forgotten UNO costs two presses in UNO Extrême; 000 §VI: only "avant que le
    joueur suivant n'ait joué". The table is the judge ("si les autres joueurs le remarquent"):
    the call stands on who played last and who has acted since, never on the hand estimate,
    and the estimate follows it (one card)."""
    st = t.state
    seat = in_play(st, ev.player)
    check_round_running(st)
    who = name(st, seat)
    if st.seats[seat].uno:
        # Said UNO in time, or already caught for this card (two phones tapping at once).
        raise ActionError(
            "no_contre_uno", f"{who} said UNO or was already caught", {"player": who}, 409
        )
    if st.contre_uno_window != seat:
        closer = st.contre_uno_closed_by
        if st.contre_uno_closed == seat and closer is not None:
            by = name(st, closer)
            raise ActionError(
                "decks.error_contre_uno_late",
                f"too late: {by} has played since {who}'s last card (000 §VI)",
                {"player": who, "by": by},
                status=409,
            )
        raise ActionError(
            "decks.error_contre_uno_not_last",
            f"{who} did not play the last card: only the one who just played can be caught",
            {"player": who},
            status=409,
        )
    st.seats[seat].hand = 1
    st.seats[seat].uno = True  # caught: no second penalty for the same card
    st.contre_uno_window = None
    return penalty(st, seat, st.rules.contre_uno_presses, "contre_uno")


def suggestion(t: Table, ev: Suggestion) -> list[Command]:
    # 000 §X.G: suggesting a play to another player costs four presses.
    st = t.state
    check_round_running(st)
    seat = in_play(st, ev.player)
    return penalty(st, seat, st.rules.suggestion_presses, "suggestion")


def set_hand(t: Table, ev: SetHand) -> list[Command]:
    st = t.state
    seat = in_play(st, ev.player)
    if not 0 <= ev.cards <= MAX_HAND:
        raise ActionError("bad_hand", f"a hand holds 0 to {MAX_HAND} cards", {"cards": ev.cards})
    st.seats[seat].hand = ev.cards
    return after_hand_change(st, seat)


def round_won(t: Table, ev: RoundWon) -> list[Command]:
    st = t.state
    check_round_running(st)
    seat = in_play(st, ev.player)
    st.winner = seat
    st.seats[seat].hand = 0  # the table says the winner laid the last card
    st.seats[seat].uno = False
    # 000 §VI: "Si la dernière carte jouée est une carte +2 ou un Super Joker, le joueur
    # suivant doit piger 2 ou 4 cartes. Ces cartes seront prises en compte dans le calcul des
    # points." Presses owed to the others stay owed; the winner's own are dropped.
    st.owed = [o for o in st.owed if o.gets != seat]
    st.round_may_be_over = None
    st.contre_uno_window = None
    st.mimic = None
    commands: list[Command] = [Say("table.round_won", {"player": name(st, seat)}, Priority.RESULT)]
    if st.owed:
        st.move_to("settling")
        head = st.owed[0]
        commands.append(
            Say("decks.won_presses_owed", {"player": name(st, head.seat)}, Priority.PROMPT)
        )
        commands += announce_head_or_turn(st, "turn")
    else:
        st.move_to("over")
    return commands
