"""A whole game on two phones in Debian's Chromium, to its end, as a table of four plays it.

Round over: the page names the winner and asks for the other hands, starting with the player
after the winner; then the round's points, the new standings and the next round with the next
dealer; the last round passes the target: the winner, the final standings, a rematch. On the way:
the table display with its sounds, the 001 evening schedule to its winner and consolation prize,
an accessibility check (axe-core) and screenshots at 390x844 and 320x640, light and dark, French
and English, kept in ``tests/artifacts/``.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from companion.core.cues import cue_steps

pytest.register_assert_rewrite("tests.browser")
from tests.browser import (  # noqa: E402
    Api,
    axe_check,
    both_on,
    screenshot_schemes,
    seat_four,
    shot,
    tab,
    until_in_page,
)

pytest_plugins = ["tests.browser"]

SIZES = {"390": {"width": 390, "height": 844}, "320": {"width": 320, "height": 640}}


def shots(page: Page, name: str, api: Api) -> None:
    """The current screen at both phone sizes, light and dark, in the table's language."""
    lang = api.state()["settings"]["language"]
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        for scheme in screenshot_schemes():
            page.emulate_media(color_scheme=scheme)
            shot(page, f"evening-{name}-{size}-{scheme}-{lang}", full_page=False)
        # Nothing wider than the phone (no sideways scrolling).
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"], name
    page.set_viewport_size(SIZES["390"])
    page.emulate_media(color_scheme="light")


def no_serious_violations(page: Page, where: str) -> None:
    violations = axe_check(page)
    assert not violations, (where, violations)


def win_round(page: Page, winner: str, hands: dict[str, int]) -> None:
    """``winner`` goes out (their chip, then "won the round"); the hands are typed in."""
    page.click(f'#chips [data-player="{winner}"]')
    page.click('[data-act="table.round_won"]')
    inputs = page.locator("#hands-entry input")
    expect(inputs.first).to_be_visible()
    assert [inputs.nth(i).get_attribute("data-hand") for i in range(inputs.count())] == list(hands)
    for player, points in hands.items():
        page.fill(f'#hands-entry [data-hand="{player}"]', str(points))
    page.click("#save-hands")


def test_a_whole_game_on_two_phones_to_its_end(phones: tuple[Page, Page], api: Api) -> None:
    seat_four(api, target=150)
    page, other = phones
    page.emulate_media(color_scheme="light")
    expect(page.locator("#actor-name")).to_have_text("Chloé")  # on the dealer's (Zoé's) left
    expect(page.locator("#hit-who")).to_have_text("Chloé")
    shots(page, "table", api)
    no_serious_violations(page, "table")
    tab(page, "setup")
    shots(page, "setup", api)
    tab(page, "table")

    # Round 1: Chloé goes out; the others' hands starting with Alice (after Chloé, going left).
    win_round(page, "Chloé", {"Alice": 40, "Bruno": 30, "Zoé": 20})
    for phone in (page, other):  # the other phone follows live
        expect(phone.locator("#round-winner")).to_contain_text("Chloé a gagné la manche")
        expect(phone.locator("#round-points")).to_contain_text("Chloé : +90")
        expect(phone.locator("#round-standings li").first).to_contain_text("Chloé90")
        expect(phone.locator("#next-round")).to_have_text("Manche suivante — donne : Chloé")
        expect(phone.locator("#play")).to_be_hidden()  # no play buttons once the round is over
    shots(page, "round-over", api)
    no_serious_violations(page, "round over")
    other.click("#next-round")
    expect(page.locator("#play")).to_be_visible()
    expect(page.locator("#actor-name")).to_have_text("Alice")  # left of Chloé, the new dealer
    assert api.state()["table"]["dealer"] == "Chloé"

    # The table display on the second phone: big name, sound on, every press seen and heard.
    other.click("#open-display")
    assert other.url.endswith("/#display")  # the tablet in the middle can bookmark it
    other.set_viewport_size({"width": 844, "height": 390})
    expect(other.locator("#display-name")).to_have_text("Alice")
    expect(other.locator("#display-sound")).to_have_attribute("aria-pressed", "true")
    before = api.state()["table"]
    page.click("#hit")
    expect(other.locator("#display-fired")).not_to_be_empty()
    until_in_page(other, "window.__cues.includes('ding')")
    # The same cues as the box's buzzer, played from its own steps.
    served = other.evaluate("fetch('/api/cues').then(r => r.json())")
    assert served["ding"] == [list(step) for step in cue_steps("ding")]
    assert len(served["suspense"]) == 11
    after = api.state()["table"]
    if after["magazine"] == before["magazine"]:  # a press that fires nothing still shows
        expect(other.locator("#display-fired")).to_contain_text("rien")
    # The banner pops in (0.5 s): check its contrast once it has fully appeared.
    expect(other.locator("#display-fired")).to_have_css("opacity", "1")
    shot(other, "evening-table-display-landscape", full_page=False)
    no_serious_violations(other, "table display")
    other.click("#display-close")
    other.set_viewport_size(SIZES["390"])

    # Round 2: Chloé again, past the target (90 + 70 = 160 of 150): the game is over.
    if api.state()["table"]["round_over"] is False:
        win_round(page, "Chloé", {"Alice": 30, "Bruno": 20, "Zoé": 20})
    for phone in (page, other):
        expect(phone.locator("#game-winner")).to_have_text("Chloé gagne la partie !")
        expect(phone.locator("#final-standings li").first).to_contain_text("Chloé160")
        expect(phone.locator("#play")).to_be_hidden()
        expect(phone.locator("#actor-name")).to_be_hidden()  # nobody's turn any more
    shots(page, "game-over", api)
    tab(page, "score")  # the score screen too: the winner, no entry form
    expect(page.locator("#score-winner")).to_have_text("Chloé gagne la partie !")
    expect(page.locator("#entry")).to_be_hidden()
    page.locator("#chart").scroll_into_view_if_needed()
    until_in_page(page, "document.getElementById('chart').naturalWidth > 0")
    shots(page, "score-over", api)
    no_serious_violations(page, "score")

    # English: the same screens in the other language.
    api.act("settings.update", language="en")
    expect(page.locator("#score-winner")).to_have_text("Chloé wins the game!")
    shots(page, "score-over", api)
    tab(page, "table")
    expect(page.locator("#game-winner")).to_have_text("Chloé wins the game!")
    shots(page, "game-over", api)
    api.act("settings.update", language="fr")

    # Rematch: same players and rules, the first deal passes to the next player (Chloé).
    page.click("#rematch")
    expect(other.locator("#play")).to_be_visible()
    game = api.state()["score"]["game"]
    assert (game["players"], game["first_dealer"], game["target"]) == (
        ["Alice", "Bruno", "Zoé", "Chloé"],
        "Chloé",
        150,
    )
    expect(other.locator("#actor-name")).to_have_text("Alice")


def test_the_001_evening_of_partner_games(phones: tuple[Page, Page], api: Api) -> None:
    """Four players, four games with each partner: 12 games, marks kept, winner and consolation."""
    seat_four(api)
    page, other = both_on(phones, "evening")
    page.click("#evening-start")
    expect(other.locator("#evening-progress")).to_have_text("0 jeux joués sur 12")
    games: list[dict[str, Any]] = api.state()["evening"]["games"]
    partners = {tuple(sorted(team)) for g in games for team in g["teams"]}
    assert len(games) == 12 and len(partners) == 6  # everyone partners everyone
    # Seat game 1: partners across (seat order A1, B1, A2, B2).
    page.click("[data-seat-game]")
    first = games[0]["teams"]
    seats = [first[0][0], first[1][0], first[0][1], first[1][1]]
    until_in_page(
        page,
        "fetch('/api/state').then(r => r.json()).then(s => s.table.players.map(p => p.name)"
        f".join() === {','.join(seats)!r})",
    )
    # Points typed on a card stay typed when the card is drawn again (here, in English).
    page.locator('[data-game="1-1"] input').fill("10")
    api.act("settings.update", language="en")
    expect(page.locator("#evening-progress")).to_have_text("0 of 12 games played")
    expect(page.locator('[data-game="1-1"] input')).to_have_value("10")
    api.act("settings.update", language="fr")
    expect(page.locator("#evening-progress")).to_have_text("0 jeux joués sur 12")
    # The first team wins every game, 10 points each time: its members lead.
    for number in range(1, 13):
        card = page.locator(f'[data-game="{number}-1"]')
        card.locator("input").fill("10")
        card.locator('[data-winners="0"]').click()
        expect(other.locator("#evening-progress")).to_have_text(f"{number} jeux joués sur 12")
    marks = {r["player"]: r["mark"] for r in api.state()["evening"]["standings"]}
    assert sum(marks.values()) == 12 * 2 * 10
    best = max(marks.values())
    low = min(marks.values())
    winners = [p for p, m in marks.items() if m == best]
    losers = [p for p, m in marks.items() if m == low]
    expect(other.locator("#evening-winner")).to_contain_text(" & ".join(winners))
    expect(other.locator("#evening-consolation")).to_contain_text(" & ".join(losers))
    shots(other, "evening-end", api)
    no_serious_violations(other, "evening")


def test_eight_players_seat_either_tables_game_at_the_box(
    phones: tuple[Page, Page], api: Api
) -> None:
    """Two tables of four play at once and the box serves one: the game of table 2 is seated at
    the box as well as table 1's, and every player keeps one colour whoever sits at the box."""
    eight = ["Alice", "Bruno", "Zoé", "Chloé", "Élise", "Farid", "Gaël", "Hugo"]
    api.act("table.setup", players=eight, dealer="Alice")
    page, other = phones
    tab(page, "evening")
    tab(other, "evening")
    page.click("#evening-start")
    expect(other.locator("#evening-progress")).to_have_text("0 jeux joués sur 56")
    colours = api.state()["page"]["colours"]
    assert sorted(colours) == sorted(eight) and len(set(colours.values())) == 8
    pending = {g["table"]: g["teams"] for g in api.state()["evening"]["pending"]}
    for table in (2, 1):
        teams = pending[table]
        seats = [teams[0][0], teams[1][0], teams[0][1], teams[1][1]]
        other.click(f'[data-game="1-{table}"] [data-seat-game]')
        for phone in (page, other):
            expect(phone.locator(f'[data-game="1-{table}"] .badge')).to_have_text("avec le lanceur")
            expect(phone.locator(f'[data-game="1-{3 - table}"] [data-seat-game]')).to_be_visible()
        assert [p["name"] for p in api.state()["table"]["players"]] == seats
        assert api.state()["page"]["colours"] == colours
        for player, index in colours.items():  # the marks keep everyone's colour
            expect(page.locator(f'#evening-marks [data-player="{player}"] .name')).to_have_class(
                f"name pc{index}"
            )
    shots(page, "evening-eight", api)
    no_serious_violations(page, "evening of eight")
