"""The round as a log: what happened, in order, and the table derived from it by replay.

Each :class:`Entry` is one accepted event with its source, its time if known, and for a press
what the launcher really did (its :class:`~companion.core.firing.Firing`): a replay counts the
same cards and never rolls again. Any line can be replaced, removed, or have an event inserted
before it; the table is then recomputed from the checkpoint the log starts from. A line that no
longer fits after a correction (not that player's turn any more) stays in the log, marked with
the reason, and counts for nothing until another correction makes it fit.

Every change to the log is an :class:`Edit` that Undo takes back and Redo puts back, presses
included. The log is bounded: past :data:`MAX_ENTRIES` lines its oldest are folded into its
starting checkpoint (they can no longer be corrected). Replays start from the nearest
checkpoint kept every :data:`MARK_EVERY` lines, so mending a recent line replays few events.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import ActionError
from ..events import Event, Source
from ..firing import Firing
from .state import Checkpoint, Table

MARK_EVERY = 64
MAX_ENTRIES = 5 * MARK_EVERY  # lines kept per round; older ones are folded into the start
UNDO_DEPTH = 50


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the round's log. ``firing``: for a press, what the launcher did (None: it
    could not serve, a reload was needed); ``at``: when, if the caller said."""

    seq: int
    event: Event
    source: Source
    firing: Firing | None = None
    at: float | None = None


@dataclass(frozen=True, slots=True)
class Edit:
    """One change to the log: at ``index``, the lines ``removed`` gave way to ``inserted``."""

    index: int
    removed: tuple[Entry, ...]
    inserted: tuple[Entry, ...]

    def inverse(self) -> Edit:
        return Edit(self.index, self.inserted, self.removed)


class RoundLog:
    """The round's lines from a starting checkpoint, the checkpoints along them, and the
    edits Undo and Redo walk through."""

    def __init__(self, start: Checkpoint, next_seq: int = 0) -> None:
        self.entries: list[Entry] = []
        self.marks: list[Checkpoint] = [start]  # marks[k]: the table after k*MARK_EVERY lines
        self.undo: list[Edit] = []
        self.redo: list[Edit] = []
        self.refused: dict[int, ActionError] = {}  # seq -> why the line no longer fits
        self.actors: list[int | None] = []  # by line: the seat that played or pressed
        self.views: dict[int, tuple[Entry, str | None, dict[str, Any]]] = {}  # as the page shows
        self.awaiting: int | None = None  # the press whose firing waits for the beam's count
        self.next_seq = next_seq

    @property
    def start(self) -> Checkpoint:
        return self.marks[0]

    def new_entry(
        self, event: Event, source: Source, firing: Firing | None, at: float | None
    ) -> Entry:
        entry = Entry(self.next_seq, event, source, firing, at)
        self.next_seq += 1
        return entry

    def index_of(self, seq: int) -> int:
        for i in range(len(self.entries) - 1, -1, -1):
            if self.entries[i].seq == seq:
                return i
        raise ActionError(
            "no_such_line",
            f"line {seq} is not in this round's log",
            {"seq": seq},
            status=404,
        )

    def acted_since(self, seq: int, kind: type, player: str, names: list[str]) -> bool:
        """Whether a line from ``seq`` on (still in the log, not refused) is a ``kind`` event
        of ``player``: by the seat that acted, else by the player the event names. ``names``:
        the seats' names now."""
        for i in range(len(self.entries) - 1, -1, -1):
            entry = self.entries[i]
            if entry.seq < seq:
                break
            if type(entry.event) is not kind or entry.seq in self.refused:
                continue
            seat = self.actors[i] if i < len(self.actors) else None
            who = names[seat] if seat is not None else getattr(entry.event, "player", None)
            if who == player:
                return True
        return False

    def append(self, entry: Entry, table: Table) -> None:
        """A live event, already applied to ``table``."""
        self.entries.append(entry)
        self.actors.append(table.actor)
        self.record(Edit(len(self.entries) - 1, (), (entry,)))
        if (
            len(self.entries) % MARK_EVERY == 0
            and len(self.marks) == len(self.entries) // MARK_EVERY
        ):
            self.marks.append(table.checkpoint())
        if len(self.entries) > MAX_ENTRIES and len(self.marks) > 1:
            self._fold()

    def amend(self, old: Entry, new: Entry) -> int | None:
        """Line ``old`` was in fact ``new`` (a firing's count): changed where it is, in the log
        and in the edits Undo and Redo walk through, as if it had always been so (no edit of
        its own: Redo keeps what it holds). Its index in the log (None: taken back, waiting
        for Redo); the table is then to be replayed from there."""

        def swap(entries: tuple[Entry, ...]) -> tuple[Entry, ...]:
            return tuple(new if entry is old else entry for entry in entries)

        for stack in (self.undo, self.redo):
            stack[:] = [Edit(e.index, swap(e.removed), swap(e.inserted)) for e in stack]
        for i in range(len(self.entries) - 1, -1, -1):
            if self.entries[i] is old:
                self.entries[i] = new
                return i
        return None

    def record(self, edit: Edit) -> None:
        """``edit`` is made (as a new change): Undo can take it back, Redo has nothing left."""
        self.undo.append(edit)
        del self.undo[:-UNDO_DEPTH]
        self.redo.clear()

    def change(self, edit: Edit) -> None:
        """Apply ``edit`` to the lines (the table is recomputed by :meth:`replay`)."""
        end = edit.index + len(edit.removed)
        if tuple(self.entries[edit.index : end]) != edit.removed:
            raise ActionError("stale_edit", "the log changed since: look again", status=409)
        self.entries[edit.index : end] = edit.inserted
        self.actors[edit.index : end] = [None] * len(edit.inserted)  # until replayed
        for entry in edit.removed:
            self.refused.pop(entry.seq, None)

    def replay(self, table: Table, run: Callable[[Event], object], start: int) -> None:
        """Recompute ``table`` from the nearest checkpoint before line index ``start``."""
        k = min(start // MARK_EVERY, len(self.marks) - 1)
        del self.marks[k + 1 :]
        table.put_back(self.marks[k])
        first = k * MARK_EVERY
        if len(self.actors) != len(self.entries):  # lines read back from the table's memory
            self.actors = [None] * len(self.entries)
        refused = self.refused
        for entry in self.entries[first:]:
            refused.pop(entry.seq, None)
        table.replaying = True
        try:
            for i in range(first, len(self.entries)):
                entry = self.entries[i]
                table.recorded = entry.firing
                table.actor = None
                try:
                    run(entry.event)
                except ActionError as exc:
                    refused[entry.seq] = exc
                self.actors[i] = table.actor
                if (i + 1) % MARK_EVERY == 0:
                    self.marks.append(table.checkpoint())
        finally:
            table.replaying = False
            table.recorded = None

    def _fold(self) -> None:
        """The oldest :data:`MARK_EVERY` lines become part of the starting checkpoint."""
        folded = self.entries[:MARK_EVERY]
        del self.entries[:MARK_EVERY]
        del self.actors[:MARK_EVERY]
        del self.marks[0]
        for entry in folded:
            self.refused.pop(entry.seq, None)
        self.undo = _shifted(self.undo)
        self.redo = _shifted(self.redo)


def _shifted(edits: list[Edit]) -> list[Edit]:
    """``edits`` with their indexes after the fold; those that reach into the folded lines go,
    with every older one (they are taken back in order)."""
    kept: list[Edit] = []
    for edit in reversed(edits):
        if edit.index < MARK_EVERY:
            break
        kept.append(Edit(edit.index - MARK_EVERY, edit.removed, edit.inserted))
    kept.reverse()
    return kept
