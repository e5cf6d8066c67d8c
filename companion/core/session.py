"""Running a script through the engine: one trace record per event.

Pure: it takes lines and gives records; reading files and printing JSON is the caller's job.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from .actions import table_event
from .commands import Cue, Eject, Say, Turn
from .errors import ActionError
from .events import Event
from .script import ScriptError, parse_line
from .table import Outcome, TableEngine
from .table.view import card_of

MENDS = frozenset({"undo", "redo", "replace", "remove", "insert"})  # change the log, add no line


@dataclass(frozen=True)
class LineError:
    line: int
    text: str
    message: str


def trace_record(
    outcome: Outcome, render: Callable[[Say], str], event: Event | None = None
) -> dict[str, Any]:
    """The JSON object a script session writes for one handled event: what it was, the card it
    laid (``{"kind", "colour"}`` or null), where it came from, and the table it left."""
    snap = outcome.snapshot
    turns = [c for c in outcome.commands if isinstance(c, Turn)]
    last = snap["last_event"]
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


def run_script(
    lines: Iterable[str], engine: TableEngine, render: Callable[[Say], str]
) -> Iterator[dict[str, Any] | LineError]:
    """Feed each line to ``engine``; yield a trace record, or a LineError for a bad line."""
    for number, text in enumerate(lines, start=1):
        try:
            parsed = parse_line(text)
            if parsed is None:
                continue
            event = table_event(*parsed)
            outcome = engine.handle(event)
        except (ScriptError, ActionError) as exc:
            yield LineError(number, text.rstrip("\n"), str(exc))
            continue
        record = trace_record(outcome, render, event)
        record["line"] = number
        yield record
