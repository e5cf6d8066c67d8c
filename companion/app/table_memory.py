"""The table's memory across restarts, pulled plugs included: the round's log, a line at a time.

Every accepted table event is noted by the hub's journal as one line of the table log
(:mod:`companion.storage.table_log`), encoded as the event left the table: the action and payload
a phone would post, its source, its time, and for a press the cards the launcher really fired:
about fifty bytes, whatever the round's length. The line is written as soon as the launcher
was told (the memory listens after it), into the kernel: a killed process loses
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
checkpoint. How a line and a checkpoint are written down and read back:
:mod:`companion.app.table_lines`. Rule options come back only if the configuration file still
says what it said when they were saved; after an edit of the file, the file wins. The ejection
profile is the settings'.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from companion.core.codec import from_data, to_data
from companion.core.events import CardsSeen, Event, Jam, Rename
from companion.core.firing import Firing
from companion.core.table import Checkpoint, Outcome, TableEngine
from companion.core.table.log import Edit, Entry, RoundLog
from companion.core.table.mending import LOG_CHANGES

from .stores import SettingsStore
from .table_lines import (
    action_of,
    event_line,
    from_format_1,
    handle_line,
    line_data,
    pack_random,
    put_back,
    seats_only,
)

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger(__name__)

MEMORY_KEY = "table.memory"  # where the whole memory was kept in the settings (formats 1, 2)
OLD_TABLE_KEY = "table"  # before the memory was kept after every event: seats and magazine only
FORMAT = 2  # a checkpoint is what the whole memory was in format 2
SYNC_TIMEOUT_S = 10.0  # an answer waits this long at most for the card


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
        """After the launcher was told: the lines noted, written (into the
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
        if engine.rules is not self._rules and action_of(event) != "table.rules":
            writes.append(_Write("line", ["rules", to_data(engine.rules)]))  # set aside
        self._rules = engine.rules
        at, firing = None, None
        if type(event) not in LOG_CHANGES and not isinstance(event, CardsSeen):
            entry = engine.log.entries[-1]  # the line this event added (a count adds none)
            at, firing = entry.at, entry.firing
        line = event_line(event, outcome.source, at, firing)
        writes.append(_Write("line", line, self._counting(event, firing)))
        return writes

    def _checkpoint(self) -> _Write:
        self._round, self._rules = self._engine.log, self._engine.rules
        return _Write("checkpoint", self.capture())

    def _put(self, writes: list[_Write], *, again: bool = True) -> None:
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
            if getattr(exc, "problem", None) == "gone" and again:
                self._put([self._checkpoint()], again=False)  # a new log: the whole table
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
            "lines": [self._encoded_line(entry, known) for entry in round_log.entries],
            "undo": [self._edit(edit, known) for edit in round_log.undo],
            "redo": [self._edit(edit, known) for edit in round_log.redo],
            "next_seq": round_log.next_seq,
            "random": pack_random(engine.firing.random_source().getstate()),
            "rules": to_data(engine.rules),
            "configured_rules": self._configured_rules,
            "events_handled": engine.events_handled,
            "last_fired": engine.last_fired,
            "counts_cards": self._counts_cards,
        }

    def _encoded_line(self, entry: Entry, known: dict[int, tuple[Entry, list[Any]]]) -> list[Any]:
        cached = known.get(id(entry))
        if cached is None or cached[0] is not entry:
            cached = (entry, line_data(entry))
        self._encoded[id(entry)] = cached
        return cached[1]

    def _edit(self, edit: Edit, known: dict[int, tuple[Entry, list[Any]]]) -> dict[str, Any]:
        return {
            "index": edit.index,
            "removed": [self._encoded_line(e, known) for e in edit.removed],
            "inserted": [self._encoded_line(e, known) for e in edit.inserted],
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
            put_back(self._engine, checkpoint, self._configured_rules)
        except Exception as exc:  # whatever does not fit leaves the configured table
            log.warning("saved table ignored (it does not fit this version): %s", exc)
            return False
        self._counts_cards = bool(checkpoint.get("counts_cards"))
        self._round, self._rules = self._engine.log, self._engine.rules
        marks = self._handle_again(lines, marks)
        if checkpoint.get("configured_rules") != self._configured_rules:
            self._engine.rules = from_data(type(self._engine.rules), self._configured_rules)
        self._mark_uncounted(marks)
        return True

    def _handle_again(self, lines: list[tuple[int, Any]], marks: dict[int, Any]) -> dict[int, Any]:
        """The lines since the checkpoint, handled again as they were. A line that no longer
        fits (it does not decode, or the rules refuse it now) is marked and left out, and the
        lines after it are handled still: one bad line never costs the round. The marks."""
        engine = self._engine
        for n, line in lines:
            try:
                event, firing = handle_line(engine, line)
            except Exception as exc:
                problem = str(exc)[:200] or type(exc).__name__
                log.warning("the table's log line %d is left out: %s", n, problem)
                if _took_a_seq(line):
                    engine.log.next_seq += 1  # the lines after it keep the numbers they had
                marks = _marked(
                    self._store, marks, {"line": n, "why": "unreadable", "problem": problem}
                )
                continue
            self._rules = engine.rules
            if event is not None:
                self._follow(n, self._counting(event, firing))
        return marks

    def _mark_uncounted(self, marks: dict[int, Any]) -> None:
        """A firing whose count never came: marked once, shown until the next round."""
        uncounted = self._uncounted if self._counts_cards else None
        if uncounted is not None:
            n, player, cards = uncounted
            if n not in marks:
                log.warning("the firing of %d card(s) for %s was not counted: check", cards, player)
            mark = {"line": n, "player": player, "cards": cards, "why": "uncounted"}
            marks = _marked(self._store, marks, mark)
        self.recovered = [marks[n] for n in sorted(marks)]
        self._uncounted = None

    def _restore_older(self) -> bool:
        """A memory kept whole in the settings (formats 1 and 2), or only the seats: put back,
        then written as the first checkpoint."""
        restored = False
        saved = self._read_setting(MEMORY_KEY)
        if isinstance(saved, dict) and saved.get("format") in (1, FORMAT):
            try:
                data = saved if saved["format"] == FORMAT else from_format_1(saved)
                put_back(self._engine, data, self._configured_rules)
                restored = True
            except Exception as exc:  # whatever does not fit leaves the configured table
                log.warning("saved table ignored (it does not fit this version): %s", exc)
        else:
            restored = seats_only(self._engine, self._read_setting(OLD_TABLE_KEY))
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


def _marked(store: TableLogStore | None, marks: dict[int, Any], mark: Any) -> dict[int, Any]:
    """``marks`` with ``mark`` stored once by its line (a restart finds it marked already)."""
    n = mark["line"]
    if n in marks or store is None:
        return marks
    try:
        store.mark(n, mark)
    except Exception as exc:
        log.error("the mark could not be saved: %s", exc)
    return {**marks, n: mark}


# Lines that number no line of the round's log (the others each took the next number).
_NO_SEQ = ("rules", "table.undo", "table.redo", "table.remove")


def _took_a_seq(line: Any) -> bool:
    return not (isinstance(line, list | tuple) and line and line[0] in _NO_SEQ)
