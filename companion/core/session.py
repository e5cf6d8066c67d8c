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
from .script import ScriptError, parse_line
from .table import Outcome, TableEngine


@dataclass(frozen=True)
class LineError:
    line: int
    text: str
    message: str


def trace_record(outcome: Outcome, render: Callable[[Say], str]) -> dict[str, Any]:
    """The JSON object a script session writes for one handled event."""
    snap = outcome.snapshot
    turns = [c for c in outcome.commands if isinstance(c, Turn)]
    return {
        "event": outcome.event,
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
        record = trace_record(outcome, render)
        record["line"] = number
        yield record
