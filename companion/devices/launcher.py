"""LauncherHardware: every part of the box behind one object that never blocks its caller.

Inputs (buttons, card sensor) become small typed *notices* passed to the callback given to
:meth:`LauncherHardware.on_input`. Outputs are the core's commands, given to
:meth:`LauncherHardware.execute`:

- :class:`~companion.core.commands.Eject` and :class:`~companion.core.commands.Turn` go, in order,
  to one *motion lane* (a worker thread with a FIFO queue). Firings are sequential, and a Turn
  queued behind an ejection waits for it. An ejection names its seat: the lane turns the
  turret there first (when it does not face it already: after homing at start, say) and fires
  once the turn has ended, so cards always go to the player they were meant for; a press that
  comes mid-turn waits in the queue behind it. The queue (:mod:`.motion_queue`) is bounded
  however fast the button is mashed, and it coalesces the way the real launcher's motor does:
  a press that fires while cards for the same seat are still waiting to come out adds its
  cards to that ejection (the motor simply runs on), and a Turn queued behind another Turn
  replaces it (the turret goes to the latest target only). When :data:`MAX_PENDING` movements
  wait (a button mashed far faster than the launcher moves), a new ejection joins the last
  waiting one and a new Turn replaces the last waiting Turn: no card is ever dropped, though
  some may come out at another player's seat (once nothing waits, the turret goes back to the
  latest seat asked). One ejection is never more than :data:`MAX_EJECTION` cards (a whole
  deck: no magazine holds more); what would go past it waits as an ejection of its own or
  joins an earlier one with room. Only cards past a deck in every waiting ejection are dropped
  (with a warning: the magazine ran out long before).
- :class:`~companion.core.commands.Cue` goes to the buzzer's own lane and starts at once,
  replacing the sound playing: the ding of a press is never stuck behind a moving servo.
- :class:`~companion.core.commands.Say` and anything else are ignored (other adapters' work).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from companion.core.commands import Command, Cue, Eject, Turn
from companion.core.cues import Step, cue_steps
from companion.core.events import CardsSeen, Jam
from companion.core.limits import MAX_HAND

from .backends import backend_name
from .buttons import HitButton, TableButton
from .buzzer import Buzzer
from .clock import SYSTEM_CLOCK, Clock
from .config import NO_PIN, HardwareConfig
from .ejector import Ejector
from .mock_cards import CardPathClock, MockCardPath
from .motion_queue import MAX_EJECTION as MAX_EJECTION  # the bounds, named where they act
from .motion_queue import MAX_PENDING as MAX_PENDING
from .motion_queue import MotionQueue
from .sensor import CardSensor, FiringCount, FiringFault
from .turret import Turret

logger = logging.getLogger(__name__)

ButtonName = Literal["hit", "next", "reverse", "skip"]
# gpiozero's mock pins record every change for tests to read back; in a simulated evening
# (thousands of presses) that record is cut back to its most recent part.
MOCK_HISTORY = 2048
Part = TypeVar("Part")


@dataclass(frozen=True)
class ButtonPressed:
    """A debounced button press.

    ``at`` is the monotonic time (``time.monotonic()``) of the accepted edge; ``seq`` numbers
    notices 1, 2, 3... across all inputs in the order they were accepted. What a press means at
    the table is the application's to say (its input door), not the hardware's.
    """

    button: ButtonName
    at: float
    seq: int


@dataclass(frozen=True)
class SensorReport:
    """What the card-exit beam counted for one firing; :attr:`events` are for the engine.

    ``counted`` is the cards the beam saw (a double counts its two), ``doubles`` the dark spells
    that were two overlapping cards, ``fault`` what stopped the firing short: "jam" (no card
    reached the beam in time) or "stuck" (a card stayed in the beam).
    """

    expected: int
    counted: int
    doubles: int
    fault: FiringFault | None
    at: float
    seq: int

    @property
    def events(self) -> tuple[CardsSeen | Jam, ...]:
        """``CardsSeen`` (the cards fired are the ones counted), then ``Jam`` after a fault.

        Counts are bounded as the engine takes them (a beam gone mad cannot count more than a
        deck), so a report journaled is a report replayed."""
        seen = CardsSeen(
            min(self.counted, MAX_HAND), min(self.expected, MAX_HAND), min(self.doubles, MAX_HAND)
        )
        return (seen,) if self.fault is None else (seen, Jam(self.fault))


InputNotice = ButtonPressed | SensorReport
InputCallback = Callable[[InputNotice], None]


class LauncherHardware:
    """The launcher's parts, built from ``config`` on gpiozero pin ``factory``.

    ``seats`` is the number of players (for uncalibrated seat angles). At start the ejector
    parks and the turret goes home (on the motion lane; :meth:`wait_idle` waits for it).
    ``clock`` stamps the inputs; ``motion_clock`` paces the feed, turret frames and notes (and
    the beam's edges are stamped on it). On the mock pins a :class:`MockCardPath` (``card_path``,
    made when none is given) moves simulated cards across the beam while the feed runs.
    Callbacks given to :meth:`on_input` run in the thread that saw the input (a GPIO backend
    thread, the motion lane, or on the mock the caller of ``pin.drive_low()``): keep them quick,
    e.g. put the notice in the daemon's queue.
    """

    def __init__(
        self,
        config: HardwareConfig,
        factory: Any,
        *,
        seats: int = 4,
        clock: Callable[[], float] = time.monotonic,
        motion_clock: Clock = SYSTEM_CLOCK,
        card_path: MockCardPath | None = None,
    ) -> None:
        self.config = config
        self.card_path = card_path
        self.backend = backend_name(factory)
        self._factory = factory
        self._clock = clock
        self._callbacks: list[InputCallback] = []
        self._input_lock = threading.Lock()
        self._seq = 0
        self._state_lock = threading.Condition()
        self._pending = MotionQueue()  # movements waiting, oldest first
        self._running = 0  # 1 while the lane performs a movement
        self._jam: FiringFault | None = None
        self._last_error: str | None = None
        self._closed = False
        self._stop = threading.Event()
        self._parts: list[Any] = []
        try:
            self._build(config, factory, seats, clock, motion_clock)
        except BaseException:
            self._close_parts()
            raise
        self._lane = threading.Thread(target=self._run_lane, name="motion-lane", daemon=True)
        self._lane.start()
        self._enqueue(("home", None))

    def _build(
        self,
        config: HardwareConfig,
        factory: Any,
        seats: int,
        clock: Callable[[], float],
        motion_clock: Clock,
    ) -> None:
        pins = config.pins
        self.buttons: dict[ButtonName, TableButton] = {}
        self.hit_button = HitButton(
            pins.hit, factory=factory, debounce_s=config.debounce_s, clock=clock
        )
        self._add(self.hit_button)
        self.buttons["hit"] = self.hit_button
        optional: tuple[tuple[ButtonName, int], ...] = (
            ("next", pins.next),
            ("reverse", pins.reverse),
            ("skip", pins.skip),
        )
        for name, pin in optional:
            if pin != NO_PIN:
                button = TableButton(
                    name, pin, factory=factory, debounce_s=config.debounce_s, clock=clock
                )
                self.buttons[name] = self._add(button)
        self.buzzer = self._add(
            Buzzer(pins.buzzer, factory=factory, kind=config.buzzer.kind, clock=motion_clock)
        )
        self.card_sensor: CardSensor | None = None
        feed_clock = motion_clock
        if pins.card_sensor != NO_PIN:
            if self.card_path is None and self.backend == "mock":
                beam = factory.pin(pins.card_sensor)
                self.card_path = MockCardPath(beam, config.ejector, config.card_sensor)
            if self.card_path is not None:
                feed_clock = CardPathClock(motion_clock, self.card_path)
            self.card_sensor = self._add(
                CardSensor(
                    pins.card_sensor,
                    config.card_sensor,
                    factory=factory,
                    clock=feed_clock.monotonic,
                )
            )
        self.ejector = self._add(
            Ejector(
                pins.ejector,
                config.ejector,
                factory=factory,
                exit_pin=pins.exit_motor,
                sensor=self.card_sensor,
                clock=feed_clock,
            )
        )
        if self.card_path is not None:
            self.card_path.feeding = lambda: self.ejector.feeding
            self.card_path.pinch = lambda: self.ejector.pinch_duty
        self.turret = self._add(
            Turret(pins.turret, config.turret, factory=factory, seats=seats, clock=motion_clock)
        )
        for name, button in self.buttons.items():
            button.when_pressed = self._press_handler(name)

    def _add(self, part: Part) -> Part:
        self._parts.append(part)
        return part

    # -- inputs -------------------------------------------------------------------------------

    def on_input(self, callback: InputCallback) -> None:
        """Call ``callback(notice)`` for every :class:`ButtonPressed` and :class:`SensorReport`."""
        with self._input_lock:
            self._callbacks.append(callback)

    def _press_handler(self, name: ButtonName) -> Callable[[float], None]:
        def handle(at: float) -> None:
            self._deliver(lambda seq: ButtonPressed(button=name, at=at, seq=seq))

        return handle

    def _deliver(self, make: Callable[[int], InputNotice]) -> None:
        # One lock around numbering and delivery: notices reach the callback in seq order even
        # when two backend threads report at once.
        with self._input_lock:
            self._seq += 1
            notice = make(self._seq)
            for callback in self._callbacks:
                try:
                    callback(notice)
                except Exception:
                    logger.exception("input callback failed for %r", notice)

    # -- outputs ------------------------------------------------------------------------------

    def execute(self, commands: Command | Iterable[Command]) -> None:
        """Act on core commands without blocking (see the module docstring).

        Several Cue commands given in one call play one after the other, as one sound that
        replaces whatever was playing.
        """
        if isinstance(commands, Eject | Turn | Cue) or not isinstance(commands, Iterable):
            commands = [commands]
        sound: list[Step] = []
        moves: list[tuple[str, Any]] = []
        for command in commands:
            if isinstance(command, Cue):
                try:
                    sound.extend(cue_steps(command.name, command.level))
                except KeyError:
                    logger.warning("unknown sound cue %r ignored", command.name)
            elif isinstance(command, Eject):
                if command.cards > 0:
                    moves.append(("eject", command))
            elif isinstance(command, Turn):
                moves.append(("turn", command))
        # The sound first: the ding answers the press at once, before the movements' thread is
        # woken (it would compete with this thread for the interpreter).
        if sound and not self._closed:
            self.buzzer.play(sound)
        for move in moves:
            self._enqueue(move)
        if sound:
            self._trim_mock_history()

    def _enqueue(self, job: tuple[str, Any]) -> None:
        with self._state_lock:
            if self._closed:
                return
            self._pending.put(job)
            self._state_lock.notify_all()

    @property
    def coalesced(self) -> int:
        """Movements merged into a waiting one (for the page and the soak)."""
        with self._state_lock:
            return self._pending.coalesced

    def _run_lane(self) -> None:
        while True:
            with self._state_lock:
                self._state_lock.wait_for(lambda: self._pending or self._closed)
                if self._closed:  # close() drops what was still waiting
                    self._pending.clear()
                    self._state_lock.notify_all()
                    return
                kind, command = self._pending.take()
                self._running = 1
            try:
                if not self._stop.is_set():
                    self._perform(kind, command)
            except Exception as exc:  # one failed movement must not stop the next ones
                logger.exception("%s failed", kind)
                with self._state_lock:
                    self._last_error = f"{kind}: {exc}"
            finally:
                self._trim_mock_history()
                with self._state_lock:
                    self._running = 0
                    self._state_lock.notify_all()

    def _trim_mock_history(self) -> None:
        if self.backend != "mock":
            return
        for pin in list(getattr(self._factory, "pins", {}).values()):
            states = getattr(pin, "states", None)
            if isinstance(states, list) and len(states) > MOCK_HISTORY:
                del states[: len(states) - MOCK_HISTORY // 2]

    @property
    def pending(self) -> int:
        """Movements waiting (not counting the one running)."""
        with self._state_lock:
            return len(self._pending)

    def pending_cards(self) -> int:
        """Cards still waiting to be fired."""
        return sum(number for kind, number in self.waiting() if kind == "eject")

    def waiting(self) -> list[tuple[str, int]]:
        """The movements waiting behind the one running, oldest first, each as it will run:
        ``("home", 0)``, ``("turn", seat)`` or ``("eject", cards)`` (merged ones as one)."""
        with self._state_lock:
            return self._pending.waiting()

    @property
    def turning(self) -> bool:
        """True while the turret turns (the phones are told where it is meanwhile)."""
        return self.turret.moving

    def _perform(self, kind: str, command: Any) -> None:
        if kind == "home":
            self.ejector.home(self._stop)
            self.turret.home(self._stop)
        elif kind == "turn":
            try:
                self.turret.face(command.seat, self._stop)
            except IndexError as exc:
                logger.warning("turret: %s; not turning", exc)
        elif kind == "eject":
            self._eject(command)

    def _eject(self, command: Eject) -> None:
        if command.seat is not None:
            # Not one card before the turret faces the seat: after homing, a restart, a seat
            # re-angled, a sweep that left it elsewhere. Already there, this returns at once.
            try:
                self.turret.face(command.seat, self._stop)
            except IndexError as exc:
                logger.warning("turret: %s; firing where it faces", exc)
            if self._stop.is_set():
                return
        result = self.ejector.fire(command.cards, self._stop)
        if self.card_sensor is not None and not self._stop.is_set():
            self._report(result)
        # Cards merged past the queue's bound may have turned it away from the latest seat
        # asked: with nothing left to do, it goes back there.
        with self._state_lock:
            aim = self._pending.aim if not self._pending else None
        if aim is not None and aim != command.seat and not self._stop.is_set():
            self._perform("turn", Turn(aim, ""))

    def _report(self, result: FiringCount) -> None:
        with self._state_lock:
            self._jam = result.fault
        if result.fault is not None:
            logger.warning(
                "card beam: %s after %d of %d card(s)",
                result.fault,
                result.counted,
                result.expected,
            )
        if result.doubles:
            logger.warning("card beam: %d double(s) in %d card(s)", result.doubles, result.counted)
        at = self._clock()
        self._deliver(
            lambda seq: SensorReport(
                expected=result.expected,
                counted=result.counted,
                doubles=result.doubles,
                fault=result.fault,
                at=at,
                seq=seq,
            )
        )

    # -- state --------------------------------------------------------------------------------

    def clear_jam(self) -> None:
        """Forget a reported jam (the magazine was cleared or reloaded); on the mock pins the
        simulated magazine is cleared and full again."""
        with self._state_lock:
            self._jam = None
        if self.card_path is not None:
            self.card_path.reload()

    def wait_idle(self, timeout: float | None = None, *, sound: bool = True) -> bool:
        """Block until no movement is queued or running (and, with ``sound``, nothing plays);
        False if ``timeout`` seconds passed first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._state_lock:
            if not self._state_lock.wait_for(
                lambda: not self._pending and not self._running, timeout=timeout
            ):
                return False
        if not sound:
            return True
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        return self.buzzer.wait_silent(left)

    def status(self) -> dict[str, Any]:
        """A snapshot for the page: the turret's angle and seat, and where it is going; busy,
        jam, counters."""
        with self._state_lock:
            queued = len(self._pending) + self._running
            jam = self._jam
            error = self._last_error
        return {
            "backend": self.backend,
            # Where the turret is (frame by frame while it turns) and where it is going.
            "turret_angle": self.turret.angle,
            "turret_target": self.turret.target,
            "turret_range": [self.turret.config.min_angle, self.turret.config.max_angle],
            "seat": self.turret.seat,
            "target_seat": self.turret.target_seat,
            "turning": self.turret.moving,
            "busy": queued > 0,
            "queued": queued,
            "sounding": self.buzzer.busy,
            "jam": jam is not None,
            "jam_reason": jam,
            "cards_fired": self.ejector.cards_fired,
            "counted": self.ejector.counted,
            "cards_seen": None if self.card_sensor is None else self.card_sensor.total,
            "buttons": sorted(self.buttons),
            "last_error": error,
        }

    # -- shutdown -----------------------------------------------------------------------------

    def close(self) -> None:
        """Stop moving (pending movements are dropped), detach the servos, silence the buzzer,
        release every pin. Safe to call twice."""
        with self._state_lock:
            if self._closed:
                return
            self._closed = True
            self._state_lock.notify_all()
        self._stop.set()
        self._lane.join(timeout=3.0)
        if self._lane.is_alive():
            logger.warning("motion lane did not stop within 3 s")
        self._close_parts()

    def _close_parts(self) -> None:
        with self._input_lock:
            self._callbacks.clear()
        for part in reversed(self._parts):
            try:
                part.close()
            except Exception:
                logger.warning("could not close %r", part, exc_info=True)
        self._parts.clear()

    def __enter__(self) -> LauncherHardware:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
