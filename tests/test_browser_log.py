"""The round's log on the phone page, in Debian's Chromium: every line with its card and source,
a misread card mended from the page, a line removed. Fixtures: ``tests/browser.py``."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytest.register_assert_rewrite("tests.browser")
from tests.browser import Api, seat_four  # noqa: E402

pytest_plugins = ["tests.browser"]


def test_a_misread_card_is_mended_from_the_round_log(phone: Page, api: Api) -> None:
    seat_four(api)  # Zoé deals: Chloé plays first, then Alice
    page = phone
    page.click("#colour-row .colour.red")
    page.click('#cards [data-card="skip"]')  # Chloé's card was read as a skip
    expect(page.locator("#active")).to_have_text("Bruno")
    api.act("table.set_hand", player="Bruno", cards=5)  # a line from another phone
    page.click("#round-log summary")
    lines = page.locator("#round-log-lines .log-line")
    expect(lines).to_have_count(2)
    skip = page.locator("#round-log-lines .log-line").last  # the newest line comes first
    expect(skip.locator(".what")).to_have_text("Passer rouge · Chloé")
    expect(skip.locator(".source")).to_have_text("téléphone")
    # It was a reverse: chosen in the line's mender, the table recomputed.
    skip.locator(".log-mend").click()
    skip.locator("select").first.select_option("reverse")
    skip.locator(".log-replace").click()
    expect(page.locator("#active")).to_have_text("Zoé")
    expect(page.locator("#direction")).to_contain_text("droite")
    mended = page.locator("#round-log-lines .log-line").last
    expect(mended.locator(".what")).to_have_text("Inversion rouge · Chloé")
    table = api.state()["table"]
    assert table["log"][0]["card"] == {"kind": "reverse", "colour": "red"}
    assert table["last_event"]["source"] == "phone"
    # The hand line is removed: Bruno's estimate is the deal's again.
    first = page.locator("#round-log-lines .log-line").first
    first.locator(".log-mend").click()
    first.locator(".log-remove").click()
    expect(page.locator("#round-log-lines .log-line")).to_have_count(1)
    assert {p["name"]: p["hand"] for p in api.state()["table"]["players"]}["Bruno"] == 7


def test_a_mend_being_chosen_survives_a_change_from_another_phone(phone: Page, api: Api) -> None:
    # The page redraws at every change (another phone, the turret turning): the card a player
    # is choosing in an open mender must stay chosen.
    seat_four(api)
    page = phone
    page.click("#colour-row .colour.red")
    page.click('#cards [data-card="skip"]')
    expect(page.locator("#active")).to_have_text("Bruno")
    page.click("#round-log summary")
    skip = page.locator("#round-log-lines .log-line").last
    skip.locator(".log-mend").click()
    skip.locator("select").first.select_option("reverse")
    api.act("table.set_hand", player="Alice", cards=6)  # the page redraws the log
    expect(page.locator("#round-log-lines .log-line")).to_have_count(2)
    mender = page.locator("#round-log-lines .log-line").last
    expect(mender.locator("select").first).to_have_value("reverse")
    mender.locator(".log-replace").click()
    expect(page.locator("#active")).to_have_text("Zoé")
    assert api.state()["table"]["log"][0]["card"] == {"kind": "reverse", "colour": "red"}
