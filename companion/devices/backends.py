"""Choosing the GPIO library (gpiozero "pin factory") for this board.

``auto`` reads the board model from ``/proc/device-tree/model`` and picks:

- Raspberry Pi 5 / 500 / CM5: **lgpio** (RPi.GPIO and pigpio do not run there); servos get
  microsecond pulses through ``lgpio.tx_servo`` (see :mod:`.servo`).
- Raspberry Pi 1..4, Zero, Zero 2 W: **pigpio** when the ``pigpiod`` daemon answers (waiting up to
  ``pigpio_wait_s`` at boot: the service may start after us), else lgpio, else RPi.GPIO.
- anything else: no backend; run ``uno-companion simulate`` (mock pins) instead.

``mock`` is gpiozero's ``MockFactory(pin_class=MockPWMPin)``, used by simulation and tests.
When nothing usable is found :class:`BackendUnavailable` says what to install, in one message.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import re
import socket
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

FactoryBuilder = Callable[[], Any]

_INSTALL_HINTS = {
    "pigpio": (
        "install it with 'sudo apt install pigpio python3-pigpio' (or 'pip install pigpio' in "
        "the venv), then start the daemon: 'sudo systemctl enable --now pigpiod'"
    ),
    "lgpio": (
        "install it with 'sudo apt install python3-lgpio' (or 'pip install lgpio' in the venv, "
        "which needs 'sudo apt install liblgpio-dev swig')"
    ),
    "rpigpio": "install it with 'sudo apt install python3-rpi.gpio' (or 'pip install RPi.GPIO')",
}
_MODULES = {"pigpio": "pigpio", "lgpio": "lgpio", "rpigpio": "RPi.GPIO"}


class BackendUnavailable(RuntimeError):
    """No usable GPIO library: the message says why and what to install."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Board:
    """The board we run on, from its device-tree model string."""

    model: str | None

    @property
    def is_pi(self) -> bool:
        return self.model is not None and "raspberry pi" in self.model.lower()

    @property
    def generation(self) -> int | None:
        """1..5 for Raspberry Pis (Zero → 1, Zero 2 W → 3, 400 → 4, 500 → 5), else None."""
        if not self.is_pi or self.model is None:
            return None
        model = self.model
        if re.search(r"Zero 2", model):
            return 3
        if "Zero" in model:
            return 1
        match = re.search(r"(?:Raspberry Pi|Compute Module) (\d)", model)
        return int(match.group(1)) if match else 1

    @property
    def family(self) -> str | None:
        """``zero2w``, ``3``, ``4`` or ``5`` (500, CM5 included); ``1`` for older Pis; else None.

        What the installer and ``doctor`` decide on: GPIO library, audio outputs, PWM chip.
        """
        if not self.is_pi or self.model is None:
            return None
        if "Zero 2" in self.model:
            return "zero2w"
        return str(self.generation)

    @property
    def has_audio_jack(self) -> bool:
        """Whether a 3.5 mm audio jack is on the board (no: Zero, Zero 2 W, 400, 5, 500)."""
        if not self.is_pi or self.model is None or "Zero" in self.model:
            return False
        if re.search(r"Raspberry Pi [45]00\b", self.model) or self.generation == 5:
            return False
        return "Compute Module" not in self.model


MODEL_FILE_VARIABLE = "UNO_COMPANION_MODEL_FILE"


def model_file() -> Path:
    """Where the board's model string is read: the device tree, or the file named by
    ``$UNO_COMPANION_MODEL_FILE`` (how tests and ``make pi-check`` pretend to be a given Pi)."""
    return Path(os.environ.get(MODEL_FILE_VARIABLE) or "/proc/device-tree/model")


def read_board(path: Path | None = None) -> Board:
    """The board described by ``path`` (default: :func:`model_file`); unreadable → unknown."""
    try:
        raw = (path or model_file()).read_bytes()
    except OSError:
        return Board(None)
    return Board(raw.rstrip(b"\x00\n").decode("utf-8", "replace") or None)


class BackendProbe:
    """What the machine offers; every question is a method so tests can answer differently."""

    def __init__(
        self,
        model_path: Path | None = None,
        pigpio_address: tuple[str, int] | None = None,
    ) -> None:
        self.model_path = model_path or model_file()
        if pigpio_address is None:
            # The same variables gpiozero's pigpio factory reads.
            port = os.environ.get("PIGPIO_PORT", "8888")
            pigpio_address = (
                os.environ.get("PIGPIO_ADDR", "localhost"),
                int(port) if port.isdigit() else 8888,
            )
        self.pigpio_address = pigpio_address

    def board(self) -> Board:
        return read_board(self.model_path)

    def has_module(self, name: str) -> bool:
        try:
            return importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            return False

    def pigpiod_running(self) -> bool:
        # A plain socket: pigpio's own client prints a large banner when it cannot connect.
        try:
            with socket.create_connection(self.pigpio_address, timeout=0.3):
                return True
        except OSError:
            return False

    def gpiochip_present(self) -> bool:
        return any(Path("/dev").glob("gpiochip*"))


def _default_builders() -> dict[str, FactoryBuilder]:
    def pigpio() -> Any:
        from gpiozero.pins.pigpio import PiGPIOFactory

        return PiGPIOFactory()

    def lgpio() -> Any:
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory()

    def rpigpio() -> Any:
        from gpiozero.pins.rpigpio import RPiGPIOFactory

        return RPiGPIOFactory()

    def mock() -> Any:
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        return MockFactory(pin_class=MockPWMPin)

    return {"pigpio": pigpio, "lgpio": lgpio, "rpigpio": rpigpio, "mock": mock}


def backend_name(factory: Any) -> str:
    """``pigpio``, ``lgpio``, ``rpigpio`` or ``mock`` for a gpiozero factory."""
    names = {
        "PiGPIOFactory": "pigpio",
        "LGPIOFactory": "lgpio",
        "RPiGPIOFactory": "rpigpio",
        "MockFactory": "mock",
    }
    return names.get(type(factory).__name__, type(factory).__name__)


class _Selector:
    def __init__(
        self,
        probe: BackendProbe,
        builders: Mapping[str, FactoryBuilder],
        pigpio_wait_s: float,
        sleep: Callable[[float], None],
        clock: Callable[[], float],
    ) -> None:
        self.probe = probe
        self.builders = builders
        self.pigpio_wait_s = pigpio_wait_s
        self.sleep = sleep
        self.clock = clock
        self.board = probe.board()

    def why_not(self, name: str) -> str | None:
        """Why backend ``name`` cannot be used here, or None if it can (pigpiod may wait)."""
        generation = self.board.generation
        if name in ("pigpio", "rpigpio") and generation == 5:
            library = "pigpio" if name == "pigpio" else "RPi.GPIO"
            return f"{library} does not run on a {self.board.model}; use backend 'lgpio'"
        if name == "rpigpio" and not self.board.is_pi:
            return "RPi.GPIO only runs on a Raspberry Pi"
        if not self.probe.has_module(_MODULES[name]):
            return f"the Python package '{_MODULES[name]}' is missing: {_INSTALL_HINTS[name]}"
        if name == "lgpio" and not self.probe.gpiochip_present():
            return "no /dev/gpiochip* device (not a Raspberry Pi, or lgpio cannot see the GPIO)"
        return None

    def wait_for_pigpiod(self, wait_s: float) -> bool:
        deadline = self.clock() + wait_s
        while True:
            if self.probe.pigpiod_running():
                return True
            if self.clock() >= deadline:
                return False
            self.sleep(0.5)

    def build(self, name: str, reason: str) -> Any:
        try:
            factory = self.builders[name]()
        except Exception as exc:  # the library exists but refused: say so in one line
            raise BackendUnavailable(f"GPIO backend '{name}' failed to start: {exc}") from exc
        logger.info("GPIO backend: %s (%s)", name, reason)
        return factory

    def explicit(self, name: str) -> Any:
        if name == "mock":
            return self.build("mock", "simulation: no real pins are touched")
        problem = self.why_not(name)
        if problem is not None:
            raise BackendUnavailable(f"GPIO backend '{name}' is unavailable: {problem}.")
        if name == "pigpio" and not self.wait_for_pigpiod(self.pigpio_wait_s):
            host, port = self.probe.pigpio_address
            raise BackendUnavailable(
                "GPIO backend 'pigpio' is unavailable: no pigpiod daemon answered at "
                f"{host}:{port} within {self.pigpio_wait_s:g} s; start it with "
                "'sudo systemctl enable --now pigpiod'."
            )
        return self.build(name, f"asked for in the configuration, on {self._board_text()}")

    def auto(self) -> Any:
        if not self.board.is_pi:
            raise BackendUnavailable(
                f"no GPIO backend: this machine ({self._board_text()}) is not a Raspberry Pi. "
                "Use 'uno-companion simulate' (mock pins), or set [hardware] backend = \"mock\"."
            )
        order = ["lgpio"] if self.board.generation == 5 else ["pigpio", "lgpio", "rpigpio"]
        skipped: list[str] = []
        for name in order:
            problem = self.why_not(name)
            if (
                problem is None
                and name == "pigpio"
                and not self.wait_for_pigpiod(self.pigpio_wait_s)
            ):
                problem = (
                    f"pigpiod did not answer within {self.pigpio_wait_s:g} s "
                    "('sudo systemctl enable --now pigpiod')"
                )
            if problem is not None:
                logger.info("GPIO backend %s skipped: %s", name, problem)
                skipped.append(f"{name}: {problem}")
                continue
            if name == "rpigpio":
                logger.warning("RPi.GPIO drives servos with software PWM: expect some jitter")
            return self.build(name, f"auto on {self._board_text()}")
        raise BackendUnavailable(
            f"no GPIO backend works on {self._board_text()}:\n  - " + "\n  - ".join(skipped)
        )

    def _board_text(self) -> str:
        return self.board.model or "an unknown board"


def make_pin_factory(
    backend: str = "auto",
    *,
    probe: BackendProbe | None = None,
    pigpio_wait_s: float = 5.0,
    builders: Mapping[str, FactoryBuilder] | None = None,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> Any:
    """A gpiozero pin factory for ``backend`` (auto, pigpio, lgpio, rpigpio or mock).

    Raises :class:`BackendUnavailable` with one clear message (what is missing, what to install)
    instead of a traceback. The choice and the reason are logged at INFO.
    """
    selector = _Selector(
        probe or BackendProbe(), builders or _default_builders(), pigpio_wait_s, sleep, clock
    )
    if backend == "auto":
        return selector.auto()
    if backend not in _MODULES and backend != "mock":
        raise BackendUnavailable(
            f"unknown GPIO backend {backend!r}: use auto, pigpio, lgpio, rpigpio or mock"
        )
    return selector.explicit(backend)


def backend_alive(factory: Any, probe: BackendProbe | None = None) -> bool:
    """False when the GPIO backend went away under the daemon: pigpiod stopped or crashed.

    The other libraries live inside our own process, so they cannot vanish on their own. A new
    connection is tried (it fails at once when pigpiod is gone) rather than a call on gpiozero's
    connection, which could block.
    """
    if backend_name(factory) != "pigpio":
        return True
    if probe is None:
        host, port = getattr(factory, "host", "localhost"), getattr(factory, "port", 8888)
        probe = BackendProbe(pigpio_address=(str(host), int(port)))
    return probe.pigpiod_running()
