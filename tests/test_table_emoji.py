"""UNO Emoji with the launcher (004), each test quoting the text."""

from __future__ import annotations

from companion.core.events import MimicBroken, Play

from .tables import owed, refused, run, says, table


def emoji(**rules: object):
    return table(deck="emoji", **rules)


def test_emoji_card_gives_the_next_player_a_face_to_keep():
    """004 Carte Emoji: « Le joueur suivant doit ensuite reproduire la même mimique … et CONSERVE
    SA MIMIQUE jusqu'à son prochain tour. Si le joueur ne parvient pas à conserver cette mimique
    jusqu'au tour suivant, il doit piger 4 cartes! »"""
    engine = emoji()
    out = engine.handle(Play("emoji", "red"))
    assert "decks.mimic" in says(out)
    assert engine.snapshot()["mimic"] == "Chloé"
    assert engine.snapshot()["active"] == "Chloé"  # a wild: Chloé plays next
    engine.handle(MimicBroken("Chloé"))
    assert owed(engine) == [("Chloé", 4, "mimic")]
    assert engine.snapshot()["mimic"] is None


def test_the_face_is_kept_only_until_the_next_turn():
    engine = emoji()
    run(engine, "play emoji red", "play 3 red", "play 4 red", "play 5 red")
    assert engine.snapshot()["mimic"] == "Chloé"  # Chloé played, it is Bruno's turn
    run(engine, "play 6 red")  # Bruno plays: Chloé's turn again, the face may drop
    assert engine.snapshot()["mimic"] is None
    err = refused(engine, MimicBroken("Chloé"))
    assert err.key == "decks.error_no_mimic"


def test_only_the_mimic_holder_pays():
    engine = emoji()
    engine.handle(Play("emoji", "blue"))
    refused(engine, MimicBroken("David"))


def test_mimic_presses_are_a_house_rule():
    engine = emoji(mimic_presses=2)
    run(engine, "play emoji green", "mimic-broken Chloé")
    assert owed(engine) == [("Chloé", 2, "mimic")]


def test_customisable_card_follows_the_rule_the_table_wrote():
    """004 Carte à personnaliser: « écrire la règle de son choix sur une carte … ils doivent se
    mettre d'accord entre eux »; « effaçables afin de pouvoir écrire une nouvelle règle à chaque
    partie »: a house rule kept with the table."""
    engine = emoji()
    run(engine, "play custom red")
    assert owed(engine) == [] and engine.snapshot()["active"] == "Chloé"  # a plain wild

    engine = emoji()
    run(engine, "rule custom_card_presses 3", "rule custom_card_skip on", "play custom red")
    assert owed(engine) == [("Chloé", 3, "custom")]
    assert engine.snapshot()["active"] == "David"
    assert engine.snapshot()["rules"]["custom_card_presses"] == 3  # kept with the table

    engine = emoji(custom_card_presses=1, custom_card_to="others")
    run(engine, "play custom red")
    assert owed(engine) == [("Chloé", 1, "custom"), ("David", 1, "custom"), ("Alice", 1, "custom")]

    engine = emoji(custom_card_presses=2, custom_card_to="player")
    run(engine, "play custom red")
    assert owed(engine) == [("Bruno", 2, "custom")]


def test_house_rules_survive_a_new_round_and_reseating():
    engine = emoji()
    run(engine, "rule custom_card_presses 2", "won Alice", "start", "players Zoé Yann")
    assert engine.rules.custom_card_presses == 2
