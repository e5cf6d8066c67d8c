"""The page's movements of the launcher (test fire, face a seat, calibrate a seat) are guarded:
the round's phase, the launcher still moving, a burst of taps, the magazine, and remote pressing
on a box."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from companion.app.device_actions import MOVE_INTERVAL, DeviceActions
from companion.app.hub import Hub
from companion.config import Config
from companion.core.commands import Command, Eject, Turn
from companion.core.errors import ActionError
from companion.core.events import Press, Reload, RoundWon
from companion.daemon import table_engine
from companion.web import WebConfig, create_app

from .test_web_api import catalog, csrf


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Range:
    def clamp(self, angle: float) -> float:
        return angle


class Turret:
    def __init__(self) -> None:
        self.seat_angles = [0.0, 90.0, 180.0, 270.0]
        self.config = self
        self.range = Range()

    def set_seat_angle(self, seat: int, angle: float) -> None:
        self.seat_angles[seat] = angle


class Launcher:
    """The launcher's hardware as the device actions see it: what it was told, and whether it
    still moves (``idle``)."""

    def __init__(self) -> None:
        self.turret = Turret()
        self.hit_button: Any = None
        self.commands: list[Command] = []
        self.idle = True

    def on_input(self, callback: Callable[[Any], None]) -> None:
        pass

    def execute(self, commands: list[Command]) -> None:
        self.commands += commands

    def clear_jam(self) -> None:
        pass

    def wait_idle(self, timeout: float | None = None, *, sound: bool = True) -> bool:
        return self.idle

    def status(self) -> dict[str, Any]:
        return {"simulated": False}

    def fired(self) -> int:
        return sum(c.cards for c in self.commands if isinstance(c, Eject))

    def turns(self) -> list[int]:
        return [c.seat for c in self.commands if isinstance(c, Turn)]


@pytest.fixture
def box() -> Iterator[tuple[Hub, Launcher, Clock]]:
    hub = Hub(table_engine(Config(), seed=7))
    launcher = Launcher()
    clock = Clock()
    devices = DeviceActions(
        launcher, None, default_angles=lambda n: [0.0] * n, simulate=False, clock=clock
    )
    hub.attach(devices)
    hub.register_status("device", launcher.status)
    # Attached, the device actions turn the launcher to the table's active player (Bruno).
    assert launcher.turns() == [1]
    launcher.commands.clear()
    with hub.running():
        yield hub, launcher, clock


def refusal(hub: Hub, action: str, payload: dict[str, Any]) -> ActionError:
    with pytest.raises(ActionError) as refused:
        hub.dispatch(action, payload)
    return refused.value


def test_a_burst_of_test_fires_fires_once(box: tuple[Hub, Launcher, Clock]) -> None:
    hub, launcher, clock = box
    answers = []
    for _ in range(20):
        try:
            hub.dispatch("device.test_fire", {"cards": 5})
            answers.append("fired")
        except ActionError as error:
            answers.append(f"{error.status} {error.key}")
    assert answers == ["fired"] + ["429 errors.launcher_too_soon"] * 19
    assert launcher.fired() == 5
    clock.now += MOVE_INTERVAL
    hub.dispatch("device.test_fire", {"cards": 1})
    assert launcher.fired() == 6


def test_one_firing_in_flight_at_most(box: tuple[Hub, Launcher, Clock]) -> None:
    hub, launcher, clock = box
    launcher.idle = False  # the turret still turning to the table: a test fire queues behind
    hub.dispatch("device.test_fire", {"cards": 5})
    clock.now += MOVE_INTERVAL  # the five cards still in flight
    for action, payload in (("device.test_fire", {"cards": 1}), ("device.face", {"seat": 2})):
        error = refusal(hub, action, payload)
        assert (error.status, error.key) == (429, "errors.launcher_moving")
    assert launcher.fired() == 5 and launcher.turns() == []
    launcher.idle = True
    hub.dispatch("device.face", {"seat": 2})
    assert launcher.turns() == [2]


def test_no_test_fire_or_turn_mid_round(box: tuple[Hub, Launcher, Clock]) -> None:
    hub, launcher, _clock = box
    hub.post(Press(), "button").result(timeout=10)  # the round is under way
    moved = len(launcher.commands)
    for action, payload in (("device.test_fire", {"cards": 1}), ("device.face", {"seat": 0})):
        error = refusal(hub, action, payload)
        assert (error.status, error.key) == (409, "errors.round_under_way")
    assert len(launcher.commands) == moved
    # Once the round is won (over), the launcher may be tested again.
    winner = hub.state()["table"]["active"]
    hub.post(RoundWon(winner), "phone").result(timeout=10)
    assert hub.state()["table"]["round_over"]
    before = launcher.fired()
    hub.dispatch("device.test_fire", {"cards": 1})
    assert launcher.fired() == before + 1


def test_calibrating_a_seat_is_guarded_like_every_movement(
    box: tuple[Hub, Launcher, Clock],
) -> None:
    hub, launcher, clock = box
    hub.dispatch("device.calibrate_seat", {"seat": 1, "angle": 45})
    assert launcher.turns() == [1] and launcher.turret.seat_angles[1] == 45
    for _ in range(5):  # a burst of taps: saved and turned once
        error = refusal(hub, "device.calibrate_seat", {"seat": 2, "angle": 100})
        assert (error.status, error.key) == (429, "errors.launcher_too_soon")
    assert launcher.turns() == [1] and launcher.turret.seat_angles[2] == 180
    clock.now += MOVE_INTERVAL
    launcher.idle = False
    error = refusal(hub, "device.calibrate_seat", {"seat": 2, "angle": 100})
    assert (error.status, error.key) == (429, "errors.launcher_moving")
    launcher.idle = True
    hub.post(Press(), "button").result(timeout=10)  # the round is under way
    error = refusal(hub, "device.calibrate_seat", {"seat": 2, "angle": 100})
    assert (error.status, error.key) == (409, "errors.round_under_way")
    assert launcher.turret.seat_angles[2] == 180


def test_a_test_fire_never_asks_for_more_cards_than_the_magazine_holds(
    box: tuple[Hub, Launcher, Clock],
) -> None:
    hub, launcher, clock = box
    hub.post(Reload(cards=4), "phone").result(timeout=10)
    hub.dispatch("device.test_fire", {"cards": 3})
    clock.now += MOVE_INTERVAL
    error = refusal(hub, "device.test_fire", {"cards": 2})
    assert (error.status, error.key, error.params) == (409, "errors.magazine_short", {"cards": 1})
    hub.dispatch("device.test_fire", {"cards": 1})
    clock.now += MOVE_INTERVAL
    assert refusal(hub, "device.test_fire", {"cards": 1}).params == {"cards": 0}
    assert launcher.fired() == 4
    hub.post(Reload(cards=4), "phone").result(timeout=10)  # filled again
    hub.dispatch("device.test_fire", {"cards": 4})
    assert launcher.fired() == 8


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("fr", "L'appui à distance est désactivé sur ce lanceur."),
        ("en", "Remote pressing is turned off on this launcher."),
    ],
)
def test_a_phone_cannot_fire_or_aim_a_box_without_remote_press(
    box: tuple[Hub, Launcher, Clock], language: str, text: str
) -> None:
    hub, launcher, _clock = box
    client = create_app(hub, WebConfig(), catalog()).test_client()
    headers = {**csrf(client), "Accept-Language": language}
    for action, payload in (
        ("device.test_fire", {"cards": 5}),
        ("device.face", {"seat": 1}),
        ("device.calibrate_seat", {"seat": 1, "angle": 45}),
    ):
        answer = client.post(f"/api/actions/{action}", json={"payload": payload}, headers=headers)
        assert answer.status_code == 403
        assert answer.get_json()["error"]["message"] == text
    assert launcher.commands == []


@pytest.mark.parametrize(
    ("language", "texts"),
    [
        (
            "fr",
            [
                "Trop tôt après le dernier mouvement : attendez 2 s.",
                "Le magasin ne tient plus que 3 cartes : rechargez-le d'abord.",
                "Pendant une manche, le lanceur est aux joueurs : testez-le entre deux manches "
                "(ou avant le premier appui).",
            ],
        ),
        (
            "en",
            [
                "Too soon after the last movement: wait 2 s.",
                "The magazine holds only 3 cards: reload it first.",
                "During a round the launcher is the players': test it between rounds "
                "(or before the first press).",
            ],
        ),
    ],
)
def test_the_refusals_speak_the_phones_language(
    box: tuple[Hub, Launcher, Clock], language: str, texts: list[str]
) -> None:
    hub, _launcher, clock = box
    client = create_app(hub, WebConfig(remote_press=True), catalog()).test_client()
    headers = {**csrf(client), "Accept-Language": language}

    def fire(cards: int) -> Any:
        body = {"payload": {"cards": cards}}
        return client.post("/api/actions/device.test_fire", json=body, headers=headers)

    hub.post(Reload(cards=5), "phone").result(timeout=10)
    assert fire(2).status_code == 200
    messages = [fire(1).get_json()["error"]["message"]]
    clock.now += MOVE_INTERVAL
    messages.append(fire(4).get_json()["error"]["message"])
    hub.post(Press(), "button").result(timeout=10)
    messages.append(fire(1).get_json()["error"]["message"])
    assert messages == texts
