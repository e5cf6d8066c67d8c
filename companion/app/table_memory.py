"""The table's memory across restarts, pulled plugs included.

After every accepted table event, and before the launcher moves or a phone is told (the hub's
journal), the whole table is written to the score database in one durable transaction: the
engine's :class:`~companion.core.table.TableState` (players, seats, dealer, round, direction,
owed presses, hand estimates and whatever the rules add to it later), the launcher's magazine,
its presses since the last firing and its random sequence, and the rule options in effect.
On the next start the table is put back exactly as it was.

The undo history is kept too (bounded as the engine bounds it): after a restart, "Undo" takes
back the last changes as it would have before. Each step is encoded once, when it is first
written: a step never changes while it waits to be undone.

The state is written with :mod:`companion.core.codec`, read from the dataclasses' type hints: a
field added to the engine's state is remembered with no change here. What is not kept: the
ejection profile, which the settings keep.

Rule options come back only if the configuration file still says what it said when they were
saved; after an edit of the file, the file wins (and the undo history, made under the old rules,
is dropped).
"""

from __future__ import annotations

import base64
import logging
import struct
from typing import Any, Protocol

from companion.core.codec import from_data, to_data
from companion.core.errors import ActionError
from companion.core.events import Reload, Setup
from companion.core.table import Checkpoint, Outcome, TableEngine

log = logging.getLogger(__name__)

MEMORY_KEY = "table.memory"
OLD_TABLE_KEY = "table"  # before the memory was kept after every event: seats and magazine only
FORMAT = 1


class SettingsStore(Protocol):
    """The part of the storage a service keeps its settings in."""

    def settings_get(self, key: str) -> Any: ...

    def settings_put(self, key: str, value: Any) -> None: ...


class TableMemory:
    """Keeps the table in a settings store and puts it back on the next start.

    :meth:`restore` runs before the hub starts; :meth:`journal` after each event (register it
    with :meth:`Hub.add_journal`); :meth:`save` once more after the hub has stopped.
    """

    def __init__(self, store: SettingsStore, engine: TableEngine) -> None:
        self._store = store
        self._engine = engine
        self._configured_rules = to_data(engine.rules)
        self.saved = 0  # writes since the start
        self.failing: str | None = None  # why the last write failed (None: it did not)
        # Undo steps already encoded, by identity (the step is held, so its id stays its own).
        self._encoded: dict[int, tuple[Checkpoint, Any]] = {}

    # ------------------------------------------------------------------ writing

    def capture(self) -> dict[str, Any]:
        """The table as JSON-ready data."""
        engine = self._engine
        launcher = engine.firing
        return {
            "format": FORMAT,
            "state": to_data(engine.state),
            "launcher": {
                "magazine": launcher.magazine,
                "presses_since_fire": launcher.presses_since_fire,
                "random": _pack_random(launcher),
            },
            "rules": to_data(engine.rules),
            "configured_rules": self._configured_rules,
            "events_handled": engine.events_handled,
            "last_fired": engine.last_fired,
            "undo": self._undo_data(engine.undo_history),
        }

    def _undo_data(self, steps: tuple[Checkpoint, ...]) -> list[Any]:
        known = self._encoded
        self._encoded = {id(step): known.get(id(step)) or (step, to_data(step)) for step in steps}
        return [self._encoded[id(step)][1] for step in steps]

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
        """Put the saved table back; ``False`` (and a log line) when there is none or it does
        not fit the engine any more: the table then starts as configured."""
        try:
            saved = self._store.settings_get(MEMORY_KEY)
        except Exception as exc:
            log.error("the saved table could not be read: %s", exc)
            return False
        if isinstance(saved, dict) and saved.get("format") == FORMAT:
            try:
                self._apply(saved)
                return True
            except Exception as exc:  # whatever does not fit leaves the configured table
                log.warning("saved table ignored (it does not fit this version): %s", exc)
                return False
        return self._restore_seats_only()

    def _apply(self, saved: dict[str, Any]) -> None:
        engine = self._engine
        fresh = (engine.state, engine.rules, engine.events_handled, engine.last_fired)
        launcher = engine.firing
        fresh_launcher = (launcher.magazine, launcher.presses_since_fire)
        try:
            engine.state = from_data(type(engine.state), saved["state"], "state")
            if saved.get("configured_rules") == self._configured_rules:
                engine.rules = from_data(type(engine.rules), saved["rules"], "rules")
            else:
                engine.rules = fresh[1]  # the saved state carries rules too: the config's win
                log.info("the rules in the configuration changed: they replace the saved ones")
            kept = saved["launcher"]
            launcher.magazine = _integer(kept["magazine"], 0, 10_000)
            launcher.presses_since_fire = _integer(kept["presses_since_fire"], 0, 1_000)
            engine.events_handled = _integer(saved.get("events_handled", 0), 0, 2**62)
            engine.last_fired = _integer(saved.get("last_fired", 0), 0, 1_000)
            engine.snapshot()  # every seat index points at a seat
            _unpack_random(launcher, kept.get("random"))
        except BaseException:
            engine.state, engine.rules, engine.events_handled, engine.last_fired = fresh
            launcher.magazine, launcher.presses_since_fire = fresh_launcher
            raise
        if saved.get("configured_rules") == self._configured_rules:
            self._restore_undo(saved.get("undo", []))

    def _restore_undo(self, saved: Any) -> None:
        """Put the undo history back; a step that does not fit drops the history, not the
        table (the table is already back)."""
        engine = self._engine
        launcher = engine.firing
        now = (engine.state, launcher.magazine, launcher.presses_since_fire)
        try:
            steps = [from_data(Checkpoint, item, "undo") for item in saved]
            for step in steps:  # each must be a table the engine can show
                _integer(step.magazine, 0, 10_000)
                _integer(step.presses_since_fire, 0, 1_000)
                engine.state = step.state
                engine.snapshot()
        except Exception as exc:
            log.warning("the undo history was not restored: %s", exc)
            steps = []
        finally:
            engine.state, launcher.magazine, launcher.presses_since_fire = now
        engine.undo_history = steps

    def _restore_seats_only(self) -> bool:
        saved = self._store.settings_get(OLD_TABLE_KEY)
        if not isinstance(saved, dict):
            return False
        try:
            players = saved.get("players")
            if isinstance(players, list) and players:
                self._engine.handle(Setup(tuple(players), saved.get("dealer")))
            magazine = saved.get("magazine")
            if isinstance(magazine, int):
                self._engine.handle(Reload(magazine))
        except ActionError as exc:
            log.warning("saved table ignored: %s", exc)
            return False
        return True


def _integer(value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{value!r} is not an integer from {low} to {high}")
    return value


def _random_of(launcher: Any) -> Any:
    # The launcher's random sequence: kept so the presses after a restart are the ones that
    # would have come (the real launcher's irregular disc does not forget its position either).
    return getattr(launcher, "_rng", None)


def _pack_random(launcher: Any) -> str | None:
    rng = _random_of(launcher)
    if rng is None:
        return None
    version, words, gauss = rng.getstate()
    if version != 3 or gauss is not None or len(words) != 625:
        return None
    return base64.b64encode(struct.pack("<625I", *words)).decode("ascii")


def _unpack_random(launcher: Any, packed: Any) -> None:
    rng = _random_of(launcher)
    if rng is None or not isinstance(packed, str):
        return
    try:
        words = struct.unpack("<625I", base64.b64decode(packed, validate=True))
        rng.setstate((3, words, None))
    except (ValueError, struct.error, TypeError) as exc:
        log.warning("the launcher's random sequence was not restored: %s", exc)
