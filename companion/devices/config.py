"""The ``[hardware]`` section as the devices read it: declared and checked with the rest of the
configuration in :mod:`companion.config.hardware`, handed to :class:`LauncherHardware` typed."""

from companion.config.hardware import (
    AMPLIFIERS,
    BACKENDS,
    I2S_PINS,
    MAX_SERVO_TRAVEL,
    NO_PIN,
    SAFE_PULSE_US,
    BuzzerConfig,
    CardSensorConfig,
    EjectorConfig,
    HardwareConfig,
    PinsConfig,
    TurretConfig,
    equivalent_angle,
)

__all__ = [
    "AMPLIFIERS",
    "BACKENDS",
    "I2S_PINS",
    "MAX_SERVO_TRAVEL",
    "NO_PIN",
    "SAFE_PULSE_US",
    "BuzzerConfig",
    "CardSensorConfig",
    "EjectorConfig",
    "HardwareConfig",
    "PinsConfig",
    "TurretConfig",
    "equivalent_angle",
]
