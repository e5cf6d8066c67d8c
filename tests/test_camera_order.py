"""The camera keeps the game in order: cards seen while a question is open wait behind it and are
played in order, each for the player whose turn it was, once it is answered (by a tap, by HIT
during the sweep, or by a phone that played the card itself); the question is taken once."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from companion.app.inputs import ButtonPress, ScriptLine
from companion.core.errors import ActionError
from companion.core.table import TableEngine
from companion.daemon import Daemon
from tests.helpers import wait_for
from tests.tables import run
from tests.test_camera_service import FakeCamera, FakeSighting, camera_daemon, camera_state
from tests.test_daemon import press

__all__ = ["camera_daemon"]  # the fixture, used by name

PLAYERS = ("Alice", "Bruno", "Chloé", "David")


def sure(kind: str, colour: str = "") -> FakeSighting:
    return FakeSighting(kind, colour, 0.99, True, ((kind, colour, 0.99),))


def unsure(kind: str, colour: str) -> FakeSighting:
    return FakeSighting(kind, colour, 0.55, False, ((kind, colour, 0.55), ("7", colour, 0.4)))


def begin(daemon: Daemon, start: str = "start 3 yellow") -> None:
    for line in (f"players {' '.join(PLAYERS)}", start):
        future = daemon.door.take(ScriptLine(line))
        assert future is not None
        future.result(timeout=10)


def plays(daemon: Daemon) -> list[tuple[Any, ...]]:
    def run() -> list[tuple[Any, ...]]:
        log = daemon.hub.engine.snapshot()["log"]
        return [
            (
                line["card"]["kind"],
                line["card"]["colour"],
                line["card"].get("value"),
                line["player"],
            )
            for line in log
            if line["event"] == "play" and not line["refused"]
        ]

    result: list[tuple[Any, ...]] = daemon.hub.call(run).result(timeout=10)
    return result


def typed(*lines: str) -> list[tuple[Any, ...]]:
    engine = TableEngine(list(PLAYERS), seed=5)
    script = [f"players {' '.join(PLAYERS)}", "start 3 yellow", *lines]
    run(engine, *script)
    return [
        (line["card"]["kind"], line["card"]["colour"], line["card"].get("value"), line["player"])
        for line in engine.snapshot()["log"]
        if line["event"] == "play"
    ]


def settle(daemon: Daemon, decisions: int) -> None:
    assert daemon.camera is not None
    wait_for(lambda: daemon.camera.decisions >= decisions, what=f"{decisions} decisions")
    daemon.hub.call(lambda: None).result(timeout=10)
    daemon.hub.call(lambda: None).result(timeout=10)


def test_cards_seen_while_a_question_waits_are_played_in_order_once_answered(camera_daemon):
    camera = FakeCamera()
    daemon = camera_daemon(camera)
    begin(daemon)
    camera.show(sure("5", "yellow"))  # Bruno
    camera.show(unsure("4", "yellow"))  # Chloé's: asked
    camera.show(sure("wild"))  # David's, Alice's, Bruno's: they wait
    camera.show(sure("8", "green"))
    camera.show(sure("skip", "green"))
    settle(daemon, 5)
    state = camera_state(daemon)
    question = state["question"]
    assert question["player"] == "Chloé" and question["needs"] == "card"
    assert "confidence" not in question["candidates"][0]  # no percentages to puzzle over
    assert state["waiting"] == [
        {"kind": "wild", "colour": ""},
        {"kind": "8", "colour": "green"},
        {"kind": "skip", "colour": "green"},
    ]
    assert plays(daemon) == [("number", "yellow", 5, "Bruno")]  # nothing credited meanwhile
    daemon.hub.dispatch("camera.answer", {"id": question["id"], "kind": "4", "colour": "yellow"})
    settle(daemon, 5)
    expected = typed(
        "play 5 yellow", "play 4 yellow", "play wild", "play 8 green", "play skip green"
    )
    assert plays(daemon) == expected
    assert [p[3] for p in expected] == ["Bruno", "Chloé", "David", "Alice", "Bruno"]
    state = camera_state(daemon)
    assert state["question"] is None and state["waiting"] == []


def test_an_answer_is_placed_before_the_presses_made_meanwhile(camera_daemon):
    camera = FakeCamera()
    daemon = camera_daemon(camera)
    begin(daemon)
    camera.show(unsure("hit2", "yellow"))  # Bruno's Appuyer 2x: Chloé presses twice
    settle(daemon, 1)
    question = camera_state(daemon)["question"]
    press(daemon)
    press(daemon)
    wait_for(lambda: daemon.hub.state()["table"]["events"] >= 4, what="two presses")
    camera.show(sure("8", "yellow"))  # David's card, after Chloé's presses: waits
    settle(daemon, 2)
    daemon.hub.dispatch("camera.answer", {"id": question["id"], "kind": "hit2", "colour": "yellow"})
    settle(daemon, 2)
    log = daemon.hub.call(lambda: daemon.hub.engine.snapshot()["log"]).result(timeout=10)
    events = [(line["event"], line["player"]) for line in log if not line["refused"]]
    assert events == [
        ("start_round", None),
        ("play", "Bruno"),
        ("press", "Chloé"),
        ("press", "Chloé"),
        ("play", "David"),
    ]
    assert plays(daemon) == typed("play hit2 yellow", "press", "press", "play 8 yellow")


def test_a_play_tapped_on_a_phone_answers_the_open_question_and_is_not_doubled(camera_daemon):
    camera = FakeCamera()
    daemon = camera_daemon(camera)
    begin(daemon)
    camera.show(FakeSighting(None, "", 0.0, False))  # laid, but not read at all
    settle(daemon, 1)
    question = camera_state(daemon)["question"]
    assert question["missed"] is True and question["candidates"] == []
    assert "camera.question" in daemon.heard
    camera.show(sure("6", "yellow"))  # Chloé's, waiting
    settle(daemon, 2)
    daemon.hub.dispatch("table.play", {"card": "number", "value": 4, "colour": "yellow"})
    settle(daemon, 2)
    assert plays(daemon) == typed("play 4 yellow", "play 6 yellow")
    assert camera_state(daemon)["question"] is None


def test_the_poser_tout_count_stays_asked_after_the_next_card(camera_daemon):
    camera = FakeCamera()
    daemon = camera_daemon(camera)
    begin(daemon)
    camera.show(sure("discard_all", "yellow"))
    camera.show(sure("5", "yellow"))
    settle(daemon, 2)
    counts = camera_state(daemon)["counts"]
    assert [c["player"] for c in counts] == ["Bruno"]
    daemon.hub.dispatch("camera.answer", {"id": counts[0]["id"], "count": 3})
    log = daemon.hub.call(lambda: daemon.hub.engine.snapshot()["log"]).result(timeout=10)
    laid = [line for line in log if line["event"] == "play"]
    assert laid[0]["payload"]["count"] == 3 and laid[1]["player"] == "Chloé"
    assert camera_state(daemon)["counts"] == []


def test_cards_wait_behind_a_coup_extreme_until_its_target_is_named(camera_daemon):
    camera = FakeCamera()
    daemon = camera_daemon(camera)
    begin(daemon)
    camera.show(sure("coup_extreme"))  # Bruno's: the turret sweeps
    camera.show(sure("7", "blue"))
    settle(daemon, 2)
    state = camera_state(daemon)
    assert state["question"]["needs"] == "target" and state["sweeping"] is True
    assert state["waiting"] == [{"kind": "7", "colour": "blue"}]
    assert plays(daemon) == []
    daemon.hub.dispatch(
        "camera.answer", {"id": state["question"]["id"], "kind": "coup_extreme", "target": "David"}
    )
    wait_for(lambda: not camera_state(daemon)["sweeping"], what="the sweep's end")
    expected = typed("play coup_extreme target David")
    assert [(p[0], p[3]) for p in plays(daemon)] == [(p[0], p[3]) for p in expected]
    # David must press before any card: the 7 the rules refuse there is asked, never dropped.
    question = camera_state(daemon)["question"]
    assert question["needs"] == "card" and question["candidates"][0]["kind"] == "7"


def test_two_answers_at_once_play_the_card_once(camera_daemon):
    """A tap on a phone (the hub thread) and HIT during the sweep (the button's thread) answer
    the same Coup Extrême; HIT comes while the tap's play is being handled. One play only, and
    the late one is told."""
    camera = FakeCamera()
    daemon = camera_daemon(camera)
    begin(daemon)
    camera.show(sure("coup_extreme"))
    settle(daemon, 1)
    question = camera_state(daemon)["question"]
    assert question["needs"] == "target"
    hit_done = threading.Event()

    class HitDuringThePlay:
        def on_outcome(self, outcome: Any) -> None:
            last = getattr(outcome, "snapshot", {}).get("last_event") if outcome else None
            card = (last or {}).get("card") or {}
            if card.get("kind") == "coup_extreme" and not hit_done.is_set():
                thread = threading.Thread(target=lambda: daemon.door.take(ButtonPress("hit")))
                thread.start()
                thread.join(timeout=10)
                hit_done.set()

    daemon.hub.add_listener(HitDuringThePlay())
    refused: list[str] = []
    daemon.hub.add_refusal_listener(lambda error, source: refused.append(f"{source}: {error}"))
    daemon.hub.dispatch(
        "camera.answer", {"id": question["id"], "kind": "coup_extreme", "target": "David"}
    )
    assert hit_done.wait(10)
    for _ in range(3):
        daemon.hub.call(lambda: None).result(timeout=10)
    coups = [p for p in plays(daemon) if p[0] == "coup_extreme"]
    assert len(coups) == 1, plays(daemon)
    assert refused == []  # not even a second play, refused by the rules
    # A phone that answers late is told so.
    with pytest.raises(ActionError) as late:
        daemon.hub.dispatch("camera.answer", {"id": question["id"], "kind": "coup_extreme"})
    assert late.value.key == "errors.answered" and late.value.status == 409


def test_a_card_tapped_on_a_phone_then_seen_by_the_camera_is_not_played_twice(camera_daemon):
    camera = FakeCamera()
    daemon = camera_daemon(camera)
    begin(daemon)
    daemon.hub.dispatch("table.play", {"card": "number", "value": 4, "colour": "yellow"})
    camera.show(sure("4", "yellow"))  # the card Bruno tapped, landing under the camera
    camera.show(sure("4", "yellow"))  # Chloé lays the same face: a play of its own
    settle(daemon, 2)
    assert plays(daemon) == typed("play 4 yellow", "play 4 yellow")


def test_the_watcher_follows_the_top_card_not_the_answer_placed_under_later_cards(camera_daemon):
    """An answer placed under cards that waited behind it is not the pile's top card: the
    watcher is told the table's top card once nothing waits, never an older one (it would take
    the top card, seen again, for a new play), and never a wild's named colour."""
    camera = FakeCamera()
    daemon = camera_daemon(camera)
    begin(daemon)
    assert camera.piles == [("3", "yellow")]  # the round's first card, the first read's prior
    camera.show(unsure("4", "yellow"))  # asked
    camera.show(sure("8", "yellow"))  # waits
    camera.show(sure("wild"))  # waits: the top card
    settle(daemon, 3)
    question = camera_state(daemon)["question"]
    told = len(camera.corrected)
    daemon.hub.dispatch("camera.answer", {"id": question["id"], "kind": "4", "colour": "yellow"})
    daemon.hub.call(lambda: None).result(timeout=10)
    assert camera.corrected[told:] == [("wild", "")]
    assert camera.seen[-1] == 3  # after the camera's three sightings
    assert ("4", "yellow") not in camera.corrected[told:]
