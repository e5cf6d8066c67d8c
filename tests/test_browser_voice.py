"""The box's voice on the phones, in Debian's Chromium: a phone that ticked sound says the box's
phrases with the browser's speech synthesis, in its own language; the page says what it will
play; the table display's sound button looks muted when it is. Fixtures: ``tests/browser.py``.

The browser's ``speechSynthesis.speak`` is replaced in the page (an init script) by a recorder:
what would be spoken, and in which language, is what the test reads."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

pytest.register_assert_rewrite("tests.browser")
from companion.daemon import Daemon  # noqa: E402
from tests.browser import (  # noqa: E402
    DOUBLE_TAP_MS,
    FRENCH_PHONE,
    PAGE_TIMEOUT,
    Api,
    live,
    seat_game,
    tab,
)
from tests.helpers import wait_for  # noqa: E402

pytest_plugins = ["tests.browser"]

FAMILY = ["Zoé", "Raphaël", "Maëlle", "Jérôme"]
SPEECH_RECORDER = """
window.__spoken = [];
window.speechSynthesis.speak = (utterance) => {
  window.__spoken.push({text: utterance.text, lang: utterance.lang});
};
"""


@pytest.fixture
def speaking_phone(browser: Browser, daemon: Daemon) -> Iterator[Page]:
    """A phone of its own (its speech recorded from the first script on), at 320 x 640."""
    context = browser.new_context(
        viewport={"width": 320, "height": 640},
        is_mobile=True,
        has_touch=True,
        locale=FRENCH_PHONE,
    )
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.add_init_script(SPEECH_RECORDER)
        page.goto(daemon.url or "")
        yield live(page)
        assert not errors, errors
    finally:
        context.close()


def spoken(page: Page) -> list[dict[str, Any]]:
    return list(page.evaluate("window.__spoken"))


def tick_sound(page: Page) -> None:
    tab(page, "device")
    expect(page.locator("#phone-sound-what")).to_contain_text("avec sa propre voix")
    page.check("#phone-sound")
    tab(page, "table")


def test_a_phone_with_sound_says_the_boxs_phrase_in_its_language(
    speaking_phone: Page, api: Api
) -> None:
    page = speaking_phone
    seat_game(api, FAMILY, name="Famille", target=500)  # Zoé deals: Raphaël plays first
    expect(page.locator("#active")).to_have_text("Raphaël")
    assert spoken(page) == []  # nothing said before sound was ticked, nothing old read out
    tick_sound(page)
    page.click('#cards [data-card="hit2"]')  # Raphaël's Appuyer 2x: Maëlle presses twice
    wait_for(
        lambda: {"text": "Maëlle, appuie 2 fois.", "lang": "fr"} in spoken(page),
        PAGE_TIMEOUT,
        "the box's phrase said by the phone",
    )
    # The same phone in English says the box's next phrase in English.
    tab(page, "device")
    page.select_option("#language2", "en")
    tab(page, "table")
    expect(page.locator("#hit")).to_contain_text("Maëlle")
    for _ in range(2):  # Maëlle's two presses, from another phone: Jérôme's turn
        api.act("table.press")
    expect(page.locator("#active")).to_have_text("Jérôme")
    before = len(spoken(page))
    page.wait_for_timeout(DOUBLE_TAP_MS)  # a card of his own, not a double tap of Raphaël's
    page.click('#cards [data-card="hit2"]')  # Jérôme's Appuyer 2x: Zoé presses twice
    wait_for(
        lambda: {"text": "Zoé, press 2 times.", "lang": "en"} in spoken(page)[before:],
        PAGE_TIMEOUT,
        "the next phrase, in English",
    )


def test_without_sound_the_phone_says_nothing(speaking_phone: Page, api: Api) -> None:
    page = speaking_phone
    seat_game(api, FAMILY, name="Famille", target=500)
    expect(page.locator("#active")).to_have_text("Raphaël")
    page.click('#cards [data-card="hit2"]')
    expect(page.locator("#owed li")).to_have_count(1)
    api.act("table.press")
    expect(page.locator("#owed li")).to_contain_text("une fois")
    assert spoken(page) == []


def test_the_display_sound_button_looks_muted_when_muted(speaking_phone: Page, api: Api) -> None:
    page = speaking_phone
    seat_game(api, FAMILY, name="Famille", target=500)
    page.click("#open-display")
    button = page.locator("#display-sound")
    looks = "(b) => [b.textContent, getComputedStyle(b, '::before').content, b.className]"
    # On by default on the display (the tap that opened it lets the browser play).
    expect(button).to_have_attribute("aria-pressed", "true")
    on = button.evaluate(looks)
    button.click()
    expect(button).to_have_attribute("aria-pressed", "false")
    expect(button).to_have_text("Son coupé")
    off = button.evaluate(looks)
    assert on[0] == "Son" and on[1] != off[1] and "muted-sound" in off[2]
    button.click()
    expect(button).to_have_attribute("aria-pressed", "true")
    assert button.evaluate(looks) == on
