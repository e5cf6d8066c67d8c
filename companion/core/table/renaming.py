"""A player renamed in place: the same seat, hand and turn, under the new name everywhere the
round remembers it (the table, its checkpoints, every line of its log and the edits Undo and
Redo walk through), so a replay after the rename still finds the player."""

from __future__ import annotations

import dataclasses
from typing import Any

from ..commands import Command, Say
from ..errors import ActionError
from ..events import Event, Rename
from ..names import check_name
from .log import Edit, Entry, RoundLog
from .state import TableState
from .turns import find_seat, seat_of


def rename(state: TableState, logs: list[RoundLog], ev: Rename) -> list[Command]:
    """``ev.player`` is called ``ev.name`` in ``state`` and in each of ``logs``."""
    seat = seat_of(state, ev.player)
    new = ev.name.strip()
    check_name(new)
    old = state.seats[seat].name
    if find_seat(state, new) not in (None, seat):
        raise ActionError("duplicate_player", "two players have the same name")
    _renamed_in(state, old, new)
    for log in logs:
        for mark in log.marks:
            _renamed_in(mark.state, old, new)
        log.entries = [_renamed_entry(e, old, new) for e in log.entries]
        log.undo = [_renamed_edit(e, old, new) for e in log.undo]
        log.redo = [_renamed_edit(e, old, new) for e in log.redo]
        log.views = {}
    return [Say("table.renamed", {"player": old, "name": new})]


def _renamed_in(state: TableState, old: str, new: str) -> None:
    """``old`` becomes ``new`` in ``state``'s seats and last card (the card is replaced, not
    changed: checkpoints may share it)."""
    for seat in state.seats:
        if seat.name == old:
            seat.name = new
    card = state.last_card
    if card is not None and old in (card.get("player"), card.get("target")):
        state.last_card = {
            **card,
            **{k: new for k in ("player", "target") if card.get(k) == old},
        }


def _renamed_value(value: Any, old: str, new: str) -> Any:
    if value == old:
        return new
    if isinstance(value, tuple):
        return tuple(_renamed_value(v, old, new) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _renamed_event(value, old, new)  # an event inside a mend
    return value


def _renamed_event(event: Any, old: str, new: str) -> Any:
    changes = {
        f.name: renamed
        for f in dataclasses.fields(event)
        if (renamed := _renamed_value(getattr(event, f.name), old, new))
        is not getattr(event, f.name)
    }
    return dataclasses.replace(event, **changes) if changes else event


def _renamed_entry(entry: Entry, old: str, new: str) -> Entry:
    event: Event = _renamed_event(entry.event, old, new)
    return entry if event is entry.event else dataclasses.replace(entry, event=event)


def _renamed_edit(edit: Edit, old: str, new: str) -> Edit:
    return Edit(
        edit.index,
        tuple(_renamed_entry(e, old, new) for e in edit.removed),
        tuple(_renamed_entry(e, old, new) for e in edit.inserted),
    )
