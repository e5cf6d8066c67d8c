"""Mending the round's log: Undo, Redo, and a line replaced, removed or inserted.

The lines change, the table is recomputed from them, and the box says who now faces what. A
press stays what the launcher did: it can be taken back (Undo, Remove) but never typed in, and
a replaced press keeps the cards it fired."""

from __future__ import annotations

from collections.abc import Callable

from ..commands import Command, Say
from ..errors import ActionError
from ..events import Event, Insert, Press, Redo, Remove, Replace, Setup, Source, StartRound, Undo
from .log import Edit, Entry, RoundLog
from .presses import announce_head_or_turn
from .state import Table

LOG_CHANGES: tuple[type, ...] = (Undo, Redo, Replace, Remove, Insert)


def mend(
    t: Table,
    log: RoundLog,
    run: Callable[[Event], object],
    event: Event,
    source: Source,
) -> list[Command]:
    """Change ``log`` as ``event`` says and recompute ``t``; the commands to say so. A mended
    line keeps the time of the line it replaces, or is inserted before."""
    if isinstance(event, Undo | Redo):
        stack = log.undo if isinstance(event, Undo) else log.redo
        if not stack:
            key = "nothing_to_undo" if isinstance(event, Undo) else "nothing_to_redo"
            raise ActionError(key, f"{key.replace('_', ' ')} in this round", status=409)
        edit = stack.pop()
        log.change(edit.inverse() if isinstance(event, Undo) else edit)
        (log.redo if isinstance(event, Undo) else log.undo).append(edit)
        log.replay(t, run, edit.index)
        said = "table.undone" if isinstance(event, Undo) else "table.redone"
        return [Say(said, {}), *_who_now(t)]
    if isinstance(event, Replace):
        index = log.index_of(event.seq)
        old = log.entries[index]
        _check_fits(event.event, old)
        firing = old.firing if isinstance(old.event, Press) else None
        new = Entry(old.seq, event.event, source, firing, old.at)
        edit = Edit(index, (old,), (new,))
    elif isinstance(event, Remove):
        index = log.index_of(event.seq)
        old = log.entries[index]
        if isinstance(old.event, StartRound):
            raise ActionError(
                "deal_not_removable",
                "the deal starts the round's log: undo it or deal again",
                {"seq": event.seq},
                status=409,
            )
        new = None
        edit = Edit(index, (old,), ())
    else:
        assert isinstance(event, Insert)
        index = log.index_of(event.before)
        _check_fits(event.event, None)
        if isinstance(log.entries[index].event, StartRound):
            raise ActionError(
                "before_the_deal",
                "nothing happens in a round before its deal",
                {"seq": event.before},
                status=409,
            )
        new = log.new_entry(event.event, source, None, log.entries[index].at)
        edit = Edit(index, (), (new,))
    log.change(edit)
    log.replay(t, run, index)
    if new is not None and new.seq in log.refused:
        refusal = log.refused[new.seq]
        log.change(edit.inverse())  # the mended line itself does not fit: nothing changes
        log.replay(t, run, index)
        raise refusal
    log.record(edit)
    seq = event.before if isinstance(event, Insert) else event.seq
    return [Say("table.corrected", {"line": seq}), *_who_now(t)]


def _check_fits(event: Event, old: Entry | None) -> None:
    """A press is a fact of the launcher: never typed in, never turned into something else;
    a deal is only ever replaced by a deal; a mend is not itself a line."""
    if isinstance(event, Setup | Undo | Redo | Replace | Remove | Insert):
        raise ActionError(
            "not_a_line",
            "this is not something that happens in a round",
            {"event": type(event).__name__},
        )
    for kind, key, message in (
        (
            Press,
            "press_is_a_fact",
            "a press is what the launcher did: remove it, or keep it and mend the other lines",
        ),
        (
            StartRound,
            "deal_is_first",
            "a deal starts the round: only the deal can be replaced by a deal",
        ),
    ):
        if isinstance(event, kind) != (old is not None and isinstance(old.event, kind)):
            raise ActionError(key, message, status=409)


def _who_now(t: Table) -> list[Command]:
    """After the table was recomputed: who must press, or whose turn it is."""
    if t.state.phase in ("playing", "settling"):
        return announce_head_or_turn(t.state, "turn")
    return []
