"""The one way in: every notice from outside becomes a table event with its source, here.

The box's buttons and card sensor, the phone page, a script and the camera each notice things in
their own terms: a button pressed, an action with its payload, a line of text, a card read.
:func:`table_input` is the one place that says which table event each notice stands for and
where it came from (:data:`~companion.core.events.Source`); :class:`InputDoor` posts it to the
hub, whose thread hands it to the engine. The source travels with the event to the outcome, the
round's log and the state the phones read.

An input source is anything with ``start(door)`` and ``close()`` (:class:`InputSource`): the
composition root starts it once the hub runs and closes it before the hub stops, so no notice
reaches a hub that is not there. A new source (the camera) is one more input source and, for a
new kind of notice, one more case in :func:`table_input`; nothing else changes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.core.actions import table_event
from companion.core.commands import Command
from companion.core.events import CardKind, CardsSeen, Colour, Event, Jam, Play, Press, Source
from companion.core.script import script_event

# What each of the launcher's buttons means at the table (the box and the terminal share it).
BUTTON_EVENTS: dict[str, Event] = {
    "hit": Press(),
    "next": Play("number"),  # "I played a card": the turn passes, the hand estimate drops
    "reverse": Play("reverse"),
    "skip": Play("skip"),
}


@dataclass(frozen=True)
class ButtonPress:
    """A box button pressed (debounced by the hardware), by its name: hit, next, reverse, skip."""

    button: str


@dataclass(frozen=True)
class BoxReport:
    """What the box saw by itself: the card sensor's count after a firing, or a jam."""

    event: CardsSeen | Jam


@dataclass(frozen=True)
class PhoneAction:
    """A table action sent from a phone: its ``name`` (``table.play``, ``table.press``...)
    and its payload, already checked against the action's schema."""

    name: str
    payload: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ScriptLine:
    """One line of a script (see the README's "Script language")."""

    text: str


@dataclass(frozen=True)
class CardRead:
    """A card the camera saw land on the discard pile; only a ``sure`` read moves the table."""

    card: CardKind
    colour: Colour | None = None
    value: int | None = None
    sure: bool = True
    target: str | None = None  # a Coup Extrême's target, picked at the table (the turret's sweep)


Notice = ButtonPress | BoxReport | PhoneAction | ScriptLine | CardRead


def table_input(notice: Notice) -> tuple[Event, Source] | None:
    """The table event ``notice`` stands for, and its source; ``None`` when it stands for none
    (a button with no table meaning, a blank line, a read the camera is unsure of).

    Raises :class:`ActionError` (or the script's :class:`~companion.core.script.ScriptError`)
    for a notice no event can be made of.
    """
    match notice:
        case ButtonPress(button):
            event = BUTTON_EVENTS.get(button)
            return None if event is None else (event, "button")
        case BoxReport(event):
            return event, "box"
        case PhoneAction(name, payload):
            return table_event(name, dict(payload)), "phone"
        case ScriptLine(text):
            event = script_event(text)
            return None if event is None else (event, "script")
        case CardRead(card, colour, value, sure, target):
            return (Play(card, colour, value=value, target=target), "camera") if sure else None
    raise TypeError(f"not a notice: {notice!r}")


class Hubward(Protocol):
    """What the door needs of the hub."""

    def post(self, event: Event, source: Source) -> Future[Any]: ...

    def handle(self, event: Event, source: Source) -> Any: ...

    def call(self, work: Callable[[], Any]) -> Future[Any]: ...

    def announce(self, event: str, commands: list[Command]) -> None: ...

    def changed(self, section: str) -> None: ...


class InputDoor:
    """Posts each notice's table event to the hub with its source."""

    def __init__(self, hub: Hubward) -> None:
        self._hub = hub
        self._claims: list[Callable[[Notice], bool]] = []

    def claim(self, taker: Callable[[Notice], bool]) -> None:
        """Until :meth:`unclaim`, ``taker`` sees each notice first; one it returns True for is
        its own and goes no further (HIT pressed while the turret sweeps for a target)."""
        self._claims.append(taker)

    def unclaim(self, taker: Callable[[Notice], bool]) -> None:
        if taker in self._claims:
            self._claims.remove(taker)

    def take(self, notice: Notice) -> Future[Any] | None:
        """Queue the event ``notice`` stands for; returns at once (``None``: it stands for no
        event). The future gives the outcome, or the rules' refusal."""
        for taker in list(self._claims):
            if taker(notice):
                return None
        found = table_input(notice)
        if found is None:
            return None
        return self._hub.post(*found)

    def take_now(self, notice: Notice) -> Any:
        """Handle the event ``notice`` stands for at once and return its outcome (``None``: it
        stands for none); on the hub thread only, from an action that is itself an input, so
        the rules' refusal is that action's answer."""
        found = table_input(notice)
        return None if found is None else self._hub.handle(*found)

    def announce(self, name: str, commands: list[Command]) -> Future[Any]:
        """Commands of the box's own (a long press saying the page's address) handed to the
        listeners on the hub thread, as the table's are: the voice's on/off switch holds."""
        return self._hub.call(lambda: self._hub.announce(name, commands))

    def changed(self, section: str) -> Future[Any]:
        """A part of the state other than the table changed by itself (the launcher stopped
        moving): the phones are told, from the hub thread."""
        return self._hub.call(lambda: self._hub.changed(section))


class InputSource(Protocol):
    """Something that notices what happens at the table: started with the door once the hub
    runs, closed (no more notices) before the hub stops."""

    def start(self, door: InputDoor) -> None: ...

    def close(self) -> None: ...
