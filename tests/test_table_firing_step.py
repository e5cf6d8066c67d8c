"""A firing is one step of the round: the beam's count is written into the press it counts, so
one Undo takes back the press and its cards, one Redo brings both back, a count arriving after
an Undo never clears Redo, and the hands and the "went out" prompt follow."""

from __future__ import annotations

from companion.core.events import CardsSeen, Play, Press, Redo, SetHand, Undo
from companion.core.table import TableEngine

from .tables import fixed as fixed_launcher
from .tables import hands, table

FAMILY = ["Zoé", "Raphaël", "Maëlle", "Jérôme"]  # Zoé deals: Raphaël plays first


def family(cards: int = 4) -> TableEngine:
    engine = table(FAMILY, launcher=fixed_launcher(cards, magazine=80))
    assert engine.snapshot()["active"] == "Raphaël"
    return engine


def lines(engine: TableEngine) -> list[tuple[str, int | None]]:
    return [(line["event"], line["fired"]) for line in engine.snapshot()["log"]]


def test_the_count_is_written_into_the_press_it_counts() -> None:
    engine = family()
    engine.handle(Press("Raphaël"))  # the model fires 4
    engine.handle(CardsSeen(9, expected=4), "box")  # the beam saw 9
    assert lines(engine) == [("press", 9)]
    assert hands(engine)["Raphaël"] == 7 + 9
    assert engine.snapshot()["magazine"] == 80 - 9
    assert engine.snapshot()["can_undo"] and not engine.snapshot()["can_redo"]


def test_one_undo_takes_back_the_press_and_its_cards_one_redo_brings_both() -> None:
    engine = family()
    engine.handle(Press("Raphaël"))
    engine.handle(CardsSeen(9, expected=4), "box")
    engine.handle(Undo())
    assert lines(engine) == []
    assert hands(engine)["Raphaël"] == 7 and engine.snapshot()["magazine"] == 80
    assert engine.snapshot()["active"] == "Raphaël"
    engine.handle(Redo())
    assert lines(engine) == [("press", 9)]
    assert hands(engine)["Raphaël"] == 16 and engine.snapshot()["magazine"] == 71
    assert engine.snapshot()["active"] == "Maëlle"


def test_a_count_arriving_after_an_undo_keeps_redo_and_comes_back_with_it() -> None:
    engine = family()
    engine.handle(Press("Raphaël"))
    engine.handle(Undo())  # Défaire before the beam had counted
    engine.handle(CardsSeen(9, expected=4), "box")
    assert engine.snapshot()["can_redo"]
    assert hands(engine)["Raphaël"] == 7 and lines(engine) == []
    engine.handle(Redo())
    assert lines(engine) == [("press", 9)] and hands(engine)["Raphaël"] == 16


def test_a_count_after_lines_that_followed_the_press_amends_the_press() -> None:
    engine = family()
    engine.handle(Press("Raphaël"))
    engine.handle(Play("number", "red", value=5))  # Maëlle's card before the count came
    engine.handle(CardsSeen(2, expected=4), "box")
    assert lines(engine) == [("press", 2), ("play", None)]
    assert hands(engine) == {"Zoé": 7, "Raphaël": 9, "Maëlle": 6, "Jérôme": 7}
    engine.handle(Undo())  # the card, then the press with its cards
    engine.handle(Undo())
    assert lines(engine) == [] and hands(engine)["Raphaël"] == 7


def test_the_went_out_prompt_follows_the_counted_hands() -> None:
    """Raphaël, down to one card, presses and gets 9; Défaire comes before the beam's count,
    Refaire after it: his press is whole again, the box never counts him at one card, and when
    Maëlle goes out the prompt names her."""
    engine = family(cards=1)
    engine.handle(SetHand("Raphaël", 1))
    engine.handle(SetHand("Maëlle", 1))
    engine.handle(Press("Raphaël"))  # the model fires 1
    engine.handle(Undo())
    engine.handle(CardsSeen(9, expected=1), "box")
    assert hands(engine)["Raphaël"] == 1 and engine.snapshot()["active"] == "Raphaël"
    engine.handle(Redo())
    assert hands(engine)["Raphaël"] == 10
    engine.handle(Play("number", "blue", value=2))  # Maëlle's last card
    snapshot = engine.snapshot()
    assert snapshot["round_may_be_over"] == "Maëlle"
    assert hands(engine)["Raphaël"] == 10


def test_a_count_of_another_firing_or_a_second_count_changes_nothing() -> None:
    engine = family()
    engine.handle(Press("Raphaël"))
    before = engine.snapshot()
    engine.handle(CardsSeen(2, expected=3), "box")  # a test fire of 3 from the page
    assert lines(engine) == [("press", 4)] and hands(engine) == hands_of(before)
    engine.handle(CardsSeen(5, expected=4), "box")
    engine.handle(CardsSeen(6, expected=5), "box")  # counted already: not this press again
    assert lines(engine) == [("press", 5)]


def hands_of(snapshot: dict[str, object]) -> dict[str, int]:
    players = snapshot["players"]
    assert isinstance(players, list)
    return {p["name"]: p["hand"] for p in players}
