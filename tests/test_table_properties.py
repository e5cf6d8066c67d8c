"""Invariants of the table engine under any sequence of events (hypothesis)."""

from __future__ import annotations

import contextlib
import re
from dataclasses import replace
from pathlib import Path

from hypothesis import event as note_case
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core import table as table_module
from companion.core.commands import Priority, Say
from companion.core.errors import ActionError
from companion.core.events import (
    ALL_COLOURS,
    CARD_KINDS,
    CallUno,
    Challenge,
    ColourCame,
    ContreUno,
    Eliminate,
    Event,
    Insert,
    Jam,
    Lacked,
    MimicBroken,
    Play,
    Press,
    Redo,
    Reinstate,
    Reload,
    Remove,
    Replace,
    RoundWon,
    SetHand,
    StartRound,
    Suggestion,
    Undo,
)
from companion.core.options import DECKS, LauncherOptions, RulesOptions
from companion.core.table import TableEngine
from tests.tables import traced

NAMES = ["Alice", "Bruno", "Chloé", "David", "Émile", "Farid"]
ALL_OPTIONS = RulesOptions(
    wild_all_hit=True, hit_fire=True, stacking=True, any_deck=True, challenge=True
)
# Every deck, with the options and house rules that change the most.
DECK_OPTIONS = st.sampled_from(
    [
        ALL_OPTIONS,
        *(
            replace(ALL_OPTIONS, deck=deck, seven_swap=True, zero_pass=True, custom_card_presses=2)
            for deck in DECKS
            if deck != "extreme"
        ),
    ]
)

names = st.sampled_from(NAMES)
colours = st.sampled_from([*ALL_COLOURS, None])
cards = st.sampled_from(CARD_KINDS)
events: st.SearchStrategy[Event] = st.one_of(
    st.builds(Press),
    st.builds(Press, names),
    st.builds(Play, cards, colours, st.none(), st.one_of(st.none(), names)),
    st.builds(Play, cards, colours, names, names),
    st.builds(CallUno, names),
    st.builds(ContreUno, names),
    st.builds(Suggestion, names),
    st.builds(Reload, st.one_of(st.none(), st.integers(0, 200))),
    st.builds(Jam),
    st.builds(SetHand, names, st.integers(0, 20)),
    st.builds(RoundWon, names),
    st.builds(StartRound),
    st.builds(Eliminate, names),
    st.builds(Reinstate, names),
    st.builds(Undo),
    st.builds(Challenge, st.booleans()),
    st.builds(ColourCame),
    st.builds(Lacked, st.lists(names, max_size=3).map(tuple)),
    st.builds(MimicBroken, names),
)


def check_invariants(engine: TableEngine) -> None:
    snap = engine.snapshot()
    seated = {p["name"]: p for p in snap["players"]}
    assert snap["magazine"] >= 0
    if not snap["game_over"]:
        assert snap["active"] in seated and not seated[snap["active"]]["eliminated"]
        for o in snap["owed"]:
            assert not seated[o["player"]]["eliminated"] and o["presses"] >= 1
    assert snap["facing"] == (snap["owed"][0]["for"] if snap["owed"] else snap["active"])
    assert all(0 <= p["hand"] <= 108 for p in snap["players"])


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 6), st.lists(events, max_size=60), st.integers(0, 2**31), DECK_OPTIONS)
def test_invariants_hold_and_errors_change_nothing(n, sequence, seed, rules):
    engine = TableEngine(NAMES[:n], rules=rules, seed=seed)
    for event in sequence:
        before = engine.snapshot()
        try:
            engine.handle(event)
        except ActionError:
            assert engine.snapshot() == before  # a refused event changes nothing
        check_invariants(engine)


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 6), st.lists(events, max_size=40), st.integers(0, 2**31), DECK_OPTIONS)
def test_owed_queue_drains(n, sequence, seed, rules):
    """Whatever happened, pressing (reloading when asked, answering the table's questions)
    empties the owed queue."""
    engine = TableEngine(NAMES[:n], rules=rules, seed=seed)
    for event in sequence:
        with contextlib.suppress(ActionError):
            engine.handle(event)
    if engine.snapshot()["round_over"]:
        return
    if engine.snapshot()["asking"]:
        engine.handle(Lacked())
    for _ in range(500):
        snap = engine.snapshot()
        if not snap["owed"]:
            break
        if snap["needs_reload"]:
            engine.handle(Reload(100))
        if snap["asking"]:
            engine.handle(Lacked())
        elif snap["owed"][0]["until"] == "colour" and snap["fired"]:
            engine.handle(ColourCame())  # a card of the colour came out
        else:
            engine.handle(Press())
    assert engine.snapshot()["owed"] == []


# Lines of one round at a table of four whose presses fire the same whatever comes before them
# (a fixed launcher that never runs dry): a mended log replayed, or typed from scratch, fires
# the same. Mostly lines the table takes; a few that end the round or that it refuses.
seated = st.sampled_from(NAMES[:4])
common_cards = st.sampled_from(["number", "reverse", "skip", "wild", "hit2", "draw2", "draw1"])
likely_lines: st.SearchStrategy[Event] = st.one_of(
    st.builds(Play, common_cards, st.sampled_from([*ALL_COLOURS[:4], None])),
    st.builds(Play, common_cards, st.none(), seated),
    st.builds(Press, seated),
    st.builds(SetHand, seated, st.integers(0, 9)),
    st.builds(CallUno, seated),
    st.builds(ContreUno, seated),
    st.builds(Suggestion, seated),
)
round_lines: st.SearchStrategy[Event] = st.one_of(
    st.builds(Press),
    likely_lines,
    st.builds(Press),
    likely_lines,
    st.one_of(
        st.builds(Reload),
        st.builds(Play, cards, colours, seated, seated),
        st.builds(Reinstate, seated),
        st.builds(Challenge, st.booleans()),
        st.builds(ColourCame),
        st.builds(Lacked, st.lists(seated, max_size=2).map(tuple)),
        st.builds(MimicBroken, seated),
    ),
)
# A mend of the log (a line replaced, removed, inserted; undo; redo), then maybe a new line.
mends = st.tuples(
    st.sampled_from(["replace", "remove", "insert", "undo", "redo"]),
    st.integers(0, 10**6),
    st.one_of(
        likely_lines,
        st.builds(Press),
        st.builds(RoundWon, seated),
        st.builds(Eliminate, seated),
    ),
    st.one_of(st.none(), round_lines),
)


@settings(max_examples=120, deadline=None)
@given(
    st.lists(round_lines, min_size=8, max_size=35),
    st.lists(mends, min_size=2, max_size=10),
    st.integers(0, 3),
    DECK_OPTIONS,
)
def test_a_mended_log_gives_the_table_of_the_mended_log_typed_from_scratch(
    played, later, cards, rules
):
    launcher = LauncherOptions(profile="fixed", fixed_cards=cards, magazine=200)
    engine = TableEngine(NAMES[:4], rules=rules, launcher=launcher, seed=1)
    mended = 0
    for line in played:
        with contextlib.suppress(ActionError):
            engine.handle(line)
    for kind, pick, line_event, then in later:
        lines = engine.log.entries
        seq = lines[pick % len(lines)].seq if lines else pick
        mend = {
            "replace": Replace(seq, line_event),
            "remove": Remove(seq),
            "insert": Insert(seq, line_event),
            "undo": Undo(),
            "redo": Redo(),
        }[kind]
        with contextlib.suppress(ActionError):
            engine.handle(mend)
            mended += 1
        check_invariants(engine)
        if then is not None:
            with contextlib.suppress(ActionError):
                engine.handle(then)
    typed = TableEngine(NAMES[:4], rules=rules, launcher=launcher, seed=1)
    refused = set()
    for line in engine.log.entries:
        try:
            typed.handle(line.event)
        except ActionError:
            refused.add(line.seq)
    assert typed.state == engine.state
    assert typed.firing.magazine == engine.firing.magazine
    assert typed.firing.presses_since_fire == engine.firing.presses_since_fire
    assert refused == set(engine.log.refused)
    # And the cards each press fired are what the typed table's presses fired.
    kept = [x.firing for x in engine.log.entries if x.seq not in refused]
    assert kept == [x.firing for x in typed.log.entries]
    note_case(f"mends accepted: {min(mended, 3)}; lines refused: {min(len(refused), 2)}")


SCRIPT_LINES = st.sampled_from(
    [
        "press",
        "play 5 red",
        "play reverse blue",
        "play skip green",
        "play hit2 yellow",
        "play coup_extreme red target Chloé",
        "play discard_all blue count 3",
        "play wild red",
        "contre-uno Bruno",
        "suggest Alice",
        "reload",
        "hand Chloé 1",
        "uno Chloé",
        "undo",
        "won Alice",
        "start",
        "play bogus",
        "press Nobody",
    ]
)


@settings(max_examples=60, deadline=None)
@given(st.lists(SCRIPT_LINES, max_size=80), st.integers(0, 2**31))
def test_same_seed_and_script_same_trace(lines, seed):
    script = ["players Alice Bruno Chloé David", *lines]

    def trace() -> list[object]:
        engine = TableEngine(["x", "y"], seed=seed)
        return list(traced(script, engine, lambda say: say.key))

    assert trace() == trace()


def test_different_seeds_differ():
    script = ["players Alice Bruno Chloé David"] + ["press"] * 200

    def fired(seed: int) -> list[int]:
        engine = TableEngine(["x", "y"], seed=seed)
        return [r["fired"] for r in traced(script, engine, lambda s: "") if isinstance(r, dict)]

    assert fired(1) != fired(2)
    assert fired(1) == fired(1)


def test_say_keys_exist_in_catalog():
    """Every phrase the engine can say is in both languages of the catalog."""
    from companion.i18n import Catalog

    catalog = Catalog.load()
    engine = TableEngine(NAMES[:4], rules=ALL_OPTIONS, seed=3)
    seen: set[str] = set()
    script = [
        "players Alice Bruno Chloé David",
        "play wild red",
        "play hit2 red",
        "press",
        "press",
        "play coup_extreme red target Alice",
        "press",
        "press",
        "press",
        "hand Chloé 2",
        "play 3 red",
        "contre-uno Chloé",
        "press",
        "press",
        "suggest Alice",
        "press",
        "press",
        "press",
        "press",
        "uno Alice",
        "play wild_hit_fire blue",
        "jam",
        "reload",
        "undo",
        "hand David 1",
        "play 4 red",
        "won David",
        "start",
        "eliminate Alice",
        "eliminate Bruno",
        "eliminate Chloé",
    ]
    list(traced(script, engine, lambda say: seen.add(say.key) or ""))
    assert len(seen) >= 15
    # Also every literal key in the engine's source, including those this script did not reach.
    rooms = Path(table_module.__file__).parent.glob("*.py")
    source = "".join(room.read_text(encoding="utf-8") for room in rooms)
    literal = set(re.findall(r'"((?:table|decks)\.[a-z_]+)"', source))
    colours = {f"table.colour_{c}" for c in ("red", "yellow", "green", "blue")}
    for key in seen | literal | colours:
        for lang in ("fr", "en"):
            assert key in catalog.keys(lang), f"{key} missing in {lang}"
    assert Say("table.turn").priority == Priority.INFO


def test_an_outcome_shows_the_table_as_its_event_left_it_whenever_it_is_read():
    """Snapshots are made when read; one held unread while the table moves on is made first."""
    from tests.tables import run, table

    engine = table()
    made: list[str] = []
    snapshot = engine.snapshot

    def counted() -> dict:
        made.append("snapshot")
        return snapshot()

    engine.snapshot = counted  # type: ignore[method-assign]
    first = run(engine, "play 5 red")
    for line in ("play 6 red", "play skip blue", "play 8 blue"):
        run(engine, line)  # each of these outcomes is dropped at once: no snapshot is made
    assert made == ["snapshot"]  # only the held first one's, before the table moved on
    assert first.snapshot["last_card"]["value"] == 5
    assert made == ["snapshot"]  # made once
    held = run(engine, "play 7 red")
    engine.rules = replace(engine.rules, stacking=not engine.rules.stacking)
    assert held.snapshot["last_card"]["value"] == 7
    assert held.snapshot["rules"] == first.snapshot["rules"]  # before the rules changed
