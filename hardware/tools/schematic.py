"""The wiring schematic (hardware/schematic.svg), drawn with schemdraw's own SVG backend.

Pin numbers come from the code's defaults (:class:`companion.devices.config.PinsConfig`), so the
picture follows the pin plan. Run ``make schematic`` after changing a default pin or this file;
a test fails while the committed SVG is out of date.
"""

from __future__ import annotations

import sys
from dataclasses import fields
from pathlib import Path

import schemdraw
import schemdraw.elements as elm

from companion.devices.config import NO_PIN, PinsConfig

SVG = Path(__file__).resolve().parents[1] / "schematic.svg"
# BCM GPIO number -> physical pin on the 40-pin header
HEADER_PIN = {
    0: 27, 1: 28, 2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21, 10: 19, 11: 23, 12: 32,
    13: 33, 14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35, 20: 38, 21: 40, 22: 15, 23: 16,
    24: 18, 25: 22, 26: 37, 27: 13,
}  # fmt: skip
BUTTONS = {
    "hit": "HIT",
    "next": "NEXT",
    "reverse": "REVERSE",
    "skip": "SKIP",
    "shutdown": "SHUTDOWN",
}
SERVOS = {
    "ejector": "FEED servo\nFS90R (continuous)",
    "turret": "TURRET servo\nMG90S (2:1 gear)",
}


def rows(pins: PinsConfig) -> list[tuple[str, int]]:
    """(config key, BCM pin or NO_PIN for an optional part) for every pin of the config: the
    parts this drawing knows first, in a readable order, then any other pin it does not."""
    values = {f.name: getattr(pins, f.name) for f in fields(PinsConfig)}
    order = [*BUTTONS, "buzzer", *SERVOS, "card_sensor", "exit_motor"]
    known = [key for key in order if key in values]
    return [(key, values[key]) for key in known + [k for k in values if k not in order]]


def pin_label(key: str, bcm: int) -> tuple[str, str]:
    """(name, header pin) printed at the Pi's edge."""
    if bcm == NO_PIN:
        return f"optional: pins.{key}", ""
    return f"GPIO{bcm}", str(HEADER_PIN[bcm])


def button_row(d: schemdraw.Drawing, start: object, title: str) -> None:
    d.add(elm.Line().at(start).right(1))
    d.add(elm.Button().right().label(f"{title}\n(COM–NO)", loc="top"))
    d.add(elm.Ground())


def module(d: schemdraw.Drawing, title: str, signal: str, power: str, supply: str) -> None:
    """A three-wire part (signal in on the left; supply and ground out on the right), its
    signal pin placed where the drawing stands."""
    part = d.add(
        elm.Ic(
            pins=[
                elm.IcPin(name=signal, side="left", anchorname="signal"),
                elm.IcPin(name=power, side="right", anchorname="vplus", slot="2/2"),
                elm.IcPin(name="GND", side="right", anchorname="gnd", slot="1/2"),
            ],
            size=(2.6, 1.8),
            label=title,
            lblloc="top",
        ).anchor("signal")
    )
    d.add(elm.Line().at(part.vplus).right(0.8))
    d.add(elm.Vdd().label(supply))
    d.add(elm.Line().at(part.gnd).right(0.8))
    d.add(elm.Ground())


def servo_row(d: schemdraw.Drawing, start: object, title: str) -> None:
    d.add(elm.Line().at(start).right(1))
    d.add(elm.Resistor().right().label("330 Ω", loc="top"))
    d.add(elm.Line().right(1))
    module(d, title, "SIG", "+5V", "+5 V servo rail")


def motor_row(d: schemdraw.Drawing, start: object) -> None:
    """The exit pinch's DC motor through one channel of a DRV8833 (forward only: IN2 low)."""
    d.add(elm.Line().at(start).right(4))
    driver = d.add(
        elm.Ic(
            pins=[
                elm.IcPin(name="IN1", side="left", anchorname="in1", slot="2/2"),
                elm.IcPin(name="IN2", side="left", anchorname="in2", slot="1/2"),
                elm.IcPin(name="VM", side="right", anchorname="vm", slot="4/4"),
                elm.IcPin(name="OUT1", side="right", anchorname="out1", slot="3/4"),
                elm.IcPin(name="OUT2", side="right", anchorname="out2", slot="2/4"),
                elm.IcPin(name="GND", side="right", anchorname="gnd", slot="1/4"),
            ],
            size=(2.6, 2.4),
            label="DRV8833 (nSLEEP high)",
            lblloc="top",
        ).anchor("in1")
    )
    d.add(elm.Line().at(driver.in2).left(0.6))
    d.add(elm.Ground().label("IN2 to GND", loc="left"))
    d.add(elm.Line().at(driver.vm).right(0.8))
    d.add(elm.Vdd().label("+5 V servo rail"))
    d.add(elm.Line().at(driver.out1).right(2.6))
    d.add(elm.Motor().down().label("exit pinch\nDC motor", loc="bottom"))
    d.add(elm.Line().left(1.4))
    d.add(elm.Line().up().toy(driver.out2))
    d.add(elm.Line().left().tox(driver.out2))
    d.add(elm.Line().at(driver.gnd).right(0.8))
    d.add(elm.Ground())


def buzzer_row(d: schemdraw.Drawing, start: object) -> None:
    d.add(elm.Line().at(start).right(1))
    d.add(elm.Resistor().right().label("1 kΩ", loc="top"))
    npn = d.add(elm.BjtNpn(circle=True).anchor("base").label("2N2222\nor BC547", loc="right"))
    d.add(elm.Line().at(npn.emitter).down(0.4))
    d.add(elm.Ground())
    d.add(elm.Line().at(npn.collector).up(0.4))
    low = d.add(elm.Dot())
    d.add(elm.Crystal().up().label("piezo", loc="bottom"))
    high = d.add(elm.Dot())
    d.add(elm.Vdd().label("+5 V (Pi pin 2)"))
    d.add(elm.Line().at(low.center).right(2))
    d.add(
        elm.Resistor()
        .up()
        .toy(high.center)
        .label("1 kΩ across the piezo\n(magnetic buzzer: 1N4148,\ncathode to +5 V)", loc="bottom")
    )
    d.add(elm.Line().left().tox(high.center))


def sensor_row(d: schemdraw.Drawing, start: object) -> None:
    d.add(elm.Line().at(start).right(4))
    module(d, "IR receiver\n(open collector)", "OUT", "V+", "+3.3 V (Pi pin 1)")


def supply(d: schemdraw.Drawing, at: tuple[float, float]) -> None:
    """The one 5 V 5 A supply and the distribution board: the Pi's branch, and the fused servo
    and motor rail with its bulk capacitor, on one ground."""
    source = d.add(elm.SourceV().at(at).up().label("5 V 5 A\nsupply", loc="bottom"))
    d.add(elm.Line().up(0.5))
    split = d.add(elm.Dot())
    d.add(elm.Line().up(1))
    d.add(elm.Vdd().label("+5 V to the Pi\n(USB-C or pins 2/4)"))
    d.add(elm.Line().at(split.center).right(1))
    d.add(elm.Fuse().right().label("fuse 4 A slow", loc="top"))
    rail = d.add(elm.Dot())
    d.add(elm.Line().up(1))
    d.add(elm.Vdd().label("+5 V servo rail"))
    d.add(elm.Line().at(rail.center).right(1.5))
    d.add(
        elm.Capacitor(polar=True)
        .down()
        .toy(source.start)
        .label("1000 µF 10 V\non the\ndistribution\nboard", loc="bottom")
    )
    d.add(elm.Line().left().tox(source.start))
    d.add(elm.Line().at(source.start).down(0.5))
    d.add(elm.Ground().label("GND: one ground, joined to a Pi GND pin", loc="right"))


def amplifier(d: schemdraw.Drawing, at: tuple[float, float]) -> None:
    """The voice's I2S amplifier: its pins are fixed by the I2S overlay, not by the config."""
    amp = d.add(
        elm.Ic(
            pins=[
                elm.IcPin(name="BCLK", side="left", anchorname="bclk"),
                elm.IcPin(name="LRC", side="left", anchorname="lrc"),
                elm.IcPin(name="DIN", side="left", anchorname="din"),
                elm.IcPin(name="VIN", side="right", anchorname="vin", slot="4/4"),
                elm.IcPin(name="GND", side="right", anchorname="gnd", slot="3/4"),
                elm.IcPin(name="OUT+", side="right", anchorname="outp", slot="2/4"),
                elm.IcPin(name="OUT−", side="right", anchorname="outm", slot="1/4"),
            ],
            size=(3, 3),
            label="MAX98357A I2S amp\n(dtoverlay=max98357a)",
            lblloc="top",
        )
        .at(at)
        .theta(0)
    )
    d.add(elm.Line().at(amp.outp).right(1.2))
    speaker = d.add(elm.Speaker().anchor("in1").label("speaker\n4–8 Ω, 3 W", loc="right"))
    d.add(elm.Line().at(amp.outm).right(1.2))
    d.add(elm.Line().up().toy(speaker.in2))
    for anchor, bcm in (("bclk", 18), ("lrc", 19), ("din", 21)):
        d.add(elm.Line().at(getattr(amp, anchor)).left(1.5))
        d.add(elm.Dot(open=True).label(f"GPIO{bcm} ({HEADER_PIN[bcm]})", loc="left"))
    d.add(elm.Line().at(amp.vin).right(0.8))
    d.add(elm.Vdd().label("+5 V (Pi pin 4)"))
    d.add(elm.Line().at(amp.gnd).right(0.8))
    d.add(elm.Ground())


def draw(pins: PinsConfig | None = None) -> str:
    """The schematic as SVG text."""
    schemdraw.use("svg")
    drawn = rows(pins or PinsConfig())
    d = schemdraw.Drawing(show=False)
    d.config(fontsize=11, unit=2.5)
    pi = d.add(
        elm.Ic(
            pins=[
                elm.IcPin(*pin_label(key, bcm), side="right", anchorname=f"pin_{key}")
                for key, bcm in reversed(drawn)
            ],
            pinspacing=3.6,
            edgepadH=1,
            edgepadW=3,
            label="Raspberry Pi\nBCM name, header pin\n(3.3 V logic,\nnot 5 V tolerant)",
            lblloc="center",
        )
    )
    for key, _ in drawn:
        start = getattr(pi, f"pin_{key}")
        if key in BUTTONS:
            button_row(d, start, BUTTONS[key])
        elif key in SERVOS:
            servo_row(d, start, SERVOS[key])
        elif key == "buzzer":
            buzzer_row(d, start)
        elif key == "card_sensor":
            sensor_row(d, start)
        elif key == "exit_motor":
            motor_row(d, start)
        else:  # a pin this drawing has no symbol for yet: named, see pinmap.md
            d.add(elm.Line().at(start).right(3).label(f"{key} (see pinmap.md)", loc="top"))
    edge = pi.pin_hit[0]
    low = min(getattr(pi, f"pin_{key}")[1] for key, _ in drawn)
    supply(d, (edge + 14, low - 1))
    amplifier(d, (edge + 17, pi.pin_hit[1] - 4))
    d.add(
        elm.Label()
        .at((edge + 1, low - 5))
        .label(
            "Buttons use the Pi's internal pull-ups. A 5 V push-pull sensor needs\n"
            "a divider (10 kΩ over 20 kΩ) or a level shifter before its GPIO.",
            halign="left",
        )
    )
    return d.get_imagedata("svg").decode()


def main() -> int:
    SVG.write_text(draw())
    print(f"wrote {SVG}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
