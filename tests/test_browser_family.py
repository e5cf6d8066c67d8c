"""An evening as a French family of four plays it, each on their own phone at 320 x 640 (one in
dark colours), and a table display lying in the middle in landscape.

The round's end comes to every phone the moment the box counts a hand at 0 and is ended from
that prompt; each hand is counted on its owner's phone, in one count every phone follows; every
call is within reach without scrolling; a stray new game is undone; the score sheet exported and
imported again as a second game. axe-core finds nothing serious on any screen.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

pytest.register_assert_rewrite("tests.browser")
from companion.daemon import Daemon  # noqa: E402
from tests.browser import (  # noqa: E402
    FRENCH_PHONE,
    Api,
    Dialogs,
    PhoneTabs,
    axe_check,
    live,
    screenshot_schemes,
    seat_game,
    shot,
    tab,
)

pytest_plugins = ["tests.browser"]

FAMILY = ["Zoé", "Raphaël", "Maëlle", "Jérôme"]
SMALL = {"width": 320, "height": 640}
LARGE = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}
NBSP = "\u00a0"
# A tap's trusted input event, not Playwright's evaluate (which the browser takes for a gesture).
BROWSER_HOLDS_SOUND = """
let tapped = -1e9;
window.addEventListener("pointerdown", (e) => {
  if (e.isTrusted) tapped = performance.now();
}, true);
window.AudioContext = class extends window.AudioContext {
  constructor(...args) { super(...args); this.suspend(); }
  resume() {
    return performance.now() - tapped < 1000 ? super.resume() : Promise.resolve();
  }
};
"""


# Every message a phone shows, and whether it was cut short ("…") at the phone's width.
WATCH_TOASTS = """() => {
  window.__toasts = [];
  const box = document.getElementById('toast');
  new MutationObserver(() => requestAnimationFrame(() => {
    const text = box.querySelector('.toast-text');
    if (box.hidden || !text) return;
    const cut = text.scrollHeight > text.clientHeight + 1
      || text.scrollWidth > text.clientWidth + 1;
    window.__toasts.push({text: text.textContent, width: innerWidth, cut});
  })).observe(box, {childList: true, attributes: true});
}"""


@pytest.fixture
def family(phone_tabs: PhoneTabs, daemon: Daemon, dialogs: Dialogs) -> Iterator[dict[str, Page]]:
    """Four phones at 320 x 640, Maëlle's in dark colours; page errors fail the test, and so
    does a message cut short."""
    errors: list[str] = []
    schemes = ["light", "light", "dark", "light"]
    pages = [phone_tabs.open(daemon.url or "", s, dialogs, errors) for s in schemes]
    try:
        for page in pages:
            page.set_viewport_size(SMALL)
            live(page)
            page.evaluate(WATCH_TOASTS)
        yield dict(zip(FAMILY, pages, strict=True))
        assert not errors, errors
        shown = [t for page in pages for t in page.evaluate("window.__toasts")]
        assert shown and [t for t in shown if t["cut"]] == [], shown
    finally:
        for page in pages:
            phone_tabs.give_back(page)


@pytest.fixture
def display(browser: Browser, daemon: Daemon) -> Iterator[Page]:
    """The table display: a phone lying in the middle of the table, in landscape, in a browser
    that lets a page sound only once it is touched (most phones): its audio starts suspended and
    resumes only within a tap. A context of its own (its init script goes with it)."""
    context = browser.new_context(
        viewport=LANDSCAPE, is_mobile=True, has_touch=True, locale=FRENCH_PHONE
    )
    errors: list[str] = []
    try:
        context.add_init_script(BROWSER_HOLDS_SOUND)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto((daemon.url or "") + "#display")
        expect(page.locator("#screen-display")).to_be_visible()
        yield page
        assert not errors, errors
    finally:
        context.close()


def shots(page: Page, name: str) -> None:
    """The screen at 320 x 640 and 390 x 844, light and dark, when screenshots are wanted; the
    phone back at 320 x 640 in its own colours."""
    dark = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    for size, viewport in (("320", SMALL), ("390", LARGE)):
        for wanted in screenshot_schemes():
            page.set_viewport_size(viewport)
            page.emulate_media(color_scheme=wanted)  # type: ignore[arg-type]
            shot(page, f"family-{name}-{size}-{wanted}", full_page=False)
    page.set_viewport_size(SMALL)
    page.emulate_media(color_scheme="dark" if dark else "light")


def nothing_serious(page: Page, where: str) -> None:
    violations = axe_check(page)
    assert not violations, (where, violations)


# Each element's box against the viewport, and whether a tap at its middle reaches it (nothing
# lies over it: a message, the press banner).
REACH = """(selector) => [...document.querySelectorAll(selector)].map((e) => {
  const r = e.getBoundingClientRect();
  const at = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  return {what: e.id || e.textContent.trim(), width: r.width, top: r.top, bottom: r.bottom,
    left: r.left, right: r.right, tapped: Boolean(at && e.contains(at))};
})"""


def within_reach(page: Page, selector: str) -> None:
    """Every element of ``selector`` is wholly on the screen as it is, nothing scrolled, and a
    tap on it reaches it."""
    assert page.evaluate("window.scrollY") == 0
    boxes = page.locator(selector)
    assert boxes.count() > 0, selector
    for i in range(boxes.count()):
        expect(boxes.nth(i)).to_be_in_viewport(ratio=1)
    size = page.viewport_size
    assert size is not None
    for box in page.evaluate(REACH, selector):
        assert box["width"] > 0 and box["tapped"], box
        assert box["top"] >= 0 and box["bottom"] <= size["height"], box
        assert box["left"] >= 0 and box["right"] <= size["width"], box


def play(phones: dict[str, Page], api: Api, card: str = '#digits [data-value="5"]') -> str:
    """Whoever's turn it is plays on their own phone; returns who played."""
    player = api.state()["table"]["active"]
    page = phones[player]
    events = api.state()["table"]["events"]
    page.click(card)
    expect(page.locator("#actor-name")).not_to_have_text(player)
    assert api.state()["table"]["events"] > events
    return player


def says_one_card_then_goes_out(phones: dict[str, Page], api: Api, display: Page) -> str:
    """The player whose turn it is gets down to two cards, plays one, says UNO on their own
    phone, plays on with the others (a Joker naming blue on the way) and lays the last card."""
    out = api.state()["table"]["active"]
    api.act("table.set_hand", player=out, cards=2)
    play(phones, api)
    # UNO! first and big on their own phone; Contre-UNO on the others, quiet during the grace.
    mine = phones[out].locator(f'#calls [data-uno="{out}"]')
    expect(mine).to_have_text(f"UNO{NBSP}!")
    expect(mine).to_have_class(re.compile("call-big"))
    for name, page in phones.items():
        if name != out:
            expect(page.locator(f'#calls [data-contre-uno="{out}"]')).to_be_visible()
            expect(page.locator(f'#calls [data-uno="{out}"]')).to_have_count(0)
            within_reach(page, "#calls button, #hit")
    within_reach(phones[out], "#calls button, #hit")
    phones[out].set_viewport_size(LARGE)  # at 390 x 844 too
    within_reach(phones[out], "#calls button, #hit")
    phones[out].set_viewport_size(SMALL)
    shots(phones[out], "uno-mine")
    other = next(name for name in FAMILY if name != out)
    shots(phones[other], "contre-uno")
    shot(display, "family-display-one-card", full_page=False)
    expect(display.locator("#display-warn")).to_have_text(
        f"{out} : une seule carte, UNO pas dit{NBSP}!"
    )
    mine.click()
    expect(phones[out].locator(f'[data-one-card="{out}"]')).to_have_text("UNO")
    expect(display.locator("#display-warn")).to_have_text(f"{out} : une seule carte{NBSP}!")
    # The next player names blue with a Joker: every phone and the display show it.
    player = api.state()["table"]["active"]
    phones[player].click('#colour-row [data-colour="blue"]')
    play(phones, api, '#cards [data-card="wild"]')
    for page in phones.values():
        expect(page.locator("#last-card")).to_have_text(
            f"Dernière carte : Joker, couleur demandée : Bleu — {player}"
        )
    expect(display.locator("#display-last")).to_have_text(
        f"Dernière carte : Joker, couleur demandée : Bleu — {player}"
    )
    # The names break between words only: the one who acts fits its column whole.
    fits = "(e) => e.scrollWidth <= e.clientWidth + 1"
    assert display.locator("#display-name").evaluate(fits)
    nothing_serious(display, "the table display with its warnings")
    while api.state()["table"]["active"] != out:
        play(phones, api)
    phones[out].click('#digits [data-value="5"]')
    return out


def round_ends_from_the_prompt(phones: dict[str, Page], out: str, display: Page) -> None:
    prompt = f"{out} a fini{NBSP}! Compter les mains"
    expect(display.locator("#display-name")).to_have_text(out)
    expect(display.locator("#display-what")).to_have_text(f"a fini{NBSP}!")
    for page in phones.values():
        expect(page.locator("#actor-name")).to_have_text(out)
        expect(page.locator("#end-round")).to_have_text(prompt)
        within_reach(page, "#end-round, #hit")
    expect(display.locator("#display-warn")).to_contain_text(prompt)
    shots(phones[out], "round-end-prompt")
    shot(display, "family-display-went-out", full_page=False)
    nothing_serious(phones["Maëlle"], "the round's end prompt (dark)")
    ender = next(name for name in FAMILY if name != out)
    phones[ender].click("#end-round")
    expect(phones[ender].locator("#toast .toast-action")).to_have_text("Défaire")
    for page in phones.values():
        expect(page.locator("#round-winner")).to_have_text(f"{out} a gagné la manche")


def after(winner: str) -> list[str]:
    """The others in seat order, from the one after the winner (as the count lists them)."""
    at = FAMILY.index(winner)
    return FAMILY[at + 1 :] + FAMILY[:at]


def each_counts_their_own_hand(phones: dict[str, Page], api: Api, out: str) -> dict[str, Any]:
    """Each player but the winner counts their hand on their own phone, by cards (the first
    kind, tapped as many times as their place at the table) ; every phone follows."""
    counting = after(out)
    kinds = [k for k in api.state()["score"]["game"]["ruleset"]["kinds"] if k.get("count") != 0]
    first = kinds[0]
    for name in counting:
        page = phones[name]
        rows = page.locator("#hands-entry .hand-row")
        expect(rows.first).to_have_attribute("data-row", name)  # their own hand first
        pad = page.locator(f'[data-cards-of="{name}"]')
        expect(pad).to_be_visible()  # opened by its cards
    expect(phones[out].locator("#count-waiting")).to_have_text(
        "Encore à compter : " + ", ".join(counting[:-1]) + " et " + counting[-1]
    )
    for taps, name in enumerate(counting, start=1):
        pad = phones[name].locator(f'[data-cards-of="{name}"]')
        for _ in range(taps):
            pad.locator(f'.kind[data-kind="{first["key"]}"]').click()
        expect(pad.locator(f'.kind[data-kind="{first["key"]}"] .count')).to_have_text(f"×{taps}")
        # Every other phone sees it counted (nothing typed there is lost).
        for other in phones.values():
            expect(other.locator(f'#hands-entry [data-status="{name}"]')).to_have_text("✓")
    points = {name: taps * first["value"] for taps, name in enumerate(counting, start=1)}
    total = sum(points.values())
    for page in phones.values():
        expect(page.locator("#count-waiting")).to_have_text("Toutes les mains sont comptées.")
        expect(page.locator("#count-total")).to_have_text(f"Total de la manche : {total} points")
    nothing_serious(phones[counting[0]], "the shared count")
    return {"kind": first["key"], "points": points, "total": total, "value": first["value"]}


def test_a_family_evening_on_four_phones(
    family: dict[str, Page], display: Page, api: Api, dialogs: Dialogs
) -> None:
    seat_game(api, FAMILY, name="Chez Mamie", target=150)
    # Each phone says whose it is, on the Set-up screen.
    for name, page in family.items():
        tab(page, "setup")
        page.select_option("#me-setup", name)
        tab(page, "table")
        within_reach(page, "#hit")
    # At the round's start the calls apply to the dealer (who played before the first player),
    # never to the next player.
    assert api.state()["table"]["active"] == "Raphaël"
    chosen = family["Jérôme"].locator('#chips [aria-checked="true"]')
    expect(chosen).to_have_attribute("data-player", "Zoé")
    nothing_serious(family["Zoé"], "the table (light)")
    nothing_serious(family["Maëlle"], "the table (dark)")
    nothing_serious(display, "the table display")
    # The display's sound as the browser plays it: held back until a tap, that tap starts it
    # (it does not mute it); the next tap mutes it.
    sound = display.locator("#display-sound")
    expect(sound).to_have_text("Son : touchez pour l'activer")
    expect(sound).to_have_attribute("aria-pressed", "false")
    sound.click()
    expect(sound).to_have_attribute("aria-pressed", "true")
    expect(sound).to_have_text("Son")
    sound.click()
    expect(sound).to_have_attribute("aria-pressed", "false")
    expect(sound).to_have_text("Son coupé")  # muted looks muted

    # Round 1: counted by cards, each on their own phone; saved from one.
    out = says_one_card_then_goes_out(family, api, display)
    round_ends_from_the_prompt(family, out, display)
    counted = each_counts_their_own_hand(family, api, out)
    shots(family[after(out)[0]], "count")
    family[out].locator("#table-scroll").evaluate("(e) => { e.scrollTop = e.scrollHeight; }")
    shots(family[out], "count-total")
    saver = next(name for name in FAMILY if name != out)
    family[saver].click("#save-hands")
    for page in family.values():
        expect(page.locator("#round-result")).to_be_visible()
    first = api.state()["score"]["history"][-1]
    assert first["winner"] == out and first["credited"][out] == counted["total"]
    assert {h["player"]: h["hand"] for h in first["hands"] if h["player"] != out} == {
        name: {"cards": {counted["kind"]: taps}} for taps, name in enumerate(after(out), start=1)
    }

    # Round 2: typed as points on each phone, and the game passes its target.
    family[saver].click("#next-round")
    out = says_one_card_then_goes_out(family, api, display)
    round_ends_from_the_prompt(family, out, display)
    # A round ended by mistake is one Undo away; ended again from the prompt.
    ender = next(name for name in FAMILY if name != out)
    family[ender].click("#toast .toast-action")
    for page in family.values():
        expect(page.locator("#end-round")).to_be_visible()
    assert api.state()["table"]["round_over"] is False
    family[ender].click("#end-round")
    expect(family[out].locator("#round-winner")).to_have_text(f"{out} a gagné la manche")
    typed = {name: 50 + i for i, name in enumerate(n for n in FAMILY if n != out)}
    for name, points in typed.items():
        family[name].fill(f'#hands-entry [data-hand="{name}"]', str(points))
        family[name].locator(f'#hands-entry [data-hand="{name}"]').blur()
    for page in family.values():
        expect(page.locator("#count-waiting")).to_have_text("Toutes les mains sont comptées.")
    # The ender's "Défaire" went away with their next action (their hand typed): an Undo on show
    # is always for the phone's last change.
    expect(family[ender].locator("#toast .toast-action")).to_be_hidden()
    family[out].click("#save-hands")
    for page in family.values():
        expect(page.locator("#game-winner")).to_contain_text("gagne la partie")
    standings = api.state()["score"]["standings"]
    game = api.state()["score"]["game"]

    # A stray "Nouvelle partie" on the Score screen: it names what is set aside, and is undone.
    zoe = family["Zoé"]
    tab(zoe, "score")
    nothing_serious(zoe, "the score screen")
    zoe.click("#new-game-again")
    assert dialogs.seen[-1] == (
        f"Commencer une nouvelle partie ? « Chez Mamie » (2 manches, "
        f"{standings['rows'][0]['party']} en tête) reste dans la liste des parties."
    )
    expect(zoe.locator("#game-title")).not_to_contain_text("Chez Mamie")
    # The Undo offered is the new game's: an earlier one (the round saved) was withdrawn when the
    # new game was asked for, so a quick tap can never undo the wrong thing.
    expect(zoe.locator("#toast .toast-text")).to_have_text("Nouvelle partie commencée.")
    zoe.click("#toast .toast-action")
    expect(zoe.locator("#game-title")).to_contain_text("Chez Mamie")
    assert api.state()["score"]["game"]["id"] == game["id"]
    expect(zoe.locator("#games li")).to_have_count(1)  # the stray game deleted with the Undo

    # The sheet, exported and imported again as a second game.
    with zoe.expect_download() as download:
        zoe.click("#export")
    assert download.value.suggested_filename == f"Chez Mamie {game['date']}.csv"
    sheet = Path(download.value.path()).read_text(encoding="utf-8-sig")
    assert sheet.splitlines()[0] == "partie;date;objectif;mode;règles;équipes"
    assert "Le gagnant marque les points des autres;UNO Extrême" in sheet.splitlines()[1]
    assert f"{out} — total" in sheet.splitlines()[2]
    zoe.set_input_files(
        "#import-file",
        files=[{"name": "chez-mamie.csv", "mimeType": "text/csv", "buffer": sheet.encode()}],
    )
    expect(zoe.locator("#games li")).to_have_count(2)
    assert dialogs.seen[-1].startswith("Ouvrir ce fichier comme nouvelle partie ?")
    again = api.state()["score"]
    assert again["game"]["id"] != game["id"]
    assert [(r["party"], r["total"]) for r in again["standings"]["rows"]] == [
        (r["party"], r["total"]) for r in standings["rows"]
    ]
    # The imported game renamed, then the first one deleted from the list and brought back.
    imported = again["game"]["id"]
    dialogs.reply = "Chez Mamie (copie)"
    zoe.click(f'#games [data-rename-game="{imported}"]')
    expect(zoe.locator(f'#games [data-game="{imported}"] .game-name')).to_have_text(
        "Chez Mamie (copie)"
    )
    expect(zoe.locator("#game-title")).to_contain_text("Chez Mamie (copie)")
    dialogs.reply = None
    zoe.click(f'#games [data-delete-game="{game["id"]}"]')
    expect(zoe.locator("#games li")).to_have_count(1)
    expect(zoe.locator("#toast .toast-text")).to_have_text("Partie supprimée : Chez Mamie")
    zoe.click("#toast .toast-action")
    expect(zoe.locator("#games li")).to_have_count(2)
    shots(zoe, "games")
    for name, page in family.items():
        tab(page, "score")
        expect(page.locator("#games li")).to_have_count(2)
        page.set_viewport_size(LARGE)
        nothing_serious(page, f"the score screen of {name} at 390")
