"""House rules the table sets for itself: press counts, stacking, the 0/7 variants of 003."""

from __future__ import annotations

import pytest

from companion.core.actions import table_event
from companion.core.errors import ActionError
from companion.core.events import SetRules, Undo

from .tables import hands, owed, refused, run, table


def test_press_counts_for_every_penalty_are_editable():
    """003 asks 4 cards for a forgotten UNO where 000 §X.B asks 2 presses: the table chooses."""
    engine = table()
    run(engine, "rule contre_uno_presses 4", "rule suggestion_presses 1")
    run(engine, "hand Bruno 2", "play 3 red", "contre-uno Bruno", "suggest David")
    assert owed(engine) == [("Bruno", 4, "contre_uno"), ("David", 1, "suggestion")]


def test_house_rules_change_is_checked_and_undoable():
    engine = table()
    refused(engine, SetRules((("contre_uno_presses", 99),)))
    refused(engine, SetRules((("deck", "tarot"),)))
    with pytest.raises(ActionError):
        table_event("table.rules", {"nonsense": True})
    engine.handle(table_event("table.rules", {"stacking": True, "deck": "classic"}))
    assert engine.rules.stacking and engine.snapshot()["rules"]["deck"] == "classic"
    engine.handle(Undo())
    assert not engine.rules.stacking and engine.rules.deck == "extreme"


def test_seven_swaps_hands_with_a_chosen_player():
    """003 « Règle des 0/7 … on confère aux cartes 0 et 7 des effets spéciaux »: a 7 swaps hands
    (the popular reading; 003 gives no details); whose turn it is does not change."""
    engine = table(deck="classic", seven_swap=True)
    run(engine, "hand David 3")
    with pytest.raises(ActionError):
        run(engine, "play 7 red")  # with whom?
    run(engine, "play 7 red target David")
    assert hands(engine)["Bruno"] == 3 and hands(engine)["David"] == 6
    assert engine.snapshot()["active"] == "Chloé"


def test_zero_passes_every_hand_along_the_play_direction():
    engine = table(deck="classic", zero_pass=True)
    run(engine, "hand Alice 1", "hand Bruno 2", "hand Chloé 3", "hand David 4")
    run(engine, "play 0 red")  # Bruno keeps 1 card and passes it on
    assert hands(engine) == {
        "Alice": 4,
        "Bruno": 1,
        "Chloé": 1,
        "David": 3,
    }
    assert engine.snapshot()["active"] == "Chloé"


def test_zero_and_seven_are_plain_without_the_variant():
    engine = table(deck="classic")
    run(engine, "play 0 red", "play 7 red")
    assert hands(engine) == {"Alice": 7, "Bruno": 6, "Chloé": 6, "David": 7}


def test_stacking_from_the_house_rules():
    """003 Riposte: « le joueur qui doit tirer des cartes suite à un +2 ou +4 peut, au lieu de
    tirer, jouer une autre carte +2 ou +4 »."""
    engine = table()
    run(engine, "rule stacking on", "play hit2 red", "play hit2 blue")
    assert owed(engine) == [("David", 4, "hit2")]
