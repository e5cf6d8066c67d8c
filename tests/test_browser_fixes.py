"""Defects found by playing an evening at phone size, each seen in Debian's Chromium: a stale
round correction, a mid-round redeal, the box out of reach, the CSV sheet in a French
spreadsheet, the PIN lock-out, a missing sound card, the chart in the dark. Fixtures:
``tests/browser.py``."""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from companion.config import Config, WebConfig
from companion.speech import PlayerError

pytest.register_assert_rewrite("tests.browser")
from tests.browser import (  # noqa: E402
    ANSWER_TIMEOUT,
    DOUBLE_TAP_MS,
    FRENCH_PHONE,
    PHONE,
    Api,
    Dialogs,
    chloe_wins_a_round,
    seat_four,
    tab,
    until_in_page,
)

pytest_plugins = ["tests.browser"]


def hands(api: Api, number: int) -> dict[str, int]:
    entry = api.state()["score"]["history"][number - 1]
    return {h["player"]: h["points"] for h in entry["hands"]}


def test_a_stale_correction_reloads_the_round_instead_of_overwriting(
    phones: tuple[Page, Page], api: Api
) -> None:
    seat_four(api)
    chloe_wins_a_round(api)
    page, other = phones
    for phone in (page, other):
        tab(phone, "score")
        phone.click('#history [data-edit="1"]')
    # This phone starts correcting Alice; meanwhile the other phone corrects Bruno and saves.
    page.click('#entry-players [data-entry="Alice"]')
    page.fill("#points-input", "99")
    other.click('#entry-players [data-entry="Bruno"]')
    other.fill("#points-input", "50")
    other.click("#save-round")
    expect(other.locator("#toast")).to_have_text("Enregistré.")
    page.click("#save-round")
    # Refused as stale: the form now shows the round as the other phone left it, and says so.
    expect(page.locator("#toast")).to_contain_text("Un autre téléphone a modifié la manche 1")
    expect(page.locator('#entry-players [data-entry="Bruno"]')).to_have_text("Bruno · 50")
    expect(page.locator('#entry-players [data-entry="Alice"]')).to_have_text("Alice · 10")
    # Saving again keeps the other phone's correction.
    page.click("#save-round")
    expect(page.locator("#toast")).to_have_text("Enregistré.")
    assert hands(api, 1) == {"Alice": 10, "Bruno": 50, "Zoé": 30, "Chloé": 0}


def test_a_redeal_asks_first_and_an_unreachable_box_is_said_in_the_page_language(
    phone: Page, api: Api, dialogs: Dialogs
) -> None:
    seat_four(api)
    page = phone
    page.click('#digits [data-value="5"]')
    expect(page.locator("#actor-name")).to_have_text("Alice")
    events = api.state()["table"]["events"]
    dialogs.accept = False
    page.click("#start-round")
    expect(page.locator("#actor-name")).to_have_text("Alice")
    assert dialogs.seen == ["La manche n'est pas finie : la redonner ?"]
    assert api.state()["table"]["events"] == events  # not dealt again
    dialogs.accept = True
    page.click("#start-round")
    expect(page.locator("#actor-name")).to_have_text("Chloé")  # dealt again by Zoé
    # The box out of reach: said in French, not as the browser's "Failed to fetch".
    page.route("**/api/actions/**", lambda route: route.abort("connectionrefused"))
    page.click('#digits [data-value="5"]')
    expect(page.locator("#toast")).to_have_text("La boîte ne répond pas.")


def test_the_score_sheet_opens_in_a_french_spreadsheet_and_comes_back(
    phone: Page, api: Api
) -> None:
    seat_four(api)
    api.act(
        "score.record_round",
        hands={"Alice": {"points": 10}, "Bruno": {"points": 20}, "Chloé": {"points": 30}},
        winner="Zoé",
    )
    page = phone
    tab(page, "score")
    # The page is in French: so is the sheet, whatever the browser's own language.
    expect(page.locator("#export")).to_have_attribute("href", "/api/export.csv?lang=fr")
    with page.expect_download() as download:
        page.click("#export")
    data = Path(download.value.path()).read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")  # the byte-order mark: "Chloé", not "ChloÃ©"
    # What a French spreadsheet opens in columns: French headers, ';' between columns.
    sheet = data.decode("utf-8-sig")
    assert sheet.splitlines()[2].startswith("manche;donneur;gagnant;côté;Alice;Bruno;Zoé;Chloé;")
    page.set_input_files(
        "#import-file",
        files=[{"name": "feuille.csv", "mimeType": "text/csv", "buffer": sheet.encode()}],
    )
    expect(page.locator("#toast .toast-text")).to_have_text("Partie importée.")
    assert hands(api, 1) == {"Alice": 10, "Bruno": 20, "Chloé": 30, "Zoé": 0}
    # In English, the English sheet: the link follows the phone's language.
    tab(page, "device")
    page.select_option("#screen-device select.language", "en")
    tab(page, "score")
    expect(page.locator("#export")).to_have_attribute("href", "/api/export.csv?lang=en")
    with page.expect_download() as download:
        page.click("#export")
    english = Path(download.value.path()).read_text(encoding="utf-8-sig").splitlines()
    assert english[2].startswith("round,dealer,winner,side,Alice,Bruno,Zoé,Chloé,")


def test_the_game_file_downloads_from_the_score_screen_and_comes_back(
    phone: Page, api: Api
) -> None:
    seat_four(api)
    chloe_wins_a_round(api)
    page = phone
    tab(page, "score")
    expect(page.locator("#export-json")).to_have_text("Exporter (fichier de partie)")
    with page.expect_download() as download:
        page.click("#export-json")
    # Named after the game and its date.
    assert (
        download.value.suggested_filename == f"Soirée {api.state()['score']['game']['date']}.json"
    )
    data = Path(download.value.path()).read_bytes()
    assert json.loads(data)["game"]["name"] == "Soirée"
    page.set_input_files(
        "#import-file",
        files=[{"name": "partie.json", "mimeType": "application/json", "buffer": data}],
    )
    expect(page.locator("#toast .toast-text")).to_have_text("Partie importée.")
    assert hands(api, 1) == {"Alice": 10, "Bruno": 20, "Zoé": 30, "Chloé": 0}


def until(page: Page, condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Wait for ``condition`` while the page runs: Playwright hands over its events (requests
    seen, routes to answer) only while it is called."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out after {timeout} s"
        page.wait_for_timeout(50)


UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def test_every_action_carries_its_own_idempotency_key_and_a_retry_is_answered_not_redone(
    phone: Page, api: Api
) -> None:
    seat_four(api)
    page = phone
    sent: list[tuple[str, str | None]] = []
    page.on(
        "request",
        lambda r: (
            sent.append((r.url, r.headers.get("idempotency-key")))
            if r.method == "POST" and "/api/actions/" in r.url
            else None
        ),
    )
    events = api.state()["table"]["events"]
    page.click('#digits [data-value="5"]')
    until(page, lambda: api.state()["table"]["events"] == events + 1)
    expect(page.locator("#active")).to_have_text("Alice")  # the next card is Alice's
    page.wait_for_timeout(DOUBLE_TAP_MS)  # a card of her own, not a double tap of Chloé's
    page.click('#digits [data-value="5"]')
    until(page, lambda: api.state()["table"]["events"] == events + 2)
    until(page, lambda: len(sent) == 2)
    keys = [key for _, key in sent]
    assert all(key and UUID.fullmatch(key) for key in keys) and keys[0] != keys[1], keys

    # The box does the next one but its answer is lost on the way: the page asks again with the
    # same key and is answered, the card is not played twice.
    lost: list[str] = []

    def lose_the_answer(route: Route) -> None:
        if lost:
            route.continue_()
            return
        route.fetch()  # the box receives it and answers
        lost.append(route.request.headers.get("idempotency-key") or "")
        route.abort("connectionreset")

    sent.clear()
    page.route("**/api/actions/**", lose_the_answer)
    expect(page.locator("#active")).to_have_text("Bruno")
    page.wait_for_timeout(DOUBLE_TAP_MS)
    page.click('#digits [data-value="5"]')
    until(page, lambda: len(sent) == 2)
    expect(page.locator("#toast")).not_to_have_text("La boîte ne répond pas.")
    assert [key for _, key in sent] == [lost[0], lost[0]]
    until(page, lambda: api.state()["table"]["events"] == events + 3)
    assert api.state()["table"]["events"] == events + 3


def test_a_phone_refused_a_live_stream_reads_the_state_and_says_live_updates_paused(
    phone: Page, api: Api
) -> None:
    seat_four(api)
    page = phone
    # What the box answers when every stream is taken (see api.get_events).
    refusal = {
        "error": {"key": "web.error_busy", "message": "La boîte est occupée."},
        "poll_seconds": 5,
    }
    page.route(
        "**/api/events",
        lambda route: route.fulfill(
            status=503,
            headers={"Retry-After": "10"},
            content_type="application/json",
            body=json.dumps(refusal),
        ),
    )
    # The page's own timers (its polls, its stream retries) run on a clock the test moves on.
    page.clock.install()
    page.reload()
    notice = page.locator("#live")
    expect(notice).to_have_text("⏸ mises à jour en direct en pause")
    expect(notice).to_have_class("live paused")
    # Another phone's change shows within the poll interval (3 s), without a stream.
    api.act("table.jam")
    page.clock.run_for(3_100)
    expect(page.locator("#jam-note")).to_be_visible(timeout=2_000)
    api.act("table.reload")
    page.clock.run_for(3_100)
    expect(page.locator("#jam-note")).to_be_hidden(timeout=2_000)
    # The box cannot be reached at all: that is offline, not paused.
    page.route("**/api/state", lambda route: route.abort("connectionrefused"))
    page.clock.run_for(3_100)
    expect(notice).to_have_text("○ hors ligne", timeout=2_000)
    page.unroute("**/api/state")
    page.clock.run_for(3_100)
    expect(notice).to_have_text("⏸ mises à jour en direct en pause", timeout=2_000)
    # A stream to spare again: the page takes it (it asks every 10 s) and the notice goes.
    page.unroute("**/api/events")
    # The last refusal may reach the page late on a busy machine, its next try then set from
    # that later moment: a few of the page's 10 s waits, each followed by a look.
    for _ in range(3):
        page.clock.run_for(10_100)
        try:
            expect(notice).to_have_class("live on", timeout=3_000)
            break
        except AssertionError:
            continue
    expect(notice).to_have_class("live on", timeout=1)
    expect(notice).to_have_text("● en direct")
    api.act("table.jam")
    expect(page.locator("#jam-note")).to_be_visible(timeout=1_500)  # live, not polled


def login(url: str, pin: str, headers: dict[str, str] | None = None) -> int:
    """A new session (its own cookie) tries a PIN: the HTTP status."""
    request = Api(url).request("api/login", {"pin": pin}, headers)
    try:
        with urllib.request.urlopen(request, timeout=ANSWER_TIMEOUT) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.parametrize(
    "daemon_config",
    [Config(web=WebConfig(pin="2468", lockout_attempts=3, lockout_seconds=60))],
)
def test_guessing_pins_does_not_lock_the_host_out(
    browser: Browser, api: Api, daemon_config: Config
) -> None:
    host = browser.new_context(viewport=PHONE, locale=FRENCH_PHONE).new_page()
    try:
        host.goto(api.url)
        host.click("#lock")
        host.fill("#pin-input", "2468")
        host.click("#pin-ok")
        expect(host.locator("#lock")).to_have_text("PIN ✓")
        tab(host, "device")
        host.click("#logout")  # the host locks the phone and puts it down
        expect(host.locator("#lock")).to_have_text("Saisir le PIN")
        # A guest on the same address guesses: three wrong PINs lock the address out.
        assert [login(api.url, pin) for pin in ("0000", "1111", "2222")] == [403, 403, 429]
        # Guessing stays slow: a new session, a forged header, even the right PIN from a new
        # session: refused until the lock-out ends.
        assert login(api.url, "3333") == 429
        assert login(api.url, "3333", {"X-Forwarded-For": "10.9.8.7"}) == 429
        assert login(api.url, "2468") == 429
        # The host, who proved the PIN earlier, still gets in with it.
        host.click("#lock")
        host.fill("#pin-input", "2468")
        host.click("#pin-ok")
        expect(host.locator("#lock")).to_have_text("PIN ✓")
    finally:
        host.context.close()


class NoSoundCard:
    """A player on a computer without a sound card: every sound fails."""

    def play(self, wav: bytes) -> None:
        raise PlayerError("aplay -q -: audio open error: No such file or directory")


@pytest.mark.parametrize("voice_player", [NoSoundCard()])
def test_a_missing_sound_card_is_said_once(phone: Page, api: Api, voice_player: Any) -> None:
    page = phone
    page.click('#digits [data-value="5"]')  # a card played
    page.click("#reload")  # its cue fails on the box; the change after it tells every phone
    expect(page.locator("#toast")).to_have_text(
        "La boîte n'a pas de carte son : voyez l'onglet Lanceur."
    )
    # Whole within the toast's two lines, at 320 px too: nothing cut with "…".
    page.set_viewport_size({"width": 320, "height": 640})
    cut = "(e) => e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1"
    assert not page.locator("#toast .toast-text").evaluate(cut)
    tab(page, "device")
    expect(page.locator("#sound-note")).to_contain_text("pas de carte son")
    page.evaluate("document.getElementById('toast').hidden = true")
    page.click("#tab-table")
    page.click('#digits [data-value="6"]')
    expect(page.locator("#actor-name")).not_to_have_text("Alice")
    expect(page.locator("#toast")).to_be_hidden()  # said once, not at every change


def test_the_chart_reads_in_the_dark_with_tied_lines_apart(browser: Browser, api: Api) -> None:
    seat_four(api)
    tie = {"Alice": {"points": 0}, "Bruno": {"points": 0}, "Chloé": {"points": 0}}
    api.act("score.record_round", hands={**tie, "Zoé": {"points": 40}}, winner="Alice")
    api.act("score.record_round", hands={**tie, "Alice": {"points": 40}}, winner="Zoé")
    context = browser.new_context(viewport=PHONE, color_scheme="dark", locale=FRENCH_PHONE)
    try:
        chart = context.new_page()
        chart.goto(f"{api.url}api/chart.svg?lang=fr")
        # The axis numbers and legend are light on a dark page (they were black).
        fill = chart.evaluate("getComputedStyle(document.querySelector('text.ink')).fill")
        assert fill == "rgb(241, 241, 241)", fill
        # Alice and Zoé are tied all along: their lines differ by dash pattern, not colour alone.
        dashes = chart.evaluate(
            "[...document.querySelectorAll('polyline')].map(l => getComputedStyle(l)"
            ".strokeDasharray)"
        )
        assert len(set(dashes)) == 4, dashes
        # Every legend line fits in the picture (names and totals were cut at the right).
        width = chart.evaluate("document.documentElement.viewBox.baseVal.width")
        right = chart.evaluate(
            "Math.max(...[...document.querySelectorAll('text')].map(t => {"
            " const b = t.getBBox(); return b.x + b.width; }))"
        )
        assert right <= width, (right, width)
        legend = chart.evaluate(
            "[...document.querySelectorAll('text')].map(t => t.textContent)"
            ".filter(t => t.includes(' — '))"
        )
        # With each one's rank (ties share it) and the points left before the target.
        assert legend == [
            "1. Alice — 40 · encore 260",
            "1. Zoé — 40 · encore 260",
            "3. Bruno — 0 · encore 300",
            "3. Chloé — 0 · encore 300",
        ]
    finally:
        context.close()


def test_the_calls_where_they_happen_and_the_round_end_by_cards(
    phone: Page, api: Api, dialogs: Dialogs
) -> None:
    """A one-card badge and a Contre-UNO that names who forgot (the player who just played, not
    the next one); a win the box doubts is asked first; the round's hands entered on the Table
    screen by tapping cards or by points; the saved round shows as saved on the Score tab."""
    seat_four(api)
    page = phone
    api.act("table.set_hand", player="Chloé", cards=2)
    page.click('#digits [data-value="5"]')  # Chloé plays her second last card, says nothing
    expect(page.locator("#actor-name")).to_have_text("Alice")
    expect(page.locator('[data-one-card="Chloé"]')).to_have_text("1 carte")
    # Contre-UNO for her, just above HIT (quiet first: the grace to say UNO).
    expect(page.locator('#calls [data-contre-uno="Chloé"]')).to_have_text(
        "Contre-UNO\u00a0! (Chloé)"
    )
    # The calls apply by default to who just played.
    expect(page.locator('#chips [data-player="Chloé"]')).to_have_attribute("aria-checked", "true")
    page.click('#calls [data-contre-uno="Chloé"]')
    expect(page.locator("#owed li").first).to_contain_text("Chloé")
    api.act("table.undo")
    # "Won the round" for Bruno, whom the box counts at 7 cards: asked; declined, nothing.
    page.click('#chips [data-player="Bruno"]')
    dialogs.accept = False
    page.click('#screen-table [data-act="table.round_won"]')
    assert dialogs.seen == [
        "La boîte compte encore 7 cartes à Bruno : est-ce vraiment la fin de la manche ?"
        " Cette main passera à 0."
    ]
    assert api.state()["table"]["round_over"] is False
    dialogs.accept = True
    page.click('#screen-table [data-act="table.round_won"]')
    expect(page.locator("#round-winner")).to_have_text("Bruno a gagné la manche")
    # Zoé's hand by its cards, the others by points.
    page.click('#hands-entry [data-count="Zoé"]')
    kinds = page.locator('[data-cards-of="Zoé"] .kind[data-kind]')
    kinds.first.click()
    kinds.first.click()
    kinds.nth(1).click()
    page.fill('#hands-entry [data-hand="Chloé"]', "4")
    page.fill('#hands-entry [data-hand="Alice"]', "12")
    page.click("#save-hands")
    expect(page.locator("#round-result")).to_be_visible()
    saved = {h["player"]: h for h in api.state()["score"]["history"][0]["hands"]}
    first, second = (
        page.locator('[data-cards-of="Zoé"] .kind[data-kind]').nth(i).get_attribute("data-kind")
        for i in (0, 1)
    )
    assert saved["Zoé"]["hand"] == {"cards": {first: 2, second: 1}}
    assert (saved["Chloé"]["points"], saved["Alice"]["points"]) == (4, 12)
    tab(page, "score")
    expect(page.locator("#entry-saved")).to_have_text(re.compile("Manche 1 enregistrée."))
    expect(page.locator("#entry")).to_be_hidden()
    page.click("#entry-another")
    expect(page.locator("#entry")).to_be_visible()


def test_two_quick_taps_of_one_card_are_one_card_and_two_cards_are_two(
    phone: Page, api: Api
) -> None:
    """A card tapped twice before the phone showed the next player is one card, the second tap
    answered "already done"; two different cards tapped quickly are both played, the second
    never refused as stale for the phone's own change (it is the next player's)."""
    seat_four(api)
    before = api.state()["table"]["events"]
    phone.evaluate(
        """() => { const five = document.querySelector('#digits [data-value="5"]');
                   five.click(); five.click(); }"""
    )
    expect(phone.locator("#toast")).to_have_text("Déjà fait pour Chloé.")
    table = api.state()["table"]
    assert table["events"] == before + 1 and table["active"] == "Alice"
    phone.evaluate(
        """() => { document.querySelector('#digits [data-value="6"]').click();
                   document.querySelector('#digits [data-value="7"]').click(); }"""
    )
    until_in_page(
        phone,
        f"fetch('/api/state').then(r => r.json()).then(s => s.table.events >= {before + 3})",
    )
    table = api.state()["table"]
    assert table["events"] == before + 3
    lines = [(line["event"], line["player"]) for line in table["log"][-2:]]
    assert lines == [("play", "Alice"), ("play", "Bruno")]


def test_an_edit_done_while_the_box_was_busy_leaves_the_next_one_current(
    phone: Page, api: Api
) -> None:
    """A busy box answers an edit "done, the table follows" without the table after it: the
    phone reads it before its next edit, which is then not refused as stale."""
    seat_four(api)
    page = phone
    # No live stream (polls every few seconds, on a clock that stands still): only the page's
    # own reads bring a newer table.
    page.route("**/api/events", lambda route: route.fulfill(status=503, body="{}"))
    page.clock.install()
    page.reload()
    expect(page.locator("#live")).to_have_class("live paused")
    expect(page.locator("#actor-name")).to_have_text("Chloé")

    def busy(route: Route) -> None:
        route.fetch()  # done on the box
        route.fulfill(json={"applied": True, "message": "Fait ; la table suit."})

    page.route("**/api/actions/table.play", busy, times=1)
    events = api.state()["table"]["events"]
    page.click('#digits [data-value="5"]')  # Chloé's card
    expect(page.locator("#toast")).to_have_text("Fait ; la table suit.")
    expect(page.locator("#actor-name")).to_have_text("Alice")  # read before the next edit
    page.click('#digits [data-value="6"]')  # Alice's, based on the table after Chloé's
    until(page, lambda: api.state()["table"]["events"] == events + 2)
    expect(page.locator("#actor-name")).to_have_text("Bruno")


def test_next_round_tapped_on_a_table_changed_meanwhile_still_starts_it(
    phone: Page, api: Api
) -> None:
    """Another phone's change lands just before "next round" reaches the box: the tap still
    means "next round", so the round starts, with no "changed meanwhile" error."""
    seat_four(api)
    api.act("table.round_won", player="Chloé")
    for name in ("Alice", "Bruno", "Zoé"):
        phone.fill(f'#hands-entry [data-hand="{name}"]', "5")
    phone.click("#save-hands")
    expect(phone.locator("#round-result")).to_be_visible()
    rounds = api.state()["table"]["round"]
    sent: list[int | None] = []

    def another_phone_first(route: Route) -> None:
        sent.append(json.loads(route.request.post_data or "{}").get("revision"))
        if len(sent) == 1:
            api.act("table.rules", uno_reminder=False)  # lands before this tap
        route.continue_()

    phone.route("**/api/actions/table.start_round", another_phone_first)
    phone.click("#next-round")
    expect(phone.locator("#round-result")).to_be_hidden()
    table = api.state()["table"]
    assert table["round"] == rounds + 1 and table["phase"] == "playing"
    assert len(sent) == 2 and sent[0] is not None and sent[1] is not None and sent[1] > sent[0]
    expect(phone.locator("#toast")).not_to_contain_text("entre-temps")
    phone.unroute("**/api/actions/table.start_round")
