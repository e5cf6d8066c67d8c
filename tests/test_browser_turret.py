"""The Device screen draws the turret where it really is, in Debian's Chromium: it points at
the seat the launcher faces (calibrated bearings included), not at the seat the table names;
the caption says the real angle. Fixtures: ``tests/browser.py``."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytest.register_assert_rewrite("tests.browser")
from tests.browser import Api, tab, until_in_page  # noqa: E402

pytest_plugins = ["tests.browser"]

# The drawn turret's rotation, in degrees of the drawing, 0..360.
DRAWN = (
    "(() => { const m = /rotate\\(([-\\d.e]+)deg\\)/.exec("
    "document.getElementById('sim-turret').style.transform);"
    " return m ? ((Number(m[1]) % 360) + 360) % 360 : null; })()"
)


def drawn_at_seat(seat: int, seats: int) -> float:
    """The rotation that points the drawn turret at seat ``seat`` of ``seats`` (the drawing
    puts seat 0 at the bottom, the next ones round the table)."""
    return (90 + 360 * seat / seats + 90) % 360


def pointing_at(seat: int, seats: int) -> str:
    """True in the page once the drawn turret points at that seat (to a hundredth of a degree,
    either side of 0°)."""
    return f"Math.abs(((({DRAWN} - {drawn_at_seat(seat, seats)}) % 360) + 540) % 360 - 180) < 0.01"


def test_the_drawn_turret_points_where_the_launcher_really_is(
    phone: Page, four_players: Api
) -> None:
    api = four_players
    table = api.state()["table"]
    assert table["facing"] == "Chloé" and table["facing_seat"] == 3  # Zoé dealt
    tab(phone, "device")
    until_in_page(phone, pointing_at(3, 4))
    expect(phone.locator("#sim-seats .facing")).to_have_attribute("data-seat", "Chloé")
    # Bruno's seat calibrated at 45° (uneven: the drawing still spreads the seats round the
    # table): the launcher turns there; the table still faces Chloé.
    rows = phone.locator("#calibration li")
    rows.nth(1).locator("input[type=range]").fill("45")
    phone.click('#calibration [data-calibrate="1"]')
    expect(phone.locator("#sim-caption")).to_contain_text("Le lanceur vise Bruno (45°)")
    expect(phone.locator("#sim-seats .facing")).to_have_attribute("data-seat", "Bruno")
    until_in_page(phone, pointing_at(1, 4))
    assert api.state()["table"]["facing"] == "Chloé"
    device = api.state()["device"]
    assert (device["seat"], device["turret_angle"]) == (1, 45.0)
