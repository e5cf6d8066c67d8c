"""Commands: what the core asks the outside world to do.

The engine never drives hardware itself. Handling one event returns a list of these, in the order
they should happen; adapters (devices, speech, web) each act on the kinds they understand and
ignore the rest.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Literal

CueName = Literal["ding", "burst", "suspense", "reload", "start", "error", "warning"]


class Priority(IntEnum):
    """How much a spoken line matters; higher interrupts lower and is never dropped for it."""

    INFO = 10  # turn announcements, standings
    PROMPT = 20  # who must press how many times, Coup Extrême target
    WARNING = 30  # reload, magazine low, jam
    PENALTY = 40  # Contre-UNO, suggestion penalty
    RESULT = 50  # round and game winners


@dataclass(frozen=True)
class Eject:
    """Fire ``cards`` cards from the magazine to ``seat`` (0-based): the launcher faces that
    seat before the first card leaves. ``seat`` None (a test fire): wherever it faces."""

    cards: int
    forced: bool = False  # the fifth press always fires (field notes): a bigger burst
    seat: int | None = None


@dataclass(frozen=True)
class Turn:
    """Point the turret at ``seat`` (0-based seat index around the table) where ``player`` sits."""

    seat: int
    player: str


@dataclass(frozen=True)
class Cue:
    """Play a sound cue (see :mod:`companion.core.cues`); ``level`` 0..1 sets the suspense tempo."""

    name: CueName
    level: float = 0.0


@dataclass(frozen=True)
class Say:
    """Speak the catalog phrase ``key`` with ``params`` in the table's language."""

    key: str
    params: Mapping[str, str | int] = field(default_factory=dict)
    priority: Priority = Priority.INFO


Command = Eject | Turn | Cue | Say
