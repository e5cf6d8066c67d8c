"""The score folder removed while the evening goes on: the page says the database was made
again with the game, and the round is there. Fixtures: ``tests/browser.py``."""

from __future__ import annotations

import shutil

import pytest
from playwright.sync_api import Page, expect

from companion.daemon import Daemon

pytest.register_assert_rewrite("tests.browser")
from tests.browser import Api, chloe_wins_a_round, tab  # noqa: E402

pytest_plugins = ["tests.browser"]


def test_the_page_says_the_score_folder_was_made_again(
    phone: Page, four_players: Api, daemon: Daemon
) -> None:
    api = four_players
    chloe_wins_a_round(api)
    tab(phone, "score")
    expect(phone.locator("#storage-problem")).to_be_hidden()
    shutil.rmtree(daemon.options.state_dir)
    chloe_wins_a_round(api)  # the next write notices, makes the database again, then stores
    assert api.state()["score"]["standings"]["rounds"] == 2
    expect(phone.locator("#storage-problem")).to_be_visible()
    expect(phone.locator("#storage-text")).to_contain_text(
        "Le fichier des scores a disparu pendant la partie"
    )
    expect(phone.locator("#storage-backup-row")).to_be_hidden()
    assert (daemon.options.state_dir / "scores.sqlite3").exists()
