"""Hand estimates: what the table guesses each player holds (7 dealt + fired - played), and
what it says when a hand reaches one card or none."""

from __future__ import annotations

from ..commands import Command, Priority, Say
from .state import TableState
from .turns import name


def after_hand_change(st: TableState, seat: int) -> list[Command]:
    hand = st.seats[seat].hand
    commands: list[Command] = []
    if hand == 1 and not st.seats[seat].uno:
        # 000 §VI / §X.B: the others may call Contre-UNO until the next player has played.
        open_contre_uno(st, seat)
        if st.rules.uno_reminder:
            commands.append(Say("table.uno_reminder", {"player": name(st, seat)}, Priority.PENALTY))
    elif hand != 1:
        st.seats[seat].uno = False
    if st.phase == "playing":
        commands += check_empty_hands(st)
    return commands


def open_contre_uno(st: TableState, seat: int) -> None:
    st.contre_uno_window = seat


def close_contre_uno(st: TableState, actor: int) -> None:
    """``actor`` played or pressed: 000 §VI, the player before can no longer be caught."""
    if st.contre_uno_window is not None and st.contre_uno_window != actor:
        st.contre_uno_closed = st.contre_uno_window
        st.contre_uno_closed_by = actor
        st.contre_uno_window = None


def check_empty_hands(st: TableState) -> list[Command]:
    """Notice a hand estimated empty once its owner owes no press: the round may be over."""
    owing = {o.seat for o in st.owed} | {o.gets for o in st.owed}
    for i, seat in enumerate(st.seats):
        if seat.hand == 0 and not seat.eliminated and i not in owing:
            if st.round_may_be_over != i:
                st.round_may_be_over = i
                return [Say("table.round_may_be_over", {"player": seat.name}, Priority.PROMPT)]
            return []
    st.round_may_be_over = None
    return []
