"""Actions: named requests with a JSON payload, turned into table events.

The phone page posts ``{"action": "table.play", "payload": {...}}`` and a script line is parsed
into the same pair, so both go through the one validator (:mod:`companion.core.payload`): wrong
types, unknown fields, text that is not text, over-long strings and numbers out of range are
refused with an :class:`ActionError` naming the field.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any

from .errors import ActionError
from .events import (
    ALL_COLOURS,
    CARD_KINDS,
    CallUno,
    CardsSeen,
    Challenge,
    ColourCame,
    ContreUno,
    Eliminate,
    Event,
    Insert,
    Jam,
    Lacked,
    MimicBroken,
    Play,
    Press,
    Redo,
    Reinstate,
    Reload,
    Remove,
    Replace,
    RoundWon,
    SetHand,
    SetRules,
    Setup,
    StartRound,
    Suggestion,
    Undo,
)
from .limits import MAX_HAND, MAX_NAME, MAX_PLAYERS, MIN_PLAYERS
from .options import rules_schema
from .payload import shown, validate_payload

__all__ = [
    "TABLE_ACTION_SCHEMAS",
    "event_action",
    "object_schema",
    "table_event",
    "validate_payload",
]

MAX_TEXT = MAX_NAME

# JSON schema of each table action's payload: also what /api/openapi.json publishes.
_PLAYER = {"type": "string", "minLength": 1, "maxLength": MAX_TEXT}
_COLOUR = {"type": "string", "enum": list(ALL_COLOURS)}
_CARD = {"type": "string", "enum": list(CARD_KINDS)}


def object_schema(required: list[str], **props: Any) -> dict[str, Any]:
    """The JSON schema of an action payload: an object with exactly these fields."""
    return {
        "type": "object",
        "properties": props,
        "required": required,
        "additionalProperties": False,
    }


TABLE_ACTION_SCHEMAS: dict[str, dict[str, Any]] = {
    "table.setup": object_schema(
        ["players"],
        players={
            "type": "array",
            "items": _PLAYER,
            "minItems": MIN_PLAYERS,
            "maxItems": MAX_PLAYERS,
        },
        dealer=_PLAYER,
    ),
    "table.start_round": object_schema([], start_card=_CARD, colour=_COLOUR, dealer=_PLAYER),
    "table.press": object_schema([], player=_PLAYER),
    "table.play": object_schema(
        ["card"],
        card=_CARD,
        colour=_COLOUR,
        player=_PLAYER,
        target=_PLAYER,
        count={"type": "integer", "minimum": 1, "maximum": MAX_HAND},
        value={"type": "integer", "minimum": 0, "maximum": 9},
    ),
    "table.call_uno": object_schema(["player"], player=_PLAYER),
    "table.contre_uno": object_schema(["player"], player=_PLAYER),
    "table.suggestion": object_schema(["player"], player=_PLAYER),
    "table.reload": object_schema([], cards={"type": "integer", "minimum": 0, "maximum": 200}),
    "table.cards_seen": object_schema(
        ["cards"],
        cards={"type": "integer", "minimum": 0, "maximum": MAX_HAND},
        expected={"type": "integer", "minimum": 0, "maximum": MAX_HAND},
    ),
    "table.jam": object_schema([]),
    "table.set_hand": object_schema(
        ["player", "cards"],
        player=_PLAYER,
        cards={"type": "integer", "minimum": 0, "maximum": MAX_HAND},
    ),
    "table.round_won": object_schema(["player"], player=_PLAYER),
    "table.eliminate": object_schema(["player"], player=_PLAYER),
    "table.reinstate": object_schema(["player"], player=_PLAYER),
    "table.undo": object_schema([]),
    "table.redo": object_schema([]),
    "table.challenge": object_schema(["guilty"], guilty={"type": "boolean"}),
    "table.colour_came": object_schema([]),
    "table.lacked": object_schema(
        [], players={"type": "array", "items": _PLAYER, "minItems": 0, "maxItems": MAX_PLAYERS - 1}
    ),
    "table.mimic_broken": object_schema(["player"], player=_PLAYER),
    "table.rules": rules_schema(),
}
# Mending the round's log: a line (its ``seq``) replaced by what really happened, removed, or an
# event inserted before it. The event is an action and its payload, checked as any other.
_LINE = {"type": "integer", "minimum": 0, "maximum": 10**9}
_MENDED = {"type": "string", "enum": sorted(TABLE_ACTION_SCHEMAS)}
_MENDED_PAYLOAD = {"type": "object"}
TABLE_ACTION_SCHEMAS |= {
    "table.replace": object_schema(
        ["seq", "action"], seq=_LINE, action=_MENDED, payload=_MENDED_PAYLOAD
    ),
    "table.remove": object_schema(["seq"], seq=_LINE),
    "table.insert": object_schema(
        ["before", "action"], before=_LINE, action=_MENDED, payload=_MENDED_PAYLOAD
    ),
}


_BUILDERS: dict[str, Callable[[dict[str, Any]], Event]] = {
    "table.setup": lambda p: Setup(tuple(p["players"]), p.get("dealer")),
    "table.start_round": lambda p: StartRound(
        p.get("start_card"), p.get("colour"), p.get("dealer")
    ),
    "table.press": lambda p: Press(p.get("player")),
    "table.play": lambda p: Play(
        p["card"],
        p.get("colour"),
        p.get("player"),
        p.get("target"),
        p.get("count", 1),
        p.get("value"),
    ),
    "table.call_uno": lambda p: CallUno(p["player"]),
    "table.contre_uno": lambda p: ContreUno(p["player"]),
    "table.suggestion": lambda p: Suggestion(p["player"]),
    "table.reload": lambda p: Reload(p.get("cards")),
    "table.cards_seen": lambda p: CardsSeen(p["cards"], p.get("expected")),
    "table.jam": lambda p: Jam(),
    "table.set_hand": lambda p: SetHand(p["player"], p["cards"]),
    "table.round_won": lambda p: RoundWon(p["player"]),
    "table.eliminate": lambda p: Eliminate(p["player"]),
    "table.reinstate": lambda p: Reinstate(p["player"]),
    "table.undo": lambda p: Undo(),
    "table.redo": lambda p: Redo(),
    "table.replace": lambda p: Replace(p["seq"], table_event(p["action"], p.get("payload", {}))),
    "table.remove": lambda p: Remove(p["seq"]),
    "table.insert": lambda p: Insert(p["before"], table_event(p["action"], p.get("payload", {}))),
    "table.challenge": lambda p: Challenge(p["guilty"]),
    "table.colour_came": lambda p: ColourCame(),
    "table.lacked": lambda p: Lacked(tuple(p.get("players", ()))),
    "table.mimic_broken": lambda p: MimicBroken(p["player"]),
    "table.rules": lambda p: SetRules(tuple(sorted(p.items()))),
}


def table_event(action: str, payload: Any) -> Event:
    """The table event for ``action`` with ``payload``; raises :class:`ActionError` if invalid."""
    schema = TABLE_ACTION_SCHEMAS.get(action)
    if schema is None:
        raise ActionError(
            "unknown_action",
            f"unknown action {shown(action, MAX_TEXT)!r}",
            {"action": shown(action, MAX_TEXT)},
            404,
        )
    return _BUILDERS[action](validate_payload(schema, payload))


_EVENT_CLASSES: dict[str, type] = {
    "table.setup": Setup,
    "table.start_round": StartRound,
    "table.press": Press,
    "table.play": Play,
    "table.call_uno": CallUno,
    "table.contre_uno": ContreUno,
    "table.suggestion": Suggestion,
    "table.reload": Reload,
    "table.cards_seen": CardsSeen,
    "table.jam": Jam,
    "table.set_hand": SetHand,
    "table.round_won": RoundWon,
    "table.eliminate": Eliminate,
    "table.reinstate": Reinstate,
    "table.undo": Undo,
    "table.redo": Redo,
    "table.challenge": Challenge,
    "table.colour_came": ColourCame,
    "table.lacked": Lacked,
    "table.mimic_broken": MimicBroken,
    "table.rules": SetRules,
    "table.replace": Replace,
    "table.remove": Remove,
    "table.insert": Insert,
}
_ACTION_OF = {kind: name for name, kind in _EVENT_CLASSES.items()}


def event_action(event: Event) -> tuple[str, dict[str, Any]]:
    """The action and payload that :func:`table_event` turns back into ``event``: how the
    round's log is written down and shown."""
    action = _ACTION_OF[type(event)]
    if isinstance(event, SetRules):
        return action, dict(event.changes)
    if isinstance(event, Replace | Insert):
        inner, mended = event_action(event.event)
        line = "seq" if isinstance(event, Replace) else "before"
        return action, {line: getattr(event, line), "action": inner, "payload": mended}
    payload: dict[str, Any] = {}
    for field in fields(event):
        value = getattr(event, field.name)
        if value is None or value == field.default:
            continue
        payload[field.name] = list(value) if isinstance(value, tuple) else value
    return action, payload
