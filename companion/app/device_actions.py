"""The table's actions on the launcher: inputs in, motions and cues out, calibration.

Button presses and the card sensor's reports go through the input door
(:class:`HardwareInputs`); the engine's commands (eject, turn, cue) go to the hardware; the
page's device actions (virtual HIT, face or calibrate a seat, test fire) are registered on the
hub; the turret is reseated when the table is; a physical input the rules refuse sounds the
error cue.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from companion.core.commands import Command, Cue, Eject, Turn
from companion.core.errors import ActionError
from companion.core.events import Source
from companion.core.limits import MAX_PLAYERS
from companion.core.model import json_schema, option

from .hub import Hub
from .inputs import BoxReport, ButtonPress, InputDoor, PhoneAction
from .listeners import CommandsTo, OnEvent
from .stores import SettingsStore

log = logging.getLogger(__name__)

SEAT_ANGLES_KEY = "turret.seat_angles"
PHYSICAL: tuple[Source, ...] = ("button", "box", "camera")  # inputs with no screen to answer on
# Seconds between two movements asked from the page (a test fire, a turn to face a seat): a
# burst of taps moves the launcher once.
MOVE_INTERVAL = 2.0
TEST_FIRED_KEY = "device.test_fired"  # cards test-fired since the magazine was last filled


def _seat(help: str) -> Any:
    return option(help=help, min=0, max=MAX_PLAYERS - 1)


@dataclass(frozen=True, kw_only=True)
class SeatPayload:
    """The turret turned to face a seat."""

    seat: int = _seat("the seat, 0 for the first player's, going left")


@dataclass(frozen=True, kw_only=True)
class SeatAnglePayload:
    """A seat's bearing set by hand (saved, then the turret faces it)."""

    seat: int = _seat("the seat, 0 for the first player's, going left")
    angle: int = option(help="the launcher's bearing facing it, in degrees", min=-720, max=720)


@dataclass(frozen=True, kw_only=True)
class TestFirePayload:
    """Fire cards to test the launcher."""

    cards: int = option(1, "how many cards", min=1, max=5)


@dataclass(frozen=True)
class HitPayload:
    """The page's HIT button: a press of the launcher's."""


class AngleRange(Protocol):
    def clamp(self, angle: float) -> float: ...


class TurretSettings(Protocol):
    @property
    def seat_angles(self) -> Sequence[float]: ...


class TurretPart(Protocol):
    seat_angles: list[float]

    @property
    def config(self) -> TurretSettings: ...

    @property
    def range(self) -> AngleRange: ...

    def set_seat_angle(self, seat: int, angle: float) -> None: ...


class HitPart(Protocol):
    @property
    def pin(self) -> Any: ...  # gpiozero's pin (a mock pin in a simulation)

    @property
    def presses(self) -> int: ...  # accepted (debounced) presses since start


class Hardware(Protocol):
    """The launcher's hardware (:class:`companion.devices.LauncherHardware`) as used here."""

    @property
    def turret(self) -> TurretPart: ...

    @property
    def hit_button(self) -> HitPart: ...

    def on_input(self, callback: Callable[[Any], None]) -> None: ...

    def execute(self, commands: list[Command]) -> None: ...

    def clear_jam(self) -> None: ...

    def wait_idle(self, timeout: float | None = None, *, sound: bool = True) -> bool: ...

    def status(self) -> dict[str, Any]: ...


class DeviceActions:
    """Connects a :class:`~companion.devices.LauncherHardware` to the hub.

    ``hardware`` is the launcher's (the daemon builds it); ``store`` keeps calibrated seat angles;
    ``default_angles(players)`` gives the turret's uncalibrated angle of each seat;
    ``simulate`` makes the page's HIT a real edge on the mock pin; ``clock`` (monotonic
    seconds) times the page's movements.

    A test fire or a turn asked from the page (see :meth:`guard_move`) waits for the round to
    be over or not yet begun, for the last such movement to be over and :data:`MOVE_INTERVAL`
    past; a test fire never asks for more cards than the magazine still holds.
    """

    def __init__(
        self,
        hardware: Hardware,
        store: SettingsStore | None,
        *,
        default_angles: Callable[[int], list[float]],
        simulate: bool,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.hardware = hardware
        self._clock = clock
        self._last_move: float | None = None  # when the page last moved the launcher
        self._test_fired = 0  # cards test-fired since the magazine was last filled
        self._hub: Hub | None = None
        self._store = store
        self._default_angles = default_angles
        self._simulate = simulate
        self.moved = threading.Event()  # set when the launcher was given something to do
        self.inputs = HardwareInputs(hardware)  # its buttons and card sensor, an input source
        self._door: InputDoor | None = None  # for the page's HIT on a box

    def attach(self, hub: Hub) -> None:
        """Restore the calibration, listen to the hub, register the actions."""
        self._door = InputDoor(hub)
        self._hub = hub
        saved = self._saved_angles()
        configured = list(self.hardware.turret.config.seat_angles)
        if saved and configured and [round(float(a), 1) for a in configured] != saved:
            # `calibrate` saves in both places; a difference means the page set these later.
            log.warning(
                "seat angles set from the phone page %s replace the config's %s",
                saved,
                configured,
            )
        for seat, angle in enumerate(saved):
            if isinstance(angle, int | float):
                self.hardware.turret.set_seat_angle(seat, float(angle))
        fired = self._store.settings_get(TEST_FIRED_KEY) if self._store is not None else None
        self._test_fired = fired if isinstance(fired, int) and fired > 0 else 0
        hub.add_refusal_listener(self.refused)
        hub.add_listener(OnEvent("setup", lambda o: self.reseat(len(o.snapshot["players"]))))
        # A reload is the players' answer to a jam: the launcher is clear again.
        hub.add_listener(OnEvent("reload", lambda o: self.hardware.clear_jam()))
        for filled in ("reload", "start_round", "setup"):  # the magazine is full again
            hub.add_listener(OnEvent(filled, lambda o: self._forget_test_fires()))
        hub.add_listener(CommandsTo(self.execute))
        # The turret homes at start (or a restart): it then turns to whoever the table faces,
        # before anything can fire.
        hub.call(self.face_the_table)
        register = hub.register_action
        register("device.hit", json_schema(HitPayload), lambda p: self.virtual_hit(), "device")
        register(
            "device.calibrate_seat", json_schema(SeatAnglePayload), self.calibrate_seat, "device"
        )
        register("device.test_fire", json_schema(TestFirePayload), self.test_fire, "device")
        register("device.face", json_schema(SeatPayload), self.face_from_page, "device")

    # ------------------------------------------------------------------ inputs

    def refused(self, error: ActionError, source: Source) -> None:
        """A physical input the rules refuse (a press after the round ended...): say so."""
        if source in PHYSICAL:
            self.execute([Cue("error")])

    def virtual_hit(self) -> None:
        """The page's HIT button. Simulated: a real edge on the mock pin, so the debounce and
        the whole input path run as for a hand on the button. On a box: a press from the phone,
        handled now, so a refused press is this action's answer.

        A press the debounce drops (sooner after the last than the button takes) is answered
        as dropped (429, ``press_dropped``), not as done."""
        if self._simulate:
            button = self.hardware.hit_button
            pin = button.pin  # held: the release may come after the daemon closed the button
            before = button.presses
            pin.drive_low()  # the mock calls the button back at once, in this thread
            accepted = button.presses != before

            def release() -> None:
                time.sleep(0.005)
                pin.drive_high()

            threading.Thread(target=release, name="virtual-hit", daemon=True).start()
            if not accepted:
                raise ActionError(
                    "press_dropped",
                    "too soon after the last press: the button did not take it",
                    status=429,
                )
        else:
            assert self._door is not None  # (an action: attached)
            self._door.take_now(PhoneAction("table.press"))

    # ------------------------------------------------------------------ outputs

    def execute(self, commands: list[Command]) -> None:
        """The launcher's share of the commands (eject, turn, cue); runs on the hub thread."""
        self.hardware.execute([c for c in commands if isinstance(c, Eject | Turn | Cue)])
        if any(isinstance(c, Eject | Turn) for c in commands):
            self.moved.set()

    def face_the_table(self) -> None:
        """Turn to the seat the table faces (whoever owes a press, else the active player)."""
        assert self._hub is not None  # (attached)
        engine = self._hub.engine
        seat = engine.facing_seat()
        self.execute([Turn(seat, engine.state.seats[seat].name)])

    def reseat(self, players: int) -> None:
        """After the table is seated again: one angle per seat, calibrated ones kept."""
        turret = self.hardware.turret
        angles = self._default_angles(players)
        for seat, angle in enumerate(self._saved_angles()[:players]):
            if isinstance(angle, int | float):
                angles[seat] = turret.range.clamp(float(angle))
        turret.seat_angles = angles

    def face(self, payload: dict[str, Any]) -> None:
        seat = payload["seat"]
        self.execute([Turn(seat, f"seat {seat}")])

    def face_from_page(self, payload: dict[str, Any]) -> None:
        self.guard_move()
        self.face(payload)

    def test_fire(self, payload: dict[str, Any]) -> None:
        cards = payload.get("cards", 1)
        assert self._hub is not None  # (an action: attached)
        left = max(0, self._hub.engine.firing.magazine - self._test_fired)
        if cards > left:
            raise ActionError(
                "magazine_short",
                f"the magazine holds {left} cards: reload it first",
                {"cards": left},
                status=409,
            )
        self.guard_move()
        self._test_fired += cards
        # Kept before the cards fly (with the phone's key, when it sent one): a retry after a
        # restart is answered, never fired again, and the magazine's count outlives the restart.
        self._keep_test_fired()
        self.execute([Eject(cards), Cue("burst")])

    def guard_move(self) -> None:
        """Refuse a movement asked from the page mid-round, while the last one still runs or
        sooner than :data:`MOVE_INTERVAL` after it; else count this one."""
        assert self._hub is not None  # (an action: attached)
        if self._hub.engine.round_under_way:
            raise ActionError(
                "round_under_way",
                "the launcher is the players' during a round: test it between rounds",
                status=409,
            )
        # The table's own movements (the turret reseated) may run on: this one queues behind
        # them. The page's last movement must be over: one firing in flight at most.
        if self._last_move is not None and not self.hardware.wait_idle(timeout=0, sound=False):
            raise ActionError(
                "launcher_moving", "the launcher is still moving: try again", status=429
            )
        now = self._clock()
        if self._last_move is not None and now - self._last_move < MOVE_INTERVAL:
            wait = max(1, round(MOVE_INTERVAL - (now - self._last_move)))
            raise ActionError(
                "launcher_too_soon",
                f"too soon after the last movement: wait {wait} s",
                {"seconds": wait},
                status=429,
            )
        self._last_move = now

    def _forget_test_fires(self) -> None:
        if self._test_fired:
            self._test_fired = 0
            self._keep_test_fired()

    def _keep_test_fired(self) -> None:
        if self._store is not None:
            self._store.settings_put(TEST_FIRED_KEY, self._test_fired)

    def calibrate_seat(self, payload: dict[str, Any]) -> None:
        """Save a seat's angle and turn to it: a movement asked from the page, guarded."""
        self.guard_move()
        turret = self.hardware.turret
        turret.set_seat_angle(payload["seat"], float(payload["angle"]))
        if self._store is not None:
            self._store.settings_put(SEAT_ANGLES_KEY, list(turret.seat_angles))
        self.face(payload)

    def status(self) -> dict[str, Any]:
        status: dict[str, Any] = dict(self.hardware.status())
        status["seat_angles"] = list(self.hardware.turret.seat_angles)
        return status

    def _saved_angles(self) -> list[Any]:
        saved = self._store.settings_get(SEAT_ANGLES_KEY) if self._store is not None else None
        return saved if isinstance(saved, list) else []


class HardwareInputs:
    """The launcher's buttons and card sensor as an input source: each notice of the hardware
    (a :class:`~companion.devices.launcher.ButtonPressed` or ``SensorReport``, on the thread
    that saw it) goes through the door while the source is started."""

    def __init__(self, hardware: Hardware) -> None:
        self._hardware = hardware
        self._door: InputDoor | None = None
        self._listening = False

    def start(self, door: InputDoor) -> None:
        self._door = door
        if not self._listening:
            self._hardware.on_input(self._on_notice)
            self._listening = True

    def close(self) -> None:
        self._door = None  # what the hardware notices from now on goes nowhere

    def _on_notice(self, notice: Any) -> None:
        door = self._door
        if door is None:
            return
        button = getattr(notice, "button", None)  # a button pressed; else the sensor's report
        if isinstance(button, str):
            door.take(ButtonPress(button))
            return
        for event in notice.events:  # the cards the beam counted, then a fault if any
            door.take(BoxReport(event))
