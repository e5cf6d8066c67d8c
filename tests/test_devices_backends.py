"""Choosing the GPIO library: probes answered by a fake, factories built by fakes."""

from __future__ import annotations

import logging
import math
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.devices import (
    BackendProbe,
    BackendUnavailable,
    Board,
    LgpioServoOutput,
    ServoRange,
    backend_name,
    make_pin_factory,
)
from companion.devices.servo import GpiozeroServoOutput, is_lgpio_factory, make_servo_output

PI4 = "Raspberry Pi 4 Model B Rev 1.4"
PI5 = "Raspberry Pi 5 Model B Rev 1.0"
ZERO2 = "Raspberry Pi Zero 2 W Rev 1.0"


class FakeProbe(BackendProbe):
    def __init__(
        self,
        model: str | None,
        modules: tuple[str, ...] = ("pigpio", "lgpio", "RPi.GPIO"),
        pigpiod_after: int | None = 0,
        gpiochip: bool = True,
    ) -> None:
        super().__init__()
        self.model = model
        self.modules = modules
        self.pigpiod_after = pigpiod_after  # answers from the n-th probe on; None: never
        self.pigpiod_probes = 0
        self.gpiochip = gpiochip

    def board(self) -> Board:
        return Board(self.model)

    def has_module(self, name: str) -> bool:
        return name in self.modules

    def pigpiod_running(self) -> bool:
        self.pigpiod_probes += 1
        return self.pigpiod_after is not None and self.pigpiod_probes > self.pigpiod_after

    def gpiochip_present(self) -> bool:
        return self.gpiochip


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def time(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


BUILT = {name: f"<{name} factory>" for name in ("pigpio", "lgpio", "rpigpio", "mock")}


def choose(backend: str, probe: FakeProbe, clock: FakeClock | None = None, **kw: Any) -> Any:
    clock = clock or FakeClock()
    builders = {name: (lambda value=value: value) for name, value in BUILT.items()}
    return make_pin_factory(
        backend, probe=probe, builders=builders, sleep=clock.sleep, clock=clock.time, **kw
    )


@pytest.mark.parametrize(
    ("model", "generation"),
    [
        (PI4, 4),
        (PI5, 5),
        (ZERO2, 3),
        ("Raspberry Pi Zero W Rev 1.1", 1),
        ("Raspberry Pi 3 Model B Plus Rev 1.3", 3),
        ("Raspberry Pi 400 Rev 1.0", 4),
        ("Raspberry Pi 500 Rev 1.0", 5),
        ("Raspberry Pi Compute Module 5 Rev 1.0", 5),
        ("Raspberry Pi Model B Rev 2", 1),
        ("Radxa ROCK 5B", None),
        (None, None),
    ],
)
def test_board_generation_from_the_device_tree_model(model: str | None, generation: int) -> None:
    assert Board(model).generation == generation


def test_probe_reads_the_model_file(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_bytes(PI4.encode() + b"\x00")
    assert BackendProbe(model_path=model).board() == Board(PI4)
    assert BackendProbe(model_path=tmp_path / "missing").board() == Board(None)


def test_auto_on_a_pi_4_with_pigpiod_picks_pigpio_and_logs_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="companion.devices.backends")
    assert choose("auto", FakeProbe(PI4)) == BUILT["pigpio"]
    assert f"GPIO backend: pigpio (auto on {PI4})" in caplog.text


def test_pigpiod_starting_late_at_boot_is_waited_for() -> None:
    clock = FakeClock()
    probe = FakeProbe(ZERO2, pigpiod_after=3)
    assert choose("auto", probe, clock, pigpio_wait_s=5.0) == BUILT["pigpio"]
    assert clock.sleeps == [0.5, 0.5, 0.5]


def test_no_pigpiod_falls_back_to_lgpio_after_the_wait(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="companion.devices.backends")
    clock = FakeClock()
    assert choose("auto", FakeProbe(PI4, pigpiod_after=None), clock) == BUILT["lgpio"]
    assert math.isclose(sum(clock.sleeps), 5.0)
    assert "pigpio skipped: pigpiod did not answer within 5 s" in caplog.text


def test_pi_5_uses_lgpio_and_refuses_pigpio_and_rpigpio() -> None:
    assert choose("auto", FakeProbe(PI5)) == BUILT["lgpio"]
    for backend, library in (("pigpio", "pigpio"), ("rpigpio", "RPi.GPIO")):
        with pytest.raises(BackendUnavailable) as caught:
            choose(backend, FakeProbe(PI5))
        assert f"{library} does not run on a {PI5}; use backend 'lgpio'" in str(caught.value)


def test_a_pi_with_nothing_installed_says_what_to_install() -> None:
    with pytest.raises(BackendUnavailable) as caught:
        choose("auto", FakeProbe(PI4, modules=()))
    message = caught.value.message
    assert message.startswith(f"no GPIO backend works on {PI4}:")
    assert "sudo apt install pigpio python3-pigpio" in message
    assert "sudo apt install python3-lgpio" in message
    assert "sudo apt install python3-rpi.gpio" in message
    assert "Traceback" not in message


def test_a_laptop_is_told_to_simulate() -> None:
    with pytest.raises(BackendUnavailable) as caught:
        choose("auto", FakeProbe(None))
    assert "is not a Raspberry Pi" in str(caught.value)
    assert "uno-companion simulate" in str(caught.value)


def test_explicit_backends_check_their_package_and_daemon() -> None:
    with pytest.raises(BackendUnavailable, match="'lgpio' is missing: install it with"):
        choose("lgpio", FakeProbe(PI4, modules=("pigpio",)))
    with pytest.raises(BackendUnavailable, match="no pigpiod daemon answered at localhost:8888"):
        choose("pigpio", FakeProbe(PI4, pigpiod_after=None), pigpio_wait_s=1.0)
    with pytest.raises(BackendUnavailable, match="no /dev/gpiochip"):
        choose("lgpio", FakeProbe(PI4, gpiochip=False))
    with pytest.raises(BackendUnavailable, match="unknown GPIO backend 'wiringpi'"):
        choose("wiringpi", FakeProbe(PI4))
    assert choose("rpigpio", FakeProbe(PI4)) == BUILT["rpigpio"]


def test_a_backend_that_fails_to_start_gives_one_line() -> None:
    def broken() -> Any:
        raise OSError("Permission denied: '/dev/gpiochip0'")

    with pytest.raises(BackendUnavailable) as caught:
        make_pin_factory("lgpio", probe=FakeProbe(PI5), builders={"lgpio": broken})
    assert str(caught.value) == (
        "GPIO backend 'lgpio' failed to start: Permission denied: '/dev/gpiochip0'"
    )


def test_mock_backend_is_gpiozero_mock_factory_with_pwm_pins() -> None:
    factory = make_pin_factory("mock", probe=FakeProbe(None))
    try:
        assert isinstance(factory, MockFactory) and factory.pin_class is MockPWMPin
        assert backend_name(factory) == "mock"
    finally:
        factory.close()


class FakeLgpio:
    """Records the lgpio calls a servo output makes."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def gpio_claim_output(self, *args: Any) -> None:
        self.calls.append(("claim", *args))

    def tx_servo(self, *args: Any) -> None:
        self.calls.append(("servo", *args))

    def gpio_free(self, *args: Any) -> None:
        self.calls.append(("free", *args))


def test_lgpio_servo_output_sends_microsecond_pulses_and_detaches() -> None:
    lgpio = FakeLgpio()
    servo_range = ServoRange(0.0, 180.0, 0.0005, 0.0025)
    output = LgpioServoOutput(13, servo_range, handle=4, lgpio=lgpio)  # type: ignore[arg-type]
    output.set_angle(45.3)  # 1003.33 µs: whole microseconds, not whole percent
    assert output.pulse_width == 0.001003
    output.set_angle(500.0)  # clamped to the range
    output.detach()
    assert output.pulse_width is None
    output.close()
    output.close()
    assert lgpio.calls == [
        ("claim", 4, 13, 0),
        ("servo", 4, 13, 1003, 50),
        ("servo", 4, 13, 2500, 50),
        ("servo", 4, 13, 0),
        ("free", 4, 13),
    ]


def test_servo_output_choice_follows_the_factory() -> None:
    class LGPIOFactory:  # stands in for gpiozero.pins.lgpio.LGPIOFactory
        pass

    LGPIOFactory.__module__ = "gpiozero.pins.lgpio"
    assert is_lgpio_factory(LGPIOFactory())
    factory = MockFactory(pin_class=MockPWMPin)
    try:
        assert not is_lgpio_factory(factory)
        output = make_servo_output(12, ServoRange(0, 180, 0.0005, 0.0025), factory)
        assert isinstance(output, GpiozeroServoOutput)
        assert factory.pin(12).state == 0  # created detached
        output.set_angle(90)
        assert output.pulse_width == pytest.approx(0.0015)
        output.close()
    finally:
        factory.close()
