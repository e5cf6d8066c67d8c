"""The box's phrases for the phones to speak: a table without a speaker on the box still hears
"Zoé, appuie 2 fois" from every phone that ticked sound.

Every ``Say`` the table engine and the box's own announcements make is kept here, the last
:data:`KEPT` of them, numbered; the state's ``spoken`` part gives them with their sentence in
each of the box's languages (made when first read, once), and a phone speaks those newer than
the last it heard, in its own language, with the browser's speech synthesis. The box's own
voice is another listener: switching it off leaves the phones' as it is.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from companion.core.commands import Say
from companion.core.table import Outcome

from .broadcast import Announcement

if TYPE_CHECKING:
    from .hub import Hub

KEPT = 8  # the phrases a phone may still be missing after a moment away
Render = Callable[[Say, str], str]  # a phrase as a sentence in a language


class SpokenLine:
    """One phrase: its number, its catalog key and its sentence per language (made once)."""

    __slots__ = ("_texts", "number", "say")

    def __init__(self, number: int, say: Say) -> None:
        self.number = number
        self.say = say
        self._texts: dict[str, str] | None = None

    def data(self, render: Render, languages: Sequence[str]) -> dict[str, Any]:
        if self._texts is None:
            self._texts = {lang: render(self.say, lang) for lang in languages}
        return {"n": self.number, "key": self.say.key, "text": self._texts}


class SpokenLines:
    """The last phrases of the box, numbered, for the phones (the ``spoken`` state part).

    ``wants(say)``: whether the box would say it (the turn announcements it is set to skip are
    skipped on the phones too)."""

    def __init__(
        self,
        render: Render,
        languages: Sequence[str],
        wants: Callable[[Say], bool] | None = None,
    ) -> None:
        self._render = render
        self._languages = tuple(languages)
        self._wants = wants or (lambda say: True)
        self._lines: deque[SpokenLine] = deque(maxlen=KEPT)
        self._said = 0
        self._hub: Hub | None = None

    def attach(self, hub: Hub) -> None:
        self._hub = hub
        hub.add_listener(self)
        hub.register_status("spoken", self.status)

    def on_outcome(self, outcome: Outcome | Announcement) -> None:
        """Keep the phrases (hub thread). A table event's state change follows it; the box's
        own announcement tells the phones itself, leaving the edits' revision as it is."""
        added = False
        for command in outcome.commands:
            if isinstance(command, Say) and self._wants(command):
                self._said += 1
                self._lines.append(SpokenLine(self._said, command))
                added = True
        if added and not isinstance(outcome, Outcome) and self._hub is not None:
            self._hub.changed("spoken")

    def status(self) -> dict[str, Any]:
        """``last``: the number of the newest phrase; ``lines``: the kept ones, oldest first."""
        return {
            "last": self._said,
            "lines": [line.data(self._render, self._languages) for line in self._lines],
        }
