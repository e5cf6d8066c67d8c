"""Every screen of the phone page as a table sees it, in Debian's Chromium against the real daemon:
320 and 390 pixels wide, French and English, light and dark. Nothing may be wider than the phone
(no sideways scrolling), every control must be big enough for a thumb (44 px), and no text may be
left as its untranslated key. Full-page screenshots of each go to ``tests/artifacts/layout-*.png``.
Fixtures: ``tests/browser.py``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

pytest.register_assert_rewrite("tests.browser")
from tests.browser import (  # noqa: E402
    FOUR,
    Api,
    chloe_wins_a_round,
    screenshot_schemes,
    seat_four,
    shot,
    tab,
)
from tests.test_i18n_messages import page_samples  # noqa: E402

pytest_plugins = ["tests.browser"]  # the daemon, api, browser, phones fixtures

SIZES = ({"width": 320, "height": 640}, {"width": 390, "height": 844})
TAB_SCREENS = ("table", "score", "evening", "setup", "device")
THUMB = 44  # px: the smallest control a thumb hits reliably

# What is wrong with the screen on show: elements past the right edge, controls smaller than a
# thumb (a checkbox counts with its label around it), texts that are still i18n keys.
LAYOUT_FAULTS = """(thumb) => {
  const width = document.documentElement.clientWidth;
  const shown = (e) => e.getClientRects().length > 0 && !e.closest('[hidden], .sr');
  const what = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
    + (e.dataset.i18n ? '[' + e.dataset.i18n + ']' : '')
    + ' "' + e.textContent.trim().slice(0, 24) + '"';
  const faults = {scroll: document.documentElement.scrollWidth - width,
    wide: [], small: [], clipped: [], keys: []};
  const scope = document.querySelectorAll(
    '#screens > section:not([hidden]) *, #tabs *, .top *');
  for (const e of [...scope].filter(shown)) {
    const box = e.getBoundingClientRect();
    if (box.right > width + 1 || box.left < -1) {
      faults.wide.push(what(e) + ' ' + Math.round(box.right));
    }
    if (!e.matches('button, select, input, a, summary') || e.type === 'range') continue;
    if (e.matches('button') && e.scrollWidth > e.clientWidth + 1) {
      faults.clipped.push(what(e) + ' ' + e.scrollWidth + '>' + e.clientWidth);
    }
    const label = e.matches('[type=checkbox], [type=radio]') && e.closest('label');
    const hit = (label || e).getBoundingClientRect();
    if (hit.width < thumb || hit.height < thumb) {
      faults.small.push(what(e) + ' ' + Math.round(hit.width) + 'x' + Math.round(hit.height));
    }
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const key = /^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(text);
    if (key && shown(node.parentElement)) faults.keys.push(text);
  }
  return faults;
}"""


def open_screen(page: Page, screen: str) -> None:
    """Open ``screen`` the way a user does: its tab, or its button on the Table screen."""
    if screen in TAB_SCREENS:
        tab(page, screen)
        return
    tab(page, "table")
    page.click(f"#open-{screen}")
    expect(page.locator(f"#screen-{screen}")).to_be_visible()


def check_screen(page: Page, name: str) -> list[str]:
    """The screen at each phone size: its faults, and a screenshot light and dark."""
    found: list[str] = []
    for size in SIZES:
        page.set_viewport_size(size)
        faults: dict[str, Any] = page.evaluate(LAYOUT_FAULTS, THUMB)
        where = f"{name}-{size['width']}"
        if faults["scroll"] > 0:
            found.append(f"{where}: {faults['scroll']} px of sideways scrolling")
        found.extend(
            f"{where}: {kind} {item}"
            for kind in ("wide", "small", "clipped", "keys")
            for item in faults[kind]
        )
        for scheme in screenshot_schemes():
            page.emulate_media(color_scheme=scheme)
            screen, lang = name.split("-")
            shot(page, f"layout-{screen}-{size['width']}-{scheme}-{lang}")
    page.emulate_media(color_scheme="light")
    return found


def test_every_screen_fits_a_small_phone_in_both_languages(phone: Page, api: Api) -> None:
    seat_four(api)
    for hands, winner in (
        ({"Alice": 10, "Bruno": 20, "Zoé": 30}, "Chloé"),
        ({"Alice": 45, "Chloé": 12, "Zoé": 3}, "Bruno"),
    ):
        api.act(
            "score.record_round",
            hands={p: {"points": n} for p, n in hands.items()},
            winner=winner,
        )
    api.act("evening.start", players=FOUR)
    api.act("table.press")
    for lang, setup_tab in (("fr", "Préparer"), ("en", "Set up")):
        api.act("settings.update", language=lang)
        expect(phone.locator("#tab-setup")).to_have_text(setup_tab)  # the page follows live
        for screen in (*TAB_SCREENS, "rules", "display"):
            open_screen(phone, screen)
            found = check_screen(phone, f"{screen}-{lang}")
            assert found == [], "\n".join(found)
            if screen == "display":
                phone.click("#display-close")


def test_the_press_banners_follow_a_language_switch(phones: tuple[Page, Page], api: Api) -> None:
    """A press's banner (the Table screen's and the table display's) is redrawn in the new
    language: it stayed French on an English page."""
    seat_four(api)
    page, other = phones
    other.click("#open-display")
    api.act("table.press")
    expect(page.locator("#fired-banner")).to_have_text(re.compile(r"(cartes? pour|rien pour) "))
    expect(other.locator("#display-fired")).to_have_text(re.compile(r"(cartes? pour|rien pour) "))
    api.act("settings.update", language="en")
    english = re.compile(r"^(★ \d+ cards? for|Click… nothing for) Chloé!$")
    expect(page.locator("#fired-banner")).to_have_text(english)
    expect(other.locator("#display-fired")).to_have_text(english)
    # The display's last press line is the round's: a new game clears it.
    api.act("score.new_game", name="Another")
    expect(other.locator("#display-fired")).to_be_empty()


def test_the_chart_draws_each_player_in_their_chosen_colour(phone: Page, api: Api) -> None:
    """The score chart uses the colours picked at setup, as the names on the page do."""
    seat_four(api)
    api.act("page.colours", colours={"Alice": 3, "Bruno": 2, "Zoé": 1, "Chloé": 0})
    chloe_wins_a_round(api)
    tab(phone, "score")
    expect(phone.locator("#standings .name").first).to_have_class("name pc0")  # Chloé leads
    expect(phone.locator("#kind-pad .pts").first).to_have_text("1 pt")  # not "1 pts"
    expect(phone.locator("#kind-pad .pts").nth(1)).to_have_text("2 pts")
    lines = phone.evaluate(
        "fetch('/api/chart.svg').then(r => r.text()).then(t => [...new DOMParser()"
        ".parseFromString(t, 'image/svg+xml').querySelectorAll('polyline')]"
        ".map(l => [l.dataset.player, l.getAttribute('class')]))"
    )
    assert sorted(lines) == [
        ["Alice", "line s3"],
        ["Bruno", "line s2"],
        ["Chloé", "line s0"],
        ["Zoé", "line s1"],
    ]


# Where the parts of a turn are: each box against the viewport, and whether the toast (when
# up) overlaps HIT. The card pad counts by its first row of colours and of numbers.
TURN_PARTS = """() => {
  // A part inside the scrolling pad counts only where that box shows it.
  const box = (sel) => {
    const e = document.querySelector(sel);
    if (!e || !e.getClientRects().length || e.closest('[hidden]')) return null;
    const r = e.getBoundingClientRect();
    const clip = e.closest('.table-scroll');
    const c = clip ? clip.getBoundingClientRect() : {top: -Infinity, bottom: Infinity};
    return {top: r.top < c.top ? -1 : r.top, bottom: r.bottom > c.bottom ? Infinity : r.bottom,
      left: r.left, right: r.right};
  };
  const parts = {hit: '#hit', actor: '#actor-name', owed: '#owed li:last-child',
    colours: '#colour-row button', numbers: '#digits button:not([hidden])',
    round_over: '#round-winner', turn_of: '#turn-of', aim: '.meta .facing',
    magazine: '.meta .magazine', last_card: '#last-card'};
  const out = {height: innerHeight, width: innerWidth, scrollY};
  for (const [k, sel] of Object.entries(parts)) out[k] = box(sel);
  out.toast = box('#toast');
  out.banner = box('#fired-banner');
  if (out.banner) {  // seen, not under something else
    const b = out.banner;
    const at = document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2);
    out.banner_seen = Boolean(at && at.closest('#fired-banner'));
  }
  return out;
}"""


# A message with a button (the longest kind a toast shows), put up in every state of a turn.
TOAST_UP = (
    "import('/static/js/dom.js').then((m) => m.toast('La manche 3 en cours s\u2019arrête : "
    "la table est prête.', 'ok', {label: 'Défaire', run() {}}))"
)


# The turn's lines a press's banner must leave uncovered (besides the pad and HIT).
TURN_LINES = ("actor", "owed", "turn_of", "aim", "magazine", "last_card")
BANNER_UP = (
    "document.getElementById('fired-banner').hidden = false;"
    "document.getAnimations().forEach((a) => a.finish())"  # its pop, done
)


def turn_faults(
    page: Page, state: str, wanted: tuple[str, ...], toast: bool = True, banner: bool = False
) -> list[str]:
    """The parts of the turn that are not wholly on screen at either size, or under the toast
    (one put up unless the state has its own: ``toast=False``) or the press's banner (kept up
    past its 5 s when ``banner``: its place is what is checked)."""
    faults = []
    for size in SIZES:
        page.set_viewport_size(size)
        if banner:
            page.evaluate(BANNER_UP)
        if toast:
            page.evaluate(TOAST_UP)
        expect(page.locator("#toast")).to_be_visible()
        parts: dict[str, Any] = page.evaluate(TURN_PARTS)
        where = f"{state} at {size['width']}x{size['height']}"
        for name in wanted:
            r = parts[name]
            if r is None:
                faults.append(f"{where}: {name} not shown")
            elif r["top"] < 0 or r["bottom"] > parts["height"] or r["right"] > parts["width"]:
                faults.append(f"{where}: {name} off screen {r}")

        def covers(over: Any, part: Any) -> bool:
            return bool(
                over and part and over["bottom"] > part["top"] and over["top"] < part["bottom"]
            )

        faults += [
            f"{where}: the toast covers {n}" for n in wanted if covers(parts["toast"], parts[n])
        ]
        if banner and not parts.get("banner_seen"):
            faults.append(f"{where}: no press banner in sight")
        for name in (*TURN_LINES, "colours", "numbers", "hit"):
            if covers(parts["banner"], parts[name]):
                faults.append(f"{where}: the press banner covers {name}")
        if covers(parts["banner"], parts["toast"]):
            faults.append(f"{where}: the press banner and the toast overlap")
        for scheme in screenshot_schemes():
            page.emulate_media(color_scheme=scheme)
            shot(page, f"turn-{state}-{size['width']}-{scheme}", full_page=False)
    page.emulate_media(color_scheme="light")
    return faults


def test_every_turn_fits_one_screen_toast_and_all(phone: Page, api: Api) -> None:
    """Who acts, the presses owed, HIT and the card pad on screen without scrolling at 320x640
    and 390x844, in each state of a turn, with a message up too (it must not cover HIT). And
    the page words every message as the box does (same phone: no daemon of its own)."""
    formats_every_message_as_the_box_does(phone)
    seat_four(api)
    page = phone
    expect(page.locator("#actor-name")).to_have_text("Chloé")
    pad = ("hit", "actor", "colours", "numbers")
    faults = turn_faults(page, "play", pad)
    page.click('#cards [data-card="hit2"]')  # Alice owes two presses
    expect(page.locator("#owed li")).to_have_count(1)
    faults += turn_faults(page, "owed", (*pad, "owed"))
    api.act("table.press")  # one of Alice's two presses: its banner comes up
    expect(page.locator("#fired-banner")).to_be_visible()
    faults += turn_faults(page, "pressed", (*pad, "owed"), banner=True)
    # A Coup Extrême: two players owe presses; the box out of reach puts a message up meanwhile.
    api.act("table.press")  # Alice's second press
    expect(page.locator("#owed li")).to_have_count(0)
    page.click('#cards [data-card="coup_extreme"]')
    page.locator("#targets button").first.click()
    expect(page.locator("#owed li")).to_have_count(2)
    page.route("**/api/actions/**", lambda route: route.abort("connectionrefused"))
    page.click("#hit")
    expect(page.locator("#toast")).to_have_text("La boîte ne répond pas.")
    expect(page.locator("#last-card")).to_contain_text("Coup Extrême")
    faults += turn_faults(page, "coup-extreme-toast", (*pad, "owed"), toast=False, banner=True)
    # The round over: its panel; HIT only while presses are still owed.
    page.unroute("**/api/actions/**")
    api.act("table.round_won", player=api.state()["table"]["owed"][0]["player"])
    expect(page.locator("#round-over")).to_be_visible()
    expect(page.locator("#hit")).to_be_hidden()  # nothing owed: the count gets its room
    faults += turn_faults(page, "round-over", ("actor", "round_over"))
    assert faults == [], "\n".join(faults)
    # The Table tab opens at its top, wherever the player left another screen or the pad.
    page.locator("#table-scroll").evaluate("(e) => { e.scrollTop = 400; }")
    tab(page, "score")
    page.mouse.wheel(0, 600)
    tab(page, "table")
    assert page.evaluate("[scrollY, document.querySelector('#table-scroll').scrollTop]") == [0, 0]


def formats_every_message_as_the_box_does(phone: Page) -> None:
    """The page's message formatter (Intl.PluralRules) and the box's (Babel) agree on every
    message the page shows, in both languages, plurals, selects and elision included."""
    cases = page_samples()
    assert len(cases) > 1000
    made = phone.evaluate(
        "(cases) => import('/static/js/message.js').then((m) => cases.map(([lang, text, params])"
        " => m.formatMessage(text, lang, params)))",
        [[lang, text, params] for lang, text, params, _ in cases],
    )
    wrong = [
        (c[0], c[1], c[2], c[3], got) for c, got in zip(cases, made, strict=True) if got != c[3]
    ]
    assert wrong == []
