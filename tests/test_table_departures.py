"""The readings of the rule texts where the engine used to depart from them, each quoting it.

000 = the official Mattel text (§X UNO Extrême), 001 = the older French-Canadian sheet,
002 = UNO Toy Story 3, 003 = house variants, 004 = UNO Emoji.
"""

from __future__ import annotations

import pytest

from companion.core.commands import Say, Turn
from companion.core.events import ContreUno, Play, Press, Reload, RoundWon, SetHand, StartRound
from companion.core.scoring.rulesets import builtin_ruleset
from companion.i18n import Catalog

from .tables import (
    bruno_left_with_one_card,
    fixed,
    hands,
    never_fires,
    owed,
    refused,
    run,
    says,
    table,
)

# -- 1. Coup Extrême aims at the target -----------------------------------------------------------


def test_coup_extreme_launcher_stays_on_the_target_and_the_cards_are_hers():
    """000 §X Coup Extrême: « Le désigné appuie », « Le Distributeur est alors dirigé vers le
    joueur qui a été désigné », « Attaquant appuie 2x »: the attacker's presses fire at the
    target; the voice, the hand estimates and the owed list say so."""
    engine = table(launcher=fixed(1))
    out = engine.handle(Play("coup_extreme", "green", target="Chloé"))
    assert [t for t in out.commands if isinstance(t, Turn)] == [Turn(2, "Chloé")]
    engine.handle(Press("Chloé"))
    snap = engine.snapshot()
    assert snap["owed"][0] | {"player": "Bruno", "for": "Chloé", "presses": 2} == snap["owed"][0]
    out = engine.handle(Press("Bruno"))
    assert not [t for t in out.commands if isinstance(t, Turn)]  # still aimed at Chloé
    assert Say("table.fired", {"player": "Chloé", "cards": 1}) in out.commands
    assert engine.snapshot()["facing"] == "Chloé"
    engine.handle(Press("Bruno"))
    assert hands(engine) == {"Alice": 7, "Bruno": 6, "Chloé": 10, "David": 7}


def test_coup_extreme_attacker_prompt_names_the_target():
    """The voice tells the attacker the cards are for the target."""
    catalog = Catalog.load()
    engine = table()
    engine.handle(Play("coup_extreme", "red", target="David"))
    out = engine.handle(Press())
    say = next(c for c in out.commands if isinstance(c, Say) and c.key == "decks.press_owed_for")
    assert catalog.text(say.key, "fr", say.params) == (
        "Bruno, appuie 2 fois : les cartes sont pour David."
    )


# -- 2. Contre-UNO has a window -------------------------------------------------------------------


def test_contre_uno_refused_once_the_next_player_has_played():
    """000 §VI: « S'il oublie et que l'un de ses adversaires le lui fait remarquer (en criant
    CONTRE-UNO) avant que le joueur suivant n'ait joué » (also 001, 002, 004)."""
    engine = bruno_left_with_one_card()  # Bruno forgets UNO
    engine.handle(Play("number", "red", value=5))  # Chloé plays: too late
    err = refused(engine, ContreUno("Bruno"))
    assert err.key == "decks.error_contre_uno_late" and err.status == 409
    assert str(err) == "too late: Chloé has played since Bruno's last card (000 §VI)"
    assert err.params == {"player": "Bruno", "by": "Chloé"}
    assert owed(engine) == []


def test_contre_uno_refused_once_the_next_player_has_pressed():
    """A press instead of a play is the next player's turn too (000 §X.B)."""
    engine = bruno_left_with_one_card()
    engine.handle(Press("Chloé"))
    refused(engine, ContreUno("Bruno"))


def test_contre_uno_in_time_costs_two_presses():
    """000 §X.B: « S'il ne le fait pas, il doit appuyer 2 fois sur le bouton »."""
    engine = bruno_left_with_one_card()
    engine.handle(ContreUno("Bruno"))
    assert owed(engine) == [("Bruno", 2, "contre_uno")]


# -- 3. Riposte does not mix ----------------------------------------------------------------------


def test_riposte_refuses_a_draw2_on_a_draw4_and_the_other_way():
    """003 Riposte: « On ne peut pas poser une carte +2 sur une +4 et inversément »."""
    engine = table(stacking=True, any_deck=True)
    engine.handle(Play("draw4", "red"))
    err = refused(engine, Play("draw2", "red"))
    assert err.key == "decks.error_riposte_mix"
    engine.handle(Play("draw4", "blue"))  # a +4 on a +4 is a Riposte
    assert owed(engine) == [("David", 8, "draw4")]

    engine = table(stacking=True, any_deck=True)
    engine.handle(Play("draw2", "red"))
    refused(engine, Play("draw4", "red"))
    engine.handle(Play("draw2", "blue"))  # a +2 on a +2 is a Riposte
    assert owed(engine) == [("David", 4, "draw2")]


def test_riposte_mixing_is_a_house_rule():
    engine = table(stacking=True, stacking_mix=True, any_deck=True)
    engine.handle(Play("draw2", "red"))
    engine.handle(Play("draw4", "red"))
    assert owed(engine) == [("David", 6, "draw4")]


# -- 4. The magazine holds what is left -----------------------------------------------------------


@pytest.mark.parametrize(
    ("deck", "players", "size"),
    [("extreme", 4, 112), ("classic", 3, 108), ("flip", 5, 112), ("toy_story", 2, 112)],
)
def test_magazine_holds_the_deck_left_after_dealing(deck, players, size):
    """000 §X.A: « Le donneur distribue 7 cartes à chaque joueur, commence le talon et charge le
    distributeur » with « les cartes restantes »; §III: 7 each and one card turned up."""
    names = ["Alice", "Bruno", "Chloé", "David", "Emma"][:players]
    engine = table(names, deck=deck, launcher=never_fires())
    assert builtin_ruleset(deck).deck_size() == size
    assert engine.snapshot()["magazine"] == size - 7 * players - 1


def test_reload_without_a_number_refills_to_the_deck_left():
    engine = table(launcher=fixed(5, magazine=0))
    for _ in range(3):
        engine.handle(Press())
    assert engine.snapshot()["magazine"] == 83 - 15
    out = engine.handle(Reload())
    assert engine.snapshot()["magazine"] == 83
    assert Say("table.reloaded", {"cards": 83}) in out.commands


def test_configured_magazine_overrides():
    engine = table(launcher=fixed(0, magazine=60))
    assert engine.snapshot()["magazine"] == 60
    engine.handle(Reload())
    assert engine.snapshot()["magazine"] == 60


def test_any_deck_holds_the_classic_deck_cards_only():
    """Extrême rules with a classic deck: the Extrême deck's own cards are not in the players'
    hands, so the table refuses them and names the deck it plays with."""
    engine = table(any_deck=True)
    for key in ("hit2", "discard_all", "coup_extreme"):
        err = refused(engine, Play(key, "red"))
        assert err.key == "errors.card_not_in_the_deck"
        assert err.params["deck"] == "classic"
    engine.handle(Play("number", "red", value=0))  # the classic deck's 0 is in


def test_any_deck_extreme_counts_the_classic_deck():
    """Extrême rules with a classic deck: 108 cards."""
    engine = table(any_deck=True, launcher=never_fires())
    assert engine.snapshot()["magazine"] == 108 - 29


# -- 5. A last press card still costs -------------------------------------------------------------


def test_win_on_hit2_keeps_the_presses_and_their_cards_count():
    """000 §VI: « Si la dernière carte jouée est une carte +2 ou un Super Joker, le joueur suivant
    doit piger 2 ou 4 cartes. Ces cartes seront prises en compte dans le calcul des points. »"""
    engine = table(launcher=fixed(3))
    engine.handle(SetHand("Bruno", 1))
    engine.handle(Play("hit2", "red"))
    out = engine.handle(RoundWon("Bruno"))
    assert "decks.won_presses_owed" in says(out)
    snap = engine.snapshot()
    assert snap["phase"] == "settling" and not snap["round_over"]
    assert owed(engine) == [("Chloé", 2, "hit2")]
    refused(engine, Play("number", "red", value=3))  # the round is won: no more cards
    err = refused(engine, StartRound())
    assert err.key == "decks.error_presses_after_win"
    engine.handle(Press())
    out = engine.handle(Press())
    assert "decks.round_settled" in says(out)
    snap = engine.snapshot()
    assert snap["round_over"] and snap["winner"] == "Bruno"
    assert hands(engine)["Chloé"] == 7 + 6


def test_win_on_draw4_with_any_deck_keeps_four_presses():
    engine = table(any_deck=True)
    engine.handle(SetHand("Bruno", 1))
    engine.handle(Play("draw4", "red"))
    engine.handle(RoundWon("Bruno"))
    assert owed(engine) == [("Chloé", 4, "draw4")]


def test_win_without_owed_presses_ends_the_round_at_once():
    engine = table()
    engine.handle(RoundWon("Bruno"))
    assert engine.snapshot()["phase"] == "over"


# -- 6. Plurals in both languages -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "cards", "text"),
    [
        ("fr", 1, "1 carte pour Bruno !"),
        ("fr", 0, "0 carte pour Bruno !"),
        ("fr", 3, "3 cartes pour Bruno !"),
        ("en", 1, "1 card for Bruno!"),
        ("en", 0, "0 cards for Bruno!"),
        ("en", 3, "3 cards for Bruno!"),
    ],
)
def test_fired_phrase_plurals(lang, cards, text):
    catalog = Catalog.load()
    assert catalog.text("table.fired", lang, {"player": "Bruno", "cards": cards}) == text


def test_every_count_phrase_has_its_singular():
    """Each phrase the table says with a count of cards or presses has its singular in both
    languages."""
    catalog = Catalog.load()
    for lang in ("fr", "en"):
        for key in catalog.keys(lang):
            if not key.startswith(("table.", "decks.")):
                continue
            template = catalog.text(key, lang)
            if "{cards}" in template or "{presses}" in template:
                assert f"{key}_one" in catalog.keys(lang) or key.endswith("_one"), key


def test_reload_phrase_singular_through_the_engine():
    catalog = Catalog.load()
    out = run(table(), "reload 1")
    say = next(c for c in out.commands if isinstance(c, Say) and c.key == "table.reloaded")
    assert catalog.text(say.key, "fr", say.params) == "Distributeur rechargé : 1 carte."
    assert catalog.text(say.key, "en", say.params) == "Launcher reloaded: 1 card."
