"""A camera round on four phones (Debian's Chromium through Playwright, the real daemon in
simulation with the real camera service, fed by a camera double that hands it the reads): the
card asked shows the table deck's faces only (a card whose colour its player names, with its
colour), and a Coup Extrême named on one phone becomes its target's question on every phone and
on the table's display at once, without a reload."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from companion.config import Config
from companion.daemon import Daemon
from tests.helpers import wait_for

pytest.register_assert_rewrite("tests.browser")
from tests.browser import (  # noqa: E402
    Api,
    Dialogs,
    PhoneTabs,
    live,
    page_daemon_options,
    seat_four,
)
from tests.test_camera_service import FakeCamera, FakeSighting  # noqa: E402

pytest_plugins = ["tests.browser"]  # the browser, phone tabs and dialogs fixtures

TARGET_TITLE = "Qui vise le Coup Extrême\u00a0?"
COLOURS = ("rouge", "jaune", "vert", "bleu")


def test_a_coup_extreme_read_asks_its_target_on_every_phone_at_once(
    phone_tabs: PhoneTabs,
    dialogs: Dialogs,
    daemon_config: Config,
    voice_player: Any,
    tmp_path: Path,
) -> None:
    camera = FakeCamera()
    options = page_daemon_options(tmp_path / "state", voice_player=voice_player, camera=camera)
    daemon = Daemon(daemon_config, options).start()
    errors: list[str] = []
    pages: list[Page] = []
    try:
        seat_four(Api(daemon.url or ""))
        for scheme in ("light", "dark", "light", "dark"):
            pages.append(phone_tabs.open(daemon.url or "", scheme, dialogs, errors))
        for page in pages:
            live(page)
            page.evaluate("window.__noReload = 42")  # a reload would wipe it
        pages[3].click("#open-display")
        played = daemon.hub.state()["table"]["events"]
        # Read unsure: the camera also found a Super Joker +4, a 0 and a +2 likely, none of
        # them in the Extrême deck on the table.
        candidates = (
            ("coup_extreme", "", 0.55),
            ("draw4", "", 0.2),
            ("wild", "", 0.1),
            ("0", "red", 0.05),
            ("draw2", "blue", 0.04),
        )
        camera.show()
        camera.show(FakeSighting("coup_extreme", "", 0.55, False, candidates))
        questions = [page.locator("#cam-question") for page in pages[:3]]
        questions.append(pages[3].locator("#display-cam-question"))  # the table's display
        for question in questions:
            expect(question.locator(".cam-title")).to_have_text("Quelle carte\u00a0?")
            # The cards whose colour is named are offered with it: one each colour, asked once.
            expect(question.locator(".cam-card")).to_have_count(8)
            expect(question.locator('.cam-card[data-kind="coup_extreme"]')).to_have_text(
                [f"Coup Extrême {colour}" for colour in COLOURS]
            )
            expect(question.locator('.cam-card[data-kind="wild"]')).to_have_count(4)
        # The card pad holds the table's deck only: 1 to 9, its own cards, no +2, +4 or 0.
        first = questions[0]
        first.locator(".cam-other-card").click()
        pad = first.locator(".cam-pad")
        expect(pad.locator("[data-value]")).to_have_count(9)
        expect(pad.locator('[data-value="0"]')).to_have_count(0)
        expect(pad.locator('[data-card="hit2"]')).to_have_count(1)
        expect(pad.locator('[data-card="coup_extreme"]')).to_have_count(1)
        for kind in ("draw2", "draw4"):
            expect(pad.locator(f'[data-card="{kind}"]')).to_have_count(0)
        # One phone names the card: every phone asks its target at once (the turret sweeps).
        questions[1].locator('.cam-card[data-kind="coup_extreme"][data-colour="blue"]').click()
        for question in questions:
            expect(question.locator(".cam-title")).to_have_text(TARGET_TITLE)
            expect(question.locator(".cam-target [data-target]")).to_have_count(3)
        assert daemon.hub.state()["table"]["events"] == played  # nothing played yet
        target = questions[2].locator(".cam-target [data-target]").first
        name = target.get_attribute("data-target")
        target.click()
        for question in questions:
            expect(question).to_be_hidden()
        assert wait_for(lambda: daemon.hub.state()["table"]["events"] == played + 1)
        last = daemon.hub.state()["table"]["last_event"]
        assert last["card"] == {"kind": "coup_extreme", "colour": "blue"}
        assert last["payload"]["target"] == name
        assert all(page.evaluate("window.__noReload") == 42 for page in pages)
        assert not errors, errors
    finally:
        for page in pages:
            phone_tabs.give_back(page)
        camera.unplugged_for_good = True
        daemon.stop()
