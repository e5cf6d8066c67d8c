"""``uno-companion safe-stop``: servos detached, motors stopped and buzzer silent after the
service stopped.

The unit runs it as ``ExecStopPost``, so it also runs after a crash or a watchdog kill: pigpiod
and the Pi 5 hardware PWM would otherwise keep a servo pulse, the exit pinch's motor or a buzzer
tone going. It never fails the unit: a problem is logged and the exit status stays 0.
"""

from __future__ import annotations

import argparse
import importlib
import logging
from typing import Any

from .common import add_config_argument

log = logging.getLogger("companion")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "safe-stop", help="detach the servos and silence the buzzer (after the service stops)"
    )
    add_config_argument(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from companion.config import ConfigError, load_config
    from companion.devices import BackendProbe
    from companion.devices.safety import make_safe

    try:
        hardware = load_config(args.config).hardware
    except ConfigError as exc:
        log.warning("safe-stop: config unreadable (%s); using the default pins", exc)
        from companion.config import Config

        hardware = Config().hardware
    servos, others = hardware.output_pins()
    probe = BackendProbe()

    def pigpio_connect() -> Any:
        if not probe.pigpiod_running():
            return None
        import pigpio

        return pigpio.pi()

    lgpio_module: Any = None
    if probe.has_module("lgpio") and probe.gpiochip_present():
        lgpio_module = importlib.import_module("lgpio")
    try:
        done = make_safe(
            servos,
            others,
            pigpio_connect=pigpio_connect if probe.has_module("pigpio") else None,
            lgpio=lgpio_module,
        )
    except Exception:
        log.exception("safe-stop: could not make every output safe")
        return 0
    for line in done or ["nothing was left running"]:
        log.info("safe-stop: %s", line)
    return 0
