"""axe-core over every screen of the phone page and every moment of a round, on a dark and a
light phone at 320 x 640, in Debian's Chromium against the real daemon: nothing serious or
critical anywhere, and every button named, disabled ones too. Fixtures: ``tests/browser.py``."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytest.register_assert_rewrite("tests.browser")
from tests.browser import Api, axe_check, chloe_wins_a_round, seat_four, tab  # noqa: E402

pytest_plugins = ["tests.browser"]  # the daemon, api, browser, phones fixtures

SMALL = {"width": 320, "height": 640}
TABS = ["table", "score", "evening", "setup", "device"]
# Screens without a tab, by the button that opens them: (its screen, its button's tab, button,
# the button that leaves it). The camera's screen, open only with a camera, has its own check
# (tests/test_browser_camera.py).
OPENED = [
    ("display", "table", "#open-display", "#display-close"),
    ("rules", "table", "#open-rules", "#rules-back"),
]


def nothing_serious(pages: tuple[Page, Page], where: str) -> None:
    for page in pages:
        violations = axe_check(page)
        assert not violations, (where, violations)
        unnamed = page.evaluate(
            """[...document.querySelectorAll('button, [role=button], [role=tab]')]
              .filter((b) => b.checkVisibility() && !(b.getAttribute('aria-label')
                || b.textContent.trim() || b.getAttribute('title')))
              .map((b) => b.outerHTML.slice(0, 80))"""
        )
        assert unnamed == [], (where, unnamed)


def every_screen(pages: tuple[Page, Page], api: Api, when: str) -> None:
    for name in TABS:
        for page in pages:
            tab(page, name)
        nothing_serious(pages, f"{name} ({when})")
    for name, where, button, leave in OPENED:
        for page in pages:
            tab(page, where)
            page.click(button)
            expect(page.locator(f"#screen-{name}")).to_be_visible()
        nothing_serious(pages, f"{name} ({when})")
        for page in pages:
            page.click(leave)


def test_axe_finds_nothing_serious_on_any_screen_at_any_moment(
    phones: tuple[Page, Page], api: Api
) -> None:
    for page in phones:
        page.set_viewport_size(SMALL)
    every_screen(phones, api, "no players yet")
    seat_four(api, target=100)
    chloe_wins_a_round(api)
    every_screen(phones, api, "a game under way")
    # The round's log open, its Redo named while there is nothing to redo.
    for page in phones:
        tab(page, "table")
        page.click("#round-log summary")
        expect(page.locator("#table-redo")).to_be_disabled()
        expect(page.locator("#table-redo")).to_have_accessible_name("Refaire")
    nothing_serious(phones, "the round's log")
    for page in phones:
        page.click("#round-log summary")
    # Undo and Redo on the Score screen, each named while it cannot be used.
    for page in phones:
        tab(page, "score")
        expect(page.locator("#score-redo")).to_be_disabled()
        expect(page.locator("#score-redo")).to_have_accessible_name("Refaire")
    api.act("score.undo")
    api.act("score.redo")
    for page in phones:
        expect(page.locator("#score-redo")).to_be_disabled()
    api.act("score.new_game", name="Deuxième")  # the stored games' list: two games
    for page in phones:
        expect(page.locator("#games li")).to_have_count(2)
        expect(page.locator("#score-undo")).to_have_accessible_name("Défaire")
    nothing_serious(phones, "the stored games and a new game")
    api.act("score.open_game", game=api.state()["score"]["games"][-1]["id"])
    for page in phones:
        tab(page, "table")

    # The round's moments: one card left, the prompt that a hand is at 0, the shared count,
    # the round's result, the game's end.
    player = api.state()["table"]["active"]
    api.act("table.set_hand", player=player, cards=1)
    nothing_serious(phones, "one card left")
    api.act("table.set_hand", player=player, cards=0)
    for page in phones:
        expect(page.locator("#end-round")).to_be_visible()
    nothing_serious(phones, "the round's end prompt")
    phones[0].click("#end-round")
    for page in phones:
        expect(page.locator("#hands-form")).to_be_visible()
    phones[0].click("#hands-entry [data-count]")
    nothing_serious(phones, "the shared count")
    for other in phones[0].locator("#hands-entry input[data-hand]").all():
        other.fill("40")
    phones[0].click("#save-hands")
    for page in phones:
        expect(page.locator("#game-over, #round-result").first).to_be_visible()
    nothing_serious(phones, "the round's result or the game's end")
    every_screen(phones, api, "the round over")
