"""Small hub listeners the services use to react to outcomes."""

from __future__ import annotations

from collections.abc import Callable

from companion.core.commands import Command
from companion.core.table import Outcome

from .hub import Announcement


class OnEvent:
    """A hub listener calling ``target(outcome)`` after each table event named ``event``."""

    def __init__(self, event: str, target: Callable[[Outcome], None]) -> None:
        self._event = event
        self._target = target

    def on_outcome(self, outcome: Outcome | Announcement) -> None:
        if isinstance(outcome, Outcome) and outcome.event == self._event:
            self._target(outcome)


class CommandsTo:
    """A hub listener handing the commands of each outcome and announcement to one function."""

    def __init__(self, target: Callable[[list[Command]], None]) -> None:
        self._target = target

    def on_outcome(self, outcome: Outcome | Announcement) -> None:
        self._target(list(outcome.commands))
