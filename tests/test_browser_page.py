"""The phone page in Debian's Chromium, driven by Playwright, against the real daemon: set up a
table, play a turn sequence and press HIT until cards fly, enter and edit a round by card counts,
a long game's history read page by page, the device screen, a language switch. Two phones at
390x844: one acts, the other must follow live without reloading. Fixtures and what they run:
``tests/browser.py``.
"""

from __future__ import annotations

import json
import re
import urllib.request

import pytest
from playwright.sync_api import Page, expect

from companion.core.scoring.formats import game_to_json
from tests.test_scoring_import import long_game

pytest.register_assert_rewrite("tests.browser")
from tests.browser import (  # noqa: E402
    ANSWER_TIMEOUT,
    DOUBLE_TAP_MS,
    FOUR,
    Api,
    Dialogs,
    both_on,
    seat_four,
    shot,
    tab,
    until_in_page,
)

pytest_plugins = ["tests.browser"]  # the daemon, api, browser, phones fixtures


def test_set_up_a_four_player_table(phone: Page, api: Api) -> None:
    page = phone
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
    page, other = both_on(phones, "table")
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

    # The big HIT button, labelled with who presses (Bruno, the target, owes the first presses).
    # In simulation a press is a real edge on the mock pin, through the debounce.
    expect(page.locator("#hit-who")).to_have_text("Bruno")
    expect(page.locator("#actor-name")).to_have_text("Bruno")
    fired_before = api.state()["table"]["magazine"]
    banner = page.locator("#fired-banner")
    for _ in range(15):
        before = api.state()["table"]
        page.wait_for_timeout(DOUBLE_TAP_MS)  # a new press, not the last one's double tap
        page.click("#hit")
        until_in_page(
            page,
            "fetch('/api/state').then(r => r.json())"
            f".then(s => s.table.events > {before['events']})",
        )
        # Every press shows on the page, even one that fires nothing.
        expect(banner).to_be_visible()
        if api.state()["table"]["magazine"] < before["magazine"]:
            break
    state = api.state()
    assert state["table"]["magazine"] < fired_before
    # The banner names who received the cards: the player whose hand grew, not whom the
    # launcher faces next.
    hands = {p["name"]: p["hand"] for p in before["players"]}
    receiver = max(state["table"]["players"], key=lambda p: p["hand"] - hands[p["name"]])["name"]
    fired = before["magazine"] - state["table"]["magazine"]
    cards = "1 carte" if fired == 1 else f"{fired} cartes"
    expect(banner).to_contain_text(f"{cards} pour {receiver}")
    page.evaluate("document.getAnimations().forEach((a) => a.finish())")  # the banner's pop
    shot(page, "table-fired", full_page=False)
    # The mock ejector runs after the turret has turned (its own thread): wait for it.
    until_in_page(
        page,
        "fetch('/api/state').then(r => r.json()).then(s => s.device.cards_fired > 0)",
        timeout=ANSWER_TIMEOUT,  # the launcher's movements run in real time, behind the turns
    )
    expect(other.locator("#magazine")).to_have_text(f"{state['table']['magazine']} cartes")
    shot(other, "table-second-phone", full_page=False)


def test_enter_a_round_by_card_counts_edit_it_and_see_the_chart(
    phones: tuple[Page, Page], four_players: Api
) -> None:
    api = four_players
    page, other = both_on(phones, "score")
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
    until_in_page(
        page,
        "document.getElementById('chart').complete && "
        "document.getElementById('chart').naturalWidth > 0",
    )
    with urllib.request.urlopen(f"{api.url}api/chart.svg", timeout=ANSWER_TIMEOUT) as response:
        svg = response.read().decode()
    assert svg.count("<polyline") == 4 and "1. Chloé — 87" in svg
    # Averages are the points scored per round played: Alice scored nothing (not her hand's 25).
    # Plurals by the language's rules: French "0 manche gagnée", "0 point marqué".
    expect(page.locator('#stats dt:text-is("Alice") + dd')).to_have_text(
        "0 manche gagnée, 0 point marqué par manche en moyenne, main la plus chère 25 points"
    )
    expect(page.locator("#stats")).to_contain_text("87 points marqués par manche")
    page.locator("#chart").scroll_into_view_if_needed()
    shot(page, "score")
    shot(other, "score-second-phone")

    # A phone on the table screen follows the table, not the hidden score sheet: no new chart
    # from the box at each press. Back on the score screen, all is up to date at once.
    charts: list[str] = []
    other.on("request", lambda request: charts.append(request.url) if "chart" in request.url else 0)
    tab(other, "table")
    for _ in range(3):
        api.act("table.press")
    api.act(
        "score.record_round",
        winner="Alice",
        hands={p: {"points": 10 if p == "Bruno" else 0} for p in FOUR},
    )
    expect(other.locator("#actor-name")).not_to_be_empty()
    assert charts == []
    tab(other, "score")
    expect(other.locator("#standings li").first).to_contain_text("Chloé")
    expect(other.locator("#standings")).to_contain_text("Alice10")
    revision = api.state()["score"]["revision"]
    until_in_page(other, f"document.getElementById('chart').src.includes('&rev={revision}&')")
    assert len(charts) == 1, charts
    a_long_game_shows_its_latest_rounds_and_loads_older_ones(page, api)


def a_long_game_shows_its_latest_rounds_and_loads_older_ones(page: Page, api: Api) -> None:
    """A 120-round game on the Score screen: the latest rounds show at once (the state carries
    the last 50), older ones come page by page from the box, and a round far back is edited."""
    rounds = 120
    api.act("score.import", text=game_to_json(long_game(rounds)))
    expect(page.locator("#history li").last).to_have_attribute("data-round", str(rounds))
    assert rounds_shown(page) == list(range(rounds - 49, rounds + 1))
    expect(page.locator("#stats dd").first).to_have_text(str(rounds))  # rounds played: all
    older = page.locator("#older-rounds")
    expect(older).to_have_text("Manches précédentes")
    older.click()
    expect(page.locator("#history li").first).to_have_attribute("data-round", "21")
    older.click()
    expect(page.locator("#history li").first).to_have_attribute("data-round", "1")
    assert rounds_shown(page) == list(range(1, rounds + 1))
    expect(older).to_be_hidden()
    # Round 5, far before the state's last rounds, is edited like any other.
    page.click('#history [data-edit="5"]')
    expect(page.locator("#entry-title")).to_have_text("Modifier la manche 5")
    page.click('#entry-players [data-entry="Cy"]')
    page.fill("#points-input", "42")
    expect(page.locator('#history li[data-round="5"]')).not_to_contain_text("42")
    page.click("#save-round")
    # (a toast of an earlier save may still be up: the round's own line says it is saved)
    expect(page.locator('#history li[data-round="5"]')).to_contain_text("42")
    with urllib.request.urlopen(
        f"{api.url}api/score/rounds?before=6&limit=1", timeout=ANSWER_TIMEOUT
    ) as r:
        edited = json.load(r)["rounds"][0]
    assert {h["player"]: h["points"] for h in edited["hands"]}["Cy"] == 42
    # The rounds read before the change are read again: round 5 shows its new points, and every
    # round is still on screen.
    expect(page.locator('#history [data-round="5"] .round-text')).to_contain_text("Cy 42")
    assert rounds_shown(page) == list(range(1, rounds + 1))


def rounds_shown(page: Page) -> list[int]:
    numbers = page.locator("#history li").evaluate_all("lis => lis.map(li => li.dataset.round)")
    return [int(n) for n in numbers]


def test_device_screen_calibrates_and_test_fires(phone: Page, four_players: Api) -> None:
    api = four_players
    page = phone
    # The other phones join from the top of the Set-up screen: the address and its QR code.
    tab(page, "setup")
    page.click("#share summary")
    expect(page.locator("#qr")).to_be_in_viewport()
    expect(page.locator("#qr")).to_have_js_property("complete", True)
    assert page.evaluate("document.getElementById('qr').naturalWidth") > 0
    expect(page.locator("#urls")).to_contain_text(api.url)
    tab(page, "device")
    expect(page.locator("#sim-seats .seat-dot")).to_have_count(4)
    # Sliders run over the turret's 0…360° (seats all round): seat 3 at 180° shows as 180°.
    rows = page.locator("#calibration li")
    angles = api.state()["device"]["seat_angles"]
    expect(rows.nth(2).locator("output")).to_have_text(f"{round(angles[2])}°")
    assert angles[2] > 90
    # ✓ on a row nobody moved saves nothing; a moved row saves its angle.
    expect(rows.nth(1).locator("[data-calibrate]")).to_be_disabled()
    rows.nth(1).locator("input[type=range]").fill("250")  # past the servo's own 180°: the gear
    page.click('#calibration [data-calibrate="1"]')
    until_in_page(
        page,
        "fetch('/api/state').then(r => r.json()).then(s => s.device.seat_angles[1] === 250)",
    )
    assert api.state()["device"]["seat_angles"][0] == angles[0]
    # The launcher takes one movement from the page every two seconds (the turn to the seat
    # just saved was one): a test fire tapped too soon is refused and the note cleared; the
    # phone taps again, once each answer came, until it fires.
    fired = re.compile(r"^(1 carte tirée|([2-9]|\d\d+) cartes tirées)$")
    answered = "document.getElementById('fire-note').textContent !== \"Tir d'essai…\""
    for _ in range(40):
        page.click("#test-fire")
        until_in_page(page, answered)
        if fired.match(page.locator("#fire-note").text_content() or ""):
            break
        page.wait_for_timeout(200)  # the next tap, a moment later
    # A test fire shows what came out.
    expect(page.locator("#fire-note")).to_have_text(fired)
    shot(page, "device")
    # A jam the beam reported: the table screen says what to do until the magazine is reloaded.
    api.act("table.jam")
    tab(page, "table")
    expect(page.locator("#jam-note")).to_have_text(
        "Lanceur bloqué : dégagez la carte coincée, puis rechargez."
    )
    expect(page.locator("#hit")).to_be_disabled()
    api.act("table.reload")
    expect(page.locator("#jam-note")).to_be_hidden()


def test_a_phones_language_is_its_own_and_a_setup_mid_round_asks_first(
    phones: tuple[Page, Page], api: Api, dialogs: Dialogs
) -> None:
    page, other = phones
    seat_four(api)
    game = api.state()["score"]["game"]
    api.act(
        "score.new_game",
        **{k: game[k] for k in ("players", "first_dealer", "target")},
        name="Partie du soir",
        ruleset="extreme",
    )  # the name the page gives by default
    page.click('#digits [data-value="5"]')  # round 1 under way: Alice plays next
    expect(other.locator("#actor-name")).to_have_text("Alice")
    during = api.state()["table"]
    tab(page, "setup")
    page.select_option("#language", "en")
    expect(page.locator("#tab-table")).to_have_text("Table")
    expect(page.locator("#tab-setup")).to_have_text("Set up")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    tab(page, "score")  # a game named by default is named in this phone's language
    expect(page.locator("#game-title")).to_have_text("Game night — target 300 points")
    # A card and the launcher's aim are each one message, worded as English says them.
    tab(page, "table")
    page.click("#round-log summary")
    expect(page.locator("#round-log-lines .log-line .what")).to_have_text(["red 5 · Chloé"])
    tab(page, "device")
    expect(page.locator("#sim-caption")).to_contain_text("Launcher faces Alice")
    tab(page, "setup")
    # The other phone and the box keep their French; the round is untouched.
    expect(other.locator("#tab-setup")).to_have_text("Préparer")
    assert api.state()["settings"]["language"] == "fr"
    # "Set up the table" with nothing changed deals nothing and asks nothing.
    page.click("#apply-setup")
    expect(page.locator("#toast")).to_have_text("The table is ready.")
    assert dialogs.seen == []
    assert api.state()["table"] == during
    # Another seat order would end the round: said and asked first; declined, nothing changes.
    page.click('#seat-list [aria-label="Move Bruno up"]')
    dialogs.accept = False
    page.click("#apply-setup")
    assert dialogs.seen == [
        "Set up the table: round 1 in progress stops (hands dealt again). Go ahead?"
    ]
    assert api.state()["table"] == during
    # Accepted, the table is dealt again, and the toast's Undo gives the round back.
    dialogs.accept = True
    page.click("#apply-setup")
    expect(other.locator("#chips .chip .name")).to_have_text(["Bruno", "Alice", "Zoé", "Chloé"])
    page.click("#toast .toast-action")
    expect(other.locator("#chips .chip .name")).to_have_text(FOUR)
    expect(other.locator("#actor-name")).to_have_text("Alice")
    assert {k: v for k, v in api.state()["table"].items() if k not in ("events", "can_undo")} == {
        k: v for k, v in during.items() if k not in ("events", "can_undo")
    }
    # A new name in place: same seat and turn, the score sheet follows.
    dialogs.reply = "Anaïs"
    page.click('#seat-list [aria-label="Rename Alice"]')
    expect(other.locator("#actor-name")).to_have_text("Anaïs")
    assert api.state()["score"]["game"]["players"] == ["Anaïs", *FOUR[1:]]
    # Still live, each phone saying so in its own language; a reload keeps this phone's choice.
    expect(page.locator("#live")).to_have_text("● live")
    expect(other.locator("#live")).to_have_text("● en direct")
    page.reload()
    expect(page.locator("#tab-setup")).to_have_text("Set up")
    tab(page, "table")
    shot(page, "table-english")
