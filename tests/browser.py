"""The phone page's browser tests share these: the real daemon in simulation, its HTTP API as a
phone uses it, Debian's Chromium through Playwright and two phones on the page.

The daemon runs in simulation (gpiozero mock pins, the real hub, engine, score keeper, SQLite
storage, voice with a silent player, waitress). Each test gets its own daemon and freshly loaded
phones, so the tests run in any order. The browser and its phone tabs are kept for the session
(a new tab costs Chromium a renderer process): between tests a tab's page storage is cleared and
it goes back to a blank page with no cookies, routes or permissions, at its phone size and in
light colours, and each test's daemon is another origin (its own port), so nothing of one test's
page reaches the next. Screenshots go to
``tests/artifacts/`` (git-ignored).

Chromium: Debian's headless shell, ``/usr/bin/chromium-headless-shell`` (package
chromium-headless-shell, ``make system-deps``; why in ``tests/helpers.py``), with the flags the
machine notes ask for; Playwright starts it with a new empty profile directory of its own.
"""

from __future__ import annotations

import json
import os
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from companion.config import Config, WebConfig
from companion.daemon import Daemon, DaemonOptions
from tests.doubles import ECHO_ENGINE, RecordingPlayer
from tests.helpers import CHROMIUM, CHROMIUM_FLAGS, PHONE, wait_for

ARTIFACTS = Path(__file__).parent / "artifacts"
SCREENSHOTS_WANTED = "UNO_SCREENSHOTS"  # environment variable: "1" saves screenshots for review
FOUR = ["Alice", "Bruno", "Zoé", "Chloé"]
# Guards, not goals: how long a test waits for the box's answer (an import starts a process of
# its own) or for the page to show a change, before it fails. A loaded machine takes its time.
ANSWER_TIMEOUT = 30.0  # seconds
PAGE_TIMEOUT = 15.0  # seconds
# The page takes a second tap of the same button this soon after the first for one gesture (a
# double tap, made on what the first was made on): a test's next deliberate tap comes later.
DOUBLE_TAP_MS = 500


class Api:
    """The box's HTTP API as a phone uses it: one session (cookie), its CSRF token."""

    def __init__(self, url: str) -> None:
        self.url = url
        with urllib.request.urlopen(f"{url}api/session", timeout=ANSWER_TIMEOUT) as response:
            self.token = json.load(response)["csrf"]
            self.cookie = response.getheader("Set-Cookie", "").split(";")[0]

    def state(self) -> dict[str, Any]:
        with urllib.request.urlopen(f"{self.url}api/state", timeout=ANSWER_TIMEOUT) as response:
            return dict(json.load(response))

    def request(
        self, path: str, body: Any, headers: dict[str, str] | None = None
    ) -> urllib.request.Request:
        """A JSON POST to ``path`` in this session."""
        return urllib.request.Request(
            f"{self.url}{path}",
            data=json.dumps(body).encode(),
            headers={
                "Content-Type": "application/json",
                "Cookie": self.cookie,
                "X-CSRF-Token": self.token,
                **(headers or {}),
            },
        )

    def act(self, action: str, /, **payload: Any) -> dict[str, Any]:
        request = self.request(f"api/actions/{action}", {"payload": payload})
        with urllib.request.urlopen(request, timeout=ANSWER_TIMEOUT) as response:
            return dict(json.load(response))


STREAMS_OF_ONE_ADDRESS = 12
# The phones of a French family: the page follows the browser's language until one chooses.
FRENCH_PHONE = "fr-FR"


@pytest.fixture
def daemon_config() -> Config:
    """The daemon's configuration (a test may parametrize it, e.g. with a PIN). Every phone of
    a test comes from 127.0.0.1, where at a table each has its own address: the live streams
    one address may hold are those of a table's phones (a page reloaded holds its old stream
    for a moment too)."""
    return Config(web=WebConfig(streams_per_client=STREAMS_OF_ONE_ADDRESS))


class Dialogs:
    """The browser dialogs (confirm, prompt) the phones showed, and the answer they get."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.accept = True
        self.reply: str | None = None  # what a prompt is answered (None: its default)
        self.answers: list[bool] = []  # the next dialogs' answers, in turn, before `accept`

    def answer(self, dialog: Any) -> None:
        self.seen.append(dialog.message)
        accept = self.answers.pop(0) if self.answers else self.accept
        if accept and self.reply is not None:
            dialog.accept(self.reply)
        elif accept:
            dialog.accept()
        else:
            dialog.dismiss()


@pytest.fixture
def dialogs() -> Dialogs:
    return Dialogs()


@pytest.fixture
def voice_player() -> Any:
    """What plays the box's sounds (a test may parametrize it, e.g. with a missing card)."""
    return RecordingPlayer()


def page_daemon_options(state_dir: Path, **overrides: Any) -> DaemonOptions:
    """A simulated daemon serving its page on a free local port, its voice echoed."""
    values: dict[str, Any] = {
        "simulate": True,
        "seed": 3,
        "host": "127.0.0.1",
        "port": 0,
        "voice_player": RecordingPlayer(),
        "engine_factory": ECHO_ENGINE,
    }
    return DaemonOptions(state_dir=state_dir, **{**values, **overrides})


@pytest.fixture
def daemon(tmp_path: Path, daemon_config: Config, voice_player: Any) -> Iterator[Daemon]:
    options = page_daemon_options(tmp_path / "state", voice_player=voice_player)
    running = Daemon(daemon_config, options).start()
    yield running
    running.stop()


@pytest.fixture
def api(daemon: Daemon) -> Api:
    return Api(daemon.url or "")


def seat_four(api: Api, target: int = 300) -> Api:
    """Alice, Bruno, Zoé, Chloé seated, Zoé deals, an Extrême game to ``target``."""
    return seat_game(api, FOUR, name="Soirée", target=target)


def seat_game(api: Api, players: list[str], *, name: str, target: int) -> Api:
    """``players`` seated, Zoé deals, an Extrême game named ``name`` to ``target``."""
    api.act("table.setup", players=players, dealer="Zoé")
    api.act(
        "score.new_game",
        name=name,
        players=players,
        first_dealer="Zoé",
        ruleset="extreme",
        target=target,
    )
    return api


def chloe_wins_a_round(api: Api) -> None:
    """Round 1 in the score sheet: Chloé went out; Alice kept 10 points, Bruno 20, Zoé 30."""
    api.act(
        "score.record_round",
        hands={"Alice": {"points": 10}, "Bruno": {"points": 20}, "Zoé": {"points": 30}},
        winner="Chloé",
    )


@pytest.fixture
def four_players(api: Api) -> Api:
    return seat_four(api)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    ARTIFACTS.mkdir(exist_ok=True)
    expect.set_options(timeout=PAGE_TIMEOUT * 1000)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS
        )
        yield chromium
        chromium.close()


class PhoneTabs:
    """Phone-sized tabs kept for the test session, each in a browser context of its own."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.idle: list[Page] = []
        self.listeners: dict[Page, list[tuple[str, Any]]] = {}

    def open(self, url: str, scheme: str, dialogs: Dialogs, errors: list[str]) -> Page:
        """A tab with the page at ``url`` loading (``live()`` waits); its errors go to ``errors``
        and its dialogs to ``dialogs``."""
        if self.idle:
            page = self.idle.pop()
            page.set_viewport_size(PHONE)
        else:
            context = self.browser.new_context(
                viewport=PHONE,
                device_scale_factor=1,
                is_mobile=True,
                has_touch=True,
                locale=FRENCH_PHONE,
            )
            page = context.new_page()
        page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]

        def on_error(exc: Any) -> None:
            errors.append(str(exc))

        self.listeners[page] = [("pageerror", on_error), ("dialog", dialogs.answer)]
        for event, listener in self.listeners[page]:
            page.on(event, listener)  # type: ignore[call-overload]
        page.goto(url, wait_until="commit")  # the phones load side by side; live() waits
        return page

    def give_back(self, page: Page) -> None:
        """Blank, without cookies, routes or permissions, for the next test; a tab that cannot
        be reset is closed."""
        for event, listener in self.listeners.pop(page):
            page.remove_listener(event, listener)
        try:
            page.unroute_all()
            if page.url.startswith("http"):
                page.evaluate("localStorage.clear(); sessionStorage.clear()")
            page.goto("about:blank")  # closes the page's event stream before its daemon stops
            page.context.unroute_all()
            page.context.clear_cookies()
            page.context.clear_permissions()
            page.context.set_offline(False)
        except Exception:
            page.context.close()
            raise
        self.idle.append(page)


@pytest.fixture(scope="session")
def phone_tabs(browser: Browser) -> PhoneTabs:
    return PhoneTabs(browser)


def until_in_page(page: Page, expression: str, timeout: float = PAGE_TIMEOUT) -> None:
    """Wait until ``expression`` (which may give a promise) is true in the page. Playwright's
    ``wait_for_function`` evaluates a string with ``new Function`` while it polls, which the
    page's own policy (script-src 'self', no eval) forbids; ``evaluate`` goes through DevTools."""
    wait_for(lambda: bool(page.evaluate(expression)), timeout, f"the page: {expression}")


def live(page: Page) -> Page:
    expect(page.locator("#live")).to_have_class("live on", timeout=10_000)
    return page


@pytest.fixture
def phone(phone_tabs: PhoneTabs, daemon: Daemon, dialogs: Dialogs) -> Iterator[Page]:
    """One phone on the page (light); page errors fail the test."""
    errors: list[str] = []
    page = phone_tabs.open(daemon.url or "", "light", dialogs, errors)
    try:
        yield live(page)
        assert not errors, errors
    finally:
        phone_tabs.give_back(page)


@pytest.fixture
def phones(phone_tabs: PhoneTabs, daemon: Daemon, dialogs: Dialogs) -> Iterator[tuple[Page, Page]]:
    """Two phones on the page, one dark and one light; page errors fail the test."""
    errors: list[str] = []
    pages = [phone_tabs.open(daemon.url or "", s, dialogs, errors) for s in ("dark", "light")]
    try:
        for page in pages:
            live(page)
        # A mark that a reload would wipe: the second phone must follow without reloading.
        pages[1].evaluate("window.__noReload = 42")
        yield pages[0], pages[1]
        assert not errors, errors
        assert pages[1].evaluate("window.__noReload") == 42
    finally:
        for page in pages:
            phone_tabs.give_back(page)


def tab(page: Page, name: str) -> None:
    page.click(f"#tab-{name}")
    expect(page.locator(f"#screen-{name}")).to_be_visible()


def both_on(phones: tuple[Page, Page], name: str) -> tuple[Page, Page]:
    """The two phones, each on screen ``name``."""
    for phone in phones:
        tab(phone, name)
    return phones


def screenshots_wanted() -> bool:
    return os.environ.get(SCREENSHOTS_WANTED) == "1"


def screenshot_schemes() -> tuple[str, ...]:
    """The colour schemes to photograph a screen in: both when screenshots are wanted, else
    none (switching schemes only to take no picture would cost a repaint each)."""
    return ("light", "dark") if screenshots_wanted() else ()


def shot(page: Page, name: str, *, full_page: bool = True) -> None:
    """Save ``tests/artifacts/<name>.png`` when screenshots are wanted (see the module doc)."""
    if screenshots_wanted():
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)


def axe_check(page: Page) -> list[dict[str, Any]]:
    """axe-core run in the page: the serious and critical accessibility violations."""
    import axe_playwright_python

    script = Path(axe_playwright_python.__file__).with_name("axe.min.js")
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # Evaluated through DevTools: the page's CSP (script-src 'self') stays as it is.
        page.evaluate(script.read_text(encoding="utf-8") + "\n;true")
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:3]}
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]
