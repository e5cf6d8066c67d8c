"""A new user's first minutes, in Debian's Chromium: the page opens in the phone's own language
(what its browser asks for) until this phone chooses one, and the box's language is for the
phones whose browsers ask for a language the box does not have. Fixtures: ``tests/browser.py``."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

pytest.register_assert_rewrite("tests.browser")
from companion.daemon import Daemon  # noqa: E402
from tests.browser import PHONE, Api, live, tab  # noqa: E402

pytest_plugins = ["tests.browser"]


@pytest.fixture
def phone_in(browser: Browser, daemon: Daemon) -> Iterator[Callable[[str], Page]]:
    """A phone whose browser speaks ``locale``, on the page."""
    contexts = []

    def open_in(locale: str) -> Page:
        context = browser.new_context(viewport=PHONE, is_mobile=True, locale=locale)
        contexts.append(context)
        page = context.new_page()
        page.goto(daemon.url or "")
        return live(page)

    yield open_in
    for context in contexts:
        context.close()


def test_an_english_phone_opens_in_english_until_it_chooses(
    phone_in: Callable[[str], Page],
) -> None:
    page = phone_in("en-GB")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#tab-setup")).to_have_text("Set up")
    tab(page, "setup")
    page.select_option("#language", "fr")  # this phone chooses: kept in this browser
    expect(page.locator("#tab-setup")).to_have_text("Préparer")
    page.reload()
    live(page)
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#tab-setup")).to_have_text("Préparer")


def test_a_phone_in_a_language_the_box_lacks_shows_the_boxs(
    phone_in: Callable[[str], Page],
) -> None:
    page = phone_in("de-DE")  # the box's language: French, as configured
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#tab-setup")).to_have_text("Préparer")
    french = phone_in("fr-CA")
    expect(french.locator("html")).to_have_attribute("lang", "fr")


def test_an_english_phone_follows_the_box_once_someone_changes_its_language(
    phone_in: Callable[[str], Page], api: Api
) -> None:
    page = phone_in("en-US")
    expect(page.locator("#tab-setup")).to_have_text("Set up")
    tab(page, "device")
    api.act("settings.update", language="en")
    expect(page.locator("#voice-language")).to_have_value("en")  # the page saw the change
    api.act("settings.update", language="fr")  # someone chose French for the box
    expect(page.locator("#tab-setup")).to_have_text("Préparer")
