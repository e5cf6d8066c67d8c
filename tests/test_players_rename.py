"""Renaming a player in place against the real daemon in simulation, through its HTTP API: the
same seat, hand and turn, the same scores and colour, an undo that keeps the new name; a clash,
an unknown player or a bad name is refused and changes nothing."""

from __future__ import annotations

import json
import urllib.error

import pytest

pytest.register_assert_rewrite("tests.browser")
from tests.browser import FOUR, Api, chloe_wins_a_round, seat_four  # noqa: E402

pytest_plugins = ["tests.browser"]  # the daemon and api fixtures


def refused(api: Api, **payload: str) -> tuple[int, str]:
    with pytest.raises(urllib.error.HTTPError) as caught:
        api.act("players.rename", **payload)
    return caught.value.code, json.load(caught.value)["error"]["key"]


def test_a_player_renamed_keeps_seat_hand_turn_scores_and_colour(api: Api) -> None:
    seat_four(api)
    api.act("page.colours", colours={"Alice": 5, "Bruno": 1, "Zoé": 2, "Chloé": 3})
    chloe_wins_a_round(api)
    api.act("table.play", card="number", value=5, colour="red")  # Chloé plays: Alice's turn
    api.act("table.set_hand", player="Alice", cards=4)
    before = api.state()
    after = api.act("players.rename", player="Alice", name=" Anaïs ")
    table = after["table"]
    assert [p["name"] for p in table["players"]] == ["Anaïs", *FOUR[1:]]
    assert table["active"] == "Anaïs" and table["players"][0]["hand"] == 4
    score = after["score"]
    assert score["game"]["players"] == ["Anaïs", *FOUR[1:]]
    assert [(r["party"], r["total"]) for r in score["standings"]["rows"]] == [
        (r["party"].replace("Alice", "Anaïs"), r["total"])
        for r in before["score"]["standings"]["rows"]
    ]
    assert {h["player"]: h["points"] for h in score["history"][0]["hands"]}["Anaïs"] == 10
    assert after["page"]["colours"]["Anaïs"] == 5 and "Alice" not in after["page"]["colours"]
    # An undo takes back the hand, not the name.
    undone = api.act("table.undo")["table"]
    assert [p["name"] for p in undone["players"]] == ["Anaïs", *FOUR[1:]]
    assert undone["players"][0]["hand"] == 7  # as dealt: the hand set to 4 is taken back


def test_a_clash_an_unknown_player_or_a_bad_name_is_refused(api: Api) -> None:
    seat_four(api)
    before = api.state()
    assert refused(api, player="Alice", name="zoé") == (400, "errors.duplicate_player")
    # names compare as they show: full-width letters and doubled spaces are the same name
    assert refused(api, player="Alice", name="ＺＯÉ") == (400, "errors.duplicate_player")
    assert refused(api, player="Alice", name="Alice") == (400, "errors.bad_name")
    assert refused(api, player="Nobody", name="Ana") == (404, "errors.unknown_player")
    assert refused(api, player="Alice", name="   ")[0] == 400
    after = api.state()
    assert (after["table"], after["score"]) == (before["table"], before["score"])


def test_a_player_renamed_during_the_count_keeps_their_hand_and_win(api: Api) -> None:
    """The round's count follows a rename: the hand counted, the win, and the score game (a
    renamed game goes on as a copy)."""
    seat_four(api)
    api.act("table.round_won", player="Chloé")
    game = api.state()["score"]["game"]["id"]
    count = {"game": game, "round": api.state()["table"]["round"], "winner": "Chloé"}
    api.act("count.hand", **count, player="Alice", cards={"n5": 2})
    api.act("count.hand", **count, player="Bruno", points=12)
    api.act("players.rename", player="Alice", name="Anaïs")
    after = api.act("players.rename", player="Chloé", name="Cléo")
    renamed = after["score"]["game"]["id"]
    assert renamed != game
    assert after["count"] == {
        "game": renamed,
        "round": count["round"],
        "winner": "Cléo",
        "hands": {"Anaïs": {"cards": {"n5": 2}}, "Bruno": {"points": 12}},
    }
    # The count goes on under the new names and is saved.
    key = {k: after["count"][k] for k in ("game", "round", "winner")}
    hands = api.act("count.hand", **key, player="Zoé", points=3)["count"]["hands"]
    assert hands == {"Anaïs": {"cards": {"n5": 2}}, "Bruno": {"points": 12}, "Zoé": {"points": 3}}
    saved = api.act("score.record_round", hands={**hands, "Cléo": {"points": 0}}, winner="Cléo")
    assert saved["score"]["history"][-1]["credited"]["Cléo"] == 10 + 12 + 3
