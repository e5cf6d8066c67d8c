"""The phone page in Debian's Chromium, driven by Playwright, against the real daemon.

The daemon runs in simulation (gpiozero mock pins, the real hub, engine, score keeper, SQLite
storage, voice with a silent player, waitress). Two phones (browser contexts) at 390x844: one
acts, the other must follow live without reloading. Each test has its own daemon and phones (the
browser is shared), so the tests run in any order. A screenshot of each screen goes to
``tests/artifacts/`` (git-ignored).

Chromium: ``/usr/bin/chromium`` (Debian package, ``make system-deps``), headless, with the flags
the machine notes ask for; Playwright starts it with a new empty profile directory of its own.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from companion.config import Config
from companion.daemon import Daemon, DaemonOptions
from companion.speech.engine import Synthesis
from tests.helpers import CHROMIUM, CHROMIUM_FLAGS, PHONE

ARTIFACTS = Path(__file__).parent / "artifacts"
FOUR = ["Alice", "Bruno", "Zoé", "Chloé"]


class EchoEngine:
    """A speech engine that returns the text instead of a WAV (no sound card in CI)."""

    def synthesise(self, text: str, voice: str, rate: int, volume: float, path: str) -> Synthesis:
        return Synthesis(f"{voice}|{text}".encode(), "")


def echo_engine() -> EchoEngine:
    return EchoEngine()


class SilentPlayer:
    def __init__(self) -> None:
        self.played = 0

    def play(self, wav: bytes) -> None:
        self.played += 1


class Api:
    """The box's HTTP API as a phone uses it: one session (cookie), its CSRF token."""

    def __init__(self, url: str) -> None:
        self.url = url
        with urllib.request.urlopen(f"{url}api/session", timeout=5) as response:
            self.token = json.load(response)["csrf"]
            self.cookie = response.getheader("Set-Cookie", "").split(";")[0]

    def state(self) -> dict[str, Any]:
        with urllib.request.urlopen(f"{self.url}api/state", timeout=5) as response:
            return dict(json.load(response))

    def act(self, action: str, /, **payload: Any) -> dict[str, Any]:
        request = urllib.request.Request(
            f"{self.url}api/actions/{action}",
            data=json.dumps({"payload": payload}).encode(),
            headers={
                "Content-Type": "application/json",
                "Cookie": self.cookie,
                "X-CSRF-Token": self.token,
            },
        )
        with urllib.request.urlopen(request, timeout=5) as response:
            return dict(json.load(response))


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[Daemon]:
    options = DaemonOptions(
        simulate=True,
        state_dir=tmp_path / "state",
        seed=3,
        host="127.0.0.1",
        port=0,
        voice_player=SilentPlayer(),
        engine_factory=f"{__name__}:echo_engine",
    )
    running = Daemon(Config(), options).start()
    yield running
    running.stop()


@pytest.fixture
def api(daemon: Daemon) -> Api:
    return Api(daemon.url or "")


@pytest.fixture
def four_players(api: Api) -> Api:
    """Alice, Bruno, Zoé, Chloé seated, Zoé deals, an Extrême game to 300."""
    api.act("table.setup", players=FOUR, dealer="Zoé")
    api.act(
        "score.new_game",
        name="Soirée",
        players=FOUR,
        first_dealer="Zoé",
        ruleset="extreme",
        target=300,
    )
    return api


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS
        )
        yield chromium
        chromium.close()


@pytest.fixture
def phones(browser: Browser, daemon: Daemon) -> Iterator[tuple[Page, Page]]:
    """Two phones on the page, one dark and one light; page errors fail the test."""
    pages = []
    errors: list[str] = []
    for scheme in ("dark", "light"):
        context = browser.new_context(
            viewport=PHONE,
            color_scheme=scheme,
            device_scale_factor=1,
            is_mobile=True,
            has_touch=True,
        )
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(daemon.url or "")
        expect(page.locator("#live")).to_have_class("live on", timeout=10_000)
        pages.append(page)
    # A mark that a reload would wipe: the second phone must follow without reloading.
    pages[1].evaluate("window.__noReload = 42")
    yield pages[0], pages[1]
    try:
        assert not errors, errors
        assert pages[1].evaluate("window.__noReload") == 42
    finally:
        for page in pages:
            page.context.close()


def tab(page: Page, name: str) -> None:
    page.click(f"#tab-{name}")
    expect(page.locator(f"#screen-{name}")).to_be_visible()


def shot(page: Page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_set_up_a_four_player_table(phones: tuple[Page, Page], api: Api) -> None:
    page, _ = phones
    tab(page, "setup")
    seats = page.locator("#seat-list li")
    expect(seats).to_have_count(4)
    page.click('[aria-label="Retirer David"]')
    page.fill("#new-player", "Zoé")
    page.click("#add-player")
    expect(seats).to_have_count(4)
    # Drag Zoé (last seat) up one place with the handle, as a thumb would.
    handle = page.locator("#seat-list li").nth(3).locator(".handle").bounding_box()
    assert handle is not None
    x, y = handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2
    height = page.locator("#seat-list li").nth(3).bounding_box()["height"]  # type: ignore[index]
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y - height / 2, steps=4)
    page.mouse.move(x, y - height, steps=4)
    page.mouse.up()
    expect(seats.locator(".name")).to_have_text(["Alice", "Bruno", "Zoé", "Chloé"])
    page.select_option("#dealer", "Zoé")
    page.select_option("#ruleset", "extreme")
    page.fill("#target", "300")
    page.dispatch_event("#target", "change")
    shot(page, "setup")
    page.click("#apply-setup")
    expect(page.locator("#toast")).to_have_text("La table est prête.")
    state = api.state()
    assert [p["name"] for p in state["table"]["players"]] == ["Alice", "Bruno", "Zoé", "Chloé"]
    assert state["table"]["dealer"] == "Zoé"
    game = state["score"]["game"]
    assert game["players"] == ["Alice", "Bruno", "Zoé", "Chloé"]
    assert (game["ruleset"]["key"], game["target"]) == ("extreme", 300)


def test_play_a_turn_sequence_with_coup_extreme(
    phones: tuple[Page, Page], four_players: Api
) -> None:
    api = four_players
    page, other = phones
    tab(page, "table")
    tab(other, "table")
    first = api.state()["table"]["active"]  # after Zoé deals: Chloé, on her left
    assert first == "Chloé"
    expect(page.locator("#active")).to_have_text("Chloé")
    page.click('#colour-row [data-colour="green"]')
    page.click('#digits [data-value="7"]')
    expect(page.locator("#active")).to_have_text("Alice")
    page.click('#cards [data-card="reverse"]')  # back towards Chloé
    expect(page.locator("#active")).to_have_text("Chloé")
    expect(page.locator("#direction")).to_contain_text("droite")
    page.click('#cards [data-card="coup_extreme"]')
    expect(page.locator("#target-picker")).to_be_visible()
    page.click('#targets [data-target="Bruno"]')
    owed = page.locator("#owed li")
    expect(owed).to_have_count(2)
    expect(owed.first).to_contain_text("Bruno")
    expect(owed.nth(1)).to_contain_text("Chloé")
    expect(other.locator("#owed li")).to_have_count(2)  # the other phone, live
    expect(other.locator("#active")).to_have_text(page.locator("#active").inner_text())
    shot(page, "table-coup-extreme")

    # The big HIT button: in simulation a real edge on the mock pin, through the debounce.
    fired_before = api.state()["table"]["magazine"]
    for _ in range(15):
        revision = api.state()["revision"]
        page.click("#hit")
        page.wait_for_function(
            f"fetch('/api/state').then(r => r.json()).then(s => s.revision > {revision})",
            timeout=5000,
        )
        if page.locator("#fired-banner").is_visible():
            break
    expect(page.locator("#fired-banner")).to_be_visible()
    expect(page.locator("#fired-banner")).to_contain_text("cartes pour")
    state = api.state()
    assert state["table"]["magazine"] < fired_before
    # The mock ejector runs after the turret has turned (its own thread): wait for it.
    page.wait_for_function(
        "fetch('/api/state').then(r => r.json()).then(s => s.device.cards_fired > 0)",
        timeout=10_000,
    )
    expect(other.locator("#magazine")).to_have_text(f"{state['table']['magazine']} cartes")
    shot(page, "table-fired")
    shot(other, "table-second-phone")


def test_enter_a_round_by_card_counts_edit_it_and_see_the_chart(
    phones: tuple[Page, Page], four_players: Api
) -> None:
    api = four_players
    page, other = phones
    tab(page, "score")
    tab(other, "score")
    expect(page.locator("#game")).to_be_visible()
    expect(page.locator("#kind-pad [data-kind]")).not_to_have_count(0)
    # Alice: two 5s and an Appuyer 2x = 30
    page.click('#entry-players [data-entry="Alice"]')
    page.click('#kind-pad [data-kind="n5"]')
    page.click('#kind-pad [data-kind="n5"]')
    page.click('#kind-pad [data-kind="hit2"]')
    expect(page.locator('#entry-players [data-entry="Alice"]')).to_have_text("Alice · 30")
    # Bruno: a Coup Extrême = 50
    page.click('#entry-players [data-entry="Bruno"]')
    page.click('#kind-pad [data-kind="coup_extreme"]')
    # Zoé: raw points
    page.click('#entry-players [data-entry="Zoé"]')
    page.check("#raw-points")
    page.fill("#points-input", "12")
    page.select_option("#winner", "Chloé")
    page.click("#save-round")
    expect(page.locator("#toast")).to_have_text("Enregistré.")
    standings = page.locator("#standings li")
    expect(standings.first).to_contain_text("Chloé")
    expect(standings.first).to_contain_text("92")
    expect(other.locator("#standings li").first).to_contain_text("92")  # live on the other phone

    # Edit round 1: Alice's hand had one 5 fewer.
    page.click('#history [data-edit="1"]')
    expect(page.locator("#entry-title")).to_have_text("Modifier la manche 1")
    page.click('#entry-players [data-entry="Alice"]')
    page.check("#minus-mode")
    page.click('#kind-pad [data-kind="n5"]')
    page.uncheck("#minus-mode")
    expect(page.locator('#entry-players [data-entry="Alice"]')).to_have_text("Alice · 25")
    page.click("#save-round")
    expect(standings.first).to_contain_text("87")
    expect(other.locator("#standings li").first).to_contain_text("87")
    history = api.state()["score"]["history"]
    assert len(history) == 1 and history[0]["credited"] == {
        "Alice": 0,
        "Bruno": 0,
        "Chloé": 87,
        "Zoé": 0,
    }
    assert history[0]["edits"] == [1, 2]  # recorded, then corrected: both kept in the log

    # The chart: a server-side SVG with one line per player, and it loaded in the page.
    page.wait_for_function(
        "document.getElementById('chart').complete && "
        "document.getElementById('chart').naturalWidth > 0"
    )
    with urllib.request.urlopen(f"{api.url}api/chart.svg", timeout=5) as response:
        svg = response.read().decode()
    assert svg.count("<polyline") == 4 and "Chloé 87" in svg
    expect(page.locator("#stats")).to_contain_text("Chloé")
    page.locator("#chart").scroll_into_view_if_needed()
    shot(page, "score")
    shot(other, "score-second-phone")


def test_device_screen_calibrates_and_test_fires(
    phones: tuple[Page, Page], four_players: Api
) -> None:
    api = four_players
    page, _ = phones
    tab(page, "device")
    expect(page.locator("#sim-seats circle")).to_have_count(4)
    expect(page.locator("#qr")).to_have_js_property("complete", True)
    assert page.evaluate("document.getElementById('qr').naturalWidth") > 0
    expect(page.locator("#urls")).to_contain_text(api.url)
    before = api.state()["device"]["cards_fired"]
    page.click("#test-fire")
    page.wait_for_function(
        f"fetch('/api/state').then(r => r.json()).then(s => s.device.cards_fired > {before})",
        timeout=5000,
    )
    slider = page.locator("#calibration li").nth(1).locator("input[type=range]")
    slider.fill("-30")
    page.click('#calibration [data-calibrate="1"]')
    expect(page.locator("#toast")).to_be_hidden()
    shot(page, "device")


def test_language_switch_reaches_every_phone(phones: tuple[Page, Page], api: Api) -> None:
    page, other = phones
    tab(page, "setup")
    page.select_option("#language", "en")
    expect(page.locator("#tab-table")).to_have_text("Table")
    expect(other.locator("#tab-setup")).to_have_text("Set up")  # switched live
    expect(other.locator("html")).to_have_attribute("lang", "en")
    assert api.state()["settings"]["language"] == "en"
    tab(other, "table")
    shot(other, "table-english")
