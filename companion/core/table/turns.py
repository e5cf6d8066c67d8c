"""Turn order and direction: seats, who plays next, and the phase checks every rule makes."""

from __future__ import annotations

from ..errors import ActionError
from ..events import COLOURS, DARK_COLOURS
from ..names import shown_key
from .state import TableState


def find_seat(st: TableState, name: str) -> int | None:
    """The seat of the player whose name shows as ``name`` does (not as typed), if any."""
    folded = shown_key(name)
    for i, seat in enumerate(st.seats):
        if shown_key(seat.name) == folded:
            return i
    return None


def seat_of(st: TableState, name: str | None) -> int:
    if name is None:
        raise ActionError("missing_player", "a player name is needed")
    seat = find_seat(st, name)
    if seat is None:
        raise ActionError("unknown_player", f"no player called {name!r}", {"name": name}, 404)
    return seat


def in_play(st: TableState, name: str | None) -> int:
    seat = seat_of(st, name)
    if st.seats[seat].eliminated:
        raise ActionError(
            "eliminated", f"{name} is out of the game", {"name": str(name)}, status=409
        )
    return seat


def players_in(st: TableState) -> int:
    return sum(not s.eliminated for s in st.seats)


def step(st: TableState, seat: int, direction: int | None = None) -> int:
    """The next seat still in the game, going ``direction`` (default: the play direction)."""
    way = st.direction if direction is None else direction
    n = len(st.seats)
    for k in range(1, n + 1):
        candidate = (seat + way * k) % n
        if not st.seats[candidate].eliminated:
            return candidate
    return seat


def others(st: TableState, player: int, direction: int | None = None) -> list[int]:
    """Every other player still in the game, from the one after ``player``."""
    seats = []
    seat = step(st, player, direction)
    while seat != player:
        seats.append(seat)
        seat = step(st, seat, direction)
    return seats


def two_player(st: TableState) -> bool:
    return players_in(st) == 2 and st.rules.two_player_rules


def name(st: TableState, seat: int) -> str:
    return st.seats[seat].name


def name_or_none(st: TableState, seat: int | None) -> str | None:
    return None if seat is None else st.seats[seat].name


def check_round_running(st: TableState) -> None:
    refuse_round_over(st)
    if st.phase == "settling":
        raise ActionError("round_over", "the round is over: start a new one", status=409)
    if st.phase == "asking":
        refuse_asking(st)


def refuse_round_over(st: TableState) -> None:
    if st.phase in ("over", "game_over"):
        raise ActionError("round_over", "the round is over: start a new one", status=409)


def refuse_game_over(st: TableState) -> None:
    if st.phase == "game_over":
        raise ActionError("game_over", "the game is over: seat the players again", status=409)


def refuse_asking(st: TableState) -> None:
    assert st.asking is not None
    raise ActionError(
        "decks.error_answer_lotso",
        "say first who lacked the colour of the Lotso (002)",
        {"player": name(st, st.asking), "colour": st.asking_colour},
        status=409,
    )


def refuse_settling(st: TableState) -> None:
    head = st.owed[0]
    raise ActionError(
        "decks.error_presses_after_win",
        f"{name(st, head.seat)} still owes presses: those cards count (000 §VI)",
        {"player": name(st, head.seat)},
        status=409,
    )


def check_colour(colour: str | None, side: str = "") -> None:
    """A colour of the side in play: 000 §XI.A gives the dark side its own four colours."""
    allowed = DARK_COLOURS if side == "dark" else COLOURS
    if colour is not None and colour not in allowed:
        raise ActionError(
            "bad_colour",
            f"{colour!r} is not a colour ({', '.join(allowed)})",
            {"colour": colour},
        )


def facing_seat(st: TableState) -> int:
    """The seat the launcher must face: whoever gets the owed presses' cards, else the active
    player."""
    return st.owed[0].gets if st.owed else st.active
