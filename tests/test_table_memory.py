"""The table's memory: every field of the engine's state saved and read back, the round's log put
back and replayed exactly after a restart (the same table, undo history and cards to come), and a
SIGKILL/restart loop that loses no acknowledged table event and no acknowledged score."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import signal
import types
import typing
from pathlib import Path
from typing import Any

from companion.app.table_memory import MEMORY_KEY, TableMemory
from companion.config import RulesConfig
from companion.core.actions import table_event
from companion.core.codec import from_data, to_data
from companion.core.errors import ActionError
from companion.core.events import (
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
from tests.helpers import kill_after_lines, python_child, wired_box

PLAYERS = ["Alice", "Bruno", "Chloé", "David"]


class DictStore:
    """A settings store in memory (the table memory's port)."""

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


def played_table(seed: int = 5) -> TableEngine:
    engine = TableEngine(PLAYERS, seed=seed)
    for event in (
        Setup(("Alice", "Bruno", "Chloé", "David", "Émile"), "Chloé"),
        StartRound(),
        Play("hit2"),
        Press(),
        Press(),
        SetHand("Bruno", 3),
        Play("reverse"),
        Play("coup_extreme", colour="red", target="Alice"),
        Press(),
    ):
        engine.handle(event)
    return engine


def restarted(store: DictStore) -> TableEngine:
    again = TableEngine(PLAYERS, seed=99)
    assert TableMemory(store, again).restore()
    return again


def test_a_restart_replays_the_log_to_the_same_table() -> None:
    engine = played_table()
    engine.handle(Replace(engine.log.entries[4].seq, SetHand("Bruno", 4)))  # a mended line
    store = DictStore()
    TableMemory(store, engine).journal()
    assert [line[1] for line in store.data[MEMORY_KEY]["lines"]][:2] == [
        "table.start_round",
        "table.play",
    ]
    again = restarted(store)
    assert again.state == engine.state
    assert again.snapshot() == engine.snapshot()
    assert again.state.owed and again.state.round and again.state.direction == -1
    # The launcher goes on with the same sequence: the next presses fire the same cards.
    assert [again.firing.press() for _ in range(20)] == [engine.firing.press() for _ in range(20)]


def test_undo_and_redo_walk_the_same_changes_after_a_restart() -> None:
    engine = played_table()
    for event in (SetHand("Alice", 4), Press(), Reload(50), SetHand("Chloé", 2), Undo()):
        engine.handle(event)
    store = DictStore()
    memory = TableMemory(store, engine)
    memory.journal()
    again = restarted(store)
    assert again.log.undo == engine.log.undo and again.log.redo == engine.log.redo
    for event in (Redo(), Undo(), Undo(), Undo(), Undo(), Redo()):
        engine.handle(event)
        again.handle(event)
        assert again.snapshot() == engine.snapshot()
    # Each line is encoded once: the same data object comes back while the line is kept.
    first = memory.capture()["lines"][0]
    engine.handle(SetHand("Alice", 6))
    assert memory.capture()["lines"][0] is first


def test_a_table_saved_before_the_log_comes_back_as_the_start_of_one() -> None:
    engine = played_table()
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
    again = restarted(DictStore({MEMORY_KEY: old}))
    unknown_then = {"contre_uno_closed": None, "contre_uno_closed_by": None}
    assert again.state == dataclasses.replace(engine.state, **unknown_then)
    assert again.firing.magazine == 33
    assert again.log.entries == [] and again.events_handled == 9


def test_a_line_that_does_not_decode_leaves_the_configured_table() -> None:
    engine = played_table()
    store = DictStore()
    TableMemory(store, engine).journal()
    store.data[MEMORY_KEY]["lines"][1][2] = {"card": "no such card"}
    fresh = TableEngine(PLAYERS, seed=1)
    before = fresh.snapshot()
    assert not TableMemory(store, fresh).restore()
    assert fresh.snapshot() == before


def test_rules_come_back_unless_the_configuration_changed() -> None:
    engine = TableEngine(PLAYERS, rules=RulesConfig(contre_uno_presses=2), seed=1)
    store = DictStore()
    memory = TableMemory(store, engine)
    engine.rules = dataclasses.replace(engine.rules, suggestion_presses=7)  # changed while on
    memory.journal()
    same = TableEngine(PLAYERS, rules=RulesConfig(contre_uno_presses=2), seed=1)
    TableMemory(store, same).restore()
    assert same.rules.suggestion_presses == 7
    edited = TableEngine(PLAYERS, rules=RulesConfig(contre_uno_presses=3), seed=1)
    TableMemory(store, edited).restore()
    assert edited.rules.contre_uno_presses == 3 and edited.rules.suggestion_presses == 4


def test_a_saved_table_that_does_not_fit_is_ignored() -> None:
    engine = played_table()
    store = DictStore()
    TableMemory(store, engine).journal()
    saved = store.data[MEMORY_KEY]
    saved["state"]["active"] = 42  # not what the log replays to
    fresh = TableEngine(PLAYERS, seed=1)
    before = fresh.snapshot()
    assert not TableMemory(store, fresh).restore()
    assert fresh.snapshot() == before
    store.data[MEMORY_KEY] = {"format": 2, "start": {"state": {"seats": "nope"}}}
    assert not TableMemory(store, fresh).restore()
    assert fresh.snapshot() == before


# ---------------------------------------------------------------------- pulled plug

CHILD = r"""
import json, random, sys
from companion.app.hub import Hub
from companion.app.score_storage import ScoreStorage
from companion.core.errors import ActionError
from companion.core.table import TableEngine
from companion import storage

state_dir, seed = sys.argv[1], int(sys.argv[2])
engine = TableEngine(["Alice", "Bruno", "Chloé", "David"], seed=0)
hub = Hub(engine)
scores = ScoreStorage(
    hub, engine,
    open_storage=lambda: storage.Storage.open(state_dir, backups=0),
    restore_backup=lambda name: None,
    list_backups=lambda: [],
)
scores.start()
def score_revision():
    return scores.keeper.book.revision if scores.keeper and scores.keeper.book else 0
def table():
    return {"memory": scores.memory.capture(), "table": engine.snapshot()}
print("restored", json.dumps(table()), score_revision(), "end", flush=True)
hub.start()
if scores.keeper.book is None:
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
    memory = TableMemory(store, engine)
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
    engine, hub, scores = wired_box(tmp_path, PLAYERS, 1, backups=3)
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
        restore["revision"] = hub.revision
        assert state["storage"]["ok"] and state["score"]["revision"] == 0
        assert state["table"] == table  # the table is not part of what is restored
        assert list(tmp_path.glob("scores.sqlite3.damaged-*"))  # the replaced file is kept
        try:
            hub.dispatch("storage.restore", {**restore, "backup": "../../etc/passwd"})
        except ActionError as exc:
            assert exc.status == 404 and exc.key == "storage.no_backup"
        else:
            raise AssertionError("a file outside the backups was accepted")
    scores.close()
