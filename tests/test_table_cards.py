"""The card table: one entry per card kind, read by the engine, the script and the page."""

from __future__ import annotations

import pytest

from companion.core import events
from companion.core.cards import CARD_TABLE, CARDS, WILD_KINDS, deck_cards, in_deck
from companion.core.events import Play, StartRound
from companion.core.options import DECKS, RulesOptions
from companion.core.scoring.rulesets import builtin_ruleset
from companion.core.script import CARD_ALIASES

from .tables import refused, table


def test_events_use_the_card_table():
    assert tuple(CARDS) == events.CARD_KINDS
    assert events.WILD_KINDS == WILD_KINDS
    # every card the player names a colour for is a wild of its deck, and only those
    assert {
        "wild",
        "coup_extreme",
        "wild_all_hit",
        "wild_hit_fire",
        "draw4",
        "wild_draw2",
        "wild_draw_colour",
        "lotso",
        "emoji",
        "custom",
    } == WILD_KINDS


def test_every_card_is_in_a_deck_with_a_source_and_labels():
    for card in CARD_TABLE:
        assert card.decks and set(card.decks) <= set(DECKS), card.key
        assert card.source[:3] in ("000", "001", "002", "003", "004", "UNO"), card.key
        assert card.label_fr and card.label_en
        assert card.key in CARD_ALIASES  # the script language knows it
        assert (card.to != "") == (card.presses > 0) or card.effect, card.key


@pytest.mark.parametrize("deck", DECKS)
def test_each_deck_plays_every_card_it_holds(deck):
    """A card the deck holds is accepted; one it does not hold is refused."""
    rules = RulesOptions(deck=deck)
    held = {c.key for c in deck_cards(rules)}
    assert "number" in held and "wild" in held
    for card in CARD_TABLE:
        engine = table(deck=deck)
        side_ok = not card.side or card.side == engine.snapshot()["side"] or deck != "flip"
        target = "David" if card.target else None
        play = Play(card.key, "red" if card.colour else None, target=target)
        if card.key in held and side_ok:
            engine.handle(play)
        else:
            refused(engine, play)


def test_option_cards_need_their_option_in_extreme():
    assert not in_deck(CARDS["draw2"], RulesOptions())
    assert in_deck(CARDS["draw2"], RulesOptions(any_deck=True))
    assert in_deck(CARDS["draw2"], RulesOptions(deck="classic"))
    assert in_deck(CARDS["wild_hit_fire"], RulesOptions(hit_fire=True))


def test_scoring_decks_hold_the_engine_cards():
    """The score keeper's deck lists and the card table agree on which cards each deck has."""
    scoring_names = {
        "draw4": "wild_draw4",
        "reverse": "reverse",
        "skip": "skip",
        "wild": "wild",
        "number": "n5",
    }
    for deck in DECKS:
        ruleset = builtin_ruleset(deck)
        for card in deck_cards(RulesOptions(deck=deck)):
            key = scoring_names.get(card.key, card.key)
            kind = ruleset.kind(key)
            assert kind is not None and kind.count > 0, (deck, card.key)


def test_start_cards_follow_the_table():
    """000 §V: a Super Joker turned up goes back; §X: an Appuyer 2x makes the first player press."""
    for card in CARD_TABLE:
        if card.side == "dark" or card.option:
            continue
        engine = table(deck=card.decks[0])
        start = StartRound(card.key, "red")
        if card.start == "back":
            refused(engine, start)
        else:
            engine.handle(start)
            assert bool(engine.snapshot()["owed"]) == (card.start == "owe"), card.key


def test_the_page_holds_no_card_list_of_its_own():
    """The phone page reads the card table from the box (GET /api/cards): no card kind is
    spelt out in its JavaScript, so a new deck needs no page change."""
    from pathlib import Path

    static = Path(__file__).parents[1] / "companion" / "web" / "static" / "js"
    script = "".join(p.read_text(encoding="utf-8") for p in sorted(static.rglob("*.js")))
    allowed = {c.effect for c in CARD_TABLE} | {"number"}  # named effects; the number keys
    spelt = [c.key for c in CARD_TABLE if f'"{c.key}"' in script and c.key not in allowed]
    assert spelt == []
