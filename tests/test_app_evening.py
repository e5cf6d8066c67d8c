"""The evening service on the hub: actions, state, refusals, and what the settings store keeps."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from companion.app.evening import EveningService
from companion.app.hub import Hub
from companion.core.errors import ActionError
from companion.core.table import TableEngine

FOUR = ["Ana", "Bo", "Cy", "Di"]


class MemoryStore:
    def __init__(self) -> None:
        self.saved: dict[str, Any] = {}

    def settings_get(self, key: str) -> Any:
        return self.saved.get(key)

    def settings_put(self, key: str, value: Any) -> None:
        self.saved[key] = value


@pytest.fixture
def store() -> MemoryStore:
    return MemoryStore()


@pytest.fixture
def hub(store: MemoryStore) -> Iterator[Hub]:
    hub = Hub(TableEngine(FOUR, seed=1))
    EveningService(store).attach(hub)
    with hub.running():
        yield hub


def test_an_evening_is_played_kept_and_put_back(hub: Hub, store: MemoryStore) -> None:
    assert hub.state()["evening"] == {}
    state = hub.dispatch("evening.start", {"players": FOUR})
    assert state["evening"]["total"] == 12 and state["evening"]["pending"][0]["number"] == 1
    state = hub.dispatch("evening.record", {"game": 1, "table": 1, "winners": 0, "points": 25})
    assert state["evening"]["played"] == 1 and state["evening"]["pending"][0]["number"] == 2
    again = Hub(TableEngine(FOUR, seed=1))
    EveningService(store).attach(again)  # a restart: the saved evening comes back
    with again.running():
        assert again.state()["evening"]["played"] == 1


def test_bad_evening_input_is_refused_and_changes_nothing(hub: Hub) -> None:
    with pytest.raises(ActionError):
        hub.dispatch("evening.record", {"game": 1, "table": 1, "winners": 0, "points": 5})
    hub.dispatch("evening.start", {"players": FOUR})
    before = hub.state()["evening"]
    for payload in (
        {"game": 13, "table": 1, "winners": 0, "points": 5},
        {"game": 1, "table": 2, "winners": 0, "points": 5},
    ):
        with pytest.raises(ActionError):
            hub.dispatch("evening.record", payload)
    with pytest.raises(ActionError):
        hub.dispatch("evening.start", {"players": FOUR[:3]})
    assert hub.state()["evening"] == before


def test_colours_are_shared_and_checked(hub: Hub, store: MemoryStore) -> None:
    hub.dispatch("page.colours", {"colours": {"Ana": 3, "Bo": 0}})
    assert hub.state()["page"] == {"colours": {"Ana": 3, "Bo": 0}}
    assert store.saved["colours"] == {"Ana": 3, "Bo": 0}
    for colours in ({"Ana": 8}, {"Ana": -1}, {f"P{i}": 0 for i in range(11)}):
        with pytest.raises(ActionError):
            hub.dispatch("page.colours", {"colours": colours})
    assert hub.state()["page"] == {"colours": {"Ana": 3, "Bo": 0}}


EIGHT = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


def test_either_tables_game_is_seated_at_the_box_and_colours_stay(store: MemoryStore) -> None:
    """Eight players on two tables: the box's table takes the game picked, table 1 or table 2,
    partners across; every evening player keeps one colour whoever sits at the box."""
    hub = Hub(TableEngine(EIGHT, seed=1))
    EveningService(store).attach(hub)
    with hub.running():
        hub.dispatch("page.colours", {"colours": {"Bo": 5, "Zed": 1}})
        state = hub.dispatch("evening.start", {"players": EIGHT})
        colours = state["page"]["colours"]
        assert colours["Bo"] == 5 and "Zed" not in colours  # a chosen colour is kept
        assert sorted(colours) == sorted(EIGHT) and len(set(colours.values())) == 8
        for number, table in ((1, 2), (1, 1), (2, 2)):
            teams = next(
                g["teams"]
                for g in hub.state()["evening"]["games"]
                if (g["number"], g["table"]) == (number, table)
            )
            state = hub.dispatch("evening.seat", {"game": number, "table": table})
            seats = [p["name"] for p in state["table"]["players"]]
            assert seats == [teams[0][0], teams[1][0], teams[0][1], teams[1][1]]
            assert state["page"]["colours"] == colours
        assert store.saved["colours"] == colours
        with pytest.raises(ActionError):
            hub.dispatch("evening.seat", {"game": 29, "table": 1})
        assert [p["name"] for p in hub.state()["table"]["players"]] == seats


def test_seating_needs_a_running_evening(hub: Hub) -> None:
    with pytest.raises(ActionError) as refused:
        hub.dispatch("evening.seat", {"game": 1, "table": 1})
    assert refused.value.key == "evening.error_none"
    assert [p["name"] for p in hub.state()["table"]["players"]] == FOUR


def test_the_table_seated_for_a_game_says_who_seated_it(hub: Hub) -> None:
    """The setup the service posts carries the source of the action that asked for it."""
    seen: list[tuple[str, str]] = []

    class Sources:
        def on_outcome(self, outcome: Any) -> None:
            seen.append((outcome.event, outcome.source))

    hub.add_listener(Sources())
    hub.dispatch("evening.start", {"players": FOUR})
    hub.dispatch("evening.seat", {"game": 1, "table": 1}, source="script")
    hub.dispatch("evening.seat", {"game": 2, "table": 1})
    hub.call(lambda: None).result(timeout=5)  # the setups it queued have run
    assert seen == [("setup", "script"), ("setup", "phone")]
