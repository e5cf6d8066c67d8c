"""The table's memory written down: a line of the table log for an event, a checkpoint for a
round, and the table put back from them (see :mod:`companion.app.table_memory`).

An event is written as the action and payload a phone would post (:mod:`companion.core.actions`),
with what only the box reports (a count's doubles, a jam's fault), its source, its time and for a
press the cards the launcher really fired. Every value read back is checked: a line that does not
decode raises, and the caller decides what is kept.
"""

from __future__ import annotations

import base64
import dataclasses
import logging
import struct
from typing import Any

from companion.core.actions import event_action, table_event
from companion.core.codec import from_data
from companion.core.errors import ActionError
from companion.core.events import SOURCES, CardsSeen, Event, Jam, Press, Reload, Setup
from companion.core.firing import Firing
from companion.core.table import Checkpoint, TableEngine
from companion.core.table.log import Edit, Entry, RoundLog

log = logging.getLogger(__name__)

EXTRA_FIELDS = {"table.cards_seen": ("doubles",), "table.jam": ("fault",)}  # not in the payloads


def handle_line(engine: TableEngine, line: Any) -> tuple[Event | None, Firing | None]:
    """A line of the table log handled again as it was: a press counts what the launcher really
    did and draws again what it drew. The event and its firing (None for a rules line)."""
    if line[0] == "rules":
        engine.rules = from_data(type(engine.rules), line[1], "rules")
        return None, None
    event, source, at, firing = line_event(line)
    if type(event) is Press:
        engine.replaying, engine.recorded = True, firing
        try:
            engine.handle(event, source, at=at)
        finally:
            engine.replaying, engine.recorded = False, None
        if firing is not None:
            engine.firing.redraw(firing)
    else:
        engine.handle(event, source, at=at)
    return event, firing


def put_back(engine: TableEngine, saved: dict[str, Any], configured_rules: Any) -> None:
    """The table a checkpoint (or a whole older memory) holds, put back into ``engine``: its
    round's log replayed and checked against the saved table, the rules, the random state.
    Raises (the engine as it was) when it does not fit."""
    fresh = (engine.state, engine.log, engine.rules, engine.events_handled, engine.last_fired)
    firing = engine.firing
    fresh_firing = (firing.magazine, firing.presses_since_fire)
    try:
        start = from_data(Checkpoint, saved["start"], "start")
        _integer(start.magazine, 0, 10_000)
        _integer(start.presses_since_fire, 0, 1_000)
        round_log = RoundLog(start, _integer(saved["next_seq"], 0, 2**53))
        lines: dict[tuple[Any, ...], Entry] = {}
        round_log.entries = [_line_entry(item, lines) for item in saved["lines"]]
        round_log.undo = [_edit_entries(item, lines) for item in saved.get("undo", [])]
        round_log.redo = [_edit_entries(item, lines) for item in saved.get("redo", [])]
        engine.log = round_log
        engine.replay()
        saved_state = from_data(type(engine.state), saved["state"], "state")
        if engine.state != saved_state:
            raise ValueError("the log does not replay to the saved table")
        if saved.get("configured_rules") == configured_rules:
            rules = from_data(type(engine.rules), saved["rules"], "rules")
            if rules != engine.rules:  # set outside the log: put back as they were
                engine.rules = rules
        else:
            engine.rules = fresh[2]  # the saved ones came from another configuration
            log.info("the rules in the configuration changed: they replace the saved ones")
        engine.events_handled = _integer(saved.get("events_handled", 0), 0, 2**62)
        engine.last_fired = _integer(saved.get("last_fired", 0), 0, 1_000)
        engine.snapshot()  # every seat index points at a seat
        _unpack_random(firing, saved.get("random"))
    except BaseException:
        engine.state, engine.log, engine.rules = fresh[0], fresh[1], fresh[2]
        engine.events_handled, engine.last_fired = fresh[3], fresh[4]
        firing.magazine, firing.presses_since_fire = fresh_firing
        raise


def seats_only(engine: TableEngine, saved: Any) -> bool:
    """The oldest memory (the seats and the magazine only), put back by the box's own events;
    False when there is none or it does not fit."""
    if not isinstance(saved, dict):
        return False
    try:
        players = saved.get("players")
        if isinstance(players, list) and players:
            engine.handle(Setup(tuple(players), saved.get("dealer")), "box")
        magazine = saved.get("magazine")
        if isinstance(magazine, int):
            engine.handle(Reload(magazine), "box")
    except ActionError as exc:
        log.warning("saved table ignored: %s", exc)
        return False
    return True


def action_of(event: Event) -> str:
    return event_action(event)[0]


def _event_data(event: Event) -> tuple[str, dict[str, Any]]:
    """The action and payload a phone would post for ``event``, with what only the box
    reports (a count's doubles, a jam's fault)."""
    action, payload = event_action(event)
    for name in EXTRA_FIELDS.get(action, ()):
        field = next(f for f in dataclasses.fields(event) if f.name == name)
        value = getattr(event, name)
        if value != field.default:
            payload[name] = value
    return action, payload


def _event_of(action: Any, payload: Any) -> Event:
    if not isinstance(payload, dict):
        raise ValueError(f"{payload!r} is not a payload")
    payload = dict(payload)
    extra = {name: payload.pop(name) for name in EXTRA_FIELDS.get(action, ()) if name in payload}
    event = table_event(action, payload)
    if isinstance(event, CardsSeen) and "doubles" in extra:
        return dataclasses.replace(event, doubles=_integer(extra["doubles"], 0, 100))
    if isinstance(event, Jam) and extra.get("fault") in ("jam", "stuck", "empty"):
        return dataclasses.replace(event, fault=extra["fault"])
    return event


def event_line(event: Event, source: str, at: float | None, firing: Firing | None) -> list[Any]:
    """One event as a line of the table log: ``[action, payload, source, at, firing]``."""
    action, payload = _event_data(event)
    return [action, payload, source, at, firing_data(firing)]


def line_event(line: Any) -> tuple[Event, Any, float | None, Firing | None]:
    action, payload, source, at, fired = line
    return _event_of(action, payload), _source(source), _time(at), _firing_of(fired)


def _source(source: Any) -> Any:
    if source not in SOURCES:
        raise ValueError(f"{source!r} is not a source")
    return source


def _time(at: Any) -> float | None:
    if at is not None and (isinstance(at, bool) or not isinstance(at, int | float)):
        raise ValueError(f"{at!r} is not a time")
    return at


def firing_data(firing: Firing | None) -> list[Any] | None:
    if firing is None:
        return None
    return [firing.fired, firing.cards, firing.forced, firing.wanted]


def _firing_of(fired: Any) -> Firing | None:
    if fired is None:
        return None
    was_fired, cards, forced, wanted = fired
    if not isinstance(was_fired, bool) or not isinstance(forced, bool):
        raise ValueError(f"{fired!r} is not a firing")
    return Firing(was_fired, _integer(cards, 0, 1_000), forced, _integer(wanted, 0, 1_000))


def from_format_1(saved: dict[str, Any]) -> dict[str, Any]:
    """A table saved before the round was a log (the state and its undo steps): that table as
    the start of an empty log; the undo steps are not carried over."""
    kept = saved["launcher"]
    start = {
        "state": saved["state"],
        "magazine": kept["magazine"],
        "presses_since_fire": kept["presses_since_fire"],
    }
    return {**saved, "start": start, "lines": [], "undo": [], "redo": [], "next_seq": 0} | {
        "random": kept.get("random")
    }


def line_data(entry: Entry) -> list[Any]:
    """A checkpoint's line: ``[seq, action, payload, source, firing, at]``; ``firing`` is
    ``[fired, cards, forced, wanted]`` for a press that served, else null."""
    action, payload = _event_data(entry.event)
    return [entry.seq, action, payload, entry.source, firing_data(entry.firing), entry.at]


def _line_entry(item: Any, lines: dict[tuple[Any, ...], Entry]) -> Entry:
    """The line ``item`` describes; the same data read twice is the same line (the log and its
    undo history share them)."""
    seq, action, payload, source, fired, at = item
    key = (seq, action, repr(payload), source, repr(fired), at)
    if key in lines:
        return lines[key]
    event = _event_of(action, payload)
    entry = Entry(_integer(seq, 0, 2**53), event, _source(source), _firing_of(fired), _time(at))
    lines[key] = entry
    return entry


def _edit_entries(item: Any, lines: dict[tuple[Any, ...], Entry]) -> Edit:
    removed = tuple(_line_entry(e, lines) for e in item["removed"])
    inserted = tuple(_line_entry(e, lines) for e in item["inserted"])
    return Edit(_integer(item["index"], 0, 10_000), removed, inserted)


def _integer(value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{value!r} is not an integer from {low} to {high}")
    return value


def pack_random(state: Any) -> str | None:
    # The launcher's random sequence: kept so the presses after a restart are the ones that
    # would have come (the real launcher's irregular disc does not forget its position either).
    version, words, gauss = state
    if version != 3 or gauss is not None or len(words) != 625:
        return None
    return base64.b64encode(struct.pack("<625I", *words)).decode("ascii")


def _unpack_random(firing: Any, packed: Any) -> None:
    if not isinstance(packed, str):
        return
    try:
        words = struct.unpack("<625I", base64.b64decode(packed, validate=True))
        firing.random_source().setstate((3, words, None))
    except (ValueError, struct.error, TypeError) as exc:
        log.warning("the launcher's random sequence was not restored: %s", exc)
