"""The round-end pads count the cards the players hold: those of the deck on the table at every
moment (a deck changed mid-evening with the score game kept, a rematch, a game imported, the
page loaded again, Extrême rules played with a classic deck), in Debian's Chromium against the
real daemon. Fixtures: ``tests/browser.py``."""

from __future__ import annotations

import urllib.request

import pytest
from playwright.sync_api import Page, expect

pytest.register_assert_rewrite("tests.browser")
from companion.core.scoring import builtin_ruleset  # noqa: E402
from tests.browser import (  # noqa: E402
    ANSWER_TIMEOUT,
    FOUR,
    Api,
    chloe_wins_a_round,
    live,
    screenshot_schemes,
    seat_four,
    shot,
    tab,
)
from tests.helpers import wait_for  # noqa: E402

pytest_plugins = ["tests.browser"]  # the daemon, api, browser, phones fixtures


def deck(key: str) -> list[str]:
    """The card kinds of a deck, in the pads' order (none the deck lacks)."""
    return [k.key for k in builtin_ruleset(key).kinds if k.count]


def kinds(page: Page, selector: str) -> list[str]:
    keys = page.locator(selector)
    expect(keys.first).to_be_visible()
    return list(keys.evaluate_all("(all) => all.map((e) => e.dataset.kind)"))


def round_end_pad(page: Page, api: Api, player: str = "Alice") -> list[str]:
    """Chloé wins the table's round; the keys of ``player``'s pad on the round-end form."""
    api.act("table.round_won", player="Chloé")
    expect(page.locator("#round-winner")).to_have_text("Chloé a gagné la manche")
    toggle = page.locator(f'#hands-entry [data-count="{player}"]')
    if toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    return kinds(page, f'[data-cards-of="{player}"] .kind[data-kind]')


def shots(page: Page, name: str) -> None:
    """The pad at 320 x 640 and 390 x 844, light and dark, when screenshots are wanted."""
    for width, height in ((320, 640), (390, 844)):
        for scheme in screenshot_schemes():
            page.set_viewport_size({"width": width, "height": height})
            page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
            page.locator("#hands-entry .kind-pad:not([hidden])").scroll_into_view_if_needed()
            shot(page, f"decks-{name}-{width}-{scheme}", full_page=False)
    page.emulate_media(color_scheme="light")


def table_cards(page: Page) -> set[str]:
    """The card buttons of the Table screen (what can be played)."""
    return set(page.locator("#cards [data-card]").evaluate_all("(a) => a.map(e => e.dataset.card)"))


def test_a_rematch_counts_with_the_deck_on_the_table(phone: Page, api: Api) -> None:
    """An Extrême game played on while the classic deck went on the table: the rematch keeps the
    classic deck on the table and counts its hands with it; no pad mixes the two decks."""
    seat_four(api, target=50)
    api.act("table.rules", deck="classic")  # the new score game the page offers, declined
    page = phone
    chloe_wins_a_round(api)  # 60 of 50: the game is over
    page.click("#rematch")
    wait_for(lambda: api.state()["score"]["game"]["name"] != "Soirée", 5, "the rematch")
    expect(page.locator("#play")).to_be_visible()
    state = api.state()
    assert state["table"]["rules"]["deck"] == "classic"
    assert state["score"]["game"]["ruleset"]["key"] == "classic"
    played = table_cards(page)
    assert {"draw2", "draw4"} <= played and not {"hit2", "coup_extreme"} & played
    assert round_end_pad(page, api) == deck("classic")


def test_the_pads_follow_the_deck_whatever_the_score_game_counts_with(
    phone: Page, api: Api
) -> None:
    seat_four(api)  # an Extrême score game
    page = phone
    # The classic deck on the table mid-evening, the Extrême game kept: its hands hold classic
    # cards (+2, +4, 0), counted as such and saved as points the Extrême game takes.
    api.act("table.rules", deck="classic")
    assert round_end_pad(page, api) == deck("classic")
    pad = page.locator('[data-cards-of="Alice"]')
    pad.locator('[data-kind="draw2"]').click()
    pad.locator('[data-kind="n7"]').click()
    expect(page.locator('#hands-entry [data-hand="Alice"]')).to_have_value("27")
    shots(page, "classic-pad")
    page.fill('#hands-entry [data-hand="Bruno"]', "5")
    page.fill('#hands-entry [data-hand="Zoé"]', "3")
    page.click("#save-hands")
    expect(page.locator("#round-result")).to_be_visible()
    saved = {h["player"]: h for h in api.state()["score"]["history"][-1]["hands"]}
    assert saved["Alice"]["points"] == 27 and saved["Alice"]["hand"] == {"points": 27}
    # The Score screen's pad for another round: the same deck.
    tab(page, "score")
    page.click("#entry-another")
    assert kinds(page, "#kind-pad .kind[data-kind]") == deck("classic")
    tab(page, "table")

    # The Extrême game's own file imported (a second game, Extrême): the classic deck still.
    request = urllib.request.Request(f"{api.url}api/export.json", headers={"Cookie": api.cookie})
    with urllib.request.urlopen(request, timeout=ANSWER_TIMEOUT) as response:
        text = response.read().decode()
    api.act("score.import", text=text, format="json")
    assert api.state()["score"]["game"]["ruleset"]["key"] == "extreme"
    api.act("table.start_round")
    expect(page.locator("#play")).to_be_visible()
    # The page loaded again (as after a restart of the phone or the box): the same pad.
    page.reload()
    live(page)
    assert round_end_pad(page, api) == deck("classic")

    # Extrême rules played with a classic deck: classic cards in the hands.
    api.act("table.start_round")
    api.act("table.rules", deck="extreme", any_deck=True)
    assert round_end_pad(page, api) == deck("classic")
    # The Extrême deck itself: the game's own cards again.
    api.act("table.start_round")
    api.act("table.rules", any_deck=False)
    assert round_end_pad(page, api) == deck("extreme")


def test_a_new_game_counts_with_the_deck_on_the_table_and_leaves_it_there(
    phone: Page, api: Api
) -> None:
    """The Score screen's new game and the Set-up screen follow the deck on the table: no game
    puts another deck back on the table unless chosen."""
    seat_four(api)  # an Extrême score game
    api.act("table.rules", deck="classic")
    page = phone
    tab(page, "setup")
    expect(page.locator("#ruleset")).to_have_value("classic")
    page.click("#apply-setup")  # the same seats and game: nothing new
    expect(page.locator("#toast .toast-text")).to_have_text("La table est prête.")
    assert api.state()["score"]["game"]["name"] == "Soirée"
    tab(page, "score")
    page.click("#new-game-again")
    wait_for(lambda: api.state()["score"]["game"]["name"] != "Soirée", 5, "the new game")
    state = api.state()
    assert state["score"]["game"]["ruleset"]["key"] == "classic"
    assert state["table"]["rules"]["deck"] == "classic"


def test_uno_flip_hands_count_on_the_side_in_play(phone: Page, api: Api) -> None:
    """A Flip round that ends on the dark side: the pads hold the dark side's cards and the
    round is saved on that side (000 §XI.G)."""
    api.act("table.setup", players=FOUR, dealer="Zoé")
    api.act("score.new_game", name="Flip", players=FOUR, first_dealer="Zoé", ruleset="flip")
    page = phone
    page.click('#cards [data-card="flip"]')
    expect(page.locator("#side")).to_have_text("Côté sombre")
    dark = [k.key for k in builtin_ruleset("flip").kinds if k.count and k.side == "dark"]
    assert round_end_pad(page, api) == dark
    shots(page, "flip-dark-pad")
    page.locator('[data-cards-of="Alice"] [data-kind="draw5"]').click()
    page.fill('#hands-entry [data-hand="Bruno"]', "5")
    page.fill('#hands-entry [data-hand="Zoé"]', "3")
    page.click("#save-hands")
    expect(page.locator("#round-result")).to_be_visible()
    last = api.state()["score"]["history"][-1]
    saved = {h["player"]: h for h in last["hands"]}
    assert saved["Alice"]["hand"] == {"cards": {"draw5": 1}} and saved["Alice"]["points"] == 20
    assert last["credited"]["Chloé"] == 28
