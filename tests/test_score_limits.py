"""Cheap taps cannot grow the state: actions naming a game or player that is not stored are
refused and keep nothing; games start at a bounded rate and the state lists the newest only."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.app.hub import Hub
from companion.app.round_count import RoundCount
from companion.app.score_limits import (
    LISTED_GAMES,
    NEW_GAMES_PER_MINUTE,
    GameStarts,
    players_of,
    stored_game_ids,
)
from companion.app.scorekeeper import ScoreKeeper
from companion.app.stored_games import StoredGames
from companion.core.errors import ActionError
from companion.core.table import TableEngine
from companion.i18n import Catalog
from companion.storage import Storage
from companion.web import WebConfig, create_app
from tests.test_web_api import Clock, post_action

PLAYERS = ["Zoé", "Raphaël", "Maëlle", "Jérôme"]
TAPS = 1000
FR = {"Accept-Language": "fr"}
EN = {"Accept-Language": "en"}


def size(state: dict[str, Any]) -> int:
    return len(json.dumps(state, ensure_ascii=False).encode())


@pytest.fixture
def box(tmp_path: Path) -> Iterator[tuple[Hub, ScoreKeeper, Clock]]:
    """The score keeper, stored games and round count as the daemon wires them."""
    storage = Storage.open(tmp_path)
    clock = Clock()
    hub = Hub(TableEngine(PLAYERS, seed=1))
    keeper = ScoreKeeper(lambda: storage)
    keeper.starts = GameStarts(clock)
    keeper.attach(hub)
    RoundCount(storage, lambda game: players_of(storage, game)).attach(hub)
    StoredGames(storage, lambda: stored_game_ids(storage)).attach(hub)
    with hub.running():
        hub.dispatch("score.new_game", {"players": PLAYERS, "name": "Chez Mamie"})
        yield hub, keeper, clock
    storage.close()


def refused(hub: Hub, action: str, payload: dict[str, Any]) -> ActionError:
    with pytest.raises(ActionError) as caught:
        hub.dispatch(action, payload)
    return caught.value


def test_made_up_games_and_players_are_refused_and_keep_nothing(
    box: tuple[Hub, ScoreKeeper, Clock],
) -> None:
    hub, keeper, _ = box
    game = keeper.game_id
    assert game is not None
    count = {"game": game, "round": 1, "winner": "Zoé"}
    hub.dispatch("count.hand", {**count, "player": "Maëlle", "points": 12})
    before = hub.state()
    for n in range(TAPS):
        made_up = f"made-up-{n}"
        assert refused(hub, "score.rename_game", {"game": made_up, "name": "x"}).status == 404
        assert refused(hub, "score.delete_game", {"game": made_up}).key == "errors.unknown_game"
        hand = refused(hub, "count.hand", {**count, "player": f"Nobody {n}", "points": 1})
        assert (hand.key, hand.status) == ("errors.unknown_player", 404)
    assert refused(hub, "count.hand", {**count, "game": "g0", "player": "Zoé"}).status == 404
    assert refused(hub, "count.hand", {**count, "winner": "Nobody", "player": "Zoé"}).status == 404
    after = hub.state()
    assert after["games_kept"] == before["games_kept"] == {"names": {}, "deleted": []}
    assert after["count"] == before["count"] and size(after) == size(before)
    # The real game is still renamed, deleted and brought back.
    assert hub.dispatch("score.rename_game", {"game": game, "name": "Chez Papi"})["games_kept"][
        "names"
    ] == {game: "Chez Papi"}
    assert hub.dispatch("score.delete_game", {"game": game})["games_kept"]["deleted"] == [game]
    assert hub.dispatch("score.restore_game", {"game": game})["games_kept"]["deleted"] == []


def test_games_start_at_a_bounded_rate_and_the_state_lists_the_newest(
    box: tuple[Hub, ScoreKeeper, Clock],
) -> None:
    hub, _, clock = box
    one_game = size(hub.state()["score"])
    refusals = []
    for _ in range(TAPS):  # a tap a second for 1,000 s
        clock.now += 1
        try:
            hub.dispatch("score.new_game", {"players": PLAYERS})
        except ActionError as error:
            refusals.append(error)
    started = TAPS - len(refusals)
    assert started <= (TAPS // 60 + 1) * NEW_GAMES_PER_MINUTE
    assert refusals and {(e.key, e.status) for e in refusals} == {
        ("errors.too_many_new_games", 429)
    }
    assert all(1 <= int(e.params["seconds"]) <= 60 for e in refusals)
    score = hub.state()["score"]
    assert score["games_total"] == started + 1 > LISTED_GAMES
    assert len(score["games"]) == LISTED_GAMES
    # The listed games' part of the state stays bounded: at most LISTED_GAMES entries like the
    # first one, whatever number of games is stored.
    per_game = size(score["games"][0])
    assert size(score) <= one_game + LISTED_GAMES * (per_game + 2)
    assert size(score) < 64_000


def test_refusals_speak_the_phones_language(box: tuple[Hub, ScoreKeeper, Clock]) -> None:
    hub = box[0]
    client = create_app(hub, WebConfig(), Catalog.load(), clock=Clock()).test_client()
    fr = post_action(client, "score.delete_game", {"game": "g-inventé"}, **FR)
    en = post_action(client, "score.delete_game", {"game": "g-inventé"}, **EN)
    assert fr.status_code == en.status_code == 404
    assert fr.get_json()["error"]["message"] == "Aucune partie « g-inventé »."
    assert en.get_json()["error"]["message"] == "No game “g-inventé”."
    for _ in range(NEW_GAMES_PER_MINUTE - 1):  # the fixture's game was the first
        hub.dispatch("score.new_game", {"players": PLAYERS})
    busy = post_action(client, "score.new_game", {"players": PLAYERS}, **FR)
    assert busy.status_code == 429
    assert "réessayez dans" in busy.get_json()["error"]["message"]


def test_only_a_game_that_started_counts_towards_the_minute() -> None:
    starts = GameStarts(lambda: 0.0, per_minute=2)

    def unreadable(payload: dict[str, object]) -> None:
        raise ActionError("import_not_json", "not JSON", {}, 400)

    refused = starts.limited(unreadable)
    for _ in range(5):  # files the box could not read start nothing
        with pytest.raises(ActionError, match="not JSON"):
            refused({})
    started = starts.limited(lambda payload: "game")
    assert started({}) == "game" and started({}) == "game"
    with pytest.raises(ActionError) as third:
        started({})
    assert third.value.key.endswith("too_many_new_games") and third.value.status == 429
