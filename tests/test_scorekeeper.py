"""Score actions through the hub: stored before they are shown, stale edits refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.hub import Hub
from companion.app.scorekeeper import ScoreKeeper
from companion.core.errors import ActionError
from companion.core.table import TableEngine
from companion.storage import Storage
from tests.helpers import wait_for

HANDS = {
    "Alice": {"points": 0},
    "Bruno": {"cards": {"n7": 1, "hit2": 1}},  # 7 + 20 (000 §X.D)
    "Chloé": {"cards": {"coup_extreme": 1}},  # 50
    "David": {"points": 3},
}


@pytest.fixture
def setup(tmp_path: Path):
    storage = Storage.open(tmp_path)
    hub = Hub(TableEngine(["Alice", "Bruno", "Chloé", "David"], seed=1))
    keeper = ScoreKeeper(lambda: storage)
    keeper.attach(hub)
    with hub.running():
        yield hub, keeper, storage, tmp_path
    storage.close()


def test_record_round_by_cards_extreme_values(setup):
    hub, keeper, storage, _ = setup
    state = hub.dispatch("score.new_game", {"ruleset": "extreme", "name": "Dimanche"})
    assert state["score"]["game"]["name"] == "Dimanche"
    state = hub.dispatch("score.record_round", {"hands": HANDS, "winner": "Alice"})
    rows = {r["party"]: r["total"] for r in state["score"]["standings"]["rows"]}
    assert rows["Alice"] == 27 + 50 + 3  # the winner takes the others' points (000 §VII)
    # It is on disk: a fresh open of the database sees the same game.
    assert storage.load_game(keeper.game_id).revision == 1


def test_the_game_ruleset_chooses_the_deck_on_the_table(setup):
    """The launcher holds the chosen deck minus the hands (000 §X.A): a Flip game loads Flip."""
    hub, *_ = setup
    hub.dispatch("score.new_game", {"ruleset": "flip"})
    hub.call(lambda: None).result(timeout=5)  # the deck change is queued after the action
    table = hub.state()["table"]
    assert table["rules"]["deck"] == "flip" and table["side"] == "light"
    assert table["magazine"] == 112 - 4 * 7 - 1
    hub.dispatch("score.new_game", {"ruleset": "classic"})
    hub.call(lambda: None).result(timeout=5)
    assert hub.state()["table"]["magazine"] == 108 - 4 * 7 - 1


def test_a_classic_game_keeps_extreme_rules_played_with_a_classic_deck(setup):
    """Extrême rules with a classic deck (``any_deck``) hold classic cards: a game counted with
    the classic ruleset leaves those rules on the table."""
    hub, *_ = setup
    hub.dispatch("table.rules", {"deck": "extreme", "any_deck": True})
    assert hub.state()["table"]["counted_deck"] == "classic"
    hub.dispatch("score.new_game", {"ruleset": "classic"})
    hub.call(lambda: None).result(timeout=5)  # a deck change would be queued after the action
    table = hub.state()["table"]
    assert table["rules"]["deck"] == "extreme" and table["rules"]["any_deck"] is True
    assert table["counted_deck"] == "classic"


def test_stale_revision_from_a_second_phone_is_refused(setup):
    hub, *_ = setup
    hub.dispatch("score.new_game", {"ruleset": "extreme"})
    hub.dispatch("score.record_round", {"hands": HANDS, "winner": "Alice", "revision": 0})
    with pytest.raises(ActionError) as err:  # the other phone still had revision 0
        hub.dispatch("score.record_round", {"hands": HANDS, "winner": "Alice", "revision": 0})
    assert err.value.status == 409
    assert hub.state()["score"]["revision"] == 1


def test_correct_undo_redo(setup):
    hub, *_ = setup
    hub.dispatch("score.new_game", {"ruleset": "extreme"})
    hub.dispatch("score.record_round", {"hands": HANDS, "winner": "Alice"})
    corrected = dict(HANDS, David={"points": 13})
    state = hub.dispatch("score.correct_round", {"round": 1, "hands": corrected, "winner": "Alice"})
    assert state["score"]["standings"]["rows"][0]["total"] == 90
    state = hub.dispatch("score.undo", {})
    assert state["score"]["standings"]["rows"][0]["total"] == 80
    state = hub.dispatch("score.redo", {})
    assert state["score"]["standings"]["rows"][0]["total"] == 90
    assert state["score"]["revision"] == 4  # append-only: every change is an entry


def test_impossible_counts_are_refused_and_change_nothing(setup):
    hub, *_ = setup
    hub.dispatch("score.new_game", {"ruleset": "extreme"})
    before = hub.state()["score"]
    bad = dict(HANDS, Bruno={"cards": {"wild": 5}})  # a 4-Joker deck
    with pytest.raises(ActionError) as err:
        hub.dispatch("score.record_round", {"hands": bad, "winner": "Alice"})
    assert err.value.status == 400 and err.value.key.startswith("scoring.error.")
    assert hub.state()["score"] == before


def test_without_a_game_and_unknown_game(setup):
    hub, *_ = setup
    with pytest.raises(ActionError) as err:
        hub.dispatch("score.undo", {})
    assert err.value.key == "errors.no_game"
    with pytest.raises(ActionError) as err:
        hub.dispatch("score.open_game", {"game": "nope"})
    assert err.value.status == 404


def test_malformed_import_is_refused(setup):
    hub, *_ = setup
    before = hub.state()["score"]["games"]
    for text in ["{not json", '{"format": "uno-companion/game", "version": 99}', "[]"]:
        with pytest.raises(ActionError) as err:
            hub.dispatch("score.import", {"format": "json", "text": text})
        assert 400 <= err.value.status < 500
    assert hub.state()["score"]["games"] == before


def test_current_game_reopens_after_restart(setup):
    hub, keeper, storage, _ = setup
    hub.dispatch("score.new_game", {"ruleset": "classic"})
    hub.dispatch(
        "score.record_round",
        {"hands": HANDS | {"Bruno": {"points": 9}, "Chloé": {"points": 1}}, "winner": "Alice"},
    )
    again = ScoreKeeper(lambda: storage)
    again.attach(Hub(TableEngine(["a", "b"], seed=1)))
    assert again.game_id == keeper.game_id and again.book.revision == 1


class Heard:
    def __init__(self) -> None:
        self.keys: list[str] = []

    def on_outcome(self, outcome) -> None:
        self.keys += [c.key for c in outcome.commands if hasattr(c, "key")]


def test_round_and_game_results_are_announced(setup):
    hub, *_ = setup
    heard = Heard()
    hub.add_listener(heard)
    hub.dispatch("score.new_game", {"ruleset": "extreme", "target": 60})
    hub.dispatch("score.record_round", {"hands": HANDS, "winner": "Alice"})
    assert "results.round_winner_total" in heard.keys
    assert "results.game_winner" in heard.keys  # 80 points: past the target of 60
    hub.dispatch("score.announce", {})
    assert heard.keys[-1] == "results.standings"


def chloe_reaches_the_target(hub: Hub) -> None:
    """A Jeu défi game to 50 whose first round puts Chloé at 55."""
    hub.dispatch("score.new_game", {"ruleset": "extreme", "mode": "defi", "target": 50})
    hands = {"Alice": {"points": 0}, "Bruno": {"points": 10}, "Chloé": {"points": 55},
             "David": {"points": 3}}  # fmt: skip
    hub.dispatch("score.record_round", {"hands": hands, "winner": "Alice"})


def chloe_out(hub: Hub) -> bool:
    return {p["name"]: p for p in hub.state()["table"]["players"]}["Chloé"]["eliminated"]


def test_defi_elimination_reaches_the_table(setup):
    """000 §X.I / 001 "Défi UNO": at the target a player is out, at the table too."""
    hub, *_ = setup
    chloe_reaches_the_target(hub)
    wait_for(lambda: chloe_out(hub), timeout=5, what="Chloé out at the table")


def test_undoing_an_elimination_brings_the_player_back(setup):
    hub, *_ = setup
    chloe_reaches_the_target(hub)
    hub.dispatch("score.undo", {})

    wait_for(lambda: not chloe_out(hub), timeout=5, what="Chloé back at the table")


def test_the_keeper_joins_the_hub_only_when_attached(tmp_path: Path) -> None:
    with Storage.open(tmp_path, backups=0) as storage:
        hub = Hub(TableEngine(["Alice", "Bruno"], seed=1))
        keeper = ScoreKeeper(lambda: storage)
        assert not any(name.startswith("score.") for name in hub.action_schemas())
        keeper.attach(hub)
        assert "score.record_round" in hub.action_schemas()
        assert hub.state()["score"]["game"] is None
