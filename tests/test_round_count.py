"""The round's count shared by every phone, and the stored games' names and deletions: actions
on the hub, kept in the settings store (a restart keeps them)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.app.hub import Hub
from companion.app.round_count import RoundCount
from companion.app.stored_games import StoredGames
from companion.core.errors import ActionError
from companion.core.table import TableEngine
from tests.test_app_evening import MemoryStore as Settings

PLAYERS = ["Zoé", "Raphaël", "Maëlle", "Jérôme"]
ROUND = {"game": "g1", "round": 3, "winner": "Jérôme"}


def hub_with(*services: Any) -> Hub:
    hub = Hub(TableEngine(PLAYERS, seed=1))
    for service in services:
        service.attach(hub)
    return hub


def test_each_phone_counts_its_own_hand_and_every_phone_sees_them_all() -> None:
    settings = Settings()
    hub = hub_with(RoundCount(settings))
    assert hub.state()["count"] == {}
    hub.dispatch("count.hand", {**ROUND, "player": "Zoé", "cards": {"n5": 2, "skip": 1, "n9": 0}})
    hub.dispatch("count.hand", {**ROUND, "player": "Maëlle", "points": 96})
    state = hub.dispatch("count.hand", {**ROUND, "player": "Raphaël", "points": 89})
    # One phone's count never takes another's away.
    assert state["count"] == {
        **ROUND,
        "hands": {
            "Zoé": {"cards": {"n5": 2, "skip": 1}},
            "Maëlle": {"points": 96},
            "Raphaël": {"points": 89},
        },
    }
    # Raphaël counted by cards after all; Maëlle's hand back to "still counting".
    hub.dispatch("count.hand", {**ROUND, "player": "Raphaël", "cards": {"draw2": 2}})
    state = hub.dispatch("count.hand", {**ROUND, "player": "Maëlle"})
    assert state["count"]["hands"] == {
        "Zoé": {"cards": {"n5": 2, "skip": 1}},
        "Raphaël": {"cards": {"draw2": 2}},
    }
    # A restart keeps the count.
    again = hub_with(RoundCount(settings))
    assert again.state()["count"] == state["count"]


def test_a_hand_of_another_round_starts_a_new_count() -> None:
    hub = hub_with(RoundCount(None))
    hub.dispatch("count.hand", {**ROUND, "player": "Zoé", "points": 12})
    state = hub.dispatch("count.hand", {**ROUND, "round": 4, "player": "Maëlle", "points": 3})
    assert state["count"] == {**ROUND, "round": 4, "hands": {"Maëlle": {"points": 3}}}


@pytest.mark.parametrize(
    "bad",
    [
        {"points": -1},
        {"points": 10_001},
        {"cards": {"n5": -2}},
        {"cards": {"n5": 109}},
        {"hand": 3},
        {"player": ""},
    ],
)
def test_a_bad_count_is_refused_and_changes_nothing(bad: dict[str, Any]) -> None:
    hub = hub_with(RoundCount(None))
    hub.dispatch("count.hand", {**ROUND, "player": "Zoé", "points": 12})
    with pytest.raises(ActionError):
        hub.dispatch("count.hand", {**ROUND, "player": "Zoé", **bad})
    assert hub.state()["count"]["hands"] == {"Zoé": {"points": 12}}


def test_a_stored_game_renamed_deleted_and_brought_back() -> None:
    settings = Settings()
    hub = hub_with(StoredGames(settings))
    hub.dispatch("score.rename_game", {"game": "g1", "name": "  Chez  Mamie "})
    state = hub.dispatch("score.delete_game", {"game": "g2"})
    assert state["games_kept"] == {"names": {"g1": "Chez Mamie"}, "deleted": ["g2"]}
    hub.dispatch("score.delete_game", {"game": "g2"})  # twice: still once
    assert hub_with(StoredGames(settings)).state()["games_kept"]["deleted"] == ["g2"]
    state = hub.dispatch("score.restore_game", {"game": "g2"})
    assert state["games_kept"]["deleted"] == []
    with pytest.raises(ActionError) as blank:
        hub.dispatch("score.rename_game", {"game": "g1", "name": "   "})
    assert blank.value.status == 400
    assert hub.state()["games_kept"]["names"] == {"g1": "Chez Mamie"}
