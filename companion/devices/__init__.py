"""The launcher's hardware on gpiozero: buttons, feed, exit pinch, turret, buzzer, card beam.

Start with :class:`LauncherHardware` (everything behind one non-blocking object),
:func:`make_pin_factory` (which GPIO library, with a clear message when one is missing) and
:class:`HardwareConfig` (the ``[hardware]`` section, checked with the configuration file).
Wiring: ``hardware/wiring.md``.
This package imports ``companion.core`` and ``companion.config`` only; gpiozero is imported when
a part is built, never at import time.
"""

from .backends import BackendProbe, BackendUnavailable, Board, backend_name, make_pin_factory
from .buttons import Debouncer, HitButton, TableButton
from .buzzer import Buzzer
from .clock import SYSTEM_CLOCK, Clock, SystemClock
from .config import (
    NO_PIN,
    BuzzerConfig,
    CardSensorConfig,
    EjectorConfig,
    HardwareConfig,
    PinsConfig,
    TurretConfig,
    equivalent_angle,
)
from .ejector import Ejector
from .launcher import ButtonPressed, InputNotice, LauncherHardware, SensorReport
from .mock_cards import CardPathClock, MockCardPath
from .sensor import CardSensor, FiringCount, Passage
from .servo import GpiozeroServoOutput, LgpioServoOutput, ServoOutput, ServoRange
from .turret import Turret, slew_path

__all__ = [
    "NO_PIN",
    "SYSTEM_CLOCK",
    "BackendProbe",
    "BackendUnavailable",
    "Board",
    "ButtonPressed",
    "Buzzer",
    "BuzzerConfig",
    "CardPathClock",
    "CardSensor",
    "CardSensorConfig",
    "Clock",
    "Debouncer",
    "Ejector",
    "EjectorConfig",
    "FiringCount",
    "GpiozeroServoOutput",
    "HardwareConfig",
    "HitButton",
    "InputNotice",
    "LauncherHardware",
    "LgpioServoOutput",
    "MockCardPath",
    "Passage",
    "PinsConfig",
    "SensorReport",
    "ServoOutput",
    "ServoRange",
    "SystemClock",
    "TableButton",
    "Turret",
    "TurretConfig",
    "backend_name",
    "equivalent_angle",
    "make_pin_factory",
    "slew_path",
]
