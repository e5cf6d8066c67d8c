"""``uno-companion calibrate``: aim the turret at each seat and time the feed with the beam.

An interactive prompt (one command per line, then Enter):

  s N        go to seat N (1 = the first player in table.players)
  + / -      nudge the current seat by the step (``+++`` three steps, ``+5`` five degrees)
  250        a plain number sets the current seat's bearing (``a -30`` for negative angles)
  step D     set the nudge step in degrees
  f          fire one test card (the beam says what came out)
  m [N]      measure the feed: fire N cards (3) and time them with the beam
  l          list the seats        w   save to the config file        q   quit

``m`` measures how long one card darkens the beam (``card_sensor.card_pass_s``) and the feed's
speed from the time between cards (``ejector.feed_mm_s``); a feed much slower than the config
expects (a weak or under-powered servo, a slipping tyre) is said plainly. Seat bearings and the
measured times are written back into the ``[hardware]`` table of the config file; every other
section, comment and layout is kept. ``--backend mock`` runs it on a laptop.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import os
import statistics
import sys
import tempfile
import tomllib
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TextIO

from companion import locations
from companion.config import Config, ConfigError, load_config, parse_config
from companion.core.commands import Eject, Turn

from .common import (
    add_backend_argument,
    add_command,
    add_state_dir_argument,
    load_or_exit,
    state_dir_or_exit,
)

HELP = """\
commands (then Enter):
  s N        go to seat N (1 = the first player)
  + / -      nudge this seat by the step (+++ three steps, +5 five degrees)
  250        set this seat's bearing (a -30 for a negative angle)
  step D     nudge step in degrees
  f          fire one test card
  m [N]      measure the feed: fire N cards (3) and time them with the beam
  l          list the seats     w   save     q   quit     h   this help"""
# A feed measured below this share of the speed the config expects is a slow servo.
SLOW_FEED = 0.8


def register(subparsers: Any) -> None:
    parser = add_command(
        subparsers,
        "calibrate",
        "aim the turret at each seat, time the feed with the beam, fire a test card",
        __doc__,
    )
    parser.add_argument(
        "-c",
        "--config",
        type=Path,
        default=None,
        help="configuration file to update (created with a [hardware] table if missing). "
        "Default: the one every command reads (see the README), else "
        "~/.config/uno-companion/config.toml",
    )
    add_backend_argument(
        parser, "GPIO library, overriding [hardware] backend (mock: no hardware needed)"
    )
    parser.add_argument("--step", type=float, default=2.0, help="nudge step in degrees")
    add_state_dir_argument(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    path = locations.config_file(args.config) or locations.user_config_file()
    config = load_or_exit(path) if path.exists() else Config()
    state_dir = state_dir_or_exit(args.state_dir, config)
    return calibrate(path, args.backend, args.step, sys.stdin, sys.stdout, state_dir=state_dir)


def calibrate(
    path: Path,
    backend: str | None,
    step: float,
    stdin: TextIO,
    stdout: TextIO,
    *,
    state_dir: Path | None = None,
) -> int:
    """Run the prompt on ``stdin``/``stdout``; returns the exit status.

    ``state_dir``: the table's database there (when it exists) gets the saved seat angles too,
    so angles set earlier from the phone page do not silently win over these at the next start.
    """
    from companion.devices import (
        BackendUnavailable,
        LauncherHardware,
        make_pin_factory,
    )

    def say(text: str) -> None:
        print(text, file=stdout, flush=True)

    try:
        config = load_config(path) if path.exists() else Config()
        hardware = config.hardware
    except ConfigError as exc:
        say(f"uno-companion: {exc}")
        return 2
    try:
        factory = make_pin_factory(
            backend or hardware.backend, pigpio_wait_s=hardware.pigpio_wait_s
        )
    except BackendUnavailable as exc:
        say(f"uno-companion: {exc.message}")
        return 2
    players = list(config.table.players)
    launcher = LauncherHardware(hardware, factory, seats=len(players))
    try:
        launcher.wait_idle(15)
        session = Calibration(path, players, launcher, step, say, state_dir=state_dir)
        return session.loop(stdin)
    finally:
        launcher.close()
        factory.close()


class Calibration:
    """The prompt's state: seat being aimed, angles so far, unsaved changes."""

    def __init__(
        self,
        path: Path,
        players: Sequence[str],
        launcher: Any,
        step: float,
        say: Callable[[str], None],
        *,
        state_dir: Path | None = None,
    ) -> None:
        self.path = path
        self.state_dir = state_dir
        self.players = list(players)
        self.launcher = launcher
        self.turret = launcher.turret
        self.step = step
        self.say = say
        self.seat = 0
        self.dirty = False
        self.angles = [float(a) for a in self.turret.seat_angles[: len(self.players)]]
        self.measured: dict[str, float] = {}  # feed_mm_s, card_pass_s once measured
        self.notices: list[Any] = []
        launcher.on_input(self.notices.append)

    def loop(self, lines: Iterable[str]) -> int:
        self.say(HELP)
        self.say(f"config file: {self.path}")
        self.go_to(self.seat)
        warned = False
        for raw in lines:
            line = raw.strip()
            if line in ("q", "quit", "exit"):
                if self.dirty and not warned:
                    self.say("unsaved changes: 'w' saves them, 'q' again quits without saving")
                    warned = True
                    continue
                return 0
            warned = False
            try:
                self.handle(line)
            except ValueError as exc:
                self.say(f"? {exc} (type 'h' for help)")
        if self.dirty:
            self.say("end of input: changes NOT saved")
        return 0

    def handle(self, line: str) -> None:
        if not line:
            self.show()
            return
        word, _, rest = line.partition(" ")
        rest = rest.strip()
        if word in ("h", "help", "?"):
            self.say(HELP)
        elif word in ("l", "list"):
            for seat, angle in enumerate(self.angles):
                mark = ">" if seat == self.seat else " "
                self.say(f"{mark} seat {seat + 1} ({self.players[seat]}): {angle:.1f}°")
        elif word in ("s", "seat"):
            number = _number(rest, "seat number")
            if number != int(number) or not 1 <= number <= len(self.angles):
                raise ValueError(f"seats go from 1 to {len(self.angles)}")
            self.seat = int(number) - 1
            self.go_to(self.seat)
        elif word == "step":
            value = _number(rest, "step")
            if not 0 < value <= 45:
                raise ValueError("the step must be between 0 and 45 degrees")
            self.step = value
            self.say(f"step {value:g}°")
        elif word in ("a", "angle"):
            self.set_angle(_number(rest, "angle"))
        elif word in ("f", "fire"):
            self.fire(1)
        elif word in ("m", "measure"):
            count = _number(rest, "number of cards") if rest else 3
            if count != int(count) or not 2 <= count <= 10:
                raise ValueError("measure with 2 to 10 cards")
            self.measure(int(count))
        elif word in ("w", "save"):
            self.save()
        elif set(line) <= {"+"} or set(line) <= {"-"}:
            sign = 1 if line[0] == "+" else -1
            self.set_angle(self.angles[self.seat] + sign * self.step * len(line))
        elif line[0] in "+-":
            self.set_angle(self.angles[self.seat] + _number(line, "nudge"))
        else:
            self.set_angle(_number(line, "command or angle"))

    def set_angle(self, angle: float) -> None:
        config = self.turret.config
        low, high = sorted((config.min_angle, config.max_angle))
        if not low <= angle <= high:
            raise ValueError(f"{angle:g}° is outside the turret's range {low:g}..{high:g}°")
        self.angles[self.seat] = round(angle, 1)
        self.turret.set_seat_angle(self.seat, self.angles[self.seat])
        self.dirty = True
        self.go_to(self.seat)

    def go_to(self, seat: int) -> None:
        self.launcher.execute(Turn(seat, self.players[seat]))
        self.launcher.wait_idle(30, sound=False)
        self.show()

    def show(self) -> None:
        angle = self.angles[self.seat]
        config = self.turret.config
        servo = (angle - config.min_angle) / config.gear_ratio
        pulse = self.turret.range.pulse_for(angle) * 1e6
        self.say(
            f"seat {self.seat + 1} ({self.players[self.seat]}): {angle:.1f}° "
            f"(servo {servo:.1f}°, pulse {pulse:.0f} µs), step {self.step:g}°"
        )

    def fire(self, cards: int) -> Any:
        """Fire ``cards`` cards; says and returns the beam's report (None without a beam)."""
        self.notices.clear()
        self.launcher.execute(Eject(cards))
        self.launcher.wait_idle(60, sound=False)
        status = self.launcher.status()
        self.say(f"fired {cards} card(s) (cards fired so far: {status['cards_fired']})")
        reports = [n for n in self.notices if hasattr(n, "fault")]
        if not reports:
            self.say("no beam (pins.card_sensor = -1): firing is timed, nothing was counted")
            return None
        report = reports[-1]
        fault = f", fault: {report.fault}" if report.fault else ""
        doubles = f", {report.doubles} double(s)" if report.doubles else ""
        self.say(f"beam: {report.counted} card(s) counted{doubles}{fault}")
        if report.fault:
            self.launcher.clear_jam()
        return report

    def measure(self, cards: int) -> None:
        """Fire ``cards`` cards and time them with the beam: card_pass_s and feed_mm_s."""
        ejector = self.launcher.ejector
        sensor = self.launcher.card_sensor
        if sensor is None:
            raise ValueError("measuring needs the beam (pins.card_sensor): firing is timed")
        before = sensor.passages
        # A slow feed is what this measures: while it does, time-outs are generous (5x), so a
        # feed far below the config's speed is timed and named rather than taken for a jam.
        configured = ejector.config
        ejector.config = dataclasses.replace(configured, margin=max(configured.margin, 5.0))
        try:
            report = self.fire(cards)
        finally:
            ejector.config = configured
        passages = [p for p in sensor.passages_since(before) if p.cards == 1]
        if report is None or report.fault or len(passages) < 2:
            raise ValueError(
                "the beam saw fewer than two single cards: clear the launcher, check the throat "
                "(a little over one card) and the beam, then measure again"
            )
        # Each card darkened the beam at the duty the pinch had stepped down to: brought back to
        # full duty, which is what card_pass_s means.
        card_pass_s = statistics.median(p.dark_s * p.duty for p in passages)
        darks = ", ".join(f"{p.dark_s * 1000:.0f}" for p in sensor.passages_since(before))
        self.say(f"the cards darkened the beam {darks} ms, in turn")
        gaps = [b.start - a.start for a, b in itertools.pairwise(passages)]
        feed_mm_s = ejector.config.card_length_mm / statistics.median(gaps)
        expected = ejector.config.feed_mm_s
        self.say(
            f"one card darkens the beam {card_pass_s * 1000:.0f} ms; the feed moves "
            f"{feed_mm_s:.0f} mm/s (the config expected {expected:.0f} mm/s)"
        )
        if feed_mm_s < SLOW_FEED * expected:
            self.say(
                f"SLOW FEED: {feed_mm_s:.0f} mm/s is {feed_mm_s / expected:.0%} of the "
                f"{expected:.0f} mm/s expected. Check the feed servo's supply (5 V at the servo "
                "while it turns), that it is a FS90R or as fast, and the tyre's grip on the "
                "cards. Saving the measured speed makes the time-outs fit this feed."
            )
        self.measured = {"feed_mm_s": round(feed_mm_s, 1), "card_pass_s": round(card_pass_s, 4)}
        ejector.config = dataclasses.replace(ejector.config, feed_mm_s=self.measured["feed_mm_s"])
        sensor.config = dataclasses.replace(sensor.config, card_pass_s=self.measured["card_pass_s"])
        self.dirty = True

    def save(self) -> None:
        try:
            save_calibration(self.path, self.angles, **self.measured)
        except OSError as exc:
            raise ValueError(f"cannot write {self.path}: {exc.strerror or exc}") from exc
        self.dirty = False
        self.say(f"saved to {self.path}")
        if self.state_dir is not None:
            self.say(save_seat_angles_in_database(self.state_dir, self.angles))


def save_seat_angles_in_database(state_dir: Path, angles: Sequence[float]) -> str:
    """Store ``angles`` where the page keeps its calibration, when the table's database exists;
    returns a sentence for the user (what happened, or why not)."""
    from companion.app.device_actions import SEAT_ANGLES_KEY
    from companion.storage import Storage, StorageError
    from companion.storage.layout import DB_NAME

    if not (state_dir / DB_NAME).exists():
        return "no table database yet: the service will start with these angles"
    try:
        store = Storage.open(state_dir)
        try:
            store.settings_put(SEAT_ANGLES_KEY, [round(float(a), 1) for a in angles])
        finally:
            store.close()
    except (OSError, StorageError) as exc:
        return (
            f"not saved in the table's database ({exc}): angles set from the phone page "
            "will replace these at the next start"
        )
    return f"saved in the table's database too ({state_dir}): restart the service to use them"


def _number(text: str, what: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"expected a number for the {what}, got {text!r}") from None


def save_calibration(
    path: Path,
    seat_angles: Sequence[float],
    *,
    feed_mm_s: float | None = None,
    card_pass_s: float | None = None,
) -> None:
    """Write the seat bearings (and the feed's measured times) into ``path``'s ``[hardware]``
    table, keeping everything else.

    The new text is validated like a fresh start would before the file is replaced (atomically:
    a crash leaves the old file or the new one, never half of one).
    """
    import tomlkit

    text = path.read_text(encoding="utf-8") if path.exists() else ""
    try:
        document = tomlkit.parse(text)
    except tomlkit.exceptions.ParseError as exc:
        raise ValueError(f"{path} is not valid TOML: {exc}") from exc
    hardware = _table(document, "hardware")
    _table(hardware, "turret")["seat_angles"] = [round(float(a), 1) for a in seat_angles]
    if feed_mm_s is not None:
        _table(hardware, "ejector")["feed_mm_s"] = round(float(feed_mm_s), 1)
    if card_pass_s is not None:
        _table(hardware, "card_sensor")["card_pass_s"] = round(float(card_pass_s), 4)
    new_text = tomlkit.dumps(document)
    if not new_text.endswith("\n"):
        new_text += "\n"
    try:
        parse_config(tomllib.loads(new_text), str(path))
    except ConfigError as exc:
        raise ValueError(f"not saved, the result would be invalid: {exc}") from exc
    _write_atomically(path, new_text)


def _table(container: Any, key: str) -> Any:
    import tomlkit

    if key not in container:
        container[key] = tomlkit.table()
    return container[key]


def _write_atomically(path: Path, text: str) -> None:
    directory = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o777)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
