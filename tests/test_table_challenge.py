"""The Wild Draw Four challenge and its readings (000 §XI.E, 001, 002, 003, 004)."""

from __future__ import annotations

from companion.core.events import Challenge, Eliminate, Play, Press

from .tables import hands, owed, refused, run, table


def classic(**rules: object):
    return table(deck="classic", challenge=True, **rules)


def test_challenge_is_off_by_default():
    engine = table(deck="classic")
    engine.handle(Play("draw4", "red"))
    err = refused(engine, Challenge(guilty=True))
    assert err.key == "decks.error_no_challenge"


def test_guilty_player_presses_four_instead():
    """002, 004 (and 000 §XI.E for the Flip wilds): « Si le joueur mis au défi a tort, il doit
    piger les 4 cartes à la place du joueur pénalisé »."""
    engine = classic()
    engine.handle(Play("draw4", "red"))  # Bruno hits Chloé
    engine.handle(Challenge(guilty=True))
    assert owed(engine) == [("Bruno", 4, "draw4")]
    assert engine.snapshot()["facing"] == "Bruno"
    for _ in range(4):
        engine.handle(Press())
    assert engine.snapshot()["active"] == "David"  # the turn order is unchanged


def test_innocent_player_challenger_presses_six():
    """002: « si le joueur mis au défi a raison, le joueur doit piger 4 cartes PLUS 2 autres (6 en
    tout)! »; 001 « l'adversaire prend deux cartes en plus des quatre autres »."""
    engine = classic()
    engine.handle(Play("draw4", "red"))
    engine.handle(Challenge(guilty=False))
    assert owed(engine) == [("Chloé", 6, "draw4")]


def test_001_reading_guilty_takes_the_card_back_and_plays_again():
    """001 Pénalisations: « le joueur responsable devra reprendre en main sa carte … jouer la
    bonne carte et tirer quatre cartes avant que le jeu normal ne reprenne »."""
    engine = classic(challenge_guilty="replay")
    engine.handle(Play("draw4", "red"))
    assert hands(engine)["Bruno"] == 6
    engine.handle(Challenge(guilty=True))
    assert hands(engine)["Bruno"] == 7
    assert owed(engine) == [("Bruno", 4, "draw4")]
    for _ in range(4):
        engine.handle(Press())
    assert engine.snapshot()["active"] == "Bruno"  # plays the right card now
    engine.handle(Play("number", "red", value=2))
    assert engine.snapshot()["active"] == "Chloé"


def test_003_bluff_reading_guilty_presses_four_plus_two():
    """003 Bluff: « c'est le bluffeur qui se ramasse les 4 cartes plus deux autre cartes »."""
    engine = classic(challenge_guilty="plus_two")
    engine.handle(Play("draw4", "red"))
    engine.handle(Challenge(guilty=True))
    assert owed(engine) == [("Bruno", 6, "draw4")]


def test_only_before_the_first_press():
    """001: « seul ce joueur peut contester » — before taking the cards."""
    engine = classic()
    engine.handle(Play("draw4", "red"))
    engine.handle(Press())
    refused(engine, Challenge(guilty=True))


def test_extreme_any_deck_and_flip_wilds_can_be_challenged():
    engine = table(any_deck=True, challenge=True)
    run(engine, "play draw4 red", "challenge innocent")
    assert owed(engine) == [("Chloé", 6, "draw4")]
    engine = table(deck="flip", challenge=True)
    run(engine, "play wild_draw2 red", "challenge guilty")
    assert owed(engine) == [("Bruno", 2, "wild_draw2")]


def test_flip_draw_colour_challenge_lost_adds_two_after_the_colour():
    """000 §XI.E Piger une couleur: « si le joueur mis au défi est innocent, le joueur qui a lancé
    le défi devra piger les cartes jusqu'à obtenir la couleur demandée PLUS 2 autres cartes! »"""
    engine = table(deck="flip", challenge=True)
    run(engine, "play flip red", "play wild_draw_colour teal", "challenge innocent")
    assert owed(engine) == [("David", 1, "wild_draw_colour"), ("David", 2, "challenge")]


def test_a_plain_card_cannot_be_challenged():
    engine = classic()
    engine.handle(Play("draw2", "red"))
    refused(engine, Challenge(guilty=True))


def test_a_proven_bluff_by_a_player_who_has_left_cancels_the_four():
    """Nobody can press for a bluffer who has left the game since (found by the property test:
    the turn went to an eliminated player). The challenger was right: nobody presses."""
    for reading in ("instead", "plus_two", "replay"):
        engine = classic(challenge_guilty=reading)
        engine.handle(Play("draw4", "red"))  # Bruno hits Chloé
        engine.handle(Eliminate("Bruno"))
        outcome = engine.handle(Challenge(guilty=True))
        snap = engine.snapshot()
        assert owed(engine) == [], reading
        assert snap["active"] != "Bruno" and snap["facing"] == snap["active"], reading
        assert outcome.commands[0].key == "decks.challenge_guilty_gone"
