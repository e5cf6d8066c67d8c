"""The table's memory across restarts, pulled plugs included: the round's log, a line at a time.

Every accepted table event is noted by the hub's journal as one line of the table log
(:mod:`companion.storage.table_log`), encoded as the event left the table: the action and payload
a phone would post, its source, its time, and for a press the cards the launcher really fired:
about fifty bytes, whatever the round's length. The line is written as soon as the launcher and
the voice were told (the memory listens after them), into the kernel: a killed process loses
none, and the press costs the ding nothing. A new round (a new
table, Undo of a setup, a renamed player) writes a checkpoint instead: the round's log so far
with its starting point (the engine's :class:`~companion.core.table.TableState`, the magazine,
the presses since the last firing), the edits Undo and Redo walk through, the launcher's random
state and the rule options, encoded with :mod:`companion.core.codec` from the dataclasses' type
hints (a field added to the engine's state is remembered with no change here).

The line reaches the card a moment later, off the hub thread: the press never waits for the
card, and an action's answer to a phone does (:meth:`TableMemory.wait_synced`, which the hub
calls before it answers).

On the next start the table is the last checkpoint, then every line since handled again as it
was: a press counts the cards it really fired and draws again the random numbers it drew, so the
table, its undo history and the presses to come are the ones that were. A firing whose beam
count never came (the power went while its cards were coming out) is marked at that restart:
the table keeps the cards the launcher meant to fire and :attr:`TableMemory.recovered` (the
``table_memory`` part of the state) names the line to check.

Older memories (kept whole in the settings after every event) still load and become the first
checkpoint. Rule options come back only if the configuration file still says what it said when
they were saved; after an edit of the file, the file wins. The ejection profile is the
settings'.
"""

from __future__ import annotations

import base64
import dataclasses
import logging
import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from companion.core.actions import event_action, table_event
from companion.core.codec import from_data, to_data
from companion.core.errors import ActionError
from companion.core.events import SOURCES, CardsSeen, Event, Jam, Press, Reload, Rename, Setup
from companion.core.firing import Firing
from companion.core.table import Checkpoint, Outcome, TableEngine
from companion.core.table.log import Edit, Entry, RoundLog
from companion.core.table.mending import LOG_CHANGES

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger(__name__)

MEMORY_KEY = "table.memory"  # where the whole memory was kept in the settings (formats 1, 2)
OLD_TABLE_KEY = "table"  # before the memory was kept after every event: seats and magazine only
FORMAT = 2  # a checkpoint is what the whole memory was in format 2
SYNC_TIMEOUT_S = 10.0  # an answer waits this long at most for the card
EXTRA_FIELDS = {"table.cards_seen": ("doubles",), "table.jam": ("fault",)}  # not in the payloads


class SettingsStore(Protocol):
    """The part of the storage a service keeps its settings in."""

    def settings_get(self, key: str) -> Any: ...

    def settings_put(self, key: str, value: Any) -> None: ...


class TableLogStore(Protocol):
    """Where the lines and checkpoints go (:class:`companion.storage.table_log.TableLog`)."""

    def read(self) -> tuple[Any | None, list[tuple[int, Any]], dict[int, Any]]: ...

    def append(self, line: Any) -> int: ...

    def checkpoint(self, data: Any) -> int: ...

    def mark(self, n: int, mark: Any) -> None: ...

    def last_line(self) -> int: ...

    def wait_synced(self, timeout: float | None = None) -> bool: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class _Write:
    """A line or a checkpoint to write; ``counting``: what a line says of the beam's counts."""

    kind: str
    data: Any
    counting: tuple[str, int] | bool | None = None


class TableMemory:
    """Writes each event's line to a table log and puts the table back from it on a start.

    :meth:`restore` runs before the hub starts; :meth:`attach` registers the journal, the
    wait for the card and the status; :meth:`close` once the hub has stopped.
    ``open_log`` opens the table log (its failure leaves the table unsaved, never stopped);
    ``settings`` is read for a memory kept in an older format.
    """

    def __init__(
        self,
        open_log: Callable[[], TableLogStore],
        engine: TableEngine,
        settings: SettingsStore | None = None,
    ) -> None:
        self._open_log = open_log
        self._store: TableLogStore | None = None
        self._engine = engine
        self._settings = settings
        self._configured_rules = to_data(engine.rules)
        self.saved = 0  # writes since the start
        self.bytes_written = 0  # text written since the start (lines and checkpoints)
        self.failing: str | None = None  # why the last write failed (None: it did not)
        self.recovered: list[dict[str, Any]] = []  # lines marked at this start
        self._round: RoundLog | None = None  # the round the lines go on (None: checkpoint due)
        self._rules = engine.rules
        self._counts_cards = False  # the launcher's beam counted a firing of this table
        self._uncounted: tuple[int, str, int] | None = None  # line, player, cards: not counted
        self._pending: list[_Write] = []  # noted by the journal, written after the launcher
        # Lines already encoded for a checkpoint, by identity (the line is held, so its id
        # stays its own).
        self._encoded: dict[int, tuple[Entry, list[Any]]] = {}
        self._start: tuple[Checkpoint, Any] | None = None

    def attach(self, hub: Hub) -> None:
        """The hub's journal notes each event's line as the event left the table; as a listener
        (attach it after the launcher's) the memory writes the line once the launcher has been
        told; an action is answered once its line is on the card."""
        hub.add_journal(self.note)
        hub.add_listener(self)
        hub.add_durable(self.wait_synced)
        hub.register_status("table_memory", self.status)

    # ------------------------------------------------------------------ writing

    def journal(self, outcome: Outcome | None = None) -> None:
        """Write what ``outcome`` added (a line; a checkpoint for a new round), or with no
        outcome a checkpoint of the table as it stands. On the caller's thread, never waiting
        for the card; a failure is logged and kept in :attr:`failing`, the table goes on."""
        if self._store is None:
            return
        try:
            writes = self._writes(outcome)
        except Exception as exc:
            self._failed(exc)
            return
        self._put(writes)

    def note(self, outcome: Outcome) -> None:
        """What ``outcome`` adds, encoded now (the table as its event left it), written by
        :meth:`on_outcome`: a few microseconds before the launcher is told."""
        if self._store is None:
            return
        try:
            self._pending += self._writes(outcome)
        except Exception as exc:
            self._failed(exc)

    def on_outcome(self, outcome: Any) -> None:
        """After the launcher and the voice were told: the lines noted, written (into the
        kernel: a killed process loses none of them)."""
        if self._pending:
            pending, self._pending = self._pending, []
            self._put(pending)

    def _writes(self, outcome: Outcome | None) -> list[_Write]:
        engine = self._engine
        event = None if outcome is None else outcome.handled
        if outcome is None or event is None or engine.log is not self._round:
            return [self._checkpoint()]
        if isinstance(event, Rename):
            return [self._checkpoint()]  # the names change in every line: a new start
        writes = []
        if engine.rules is not self._rules and _action_of(event) != "table.rules":
            writes.append(_Write("line", ["rules", to_data(engine.rules)]))  # set aside
        self._rules = engine.rules
        at, firing = None, None
        if type(event) not in LOG_CHANGES:
            entry = engine.log.entries[-1]  # the line this event added
            at, firing = entry.at, entry.firing
        line = _line(event, outcome.source, at, firing)
        writes.append(_Write("line", line, self._counting(event, firing)))
        return writes

    def _checkpoint(self) -> _Write:
        self._round, self._rules = self._engine.log, self._engine.rules
        return _Write("checkpoint", self.capture())

    def _put(self, writes: list[_Write]) -> None:
        store = self._store
        if store is None:
            return
        try:
            for write in writes:
                if write.kind == "checkpoint":
                    self.bytes_written += store.checkpoint(write.data)
                    self._uncounted = None
                else:
                    self.bytes_written += store.append(write.data)
                    self._follow(store.last_line(), write.counting)
        except Exception as exc:
            self._failed(exc)
            return
        self.failing = None
        self.saved += 1

    def _failed(self, exc: Exception) -> None:
        if self.failing is None:
            log.error("the table could not be saved: %s", exc)
        self.failing = str(exc) or type(exc).__name__
        self._round = None  # the next write is a checkpoint: it holds what was missed

    def _counting(self, event: Event, firing: Firing | None) -> tuple[str, int] | bool | None:
        """What a line says of the beam's counts: True for a count (or a jam), the player and
        the cards for a firing whose count is to come, None for neither."""
        if isinstance(event, CardsSeen | Jam):
            return True
        if firing is not None and firing.fired and firing.cards:
            last = self._engine.state.last_fire
            return (self._engine.state.seats[last[0]].name if last else "", firing.cards)
        return None

    def _follow(self, n: int, counting: tuple[str, int] | bool | None) -> None:
        """Which firing still waits for the beam's count (a line to mark after a power cut)."""
        if counting is True:
            self._counts_cards = True
            self._uncounted = None
        elif isinstance(counting, tuple):
            self._uncounted = (n, *counting)

    def capture(self) -> dict[str, Any]:
        """The table as a checkpoint: JSON-ready data."""
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
            "random": _pack_random(engine.firing.random_state()),
            "rules": to_data(engine.rules),
            "configured_rules": self._configured_rules,
            "events_handled": engine.events_handled,
            "last_fired": engine.last_fired,
            "counts_cards": self._counts_cards,
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

    def wait_synced(self) -> None:
        """Return once every line written so far is on the card (or the card failed)."""
        store = self._store
        if store is not None and not store.wait_synced(SYNC_TIMEOUT_S):
            log.warning("the table's last lines are not yet on the card")

    def save(self) -> None:
        """A checkpoint of the table as it stands now (at a clean stop)."""
        self.journal()

    def close(self) -> None:
        """The last checkpoint, then the log closed; call after the hub has stopped."""
        self.on_outcome(None)  # what was noted and not yet written
        self.save()
        store, self._store = self._store, None
        if store is not None:
            store.close()

    def status(self) -> dict[str, Any]:
        """``saved`` false (with ``problem``) when the table is not being kept; ``recovered``:
        the lines marked at this start."""
        return {
            "saved": self._store is not None and self.failing is None,
            "problem": self.failing,
            "recovered": list(self.recovered),
        }

    # ------------------------------------------------------------------ reading

    def restore(self) -> bool:
        """Open the table log and put the table back: the last checkpoint and the lines since.
        ``False`` (and a log line) when there is none or it does not fit the engine any more:
        the table then starts as configured."""
        try:
            self._store = self._open_log()
        except Exception as exc:
            log.error("the table cannot be kept: %s", exc)
            self.failing = str(exc) or type(exc).__name__
            return False
        try:
            checkpoint, lines, marks = self._store.read()
        except Exception as exc:
            log.error("the saved table could not be read: %s", exc)
            return False
        if checkpoint is None:
            return self._restore_older()
        try:
            self._apply(checkpoint)
        except Exception as exc:  # whatever does not fit leaves the configured table
            log.warning("saved table ignored (it does not fit this version): %s", exc)
            return False
        self._counts_cards = bool(checkpoint.get("counts_cards"))
        self._round, self._rules = self._engine.log, self._engine.rules
        self._handle_again(lines)
        if checkpoint.get("configured_rules") != self._configured_rules:
            self._engine.rules = from_data(type(self._engine.rules), self._configured_rules)
        self._mark_uncounted(marks)
        return True

    def _handle_again(self, lines: list[tuple[int, Any]]) -> None:
        """The lines since the checkpoint, handled again as they were."""
        engine = self._engine
        for n, line in lines:
            try:
                if line[0] == "rules":
                    engine.rules = from_data(type(engine.rules), line[1], "rules")
                    self._rules = engine.rules
                    continue
                event, source, at, firing = _line_event(line)
                if type(event) is Press:
                    # The press counts what the launcher really did and draws what it drew.
                    engine.replaying, engine.recorded = True, firing
                    try:
                        engine.handle(event, source, at=at)
                    finally:
                        engine.replaying, engine.recorded = False, None
                    if firing is not None:
                        engine.firing.redraw(firing)
                else:
                    engine.handle(event, source, at=at)
            except Exception as exc:
                log.warning("the table's log stops before its line %d (%s)", n, exc)
                self._round = None  # a checkpoint at the next write: the rest is dropped
                return
            self._rules = engine.rules
            self._follow(n, self._counting(event, firing))

    def _mark_uncounted(self, marks: dict[int, Any]) -> None:
        """A firing whose count never came: marked once, shown until the next round."""
        uncounted = self._uncounted if self._counts_cards else None
        store = self._store
        if uncounted is not None and uncounted[0] not in marks and store is not None:
            n, player, cards = uncounted
            mark = {"line": n, "player": player, "cards": cards, "why": "uncounted"}
            log.warning("the firing of %d card(s) for %s was not counted: check", cards, player)
            try:
                store.mark(n, mark)
            except Exception as exc:
                log.error("the mark could not be saved: %s", exc)
            marks = {**marks, n: mark}
        self.recovered = [marks[n] for n in sorted(marks)]
        self._uncounted = None

    def _restore_older(self) -> bool:
        """A memory kept whole in the settings (formats 1 and 2), or only the seats: put back,
        then written as the first checkpoint."""
        restored = False
        saved = self._read_setting(MEMORY_KEY)
        if isinstance(saved, dict) and saved.get("format") in (1, FORMAT):
            try:
                self._apply(saved if saved["format"] == FORMAT else _from_format_1(saved))
                restored = True
            except Exception as exc:  # whatever does not fit leaves the configured table
                log.warning("saved table ignored (it does not fit this version): %s", exc)
        else:
            restored = self._restore_seats_only()
        if restored:
            self.journal()
        return restored

    def _read_setting(self, key: str) -> Any:
        if self._settings is None:
            return None
        try:
            return self._settings.settings_get(key)
        except Exception as exc:
            log.error("the saved table could not be read: %s", exc)
            return None

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
        saved = self._read_setting(OLD_TABLE_KEY)
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


def _action_of(event: Event) -> str:
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


def _line(event: Event, source: str, at: float | None, firing: Firing | None) -> list[Any]:
    """One event as a line of the table log: ``[action, payload, source, at, firing]``."""
    action, payload = _event_data(event)
    return [action, payload, source, at, _firing_data(firing)]


def _line_event(line: Any) -> tuple[Event, Any, float | None, Firing | None]:
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


def _firing_data(firing: Firing | None) -> list[Any] | None:
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
    """A checkpoint's line: ``[seq, action, payload, source, firing, at]``; ``firing`` is
    ``[fired, cards, forced, wanted]`` for a press that served, else null."""
    action, payload = _event_data(entry.event)
    return [entry.seq, action, payload, entry.source, _firing_data(entry.firing), entry.at]


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


def _pack_random(state: Any) -> str | None:
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
        firing.set_random_state((3, words, None))
    except (ValueError, struct.error, TypeError) as exc:
        log.warning("the launcher's random sequence was not restored: %s", exc)
