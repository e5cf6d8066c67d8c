"""The table's memory across restarts, pulled plugs included: the round's log.

After every accepted table event, and before the launcher moves or a phone is told (the hub's
journal), the round's log is written to the score database in one durable transaction: the
checkpoint the round starts from (the engine's :class:`~companion.core.table.TableState`, the
magazine, the presses since the last firing), every line since (each event as the action and
payload a phone would post, its source, its time, and for a press the cards the launcher really
fired), the edits Undo and Redo walk through, the launcher's random sequence, and the rule
options in effect. On the next start the table is the log replayed: exactly the table that was,
with the same undo history, and the presses to come fire what they would have.

Each line is encoded once, when it is first written (a line never changes; a mended line is a
new one). The checkpoint is written with :mod:`companion.core.codec`, read from the
dataclasses' type hints: a field added to the engine's state is remembered with no change here.
What is not kept: the ejection profile, which the settings keep.

Rule options come back only if the configuration file still says what it said when they were
saved; after an edit of the file, the file wins.
"""

from __future__ import annotations

import base64
import logging
import struct
from typing import Any, Protocol

from companion.core.actions import event_action, table_event
from companion.core.codec import from_data, to_data
from companion.core.errors import ActionError
from companion.core.events import SOURCES, Reload, Setup
from companion.core.firing import Firing
from companion.core.table import Checkpoint, Outcome, TableEngine
from companion.core.table.log import Edit, Entry, RoundLog

log = logging.getLogger(__name__)

MEMORY_KEY = "table.memory"
OLD_TABLE_KEY = "table"  # before the memory was kept after every event: seats and magazine only
FORMAT = 2


class SettingsStore(Protocol):
    """The part of the storage a service keeps its settings in."""

    def settings_get(self, key: str) -> Any: ...

    def settings_put(self, key: str, value: Any) -> None: ...


class TableMemory:
    """Keeps the round's log in a settings store and replays it on the next start.

    :meth:`restore` runs before the hub starts; :meth:`journal` after each event (register it
    with :meth:`Hub.add_journal`); :meth:`save` once more after the hub has stopped.
    """

    def __init__(self, store: SettingsStore, engine: TableEngine) -> None:
        self._store = store
        self._engine = engine
        self._configured_rules = to_data(engine.rules)
        self.saved = 0  # writes since the start
        self.failing: str | None = None  # why the last write failed (None: it did not)
        # Lines already encoded, by identity (the line is held, so its id stays its own).
        self._encoded: dict[int, tuple[Entry, list[Any]]] = {}
        self._start: tuple[Checkpoint, Any] | None = None

    # ------------------------------------------------------------------ writing

    def capture(self) -> dict[str, Any]:
        """The table's memory as JSON-ready data."""
        engine = self._engine
        round_log = engine.log
        known, self._encoded = self._encoded, {}
        if self._start is None or self._start[0] is not round_log.start:
            self._start = (round_log.start, to_data(round_log.start))
        return {
            "format": FORMAT,
            "start": self._start[1],
            "state": to_data(engine.state),  # what the replay must give back
            "lines": [self._line(entry, known) for entry in round_log.entries],
            "undo": [self._edit(edit, known) for edit in round_log.undo],
            "redo": [self._edit(edit, known) for edit in round_log.redo],
            "next_seq": round_log.next_seq,
            "random": _pack_random(engine.firing),
            "rules": to_data(engine.rules),
            "configured_rules": self._configured_rules,
            "events_handled": engine.events_handled,
            "last_fired": engine.last_fired,
        }

    def _line(self, entry: Entry, known: dict[int, tuple[Entry, list[Any]]]) -> list[Any]:
        cached = known.get(id(entry))
        if cached is None or cached[0] is not entry:
            cached = (entry, _line_data(entry))
        self._encoded[id(entry)] = cached
        return cached[1]

    def _edit(self, edit: Edit, known: dict[int, tuple[Entry, list[Any]]]) -> dict[str, Any]:
        return {
            "index": edit.index,
            "removed": [self._line(e, known) for e in edit.removed],
            "inserted": [self._line(e, known) for e in edit.inserted],
        }

    def journal(self, outcome: Outcome | None = None) -> None:
        """Write the table now (durable when it returns); a storage failure is logged and kept
        in :attr:`failing`, and the table goes on in memory."""
        try:
            self._store.settings_put(MEMORY_KEY, self.capture())
        except Exception as exc:
            if self.failing is None:
                log.error("the table could not be saved: %s", exc)
            self.failing = str(exc) or type(exc).__name__
            return
        self.failing = None
        self.saved += 1

    def save(self) -> None:
        """The table as it stands now (at a clean stop)."""
        self.journal()

    # ------------------------------------------------------------------ reading

    def restore(self) -> bool:
        """Replay the saved log; ``False`` (and a log line) when there is none or it does not
        fit the engine any more: the table then starts as configured."""
        try:
            saved = self._store.settings_get(MEMORY_KEY)
        except Exception as exc:
            log.error("the saved table could not be read: %s", exc)
            return False
        if isinstance(saved, dict) and saved.get("format") in (1, FORMAT):
            try:
                self._apply(saved if saved["format"] == FORMAT else _from_format_1(saved))
                return True
            except Exception as exc:  # whatever does not fit leaves the configured table
                log.warning("saved table ignored (it does not fit this version): %s", exc)
                return False
        return self._restore_seats_only()

    def _apply(self, saved: dict[str, Any]) -> None:
        engine = self._engine
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
            if saved.get("configured_rules") == self._configured_rules:
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

    def _restore_seats_only(self) -> bool:
        saved = self._store.settings_get(OLD_TABLE_KEY)
        if not isinstance(saved, dict):
            return False
        try:
            players = saved.get("players")
            if isinstance(players, list) and players:
                self._engine.handle(Setup(tuple(players), saved.get("dealer")), "box")
            magazine = saved.get("magazine")
            if isinstance(magazine, int):
                self._engine.handle(Reload(magazine), "box")
        except ActionError as exc:
            log.warning("saved table ignored: %s", exc)
            return False
        return True


def _from_format_1(saved: dict[str, Any]) -> dict[str, Any]:
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


def _line_data(entry: Entry) -> list[Any]:
    """``[seq, action, payload, source, firing, at]``; ``firing`` is ``[fired, cards, forced,
    wanted]`` for a press that served, else null."""
    action, payload = event_action(entry.event)
    firing = entry.firing
    fired = None if firing is None else [firing.fired, firing.cards, firing.forced, firing.wanted]
    return [entry.seq, action, payload, entry.source, fired, entry.at]


def _line_entry(item: Any, lines: dict[tuple[Any, ...], Entry]) -> Entry:
    """The line ``item`` describes; the same data read twice is the same line (the log and its
    undo history share them)."""
    seq, action, payload, source, fired, at = item
    key = (seq, action, repr(payload), source, repr(fired), at)
    if key in lines:
        return lines[key]
    if source not in SOURCES:
        raise ValueError(f"{source!r} is not a source")
    firing = None
    if fired is not None:
        was_fired, cards, forced, wanted = fired
        if not isinstance(was_fired, bool) or not isinstance(forced, bool):
            raise ValueError(f"{fired!r} is not a firing")
        firing = Firing(was_fired, _integer(cards, 0, 1_000), forced, _integer(wanted, 0, 1_000))
    if at is not None and not isinstance(at, int | float):
        raise ValueError(f"{at!r} is not a time")
    entry = Entry(_integer(seq, 0, 2**53), table_event(action, payload), source, firing, at)
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


def _random_of(firing: Any) -> Any:
    # The launcher's random sequence: kept so the presses after a restart are the ones that
    # would have come (the real launcher's irregular disc does not forget its position either).
    return firing.random_source()


def _pack_random(firing: Any) -> str | None:
    rng = _random_of(firing)
    if rng is None:
        return None
    version, words, gauss = rng.getstate()
    if version != 3 or gauss is not None or len(words) != 625:
        return None
    return base64.b64encode(struct.pack("<625I", *words)).decode("ascii")


def _unpack_random(firing: Any, packed: Any) -> None:
    rng = _random_of(firing)
    if rng is None or not isinstance(packed, str):
        return
    try:
        words = struct.unpack("<625I", base64.b64decode(packed, validate=True))
        rng.setstate((3, words, None))
    except (ValueError, struct.error, TypeError) as exc:
        log.warning("the launcher's random sequence was not restored: %s", exc)
