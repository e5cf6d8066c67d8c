"""Helpers for the table rule tests: an engine with given rules and an exact launcher."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pytest

from companion.core.commands import Say
from companion.core.errors import ActionError
from companion.core.events import Event, Play, SetHand
from companion.core.options import LauncherOptions, ProfileOptions, RulesOptions
from companion.core.script import ScriptError, script_event
from companion.core.session import LineError, trace_record
from companion.core.table import Outcome, TableEngine

FOUR = ["Alice", "Bruno", "Chloé", "David"]


def fixed(cards: int = 0, magazine: int = 80) -> LauncherOptions:
    """A launcher that fires ``cards`` on every press (0: never gives cards), for exact checks."""
    return LauncherOptions(profile="fixed", fixed_cards=cards, magazine=magazine)


def profile(chances: list[float]) -> ProfileOptions:
    return ProfileOptions(fire_chance=chances, cards=[3, 3], forced_extra=[0, 0])


def never_fires() -> LauncherOptions:
    return LauncherOptions(profile="quiet", profiles={"quiet": profile([0.0])})


def table(players: list[str] = FOUR, **rules: Any) -> TableEngine:
    launcher = rules.pop("launcher", never_fires())
    return TableEngine(players, rules=RulesOptions(**rules), launcher=launcher, seed=7)


def bruno_left_with_one_card() -> TableEngine:
    """A table where Bruno (first to play) has just laid his second-last card without saying
    UNO: the Contre-UNO window is open on him."""
    engine = table()
    engine.handle(SetHand("Bruno", 2))
    engine.handle(Play("number", "red", value=4))
    return engine


def refused(engine: TableEngine, event: Event) -> ActionError:
    """The error the engine refuses ``event`` with (the test fails if it is taken)."""
    with pytest.raises(ActionError) as caught:
        engine.handle(event)
    return caught.value


def owed(engine: TableEngine) -> list[tuple[str, int, str]]:
    return [(o["player"], o["presses"], o["reason"]) for o in engine.snapshot()["owed"]]


def hands(engine: TableEngine) -> dict[str, int]:
    return {p["name"]: p["hand"] for p in engine.snapshot()["players"]}


def says(outcome: Outcome) -> list[str]:
    return [c.key for c in outcome.commands if isinstance(c, Say)]


def run(engine: TableEngine, *lines: str) -> Outcome:
    """Handle each script line in turn; the last outcome."""
    outcome = None
    for line in lines:
        event = script_event(line)
        assert event is not None, line
        outcome = engine.handle(event)
    assert outcome is not None
    return outcome


def traced(
    lines: Iterable[str], engine: TableEngine, render: Callable[[Say], str]
) -> Iterator[dict[str, Any] | LineError]:
    """A script's trace from the engine alone (the rules' own properties, thousands of times
    over); ``simulate --script`` runs scripts through the whole daemon."""
    for number, text in enumerate(lines, start=1):
        try:
            event = script_event(text)
            if event is None:
                continue
            record = trace_record(engine.handle(event), render)
        except (ScriptError, ActionError) as exc:
            yield LineError(number, text, str(exc))
            continue
        record["line"] = number
        yield record
