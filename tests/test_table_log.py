"""The round as a log: a misread card mended lines later, presses that keep the cards they
fired, undo and redo across presses, the table's word over the estimates, and every line
naming its card and source."""

from __future__ import annotations

from companion.core.commands import Eject, Say, Turn
from companion.core.events import (
    CallUno,
    ContreUno,
    Insert,
    Play,
    Press,
    Redo,
    Remove,
    Rename,
    Replace,
    RoundWon,
    SetHand,
    Undo,
)
from companion.core.options import LauncherOptions
from companion.core.table import TableEngine
from companion.core.table.log import MAX_ENTRIES

from .tables import FOUR, fixed, hands, owed, refused, says, table

AUTHENTIC = LauncherOptions(profile="authentic", magazine=90)


def authentic(seed: int = 3) -> TableEngine:
    return TableEngine(FOUR, launcher=AUTHENTIC, seed=seed)


def fired(engine: TableEngine) -> list[int | None]:
    return [line["fired"] for line in engine.snapshot()["log"] if line["event"] == "press"]


def same_table(a: TableEngine, b: TableEngine) -> None:
    assert a.state == b.state
    assert (a.firing.magazine, a.firing.presses_since_fire) == (
        b.firing.magazine,
        b.firing.presses_since_fire,
    )


# ---------------------------------------------------------------------- mending a line


def test_a_misread_card_mended_three_events_and_two_presses_later() -> None:
    """It was a reverse, not a skip: the same table as the right card entered first, with the
    same cards fired (the presses are facts, never rolled again)."""
    after = [Press(), Play("number", "red", value=4), Press()]
    wrong, right = authentic(28), authentic(28)
    wrong.handle(Play("skip", "red"))
    right.handle(Play("reverse", "red"))
    for event in after:
        wrong.handle(event)
        right.handle(event)
    assert fired(right) == [3, 6]  # both presses fired cards
    misread = wrong.snapshot()["log"][0]
    assert misread["card"] == {"kind": "skip", "colour": "red"}
    rolls = wrong.firing.random_source().getstate()
    out = wrong.handle(Replace(misread["seq"], Play("reverse", "red")), "phone")
    same_table(wrong, right)
    assert fired(wrong) == fired(right)
    assert wrong.firing.random_source().getstate() == rolls  # nothing was rolled again
    assert not [c for c in out.commands if isinstance(c, Eject)] and out.fired == 0
    # The box says who now faces what.
    facing = wrong.snapshot()["facing"]
    assert Turn(wrong.facing_seat(), facing) in out.commands
    assert says(out)[:2] == ["table.corrected", "table.turn"]
    line = wrong.snapshot()["log"][0]
    assert line["card"] == {"kind": "reverse", "colour": "red"} and line["source"] == "phone"


def test_a_play_inserted_before_a_press_and_a_line_removed() -> None:
    """Bruno played before Chloé pressed; then a double tap is removed."""
    engine = table(launcher=fixed(2))
    engine.handle(Play("hit2", "red"))  # Bruno: Chloé owes 2
    engine.handle(Press())
    seq = engine.snapshot()["log"][0]["seq"]
    engine.handle(Insert(seq, SetHand("Bruno", 3)))
    assert hands(engine)["Bruno"] == 2  # 3, then the hit2 laid
    assert hands(engine)["Chloé"] == 9
    typed = table(launcher=fixed(2))
    for event in (SetHand("Bruno", 3), Play("hit2", "red"), Press()):
        typed.handle(event)
    same_table(engine, typed)
    presses = [line["seq"] for line in engine.snapshot()["log"] if line["event"] == "press"]
    engine.handle(Remove(presses[0]))
    assert hands(engine)["Chloé"] == 7 and owed(engine) == [("Chloé", 2, "hit2")]


def test_a_line_that_no_longer_fits_is_kept_and_marked() -> None:
    engine = table()
    engine.handle(Play("number", "red", value=4))  # Bruno
    engine.handle(Play("number", "red", value=5, player="Chloé"))
    first = engine.snapshot()["log"][0]["seq"]
    engine.handle(Replace(first, Play("skip", "red")))  # then Chloé was skipped
    line = engine.snapshot()["log"][1]
    assert line["refused"]["key"] == "errors.not_your_turn"
    assert engine.snapshot()["active"] == "David"
    engine.handle(Undo())  # the mend taken back: the line fits again
    assert engine.snapshot()["log"][1]["refused"] is None
    assert engine.snapshot()["active"] == "David"  # after Chloé's 5


def test_mends_that_cannot_be_are_refused_and_change_nothing() -> None:
    engine = table(launcher=fixed(1))
    engine.handle(Play("number", "red", value=4))
    engine.handle(Press())
    play, press = (line["seq"] for line in engine.snapshot()["log"])
    before = engine.snapshot()
    assert refused(engine, Insert(play, Press())).key == "errors.press_is_a_fact"
    assert refused(engine, Replace(press, Play("skip"))).key == "errors.press_is_a_fact"
    assert refused(engine, Replace(play, Play("coup_extreme"))).key == "errors.needs_target"
    assert refused(engine, Remove(999)).key == "errors.no_such_line"
    assert refused(engine, Replace(play, Undo())).key == "errors.not_a_line"
    assert engine.snapshot() == before


# ---------------------------------------------------------------------- undo and redo


def test_undo_and_redo_across_presses_keep_the_cards_fired() -> None:
    engine = authentic(seed=5)
    for event in (Play("hit2", "red"), Press(), Press(), Play("number", "red", value=3)):
        engine.handle(event)
    end = engine.snapshot()
    cards = fired(engine)
    for _ in range(4):
        engine.handle(Undo())
    assert hands(engine) == dict.fromkeys(FOUR, 7)
    assert not engine.snapshot()["can_undo"] and engine.snapshot()["can_redo"]
    for _ in range(4):
        out = engine.handle(Redo())
        assert out.fired == 0
    assert fired(engine) == cards
    assert {k: v for k, v in engine.snapshot().items() if k != "events"} == {
        k: v for k, v in end.items() if k != "events"
    }
    engine.handle(SetHand("Alice", 3))  # a new line: nothing left to redo
    assert refused(engine, Redo()).key == "errors.nothing_to_redo"


def test_the_log_is_bounded_per_round_and_still_replays() -> None:
    engine = table(launcher=fixed(0))
    for _ in range(MAX_ENTRIES + 40):
        engine.handle(Press())
    lines = engine.snapshot()["log"]
    assert len(lines) <= MAX_ENTRIES
    before = engine.state.copy()
    engine.replay()
    assert engine.state == before
    engine.handle(Replace(lines[-1]["seq"], Press("Alice")))  # whoever it was: Alice
    assert engine.snapshot()["log"][-1]["payload"] == {"player": "Alice"}
    count = len(engine.log.entries)
    for _ in range(3):
        engine.handle(Undo())  # the mend, then presses kept after the fold
    assert len(engine.log.entries) == count - 2
    assert engine.state.active == (before.active - 2) % 4


# ---------------------------------------------------------------------- the table's word


def test_a_contre_uno_against_the_estimate_is_accepted_and_the_estimate_follows() -> None:
    """Ana's estimate says 5 cards, but the table caught her: nobody has played since."""
    engine = table(["Ana", "Bruno", "Chloé"])
    engine.handle(Play("number", "red", value=4, player="Bruno"))  # Bruno's estimate: 6
    out = engine.handle(ContreUno("Bruno"))
    assert "table.contre_uno" in says(out)
    assert hands(engine)["Bruno"] == 1 and owed(engine) == [("Bruno", 2, "contre_uno")]
    # Nobody else can be caught for a card they did not just play, and the reason says so.
    err = refused(engine, ContreUno("Ana"))
    assert err.key == "decks.error_contre_uno_not_last" and "did not play the last card" in str(err)


def test_uno_said_by_who_just_played_sets_one_card_and_a_win_sets_none() -> None:
    engine = table()
    engine.handle(Play("number", "red", value=4))  # Bruno, estimated 6
    engine.handle(CallUno("Bruno"))
    assert hands(engine)["Bruno"] == 1
    assert refused(engine, ContreUno("Bruno")).key == "errors.no_contre_uno"
    out = engine.handle(RoundWon("Chloé"))  # the table says Chloé went out (estimated 7)
    assert hands(engine)["Chloé"] == 0 and engine.snapshot()["winner"] == "Chloé"
    assert Say("table.round_won", {"player": "Chloé"}, out.commands[0].priority) in out.commands


def test_every_line_names_its_card_and_source() -> None:
    engine = table(launcher=fixed(2))
    engine.clock = iter([100.0, 101.5, 103.0]).__next__  # the daemon gives time.time
    engine.handle(Play("wild", "green"), "phone")
    engine.handle(Press(), "button")
    engine.handle(SetHand("Alice", 2), "camera")
    lines = engine.snapshot()["log"]
    assert [(x["event"], x["card"], x["source"], x["fired"]) for x in lines] == [
        ("play", {"kind": "wild", "colour": "green"}, "phone", None),
        ("press", None, "button", 2),
        ("set_hand", None, "camera", None),
    ]
    assert engine.snapshot()["last_event"] == lines[-1]
    assert [x["at"] for x in lines] == [100.0, 101.5, 103.0]
    assert [x["player"] for x in lines] == ["Bruno", "Chloé", "Alice"]


def test_a_renamed_player_keeps_their_lines_and_a_mend_after_the_rename_still_finds_them():
    engine = TableEngine(["Alice", "Bruno", "Chloé"], seed=4)
    engine.handle(Play("skip", "red", player="Bruno"))
    seq = engine.snapshot()["log"][-1]["seq"]
    engine.handle(Rename("Bruno", "Benoît"))
    assert [p["name"] for p in engine.snapshot()["players"]] == ["Alice", "Benoît", "Chloé"]
    engine.handle(Replace(seq, Play("reverse", "red", player="Benoît")))
    typed = TableEngine(["Alice", "Benoît", "Chloé"], seed=4)
    typed.handle(Play("reverse", "red", player="Benoît"))
    assert engine.snapshot()["active"] == typed.snapshot()["active"]
    assert engine.snapshot()["direction"] == typed.snapshot()["direction"]
