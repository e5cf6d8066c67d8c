"""The round's count on two phones in Debian's Chromium against the real daemon: a player
renamed in the middle of it keeps the hand they counted, on their own phone and the others.
Fixtures: ``tests/browser.py``."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytest.register_assert_rewrite("tests.browser")
from tests.browser import Api, seat_four, tab  # noqa: E402

pytest_plugins = ["tests.browser"]  # the daemon, api, browser, phones fixtures


def test_a_player_renamed_during_the_count_keeps_their_count(
    phones: tuple[Page, Page], api: Api
) -> None:
    seat_four(api)
    alice, other = phones
    tab(alice, "setup")
    alice.select_option("#me-setup", "Alice")
    tab(alice, "table")
    api.act("table.round_won", player="Chloé")
    pad = alice.locator('[data-cards-of="Alice"]')
    expect(pad).to_be_visible()  # her own hand, opened by its cards
    pad.locator(".kind[data-kind]").first.click()
    pad.locator(".kind[data-kind]").first.click()
    expect(other.locator('#hands-entry [data-status="Alice"]')).to_have_text("✓")
    counted = alice.locator('#hands-entry [data-hand="Alice"]').input_value()

    api.act("players.rename", player="Alice", name="Anaïs")
    api.act("players.rename", player="Chloé", name="Cléo")
    for page in (alice, other):
        expect(page.locator("#round-winner")).to_have_text("Cléo a gagné la manche")
        expect(page.locator('#hands-entry [data-status="Anaïs"]')).to_have_text("✓")
        expect(page.locator('#hands-entry [data-hand="Anaïs"]')).to_have_value(counted)
    # Her phone is still hers: her hand first, its pad open with what she tapped.
    expect(alice.locator("#hands-entry .hand-row").first).to_have_attribute("data-row", "Anaïs")
    expect(alice.locator('[data-cards-of="Anaïs"] .kind .count').first).to_have_text("×2")
    assert alice.evaluate("localStorage.getItem('uno.me')") == "Anaïs"
