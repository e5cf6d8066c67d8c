"""What each of the launcher's buttons means at the table (the box and the terminal share it)."""

from __future__ import annotations

from companion.core.events import Event, Play, Press

BUTTON_EVENTS: dict[str, Event] = {
    "hit": Press(),
    "next": Play("number"),  # "I played a card": the turn passes, the hand estimate drops
    "reverse": Play("reverse"),
    "skip": Play("skip"),
}


def button_event(button: str) -> Event | None:
    """The event a press of ``button`` stands for (``None``: a button with no table meaning)."""
    return BUTTON_EVENTS.get(button)
