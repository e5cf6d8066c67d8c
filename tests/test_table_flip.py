"""UNO Flip with the launcher (000 §XI), each test quoting the text."""

from __future__ import annotations

from companion.core.events import ColourCame, Play, Press, StartRound

from .tables import fixed, hands, owed, refused, run, says, table


def flip(**rules: object):
    return table(deck="flip", **rules)


def test_the_round_starts_light_side_up():
    """000 §XI.C: « La première carte de la PIOCHE est retournée pour constituer le TALON (le côté
    clair des cartes vers le haut) »; the page shows the side."""
    engine = flip()
    assert engine.snapshot()["side"] == "light"
    assert table().snapshot()["side"] == ""  # one-sided decks have no side


def test_draw_one_is_one_press_and_loses_the_turn():
    """000 §XI.E Carte +1: « le joueur suivant doit piger une carte et passer son tour »."""
    engine = flip()
    engine.handle(Play("draw1", "red"))
    assert owed(engine) == [("Chloé", 1, "draw1")]
    engine.handle(Press())
    assert engine.snapshot()["active"] == "David"


def test_flip_turns_the_table_and_back():
    """000 §XI.E Carte Flip: « le jeu passe du côté clair au côté sombre » … « jusqu'à ce
    qu'une autre carte Flip soit posée »."""
    engine = flip()
    out = engine.handle(Play("flip", "red"))
    assert engine.snapshot()["side"] == "dark" and "decks.side_dark" in says(out)
    engine.handle(Play("flip", "pink"))
    assert engine.snapshot()["side"] == "light"


def test_cards_of_the_other_side_are_refused():
    engine = flip()
    err = refused(engine, Play("draw5", "pink"))
    assert err.key == "decks.error_wrong_side"
    engine.handle(Play("flip", "red"))
    refused(engine, Play("draw1", "pink"))
    err = refused(engine, Play("number", "red", value=3))  # dark side colours differ (§XI.A)
    assert err.key == "errors.bad_colour"


def test_draw_five_is_five_presses():
    """000 §XI.E Carte +5: « le joueur suivant doit piger 5 cartes et passer son tour »."""
    engine = flip()
    run(engine, "play flip red", "play draw5 teal")
    assert owed(engine) == [("David", 5, "draw5")]
    for _ in range(5):
        engine.handle(Press())
    assert engine.snapshot()["active"] == "Alice"


def test_skip_everyone_plays_again():
    """000 §XI.E Passer tous un tour: « Cela signifie que le joueur qui a posé la carte joue de
    nouveau »."""
    engine = flip()
    run(engine, "play flip red", "play skip_everyone orange")
    assert engine.snapshot()["active"] == "Chloé"


def test_wild_draw_colour_presses_until_the_colour_came():
    """000 §XI.E Carte blanche Piger une couleur: « oblige le joueur suivant à piger une carte
    d'une couleur précise (peu importe combien de cartes il doit piger pour l'obtenir) et à passer
    son tour »: an "until" owed entry closed by the table."""
    engine = flip(launcher=fixed(2))
    run(engine, "play flip red", "play wild_draw_colour purple")
    snap = engine.snapshot()
    assert snap["owed"][0]["until"] == "colour" and snap["owed"][0]["colour"] == "purple"
    refused(engine, ColourCame())  # not a single press yet
    out = engine.handle(Press())
    assert "decks.colour_came_ask" in says(out)
    engine.handle(Press())
    assert owed(engine) == [("David", 1, "wild_draw_colour")]  # still pressing
    engine.handle(ColourCame())
    assert owed(engine) == []
    assert engine.snapshot()["active"] == "Alice"
    assert hands(engine)["David"] == 7 + 4


def test_wild_draw_two_is_two_presses_and_cannot_start():
    """000 §XI.E Carte blanche +2: « oblige le joueur suivant à piger deux cartes et à passer son
    tour » … « Si cette carte est retournée en début de jeu, le donneur doit la remettre dans la
    pioche »."""
    engine = flip()
    engine.handle(Play("wild_draw2", "blue"))
    assert owed(engine) == [("Chloé", 2, "wild_draw2")]
    err = refused(flip(), StartRound("wild_draw2"))
    assert err.key == "errors.start_card_back"


def test_start_draw_one_presses_and_dark_cards_cannot_start():
    """000 §XI.E Carte +1: « Si cette carte est retournée en début de jeu, la même règle
    s'applique »; the deck starts light side up, so no dark card is turned up."""
    engine = flip()
    engine.handle(StartRound("draw1", "red", dealer="Alice"))
    assert owed(engine) == [("Bruno", 1, "draw1")]
    refused(flip(), StartRound("draw5"))


def test_a_new_round_starts_light_side_again():
    engine = flip()
    run(engine, "play flip red", "won Chloé", "start")
    assert engine.snapshot()["side"] == "light"


def test_last_card_draw_colour_still_costs():
    """000 §XI.F: « Si la dernière carte jouée dans une manche est une carte +1, une carte +5, une
    carte blanche +2 ou une carte blanche Piger une couleur, le joueur suivant doit piger … Ces
    cartes seront prises en compte dans le calcul des points »."""
    engine = flip(launcher=fixed(1))
    run(engine, "play flip red", "hand Chloé 1", "play wild_draw_colour teal", "won Chloé")
    assert engine.snapshot()["phase"] == "settling"
    run(engine, "press", "colour-came")
    assert engine.snapshot()["phase"] == "over"
