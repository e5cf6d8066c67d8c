"""A family at the table, in Debian's Chromium: a double tap on APPUYER, and two phones entering
the same card at once, make one press and one card; the next player's turn is whole and the
phone says "already done" in its own language. Fixtures: ``tests/browser.py``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

pytest.register_assert_rewrite("tests.browser")
from companion.config import Config, LauncherConfig, WebConfig  # noqa: E402
from companion.daemon import Daemon  # noqa: E402
from tests.browser import (  # noqa: E402
    ANSWER_TIMEOUT,
    PAGE_TIMEOUT,
    STREAMS_OF_ONE_ADDRESS,
    Api,
    Dialogs,
    PhoneTabs,
    live,
    seat_game,
)
from tests.helpers import wait_for  # noqa: E402

pytest_plugins = ["tests.browser"]

FAMILY = ["Zoé", "Raphaël", "Maëlle", "Jérôme"]
SIZES = ({"width": 320, "height": 640}, {"width": 390, "height": 844})
# Every message the phone shows, as it shows it.
WATCH_TOASTS = """() => {
  window.__toasts = [];
  const box = document.getElementById('toast');
  new MutationObserver(() => {
    const text = box.querySelector('.toast-text');
    if (!box.hidden && text) window.__toasts.push(text.textContent);
  }).observe(box, {childList: true, attributes: true, subtree: true});
}"""
# Two taps on one button, ``gap`` ms apart, as a thumb makes them (the page's own timer).
DOUBLE_TAP = """([selector, gap]) => {
  const button = document.querySelector(selector);
  button.click();
  setTimeout(() => button.click(), gap);
}"""


@pytest.fixture
def family_phones(
    phone_tabs: PhoneTabs, daemon: Daemon, dialogs: Dialogs
) -> Iterator[tuple[Page, Page]]:
    """Two phones, at 320 x 640 and 390 x 844; page errors fail the test."""
    errors: list[str] = []
    pages = [phone_tabs.open(daemon.url or "", "light", dialogs, errors) for _ in SIZES]
    try:
        for page, size in zip(pages, SIZES, strict=True):
            page.set_viewport_size(size)  # type: ignore[arg-type]
            live(page)
            page.evaluate(WATCH_TOASTS)
        yield pages[0], pages[1]
        assert not errors, errors
    finally:
        for page in pages:
            phone_tabs.give_back(page)


def table(api: Api) -> dict[str, Any]:
    return dict(api.state()["table"])


def count(api: Api, event: str) -> int:
    return sum(1 for line in table(api)["log"] if line["event"] == event)


def toasted(page: Page, text: str) -> bool:
    return any(text in shown for shown in page.evaluate("window.__toasts"))


def next_of(player: str) -> str:
    return FAMILY[(FAMILY.index(player) + 1) % len(FAMILY)]


@pytest.mark.parametrize("gap", [90, 280])
def test_a_double_tap_on_hit_is_one_press(
    family_phones: tuple[Page, Page], api: Api, gap: int
) -> None:
    seat_game(api, FAMILY, name="Famille", target=500)
    phone = family_phones[0]
    before = table(api)
    presser = before["active"]
    assert not before["owed"]
    expect(phone.locator("#active")).to_have_text(presser)
    phone.evaluate(DOUBLE_TAP, ["#hit", gap])
    wait_for(lambda: toasted(phone, f"Déjà fait pour {presser}"), PAGE_TIMEOUT, "already done")
    after = table(api)
    assert count(api, "press") == 1
    assert after["active"] == next_of(presser)  # the turn passed once
    assert after["presses_since_fire"] <= before["presses_since_fire"] + 1
    assert after["log"][-1]["player"] == presser
    expect(phone.locator("#active")).to_have_text(next_of(presser))


def test_two_phones_entering_the_same_card_make_one_card(
    family_phones: tuple[Page, Page], api: Api
) -> None:
    seat_game(api, FAMILY, name="Famille", target=500)
    player = table(api)["active"]
    first, second = family_phones
    for phone in family_phones:
        expect(phone.locator("#active")).to_have_text(player)
        phone.click("#colour-row .colour.red")
    # Both thumbs on the 5 at once: the first phone's card is still on its way (held here)
    # when the second phone's reaches the box.
    on_the_way: list[Route] = []
    first.route("**/api/actions/table.play", lambda route: on_the_way.append(route), times=1)
    first.click('#digits [data-value="5"]')
    wait_for(lambda: on_the_way or first.wait_for_timeout(20), PAGE_TIMEOUT, "the first card")
    second.click('#digits [data-value="5"]')
    wait_for(lambda: count(api, "play") == 1, PAGE_TIMEOUT, "the second phone's card")
    on_the_way[0].continue_()
    wait_for(
        lambda: toasted(first, f"Déjà fait pour {player}") or first.wait_for_timeout(20),
        PAGE_TIMEOUT,
        "the first phone told it was already done",
    )
    assert count(api, "play") == 1
    now = table(api)
    assert now["active"] == next_of(player)  # the next player's turn is whole
    assert now["log"][-1]["player"] == player
    for phone in family_phones:
        expect(phone.locator("#active")).to_have_text(next_of(player))
    assert not toasted(second, "Déjà fait")


THREE_A_PRESS = Config(
    web=WebConfig(streams_per_client=STREAMS_OF_ONE_ADDRESS),
    launcher=LauncherConfig(profile="fixed", fixed_cards=3),
)


def hand(api: Api, player: str) -> int:
    return next(int(p["hand"]) for p in table(api)["players"] if p["name"] == player)


@pytest.mark.parametrize("daemon_config", [THREE_A_PRESS])
def test_one_undo_takes_back_a_firing_with_its_counted_cards_and_one_redo_brings_both(
    family_phones: tuple[Page, Page], api: Api, daemon_config: Config
) -> None:
    """Raphaël, down to one card, presses: 3 cards fly and the beam counts them. One Défaire
    takes back the press and its cards, one Refaire brings both back; when Maëlle lays her last
    card the prompt names her, and Raphaël still holds his 4 cards."""
    seat_game(api, FAMILY, name="Famille", target=500)  # Zoé deals: Raphaël plays first
    api.act("table.set_hand", player="Raphaël", cards=1)
    api.act("table.set_hand", player="Maëlle", cards=1)
    phone = family_phones[0]
    expect(phone.locator("#active")).to_have_text("Raphaël")
    events = table(api)["events"]
    phone.click("#hit")
    # The press, then the beam's count once the cards are out (the launcher in real time).
    wait_for(lambda: table(api)["events"] >= events + 2, ANSWER_TIMEOUT, "the beam's count")
    assert api.state()["device"]["cards_seen"] == 3
    assert [(line["event"], line["fired"]) for line in table(api)["log"][-1:]] == [("press", 3)]
    assert hand(api, "Raphaël") == 4
    undo, redo = phone.locator("#table-undo"), phone.locator("#table-redo")
    for button in (undo, redo):  # side by side, in sight without scrolling at 320 x 640
        expect(button).to_be_in_viewport()
    undo.click()
    expect(phone.locator("#active")).to_have_text("Raphaël")
    assert "press" not in [line["event"] for line in table(api)["log"]]
    assert hand(api, "Raphaël") == 1
    expect(redo).to_be_enabled()
    redo.click()
    expect(phone.locator("#active")).to_have_text("Maëlle")
    assert [(line["event"], line["fired"]) for line in table(api)["log"][-1:]] == [("press", 3)]
    assert hand(api, "Raphaël") == 4
    phone.click("#colour-row .colour.red")
    phone.click('#digits [data-value="5"]')  # Maëlle's last card
    expect(phone.locator("#end-round")).to_have_attribute("data-player", "Maëlle")
    assert table(api)["round_may_be_over"] == "Maëlle" and hand(api, "Raphaël") == 4
