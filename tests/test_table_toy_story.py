"""UNO Toy Story 3 with the launcher (002), each test quoting the text."""

from __future__ import annotations

from companion.core.events import Lacked, Play, Press, RoundWon

from .tables import owed, refused, run, says, table


def toy_story(**rules: object):
    return table(deck="toy_story", **rules)


def test_lotso_asks_the_table_then_each_lacking_player_presses_three():
    """002 Carte Lotso: « il doit demander une couleur précise. Chaque adversaire doit alors
    montrer une carte de sa main de la couleur demandée. Tout adversaire qui n'a pas une carte de
    cette couleur doit piger 3 cartes »."""
    engine = toy_story()
    out = engine.handle(Play("lotso", "yellow"))
    assert "decks.lotso_ask" in says(out)
    snap = engine.snapshot()
    assert snap["phase"] == "asking"
    assert snap["asking"] == {"card": "lotso", "player": "Bruno", "colour": "yellow"}
    err = refused(engine, Press())  # the table answers first
    assert err.key == "decks.error_answer_lotso"
    engine.handle(Lacked(("Alice", "Chloé")))
    assert owed(engine) == [("Chloé", 3, "lotso"), ("Alice", 3, "lotso")]  # in playing order
    for _ in range(6):
        engine.handle(Press())
    assert engine.snapshot()["active"] == "Chloé"  # a wild: the next player plays (no skip)


def test_lotso_when_everyone_had_the_colour_the_player_presses():
    """002: « si TOUS les adversaires ont une carte de cette couleur, c'est au JOUEUR qui a joué
    la carte Lotso de piger 3 cartes! »"""
    engine = toy_story()
    run(engine, "play lotso red", "lacked")
    assert owed(engine) == [("Bruno", 3, "lotso")]
    assert engine.snapshot()["facing"] == "Bruno"


def test_lotso_player_cannot_lack_and_a_lotso_can_be_the_last_card():
    """002: « Cette carte peut être jouée en dernier … il risque de devoir piger 3 cartes et
    ainsi perdre sa chance de gagner! »: the round is not won while the table answers."""
    engine = toy_story()
    run(engine, "hand Bruno 1", "play lotso blue")
    refused(engine, RoundWon("Bruno"))
    err = refused(engine, Lacked(("Bruno",)))
    assert err.key == "decks.error_lotso_self"
    run(engine, "lacked")
    assert engine.snapshot()["round_may_be_over"] is None  # Bruno presses 3 first


def test_lotso_needs_a_colour():
    err = refused(toy_story(), Play("lotso"))
    assert err.key == "decks.error_needs_colour"


def test_lotso_presses_are_a_house_rule():
    engine = toy_story(lotso_presses=2)
    run(engine, "play lotso green", "lacked David")
    assert owed(engine) == [("David", 2, "lotso")]


def test_lotso_only_in_the_toy_story_deck():
    err = refused(table(), Play("lotso", "red"))
    assert err.key == "errors.card_not_in_the_deck"


def test_draw_two_and_four_are_presses_in_the_toy_story_deck():
    """002 Carte +2 « piger 2 cartes et passer son tour », Carte Blanche +4 « piger 4 cartes »;
    000 §X: the launcher replaces the draw pile and the +2 and +4."""
    engine = toy_story()
    engine.handle(Play("draw2", "red"))
    assert owed(engine) == [("Chloé", 2, "draw2")]
    engine = toy_story()
    engine.handle(Play("number", "red", value=0))  # 002: numbers 0 to 9
    engine.handle(Play("draw4", "red"))
    assert owed(engine) == [("David", 4, "draw4")]
