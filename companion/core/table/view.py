"""The table as the page and the script trace see it: plain JSON-ready data."""

from __future__ import annotations

import functools
from dataclasses import fields
from typing import Any

from ..actions import event_action
from ..cards import counted_deck, lowest_number
from ..events import Event, Insert, Play, Replace, StartRound
from ..options import RulesOptions
from .log import MARK_EVERY, Entry, RoundLog
from .presses import full_magazine
from .state import Table
from .turns import facing_seat, name_or_none


def table_view(t: Table) -> dict[str, Any]:
    """Everything about the table itself; the engine adds its counters and the round's log.

    ``rules`` holds only the house rules that differ from the defaults, and the deck."""
    st = t.state
    seats = st.seats
    facing = facing_seat(st)
    launcher = t.firing
    return {
        "players": [
            {"name": s.name, "seat": i, "hand": s.hand, "uno": s.uno, "eliminated": s.eliminated}
            for i, s in enumerate(seats)
        ],
        "dealer": seats[st.dealer].name,
        "active": seats[st.active].name,
        "direction": "left" if st.direction == 1 else "right",
        "facing": seats[facing].name,
        "facing_seat": facing,
        "owed": [
            {
                "player": seats[o.seat].name,
                "for": seats[o.gets].name,
                "presses": 1 if o.until else o.presses - o.made,
                "made": o.made,
                "reason": o.reason,
                "until": o.until,
                "until_fire": o.until == "fire",
                "colour": o.colour,
            }
            for o in st.owed
        ],
        "magazine": launcher.magazine,
        "magazine_full": full_magazine(t),
        "magazine_low": launcher.low,
        "needs_reload": launcher.empty or st.jam,
        "jam": st.jam,
        "jam_fault": st.jam_fault if st.jam else None,
        "profile": launcher.profile.name,
        "presses_since_fire": launcher.presses_since_fire,
        "suspense": launcher.suspense(),
        "round": st.round,
        "phase": st.phase,
        "round_over": st.phase in ("over", "game_over"),
        "winner": None if st.winner is None else seats[st.winner].name,
        "game_over": st.phase == "game_over",
        "round_may_be_over": name_or_none(st, st.round_may_be_over),
        "contre_uno_window": name_or_none(st, st.contre_uno_window),
        "last_card": st.last_card,
        "side": st.side,
        "lowest_number": lowest_number(st.rules),
        # The deck in the players' hands: the round-end pads count with its cards.
        "counted_deck": counted_deck(st.rules),
        "asking": None
        if st.asking is None
        else {"card": "lotso", "player": seats[st.asking].name, "colour": st.asking_colour},
        "mimic": name_or_none(st, st.mimic),
        "rules": dict(changed_rules(st.rules)),
    }


_DEFAULT_RULES = RulesOptions()


@functools.lru_cache(maxsize=16)
def changed_rules(rules: RulesOptions) -> dict[str, Any]:
    """The deck and every house rule that differs from the default."""
    if rules == _DEFAULT_RULES:
        return {"deck": rules.deck}
    changed = {
        f.name: getattr(rules, f.name)
        for f in fields(rules)
        if getattr(rules, f.name) != getattr(_DEFAULT_RULES, f.name)
    }
    return {"deck": rules.deck, **changed}


SHOWN_LINES = 100  # the round's last lines in every state the phones get


def log_view(log: RoundLog, seats: list[str]) -> list[dict[str, Any]]:
    """The round's last :data:`SHOWN_LINES` lines as the page shows them: what, which card, who,
    from where; a line that no longer fits carries the reason (``refused``). Older lines of a
    long round stay in the log, mended by their ``seq`` like any other."""
    lines = []
    refused = log.refused
    made = log.views
    if len(made) > 2 * len(log.entries) + MARK_EVERY:  # lines mended or folded away since
        made = log.views = {id(e): made[id(e)] for e in log.entries if id(e) in made}
    shown = len(log.entries) - min(SHOWN_LINES, len(log.entries))
    for entry, seat in zip(log.entries[shown:], log.actors[shown:], strict=True):
        known = made.get(id(entry))
        actor = None if seat is None else seats[seat]
        if known is None or known[0] is not entry or known[1] != actor:
            known = made[id(entry)] = (entry, actor, entry_view(entry, actor))
        line = known[2]
        if refused and entry.seq in refused:
            error = refused[entry.seq]
            line = {**line, "refused": {"key": error.key, "message": str(error)}}
        lines.append(line)
    return lines


def entry_view(entry: Entry, actor: str | None = None) -> dict[str, Any]:
    """One line (made once per line and player: a line never changes, a mended line is a new
    one); ``player`` is whose card or press it was, as the table saw it."""
    action, payload = event_action(entry.event)
    event = entry.event
    card = card_of(event)
    firing = entry.firing
    return {
        "seq": entry.seq,
        "event": action.removeprefix("table."),
        "payload": payload,
        "card": card,
        "player": actor or getattr(event, "player", None),
        "source": entry.source,
        "fired": None if firing is None else firing.cards,
        "at": entry.at,
        "refused": None,
    }


def card_of(event: Event) -> dict[str, Any] | None:
    """The card an event lays (a play, a round's first card), whole: ``{"kind", "colour"}``
    and, for a number card whose figure is known, ``"value"``."""
    if isinstance(event, Play):
        card = {"kind": event.card, "colour": event.colour}
        return card if event.value is None else {**card, "value": event.value}
    if isinstance(event, StartRound) and event.start_card is not None:
        card = {"kind": event.start_card, "colour": event.colour}
        return card if event.value is None else {**card, "value": event.value}
    if isinstance(event, Replace | Insert):
        return card_of(event.event)
    return None


def round_lines(log: RoundLog, seats: list[str]) -> list[dict[str, Any]]:
    """Every line of the round's log as it stands after every mend, short: what, the whole
    card, who, from where, and whether it no longer fits (``refused``)."""
    lines = []
    actors = log.actors if len(log.actors) == len(log.entries) else [None] * len(log.entries)
    for entry, seat in zip(log.entries, actors, strict=True):
        line = entry_view(entry, None if seat is None else seats[seat])
        lines.append(
            {
                "seq": line["seq"],
                "event": line["event"],
                "card": line["card"],
                "player": line["player"],
                "source": line["source"],
                "refused": entry.seq in log.refused,
            }
        )
    return lines


def final_record(t: Table, log: RoundLog) -> dict[str, Any]:
    """The last JSON line of a session (``simulate``): the round's log as it ends."""
    return {"event": "final", "log": round_lines(log, [seat.name for seat in t.state.seats])}
