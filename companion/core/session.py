"""A script session's trace: one JSON-ready record per handled event.

Pure: it takes an outcome and gives a record; running the script through the daemon and printing
JSON is :mod:`companion.cli.replay`'s job.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .commands import Cue, Eject, Say, Turn
from .table import Outcome
from .table.view import card_of

MENDS = frozenset({"undo", "redo", "replace", "remove", "insert"})  # change the log, add no line


@dataclass(frozen=True)
class LineError:
    """A script line that was not taken: its number, its text and why."""

    line: int
    text: str
    message: str


def trace_record(outcome: Outcome, render: Callable[[Say], str]) -> dict[str, Any]:
    """The JSON object a script session writes for one handled event: what it was, the card it
    laid (``{"kind", "colour"}`` or null), where it came from, and the table it left."""
    snap = outcome.snapshot
    turns = [c for c in outcome.commands if isinstance(c, Turn)]
    last = snap["last_event"]
    event = outcome.handled
    return {
        "event": outcome.event,
        "card": None if event is None else card_of(event),
        "source": outcome.source,
        "seq": None if last is None or outcome.event in MENDS else last["seq"],
        "active": snap["active"],
        "direction": snap["direction"],
        "facing": snap["facing"],
        "owed": [
            {"player": o["player"], "presses": o["presses"], "reason": o["reason"]}
            for o in snap["owed"]
        ],
        "fired": outcome.fired,
        "magazine": snap["magazine"],
        "say": [render(c) for c in outcome.commands if isinstance(c, Say)],
        "sounds": [c.name for c in outcome.commands if isinstance(c, Cue)],
        "turn": turns[-1].seat if turns else None,
        "ejections": [c.cards for c in outcome.commands if isinstance(c, Eject)],
        "suspense": snap["suspense"],
        "hands": {p["name"]: p["hand"] for p in snap["players"]},
        "round": snap["round"],
        "round_over": snap["round_over"],
        "phase": snap["phase"],
        "side": snap["side"],
        "winner": snap["winner"],
    }
