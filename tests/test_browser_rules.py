"""The decks and house rules on the phone page, in Debian's Chromium against the real daemon:
the Table rules screen, card buttons from the box's card table, Flip's side, the Lotso question and
Emoji's penalty button. Fixtures: ``tests/browser.py``."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytest.register_assert_rewrite("tests.browser")
from tests.browser import FOUR, Api, Dialogs, shot, tab  # noqa: E402

pytest_plugins = ["tests.browser"]  # the daemon, api, browser, phones fixtures


def test_house_rules_decks_and_the_tables_questions(
    phones: tuple[Page, Page], four_players: Api, dialogs: Dialogs
) -> None:
    """The house-rules screen changes the deck for both phones; the card buttons follow the
    box's card table; Flip shows its side; Lotso asks who lacked the colour; Emoji's penalty."""
    api = four_players
    page, other = phones
    tab(page, "table")
    page.click("#open-rules")
    expect(page.locator("#screen-rules")).to_be_visible()
    page.select_option("#rule-deck", "flip")
    expect(other.locator("#side")).to_have_text("Côté clair")  # the other phone, live
    assert api.state()["table"]["rules"]["deck"] == "flip"
    # The score game counted Extrême cards: asked, a new game counts with the deck on the table
    # (its round-end pad has Flip's cards); the Extrême game stays in the list.
    expect(page.locator("#toast .toast-text")).to_have_text("Nouvelle partie commencée.")
    assert dialogs.seen == [
        "La partie « Soirée » compte les mains avec les cartes de UNO Extrême. Commencer une"
        " nouvelle partie comptée avec UNO Flip ? « Soirée » reste dans la liste des parties."
    ]
    score = api.state()["score"]
    assert score["game"]["ruleset"]["key"] == "flip" and len(score["games"]) == 2
    dialogs.seen.clear()
    shot(page, "house-rules")
    wide = page.evaluate(
        "[...document.querySelectorAll('#screen-rules *')]"
        ".filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)"
        ".map(e => e.tagName + '#' + e.id + ' ' + e.getBoundingClientRect().right)"
    )
    assert wide == [], wide  # nothing sticks out sideways on a 390 px phone
    page.click("#rules-back")
    expect(page.locator('#cards [data-card="draw1"]')).to_be_visible()
    expect(page.locator('#cards [data-card="hit2"]')).to_have_count(0)
    page.click('#cards [data-card="flip"]')
    expect(page.locator("#side")).to_have_text("Côté sombre")
    expect(page.locator('#colour-row [data-colour="pink"]')).to_be_visible()
    expect(page.locator('#cards [data-card="draw5"]')).to_be_visible()

    api.act("table.rules", deck="toy_story")
    expect(page.locator('#cards [data-card="lotso"]')).to_be_visible()
    page.click('#colour-row [data-colour="yellow"]')
    page.click('#cards [data-card="lotso"]')
    expect(page.locator("#lacked [data-lacked]").first).to_be_visible()  # the box has asked
    lotso_player = api.state()["table"]["asking"]["player"]
    lacking = next(p for p in FOUR if p != lotso_player)
    page.click(f'#lacked [data-lacked="{lacking}"]')
    page.click("#lacked-send")
    expect(page.locator("#owed li")).to_have_count(1)
    expect(page.locator("#owed li").first).to_contain_text(lacking)
    shot(page, "table-lotso")
    for _ in range(3):
        api.act("table.press")

    api.act("table.rules", deck="emoji")
    page.click('#cards [data-card="emoji"]')
    expect(page.locator("#mimic-broken")).to_be_visible()  # the box has started the mimic
    holder = api.state()["table"]["mimic"]
    page.click("#mimic-broken")
    expect(page.locator("#owed li").first).to_contain_text(holder)
    assert api.state()["table"]["owed"][0]["reason"] == "mimic"

    # Another deck in the middle of a round: asked first; declined, the deck stays.
    page.click("#open-rules")
    dialogs.accept = False
    page.select_option("#rule-deck", "extreme")
    assert dialogs.seen == [
        "Changer de jeu de cartes pendant la manche 1 ? Les cartes en jeu changent."
    ]
    expect(page.locator("#rule-deck")).to_have_value("emoji")
    assert api.state()["table"]["rules"]["deck"] == "emoji"
    # Accepted, it changes, and the message's Undo puts the deck back.
    dialogs.accept = True
    dialogs.answers = [True, False]  # the change mid-round, yes; a new score game, no
    page.select_option("#rule-deck", "extreme")
    expect(other.locator('#cards [data-card="coup_extreme"]')).to_have_count(1)
    # The change's own message, not one still showing from before (the new game question first).
    expect(page.locator("#toast .toast-text")).to_have_text("Jeu de cartes changé.")
    page.click("#toast .toast-action")
    expect(page.locator("#rule-deck")).to_have_value("emoji")
    assert api.state()["table"]["rules"]["deck"] == "emoji"
