"""The exit beam read by the software's own code: a :class:`CardSensor` on a gpiozero mock pin,
its edges stamped with the simulation's clock, so a simulated firing is counted exactly as the
box counts a real one: the firing's dark spells judged together by the sensor's own
:func:`~companion.devices.sensor.count_burst`, at the pinch's duties as the ejector gives them
(:func:`~companion.devices.ejector.passing_duties`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from companion.devices.config import CardSensorConfig
from companion.devices.sensor import CardSensor

BEAM_PIN = 24  # any pin: the mock factory has them all


class Beam:
    """Dark while a card is between the emitter and the receiver."""

    def __init__(
        self,
        clock: Callable[[], float],
        duties: Sequence[float] = (),
        config: CardSensorConfig | None = None,
    ) -> None:
        from gpiozero.pins.mock import MockFactory

        self._factory = MockFactory()
        self.sensor = CardSensor(
            BEAM_PIN, config or CardSensorConfig(), factory=self._factory, clock=clock
        )
        self.dark = False
        self._first = self.sensor.begin_burst(duties)

    def see(self, dark: bool) -> None:
        """The beam as the cards leave it now: an edge when it changes."""
        if dark != self.dark:
            self.dark = dark
            pin = self.sensor.pin
            if dark:
                pin.drive_low()  # the receiver pulls the line low while the beam is broken
            else:
                pin.drive_high()

    def counted(self) -> int:
        """Cards the software counts: each dark spell's cards, and one in the beam now."""
        ended = sum(p.cards for p in self.sensor.passages_since(self._first))
        return ended + (1 if self.dark else 0)

    def doubles(self) -> int:
        return sum(1 for p in self.sensor.passages_since(self._first) if p.cards > 1)

    def spells(self) -> list[float]:
        return [p.dark_s for p in self.sensor.passages_since(self._first)]

    def close(self) -> None:
        self.sensor.end_burst()
        self.sensor.close()
        self._factory.close()
