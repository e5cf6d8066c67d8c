"""The table's memory: every field of the engine's state saved and read back, the round's log put
back and replayed exactly after a restart (the same table, undo history and cards to come), a
press that writes only its line (bounded at any log length), memories of older formats, a kill
between a firing and its beam count, and a SIGKILL/restart loop that loses no acknowledged table
event and no acknowledged score."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import signal
import sqlite3
import threading
import types
import typing
from pathlib import Path
from typing import Any

import pytest

from companion.app.table_memory import MEMORY_KEY, OLD_TABLE_KEY, TableMemory
from companion.config import RulesConfig
from companion.core.actions import table_event
from companion.core.codec import from_data, to_data
from companion.core.errors import ActionError
from companion.core.events import (
    CardsSeen,
    Play,
    Press,
    Redo,
    Reload,
    Replace,
    SetHand,
    Setup,
    StartRound,
    Undo,
)
from companion.core.table import TableEngine, TableState
from companion.storage import Storage
from companion.storage.table_log import DB_NAME, TableLog
from tests.helpers import kill_after_lines, python_child, wired_box

PLAYERS = ["Alice", "Bruno", "Chloé", "David"]


class DictStore:
    """A settings store in memory (where older memories were kept whole)."""

    def __init__(self, data: dict[str, Any] | None = None) -> None:
        self.data = data or {}

    def settings_get(self, key: str) -> Any:
        return json.loads(json.dumps(self.data.get(key)))

    def settings_put(self, key: str, value: Any) -> None:
        self.data[key] = json.loads(json.dumps(value))


# ---------------------------------------------------------------------- every field


def unlike(kind: Any, default: Any, depth: int = 0) -> Any:
    """A value of type ``kind`` different from ``default``, built from the type hints alone, so
    a field added to the engine's state is covered without touching this test."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        return unlike(options[0], default, depth)
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return every_field_set(kind, depth + 1)
    if origin is list:
        return [unlike(args[0], None, depth), unlike(args[0], None, depth)]
    if origin is tuple:
        if args and args[-1] is Ellipsis:
            return (unlike(args[0], None, depth),)
        return tuple(unlike(a, None, depth) for a in args)
    if origin in (set, frozenset):
        return origin({unlike(args[0], None, depth)})
    if origin is dict:
        return {unlike(args[0], None, depth): unlike(args[1], None, depth)}
    if origin is typing.Literal:
        return next(a for a in args if a != default)
    if kind is bool:
        return not default
    if kind is int:
        return (default or 0) + 3
    if kind is float:
        return (default or 0.0) + 1.5
    if kind is str:
        return f"{default or ''}Zoé"
    if kind is Any:
        return {"card": "skip", "colour": "red", "nested": {"n": [1, 2]}}
    raise AssertionError(f"no test value for {kind!r}: extend unlike()")


def every_field_set(kind: type, depth: int = 0) -> Any:
    hints = typing.get_type_hints(kind)
    values = {}
    for field in dataclasses.fields(kind):  # type: ignore[arg-type]
        if field.default is not dataclasses.MISSING:
            default = field.default
        elif field.default_factory is not dataclasses.MISSING:
            default = field.default_factory()
        else:
            default = None
        values[field.name] = unlike(hints[field.name], default, depth)
        assert values[field.name] != default, field.name
    return kind(**values)


def test_every_field_of_the_table_state_is_saved_and_read_back() -> None:
    for kind in (TableState, RulesConfig):
        state = every_field_set(kind)
        stored = json.loads(json.dumps(to_data(state)))
        assert from_data(kind, stored) == state, kind.__name__
    # Data written before a field existed reads with the field's default.
    fresh = TableState(seats=[])
    assert from_data(TableState, {"seats": [], "round": 4}) == dataclasses.replace(fresh, round=4)


# ---------------------------------------------------------------------- a restart


class ListLog:
    """A table log in memory (the table memory's port), as :class:`TableLog` keeps it."""

    def __init__(self) -> None:
        self.checkpoints: list[tuple[int, Any]] = []
        self.lines: list[tuple[int, Any]] = []
        self.marks: dict[int, Any] = {}

    def read(self) -> tuple[Any, list[tuple[int, Any]], dict[int, Any]]:
        if not self.checkpoints:
            return None, [], {}
        first, data = self.checkpoints[-1]
        lines = [(n, line) for n, line in self.lines if n >= first]
        return json.loads(json.dumps(data)), json.loads(json.dumps(lines)), dict(self.marks)

    def append(self, line: Any) -> int:
        text = json.dumps(line)
        self.lines.append((self.last_line() + 1, json.loads(text)))
        return len(text)

    def checkpoint(self, data: Any) -> int:
        text = json.dumps(data)
        self.checkpoints.append((self.last_line() + 1, json.loads(text)))
        return len(text)

    def mark(self, n: int, mark: Any) -> None:
        self.marks[n] = mark

    def last_line(self) -> int:
        return self.lines[-1][0] if self.lines else -1

    def wait_synced(self, timeout: float | None = None) -> bool:
        return True

    def close(self) -> None:
        pass


class Remembered:
    """An engine whose every event its memory writes, as the hub's journal does."""

    def __init__(self, store: Any, seed: int = 5, players: list[str] = PLAYERS) -> None:
        self.store = store
        self.engine = TableEngine(players, seed=seed)
        self.memory = TableMemory(lambda: store, self.engine)
        self.memory.restore()

    def handle(self, *events: Any, source: Any = "phone") -> None:
        for event in events:
            self.memory.journal(self.engine.handle(event, source))


def played_table(store: Any | None = None, seed: int = 5) -> Remembered:
    table = Remembered(ListLog() if store is None else store, seed)
    table.handle(
        Setup(("Alice", "Bruno", "Chloé", "David", "Émile"), "Chloé"),
        StartRound(),
        Play("hit2"),
        Press(),
        Press(),
        SetHand("Bruno", 3),
        Play("reverse"),
        Play("coup_extreme", colour="red", target="Alice"),
        Press(),
    )
    return table


def restarted(store: Any, seed: int = 99) -> TableEngine:
    again = TableEngine(PLAYERS, seed=seed)
    assert TableMemory(lambda: store, again).restore()
    return again


def test_a_restart_replays_the_log_to_the_same_table() -> None:
    table = played_table()
    engine = table.engine
    table.handle(Replace(engine.log.entries[4].seq, SetHand("Bruno", 4)))  # a mended line
    store = table.store
    assert [line[0] for _, line in store.lines][:2] == ["table.play", "table.press"]
    again = restarted(store)
    assert again.state == engine.state
    assert again.snapshot() == engine.snapshot()
    assert again.state.owed and again.state.round and again.state.direction == -1
    # The launcher goes on with the same sequence: the next presses fire the same cards.
    assert [again.firing.press() for _ in range(20)] == [engine.firing.press() for _ in range(20)]


def test_undo_and_redo_walk_the_same_changes_after_a_restart() -> None:
    table = played_table()
    engine = table.engine
    table.handle(SetHand("Alice", 4), Press(), Reload(50), SetHand("Chloé", 2), Undo())
    again = restarted(table.store)
    assert again.log.undo == engine.log.undo and again.log.redo == engine.log.redo
    for event in (Redo(), Undo(), Undo(), Undo(), Undo(), Redo()):
        engine.handle(event)
        again.handle(event)
        assert again.snapshot() == engine.snapshot()
    # Each line of a checkpoint is encoded once: the same data while the line is kept.
    first = table.memory.capture()["lines"][0]
    engine.handle(SetHand("Alice", 6))
    assert table.memory.capture()["lines"][0] is first


def test_a_press_writes_its_line_only_at_any_log_length(tmp_path: Path) -> None:
    """A round of 300 lines: each press adds one row of about a hundred bytes, no more at the
    300th line than at the 10th; the rows are never rewritten."""
    with TableLog.open(tmp_path) as log:
        table = played_table(log)
        sizes: dict[int, int] = {}
        for _ in range(400):
            before = table.memory.bytes_written
            event = Reload(150) if table.engine.firing.magazine < 20 else Press()
            table.handle(event, source="button")
            if isinstance(event, Press):
                sizes[len(table.engine.log.entries)] = table.memory.bytes_written - before
        lines = sorted(sizes)
        assert lines[-1] >= 300
        assert max(sizes.values()) <= 200
        assert max(sizes[n] for n in lines if n >= 290) <= max(sizes[n] for n in lines[:20]) + 20
        checkpoint, rows, _ = log.read()
        assert checkpoint is not None and len(rows) >= 400  # one row per event since the deal
        with (
            sqlite3.connect(tmp_path / DB_NAME) as other,
            pytest.raises(sqlite3.IntegrityError, match="append-only"),
        ):
            other.execute("UPDATE lines SET line = '[]'")
        assert log.wait_synced(10)
    again = TableEngine(PLAYERS, seed=1)
    with TableLog.open(tmp_path) as log:
        assert TableMemory(lambda: log, again).restore()
    assert again.snapshot() == table.engine.snapshot()


def test_older_memories_still_load() -> None:
    """Kept whole in the settings (format 2, and format 1 before the round was a log), or only
    the seats: put back, and written as the first checkpoint of the new log."""
    table = played_table()
    engine = table.engine
    log = ListLog()
    again = TableEngine(PLAYERS, seed=99)
    settings = DictStore({MEMORY_KEY: table.memory.capture()})
    assert TableMemory(lambda: log, again, settings).restore()
    assert again.snapshot() == engine.snapshot()
    assert log.checkpoints and restarted(log).snapshot() == engine.snapshot()

    seats = DictStore({OLD_TABLE_KEY: {"players": ["Zoé", "Yann", "Xavier"], "magazine": 40}})
    fresh = TableEngine(PLAYERS, seed=1)
    assert TableMemory(ListLog, fresh, seats).restore()
    assert [s.name for s in fresh.state.seats] == ["Zoé", "Yann", "Xavier"]
    assert fresh.firing.magazine == 40


def test_a_table_saved_before_the_log_comes_back_as_the_start_of_one() -> None:
    engine = played_table().engine
    state = to_data(engine.state)
    del state["contre_uno_closed"], state["contre_uno_closed_by"]  # fields it did not have
    old = {
        "format": 1,
        "state": state,
        "launcher": {"magazine": 33, "presses_since_fire": 2, "random": None},
        "rules": to_data(engine.rules),
        "configured_rules": to_data(TableEngine(PLAYERS).rules),
        "events_handled": 9,
        "last_fired": 0,
        "undo": [],
    }
    again = TableEngine(PLAYERS, seed=99)
    assert TableMemory(ListLog, again, DictStore({MEMORY_KEY: old})).restore()
    unknown_then = {"contre_uno_closed": None, "contre_uno_closed_by": None}
    assert again.state == dataclasses.replace(engine.state, **unknown_then)
    assert again.firing.magazine == 33
    assert again.log.entries == [] and again.events_handled == 9


def test_a_line_that_does_not_decode_is_marked_and_the_rest_is_kept() -> None:
    """A bad line is left out and marked once; the lines after it are the round still."""
    table = played_table()
    store = table.store
    table.handle(SetHand("Alice", 5), SetHand("Alice", 6), SetHand("Bruno", 2))
    after = table.engine.snapshot()
    n, line = store.lines[-3]
    store.lines[-3] = (n, [line[0], {"player": "Alice", "cards": "many"}, *line[2:]])
    again = Remembered(store, seed=99)
    assert again.engine.snapshot()["players"] == after["players"]
    (mark,) = again.memory.recovered
    assert (mark["line"], mark["why"]) == (n, "unreadable") and "cards" in mark["problem"]
    again.handle(SetHand("Chloé", 4))
    assert restarted(store).snapshot() == again.engine.snapshot()
    assert len(store.marks) == 1  # marked once, not at every start


def test_an_oversized_count_journaled_by_an_older_box_costs_the_round_nothing() -> None:
    """A merged ejection's count once came as ``expected: 150``, past a deck: the next start
    refused it and threw the round away. Now the line is marked and the round goes on."""
    table = played_table()
    table.handle(CardsSeen(3, 150), source="box")  # as the box journaled it then
    table.handle(SetHand("Alice", 5), SetHand("Bruno", 4))
    store = table.store
    _, line = store.lines[-3]
    assert line[0] == "table.cards_seen" and line[1]["expected"] == 150
    again = restarted(store)
    assert again.snapshot()["players"] == table.engine.snapshot()["players"]
    assert again.snapshot()["owed"] == table.engine.snapshot()["owed"]
    # The lines keep their numbers: a mend of a line after the bad one mends that line.
    kept = [e.seq for e in table.engine.log.entries if type(e.event) is not CardsSeen]
    assert [e.seq for e in again.log.entries] == kept


def test_rules_come_back_unless_the_configuration_changed() -> None:
    log = ListLog()
    engine = TableEngine(PLAYERS, rules=RulesConfig(contre_uno_presses=2), seed=1)
    memory = TableMemory(lambda: log, engine)
    memory.restore()
    engine.rules = dataclasses.replace(engine.rules, suggestion_presses=7)  # changed while on
    memory.journal(engine.handle(SetHand("Bruno", 3)))
    same = TableEngine(PLAYERS, rules=RulesConfig(contre_uno_presses=2), seed=1)
    TableMemory(lambda: log, same).restore()
    assert same.rules.suggestion_presses == 7
    edited = TableEngine(PLAYERS, rules=RulesConfig(contre_uno_presses=3), seed=1)
    TableMemory(lambda: log, edited).restore()
    assert edited.rules.contre_uno_presses == 3 and edited.rules.suggestion_presses == 4


def test_a_saved_table_that_does_not_fit_is_ignored() -> None:
    store = played_table().store
    first, saved = store.checkpoints[-1]
    saved["state"]["active"] = 42  # not what the log replays to
    fresh = TableEngine(PLAYERS, seed=1)
    before = fresh.snapshot()
    assert not TableMemory(lambda: store, fresh).restore()
    assert fresh.snapshot() == before
    store.checkpoints[-1] = (first, {"format": 2, "start": {"state": {"seats": "nope"}}})
    assert not TableMemory(lambda: store, fresh).restore()
    assert fresh.snapshot() == before


def test_a_firing_whose_count_never_came_is_marked_at_the_restart() -> None:
    """The beam counts every firing (a ``cards_seen`` line from the box); a firing cut off
    before its count is marked once, with the player and the cards the launcher meant."""
    table = played_table()
    counted = next(n for n in range(1, 30) if _fires(table.engine, n))
    for _ in range(counted):
        table.handle(Press(), source="button")
    fired = table.engine.state.last_fire
    assert fired is not None
    table.handle(CardsSeen(fired[1], fired[1]), source="box")  # this one was counted
    while not _fires(table.engine, 1):
        table.handle(Press(), source="button")
    table.handle(Press(), source="button")  # its count never comes: the power went
    seat, cards = table.engine.state.last_fire
    store = table.store
    memory = TableMemory(lambda: store, TableEngine(PLAYERS, seed=99))
    assert memory.restore()
    name = table.engine.state.seats[seat].name
    mark = {"line": store.last_line(), "player": name, "cards": cards, "why": "uncounted"}
    assert memory.recovered == [mark] and memory.status()["recovered"] == [mark]
    again = TableMemory(lambda: store, TableEngine(PLAYERS, seed=99))
    assert again.restore() and again.recovered == [mark] and len(store.marks) == 1


def test_a_count_written_into_its_press_comes_back_after_a_restart() -> None:
    """The beam's count amends the press it counts, after an Undo too: a restart gives back
    the same table, the same Redo, and Redo the press with the cards counted."""
    table = played_table()
    while not _fires(table.engine, 1):
        table.handle(Press(), source="button")
    table.handle(Press(), source="button")
    seat, cards = table.engine.state.last_fire or (0, 0)
    table.handle(Undo())
    table.handle(CardsSeen(cards + 2, cards), source="box")  # the count comes after the Undo
    engine = table.engine
    again = restarted(table.store)
    assert again.snapshot() == engine.snapshot()
    assert again.log.undo == engine.log.undo and again.log.redo == engine.log.redo
    engine.handle(Redo())
    again.handle(Redo())
    assert again.snapshot() == engine.snapshot()
    assert engine.snapshot()["log"][-1]["fired"] == cards + 2
    assert engine.state.seats[seat].hand == again.state.seats[seat].hand


def _fires(engine: TableEngine, presses: int) -> bool:
    """Whether the ``presses``-th press from now fires (on a copy of the random sequence)."""
    trial = TableEngine(PLAYERS, seed=0)
    trial.firing.random_source().setstate(engine.firing.random_source().getstate())
    trial.firing.presses_since_fire = engine.firing.presses_since_fire
    return [trial.firing.press().fired for _ in range(presses)][-1]


# ---------------------------------------------------------------------- pulled plug

CHILD = r"""
import json, random, sys
from companion.app.hub import Hub
from companion.app.saved_settings import SavedSettings
from companion.app.score_storage import ScoreStorage
from companion.app.scorekeeper import ScoreKeeper
from companion.app.table_memory import TableMemory
from companion.core.errors import ActionError
from companion.core.table import TableEngine
from companion import storage
from companion.storage.table_log import TableLog

state_dir, seed = sys.argv[1], int(sys.argv[2])
engine = TableEngine(["Alice", "Bruno", "Chloé", "David"], seed=0)
hub = Hub(engine)
scores = ScoreStorage(
    open_storage=lambda: storage.Storage.open(state_dir, backups=0),
    restore_backup=lambda name, keep: None,
    list_backups=lambda: [],
)
scores.start()
keeper = ScoreKeeper(scores.database)
scores.attach(hub)
keeper.attach(hub)
settings = SavedSettings(lambda: scores.storage)
memory = TableMemory(lambda: TableLog.open(state_dir), engine, settings)
memory.restore()
memory.attach(hub)
def score_revision():
    return keeper.book.revision if keeper.book else 0
def table():
    return {"memory": memory.capture(), "table": engine.snapshot()}
print("restored", json.dumps(table()), score_revision(), "end", flush=True)
hub.start()
if keeper.book is None:
    hub.dispatch("score.new_game", {"ruleset": "extreme", "target": 100000})
rng = random.Random(seed)
actions = [
    ("table.press", {}), ("table.press", {}), ("table.press", {}),
    ("table.play", {"card": "number", "value": 4}), ("table.play", {"card": "skip"}),
    ("table.play", {"card": "reverse"}), ("table.play", {"card": "hit2"}),
    ("table.set_hand", {"player": "Bruno", "cards": 5}), ("table.reload", {"cards": 90}),
    ("table.undo", {}), ("table.redo", {}), ("score.record_round", None),
    ("table.remove", "seq"), ("table.replace", "seq"),
]
while True:
    name, payload = rng.choice(actions)
    if payload == "seq":  # a line of the round's log, mended
        seqs = [line["seq"] for line in engine.snapshot()["log"]] or [0]
        payload = {"seq": rng.choice(seqs)}
        if name == "table.replace":
            payload |= {"action": "table.play", "payload": {"card": "reverse"}}
    if payload is None:
        points = {p: {"points": rng.randint(0, 40)} for p in ("Bruno", "Chloé", "David")}
        payload = {"hands": {"Alice": {"points": 0}, **points}, "winner": "Alice"}
    print("doing", name, json.dumps(payload), "end", flush=True)
    try:
        hub.dispatch(name, payload)
    except ActionError:
        pass
    print("done", json.dumps(table()), score_revision(), "end", flush=True)
"""


def parse(line: str) -> tuple[str, list[str]]:
    """``word field field end``; a line cut short by the kill reads as nothing."""
    parts = line.rstrip("\n").split(" ")
    if len(parts) < 2 or parts[-1] != "end":
        return "", []
    if parts[0] == "doing":
        return "doing", [parts[1], " ".join(parts[2:-1])]
    return parts[0], [" ".join(parts[1:-2]), parts[-2]]


def one_event_later(saved: dict[str, Any], name: str, payload: dict[str, Any]) -> Any:
    """The memory and table after ``name`` is applied to the ``saved`` one (what a kill between
    the write and the answer leaves behind)."""
    store = DictStore({MEMORY_KEY: saved["memory"]})
    engine = TableEngine(PLAYERS, seed=0)
    memory = TableMemory(ListLog, engine, store)
    assert memory.restore()
    assert json.loads(json.dumps(engine.snapshot())) == saved["table"]  # replayed exactly
    if name.startswith("table."):
        try:
            engine.handle(table_event(name, payload), "phone")  # as the hub's phone actions
        except ActionError:
            return saved
    return json.loads(json.dumps({"memory": memory.capture(), "table": engine.snapshot()}))


def test_sigkill_restart_loop_keeps_every_acknowledged_event(tmp_path: Path) -> None:
    cycles = int(os.environ.get("UNO_CRASH_CYCLES", "8"))
    rng = random.Random(20261122)
    acked: dict[str, Any] | None = None
    acked_scores = 0
    in_flight: tuple[str, dict[str, Any]] | None = None
    events = undoable_restarts = 0
    for cycle in range(cycles):
        child = python_child(CHILD, str(tmp_path), str(cycle))
        try:
            assert child.stdout is not None
            word, fields = parse(child.stdout.readline())
            assert word == "restored", child.stderr.read() if child.stderr else ""
            restored_table, restored_scores = json.loads(fields[0]), int(fields[1])
            if acked is not None:
                allowed = [acked]
                if in_flight is not None:
                    allowed.append(one_event_later(acked, *in_flight))
                assert restored_table in allowed, f"cycle {cycle}: the table was not put back"
                late_score = in_flight is not None and in_flight[0] == "score.record_round"
                assert acked_scores <= restored_scores <= acked_scores + late_score
            undo = restored_table["memory"]["undo"]
            if undo:  # "Undo" still takes back the last change, and "Redo" puts it back
                undone = one_event_later(restored_table, "table.undo", {})
                assert len(undone["memory"]["undo"]) == len(undo) - 1
                assert undone["memory"]["redo"][-1] == undo[-1]
                redone = one_event_later(undone, "table.redo", {})
                counters = {"events": 0, "fired": 0}  # what the last event did, not the table
                assert redone["table"] | counters == restored_table["table"] | counters
                undoable_restarts += 1
            acked, acked_scores, in_flight = restored_table, restored_scores, None
            # A few events in, then a kill at a random moment of the next one.
            out, _ = kill_after_lines(child, "done", rng.randint(6, 20), rng, jitter=0.01)
        finally:
            if child.returncode is None:
                child.send_signal(signal.SIGKILL)
                child.communicate(timeout=10)
        for line in out:
            word, fields = parse(line)
            if word == "doing":
                in_flight = (fields[0], json.loads(fields[1]))
            elif word == "done":
                acked, acked_scores, in_flight = json.loads(fields[0]), int(fields[1]), None
                events += 1
    assert events > cycles * 5  # the children really played between the kills
    assert undoable_restarts  # and some kills left changes to take back
    with Storage.open(tmp_path, backups=0) as storage:
        assert storage.integrity_check() == "ok"


# ---------------------------------------------------------------------- restore from the page


def test_restore_a_backup_from_the_page_keeps_the_table(tmp_path: Path) -> None:
    engine, hub, scores, keeper = wired_box(tmp_path, PLAYERS, 1, backups=3)
    with hub.running():
        hub.dispatch("score.new_game", {"ruleset": "extreme", "name": "Vendredi"})
        scores.storage.backup()  # the backup to come back to: one game, no round
        hands = {p: {"points": 5} for p in PLAYERS}
        hands["Alice"] = {"points": 0}
        hub.dispatch("score.record_round", {"hands": hands, "winner": "Alice"})
        hub.dispatch("table.play", {"card": "skip"})
        table = engine.snapshot()
        backups = hub.state()["storage"]["backups"]
        assert [b["name"] for b in backups][:2] == ["scores.1.sqlite3", "scores.2.sqlite3"]
        restore = {"backup": "scores.1.sqlite3", "confirm": True, "revision": hub.revision}
        state = hub.dispatch("storage.restore", restore)
        assert state["storage"]["ok"] and state["score"]["revision"] == 0
        assert state["table"] == table  # the table is not part of what is restored
        assert list(tmp_path.glob("scores.sqlite3.damaged-*"))  # the replaced file is kept
        # The same keeper goes on with the restored database: nothing was rebuilt.
        assert keeper.book is not None and keeper.book.revision == 0
        state = hub.dispatch("score.record_round", {"hands": hands, "winner": "Alice"})
        assert state["score"]["revision"] == 1
        assert scores.storage.load_game(keeper.game_id).revision == 1
        try:
            restore = {**restore, "backup": "../../etc/passwd", "revision": hub.revision}
            hub.dispatch("storage.restore", restore)
        except ActionError as exc:
            assert exc.status == 404 and exc.key == "storage.no_backup"
        else:
            raise AssertionError("a file outside the backups was accepted")
    scores.close()


# ---------------------------------------------------------------------- a kill mid-firing

FIRING_CHILD = r"""
import sys, threading
from pathlib import Path
from companion.config import Config
from companion.core.commands import Eject
from companion.daemon import Daemon, DaemonOptions
from tests.doubles import HeldClock

clock = HeldClock()
options = DaemonOptions(
    state_dir=Path(sys.argv[1]), simulate=True, seed=3, web=False, voice=False, motion_clock=clock
)
daemon = Daemon(Config(), options).start()
counted, firings = threading.Event(), []

class Watch:
    def on_outcome(self, outcome):
        if outcome.event == "cards_seen":
            counted.set()
        if any(isinstance(c, Eject) for c in outcome.commands):
            firings.append(outcome.snapshot["last_event"])
            if len(firings) == 2:  # its line is written; the lane is held: no count comes
                print("fired", firings[-1]["seq"], firings[-1]["player"], flush=True)

daemon.hub.add_listener(Watch())
daemon.hub.dispatch("table.reload", {"cards": 100})
while not firings:
    daemon.hub.dispatch("table.press", {})
assert counted.wait(30), "the beam never counted the first firing"
clock.hold()
while len(firings) < 2:
    daemon.hub.dispatch("table.press", {})
threading.Event().wait()
"""


def test_a_kill_between_a_firing_and_its_count_is_recovered_at_start(tmp_path: Path) -> None:
    """The press's line is written as soon as the launcher is told; the beam's count comes
    after the cards. Killed in between, the box starts again with the press in the log and its
    line marked: the cards the launcher meant, not counted."""
    from companion.config import Config
    from companion.daemon import Daemon, DaemonOptions

    child = python_child(FIRING_CHILD, str(tmp_path))
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        assert line.startswith("fired"), child.stderr.read() if child.stderr else ""
    finally:
        child.send_signal(signal.SIGKILL)
        child.communicate(timeout=10)
    _, seq, player = line.split()
    options = DaemonOptions(state_dir=tmp_path, simulate=True, seed=8, web=False, voice=False)
    daemon = Daemon(Config(), options).start()
    try:
        state = daemon.hub.state()
    finally:
        daemon.stop()
    last = state["table"]["last_event"]
    assert last["event"] == "press" and last["seq"] == int(seq) and last["player"] == player
    [mark] = state["table_memory"]["recovered"]
    assert mark["player"] == player and mark["cards"] == last["fired"] > 0
    assert mark["why"] == "uncounted"


# ---------------------------------------------------------------------- the answer waits


class HeldLog(ListLog):
    """A table log whose lines reach the card only when the test says so."""

    def __init__(self) -> None:
        super().__init__()
        self.on_card = threading.Event()
        self.waiting = threading.Event()

    def wait_synced(self, timeout: float | None = None) -> bool:
        self.waiting.set()
        return self.on_card.wait(timeout)


class Heard:
    """A listener: the commands the devices were given, as they were given."""

    def __init__(self) -> None:
        self.outcomes: list[Any] = []
        self.told = threading.Event()

    def on_outcome(self, outcome: Any) -> None:
        self.outcomes.append(outcome)
        self.told.set()


def test_the_press_moves_at_once_and_the_answer_waits_for_the_card() -> None:
    """The launcher is told and the line written before anything reaches the card; the
    phone's answer comes only once the line is on the card."""
    from companion.app.hub import Hub

    engine = TableEngine(PLAYERS, seed=5)
    log = HeldLog()
    memory = TableMemory(lambda: log, engine)
    memory.restore()
    memory.journal(engine.handle(StartRound()))  # the round's checkpoint
    hub = Hub(engine)
    memory.attach(hub)
    heard = Heard()
    hub.add_listener(heard)
    answered: list[Any] = []
    with hub.running():
        phone = threading.Thread(target=lambda: answered.append(hub.dispatch("table.press", {})))
        phone.start()
        assert heard.told.wait(10) and log.waiting.wait(10)
        assert [c.name for c in heard.outcomes[0].commands if hasattr(c, "name")][:1] == ["ding"]
        assert log.lines[-1][1][0] == "table.press"  # written, not yet on the card
        assert answered == []  # the phone is not told before the card has the line
        log.on_card.set()
        phone.join(10)
    assert answered and answered[0]["table"]["last_event"]["event"] == "press"


def test_a_damaged_table_file_is_set_aside_and_the_table_starts_as_configured(
    tmp_path: Path,
) -> None:
    (tmp_path / DB_NAME).write_bytes(b"not a database" * 100)
    engine = TableEngine(PLAYERS, seed=1)
    before = engine.snapshot()
    memory = TableMemory(lambda: TableLog.open(tmp_path), engine)
    assert not memory.restore() and engine.snapshot() == before
    assert (tmp_path / f"{DB_NAME}.damaged").read_bytes().startswith(b"not a database")
    memory.journal(engine.handle(StartRound()))
    memory.journal(engine.handle(Press()))
    assert memory.status() == {"saved": True, "problem": None, "recovered": []}
    memory.close()
    again = TableEngine(PLAYERS, seed=2)
    with TableLog.open(tmp_path) as log:
        assert TableMemory(lambda: log, again).restore()
    assert again.snapshot() == engine.snapshot()
