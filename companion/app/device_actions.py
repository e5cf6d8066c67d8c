"""The table's actions on the launcher: inputs in, motions and cues out, calibration.

Button edges and the card sensor become hub events; the engine's commands (eject, turn, cue)
go to the hardware; the page's device actions (virtual HIT, face or calibrate a seat, test
fire) are registered on the hub; the turret is reseated when the table is.
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import Future
from typing import Any

from companion.core.actions import object_schema
from companion.core.commands import Command, Cue, Eject, Turn
from companion.core.errors import ActionError
from companion.core.events import Event, Press
from companion.core.limits import MAX_PLAYERS

from .buttons import button_event
from .hub import Hub
from .listeners import CommandsTo, OnEvent
from .table_memory import SettingsStore

log = logging.getLogger(__name__)

SEAT_ANGLES_KEY = "turret.seat_angles"
_SEAT = {"type": "integer", "minimum": 0, "maximum": MAX_PLAYERS - 1}


class DeviceActions:
    """Connects a :class:`~companion.devices.LauncherHardware` to the hub.

    ``hardware`` is duck-typed (the daemon builds it); ``store`` keeps calibrated seat angles;
    ``simulate`` makes the page's HIT a real edge on the mock pin.
    """

    def __init__(
        self, hub: Hub, hardware: Any, store: SettingsStore | None, *, simulate: bool
    ) -> None:
        self.hub = hub
        self.hardware = hardware
        self._store = store
        self._simulate = simulate
        self.moved = threading.Event()  # set when the launcher was given something to do

    def attach(self) -> None:
        """Restore the calibration, listen to the hardware and the hub, register the actions."""
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
        self.hardware.on_input(self.on_input)
        self.hub.add_listener(OnEvent("setup", lambda o: self.reseat(len(o.snapshot["players"]))))
        # A reload is the players' answer to a jam: the launcher is clear again.
        self.hub.add_listener(OnEvent("reload", lambda o: self.hardware.clear_jam()))
        self.hub.add_listener(CommandsTo(self.execute))
        register = self.hub.register_action
        register("device.hit", object_schema([]), lambda p: self.virtual_hit(), "device")
        register(
            "device.calibrate_seat",
            object_schema(
                ["seat", "angle"],
                seat=_SEAT,
                angle={"type": "integer", "minimum": -180, "maximum": 180},
            ),
            self.calibrate_seat,
            "device",
        )
        register(
            "device.test_fire",
            object_schema([], cards={"type": "integer", "minimum": 1, "maximum": 5}),
            lambda p: self.execute([Eject(p.get("cards", 1)), Cue("burst")]),
            "device",
        )
        register("device.face", object_schema(["seat"], seat=_SEAT), self.face, "device")

    # ------------------------------------------------------------------ inputs

    def on_input(self, notice: Any) -> None:
        """A button press or a card-sensor report (device thread): queue its event, return."""
        button = getattr(notice, "button", None)  # ButtonPressed; a SensorReport has none
        event = button_event(button) if button is not None else notice.event
        if event is not None:
            self.post(event)

    def post(self, event: Event) -> Future[Any]:
        """Queue a physical input; one the rules refuse sounds the error cue."""
        future = self.hub.post(event)
        future.add_done_callback(self._refused)
        return future

    def _refused(self, future: Future[Any]) -> None:
        exc = future.exception()
        if isinstance(exc, ActionError):
            # A physical input the rules refuse (a press after the round ended...): say so.
            log.info("input refused: %s", exc)
            self.execute([Cue("error")])

    def virtual_hit(self) -> None:
        """The page's HIT button. Simulated: a real edge on the mock pin, so the debounce and
        the whole input path run as for a hand on the button. On hardware: a remote press.

        A press the debounce drops (sooner after the last than the button takes) is answered
        as dropped (429, ``press_dropped``), not as done."""
        if self._simulate:
            button = self.hardware.hit_button
            before = button.presses
            button.pin.drive_low()  # the mock calls the button back at once, in this thread
            accepted = button.presses != before

            def release() -> None:
                time.sleep(0.005)
                button.pin.drive_high()

            threading.Thread(target=release, name="virtual-hit", daemon=True).start()
            if not accepted:
                raise ActionError(
                    "press_dropped",
                    "too soon after the last press: the button did not take it",
                    status=429,
                )
        else:
            self.post(Press())

    # ------------------------------------------------------------------ outputs

    def execute(self, commands: list[Command]) -> None:
        """The launcher's share of the commands (eject, turn, cue); runs on the hub thread."""
        self.hardware.execute([c for c in commands if isinstance(c, Eject | Turn | Cue)])
        if any(isinstance(c, Eject | Turn) for c in commands):
            self.moved.set()

    def reseat(self, players: int) -> None:
        """After the table is seated again: one angle per seat, calibrated ones kept."""
        from companion.devices.turret import default_seat_angles

        turret = self.hardware.turret
        angles = default_seat_angles(turret.config, players)
        for seat, angle in enumerate(self._saved_angles()[:players]):
            if isinstance(angle, int | float):
                angles[seat] = turret.range.clamp(float(angle))
        turret.seat_angles = angles

    def face(self, payload: dict[str, Any]) -> None:
        seat = payload["seat"]
        self.execute([Turn(seat, f"seat {seat}")])

    def calibrate_seat(self, payload: dict[str, Any]) -> None:
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
