"""``uno-companion doctor``: checks the box and says how to fix each problem.

Board and GPIO library, pigpiod, groups, pins, servo pulses (Pi 5 hardware PWM), sound card and
speech engine, configuration file, score database, the page's port, clock, power and the
address phones should open. Exit status 0 when the box is ready (warnings allowed), 1 when
something must be fixed. ``--json`` prints the same as one JSON object.

With consent, ``--sound`` plays a test on the chosen sound output and ``--sweep`` moves each
servo across its range (stop the service first: it holds the pins).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from .common import (
    add_backend_argument,
    add_command,
    add_state_dir_argument,
    config_errors_exit,
    load_or_exit,
    print_qr,
    state_dir_or_exit,
)


def register(subparsers: Any) -> None:
    summary = "check the box (pins, sound, database...) and say how to fix problems"
    parser = add_command(subparsers, "doctor", summary, __doc__, handler=run, config=True)
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    add_backend_argument(parser, "GPIO library to check (default: hardware.backend)")
    add_state_dir_argument(parser)
    parser.add_argument("--sound", action="store_true", help="play a test on the speaker")
    parser.add_argument("--sweep", action="store_true", help="move each servo over its range")
    parser.add_argument("--yes", action="store_true", help="do not ask before moving servos")


def run(args: argparse.Namespace) -> int:
    from companion import locations
    from companion.pi.doctor import FAIL, Doctor, report_json, report_text

    config = load_or_exit(args.config)
    state_dir = state_dir_or_exit(args.state_dir, config)
    with config_errors_exit():
        doctor = Doctor(config, locations.config_file(args.config), state_dir, backend=args.backend)
    results = doctor.run()
    if args.json:
        print(json.dumps(report_json(results, doctor.board), indent=2, ensure_ascii=False))
    else:
        print(report_text(results))
        print_qr(doctor.system.addresses(doctor.web.host, doctor.web.port))
    status = 1 if any(c.status == FAIL for c in results) else 0
    if args.sound and play_test(doctor) != 0:
        status = 1
    if args.sweep and sweep(doctor, args.yes) != 0:
        status = 1
    return status


def play_test(doctor: Any) -> int:
    from companion.speech import AplayPlayer, CueSounds, PlayerError

    device = doctor.speech.audio_device or doctor.audio.device
    print(f"playing a test on {device or 'the default ALSA device'}...", flush=True)
    sounds = CueSounds(max(doctor.speech.cue_volume, 0.5))
    try:
        AplayPlayer(device).play(sounds.wav("start"))
    except PlayerError as exc:
        print(f"sound test failed: {exc}", file=sys.stderr)
        return 1
    print("did you hear a chime? If not: alsamixer (volume), or another audio_output")
    return 0


def sweep(doctor: Any, assume_yes: bool, pause_s: float = 1.0, factory: Any = None) -> int:
    """Move the turret end to end, turn the feed forward and back, spin the exit pinch, then
    release all three. ``factory``: the pins to use (default: the configured GPIO library),
    left open for the caller."""
    from companion.devices import NO_PIN, BackendUnavailable, make_pin_factory
    from companion.devices.ejector import MotorOutput, feed_range
    from companion.devices.servo import make_servo_output
    from companion.devices.turret import turret_range

    if doctor.system.service_active():
        print("the service holds the pins: sudo systemctl stop uno-companion, then retry")
        return 1
    if not assume_yes:
        answer = input("Move the servos and motors now? Keep hands and cards clear. [y/N] ")
        if answer.strip().lower() not in ("y", "yes", "o", "oui"):
            print("servo sweep skipped")
            return 0
    hardware = doctor.hardware
    owned = factory is None
    if factory is None:
        try:
            factory = make_pin_factory(
                doctor.backend or hardware.backend, pigpio_wait_s=hardware.pigpio_wait_s
            )
        except BackendUnavailable as exc:
            print(f"servo sweep impossible: {exc.message}", file=sys.stderr)
            return 1
    turret, ejector, pins = hardware.turret, hardware.ejector, hardware.pins
    speed = ejector.roller_speed if ejector.mode == "motor" else ejector.feed_speed
    plan: list[tuple[str, int, Callable[[], Any], list[float], str]] = [
        (
            "turret",
            pins.turret,
            lambda: make_servo_output(pins.turret, turret_range(turret), factory),
            [turret.min_angle, turret.max_angle, turret.home_angle],
            "°",
        )
    ]
    if ejector.mode == "motor":
        plan.append(
            (
                "launcher motor",
                pins.ejector,
                lambda: MotorOutput(pins.ejector, factory),
                [speed],
                " duty",
            )
        )
    else:
        plan.append(
            (
                "feed",
                pins.ejector,
                lambda: make_servo_output(pins.ejector, feed_range(ejector), factory),
                [speed, 0.0, -speed],
                " speed",
            )
        )
        if pins.exit_motor != NO_PIN:
            plan.append(
                (
                    "exit pinch",
                    pins.exit_motor,
                    lambda: MotorOutput(pins.exit_motor, factory),
                    [ejector.exit_duty],
                    " duty",
                )
            )
    try:
        for name, pin, build, steps, unit in plan:
            output = build()
            try:
                for step in steps:
                    print(f"{name} (GPIO{pin}) → {step:g}{unit}", flush=True)
                    output.set_angle(step)
                    time.sleep(pause_s)
            finally:
                output.close()
    finally:
        if owned:
            factory.close()
    print(
        "did the turret reach both ends without buzzing, the feed turn both ways and the "
        "pinch spin? If not: hardware/calibration.md"
    )
    return 0
