"""A round saved on the Score screen of a game that holds as much as the box keeps: the phone says
so in its language, the hands typed stay on the screen, and the next new game takes them.
Fixtures: ``tests/browser.py``."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from companion.core.limits import MAX_GAME_ROUNDS
from companion.core.scoring import (
    GameSetup,
    HandEntry,
    LogEntry,
    ScoreBook,
    builtin_ruleset,
    game_to_json,
    make_round,
)

pytest.register_assert_rewrite("tests.browser")
from tests.browser import FOUR, Api, Dialogs, seat_four, tab  # noqa: E402

pytest_plugins = ["tests.browser"]  # the daemon, api, browser, phones fixtures


def full_game() -> str:
    """A game of the table's four players holding all the rounds a game may, as a file."""
    setup = GameSetup("Saison", tuple(FOUR), builtin_ruleset("extreme"), target=100_000)
    hands = {p: HandEntry.of_points(1) for p in FOUR[1:]}
    played = LogEntry.recorded(make_round(setup, {**hands, "Alice": HandEntry.empty()}))
    return game_to_json(ScoreBook(setup, [played] * MAX_GAME_ROUNDS))


def test_a_round_a_full_game_refuses_stays_typed_for_a_new_game(
    phone: Page, api: Api, dialogs: Dialogs
) -> None:
    seat_four(api)
    api.act("score.import", text=full_game())
    page = phone
    # Straight to the Score screen: a phone that never opened Set-up still starts a new game
    # with the table's settings (its game fields were empty and the game was refused).
    tab(page, "score")
    expect(page.locator("#history li").last).to_have_attribute("data-round", str(MAX_GAME_ROUNDS))
    for player, points in (("Alice", "30"), ("Bruno", "20"), ("Zoé", "12")):
        page.click(f'#entry-players [data-entry="{player}"]')
        page.check("#raw-points")
        page.fill("#points-input", points)
    page.select_option("#winner", "Chloé")
    page.click("#save-round")
    expect(page.locator("#toast")).to_contain_text(f"atteint {MAX_GAME_ROUNDS} manches")
    expect(page.locator("#toast")).to_contain_text("nouvelle partie")
    # Not taken for another phone's round: the hands stay as typed.
    expect(page.locator('#entry-players [data-entry="Alice"]')).to_have_text("Alice · 30")
    assert api.state()["score"]["revision"] == MAX_GAME_ROUNDS
    page.click("#new-game-again")
    expect(page.locator("#history li")).to_have_count(0)
    expect(page.locator('#entry-players [data-entry="Zoé"]')).to_have_text("Zoé · 12")
    page.click("#save-round")
    expect(page.locator("#toast")).to_have_text("Enregistré.")
    score = api.state()["score"]
    assert score["revision"] == 1 and len(score["games"]) == 3  # the full game is kept
    assert score["game"]["ruleset"]["key"] == "extreme" and score["game"]["target"] == 100_000
    assert {h["player"]: h["points"] for h in score["history"][0]["hands"]} == {
        "Alice": 30,
        "Bruno": 20,
        "Zoé": 12,
        "Chloé": 0,
    }
    assert dialogs.seen  # the new game said which game it set aside
