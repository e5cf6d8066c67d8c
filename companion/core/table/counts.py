"""The beam's count of a firing, written into the press it counts.

A firing is one step of the round: the press and the cards that really came out. The card
sensor's count arrives a moment later (seconds, with the launcher's movements queued), so it
amends the press's line of the round's log (its :class:`~companion.core.firing.Firing`) instead
of adding a line of its own: one Undo takes back the press with its counted cards, one Redo
brings both back, and a count arriving after an Undo amends the press waiting to be redone
without clearing Redo. The table is recomputed from the log, so the hands, the magazine and the
"went out" prompt follow the count.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from ..commands import Command, Priority, Say
from ..errors import ActionError
from ..events import CardsSeen, Event, Press
from ..limits import MAX_HAND
from .log import Entry, RoundLog
from .state import Table


def count_firing(
    t: Table, log: RoundLog, run: Callable[[Event], object], ev: CardsSeen
) -> list[Command]:
    """Amend the last firing of the round (in its log, or taken back and waiting for Redo) with
    the ``ev.cards`` counted; the commands to say about it. A count of another firing (a test
    fire: ``expected`` differs), of a firing already counted, or of a press whose line is gone
    changes nothing."""
    if not 0 <= ev.cards <= MAX_HAND:
        raise ActionError("bad_hand", f"a firing is 0 to {MAX_HAND} cards", {"cards": ev.cards})
    press = awaiting_count(log)
    if press is None:
        return []
    assert press.firing is not None
    if ev.expected is not None and ev.expected != press.firing.cards:
        return []  # a report about another firing (a test fire): not this player's cards
    counted = dataclasses.replace(press, firing=dataclasses.replace(press.firing, cards=ev.cards))
    log.awaiting = None
    index = log.amend(press, counted)
    if index is None:
        return []  # the press was taken back: Redo brings it with the cards counted
    log.replay(t, run, index)
    if not ev.doubles or t.state.last_fire is None:
        return []
    # Two cards came out together: the player keeps them (the beam counted both).
    seat = t.state.seats[t.state.last_fire[0]]
    return [Say("box.double", {"player": seat.name, "cards": ev.cards}, Priority.WARNING)]


def awaiting_count(log: RoundLog) -> Entry | None:
    """The press whose firing waits for the beam's count: in the log, or taken back by Undo and
    waiting for Redo (None: every firing was counted, or its line is gone)."""
    if log.awaiting is None:
        return None
    for entry in (*log.entries, *(e for edit in log.redo for e in edit.inserted)):
        if entry.seq == log.awaiting and isinstance(entry.event, Press):
            return entry
    return None
