"""Actions: named requests with a JSON payload, turned into table events.

The phone page posts ``{"action": "table.play", "payload": {...}}`` and a script line is parsed
into the same pair, so both go through the one validator (:mod:`companion.core.payload`): wrong
types, unknown fields, text that is not text, over-long strings and numbers out of range are
refused with an :class:`ActionError` naming the field.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields
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
from .model import json_schema, option
from .options import RulesOptions
from .payload import shown, validate_payload

__all__ = [
    "TABLE_ACTION_PAYLOADS",
    "TABLE_ACTION_SCHEMAS",
    "event_action",
    "table_event",
    "validate_payload",
]

MAX_TEXT = MAX_NAME
MAX_LINE = 10**9  # a line number of the round's log
NAME = {"min_length": 1, "max_length": MAX_TEXT}  # a player's name, as every payload takes it


def _player(help: str = "the player", *, required: bool = False) -> Any:
    return option(MISSING if required else None, help, min_length=1, max_length=MAX_TEXT)


# Each table action's payload, declared once: the JSON schema every payload is checked against
# (from a phone or a script line) and that /api/openapi.json publishes, with each field's help.
@dataclass(frozen=True, kw_only=True)
class SetupPayload:
    """Seat the players (in order, going left) and name the dealer; starts a fresh round."""

    players: list[str] = option(
        help="the players' names in seat order, going left",
        min_length=MIN_PLAYERS,
        max_length=MAX_PLAYERS,
        items=NAME,
    )
    dealer: str | None = _player("who deals (default: the first player)")


@dataclass(frozen=True, kw_only=True)
class StartRoundPayload:
    """Deal a new round."""

    start_card: str | None = option(
        None,
        "the card turned up to start the discard pile, if known (its effect applies)",
        choices=CARD_KINDS,
    )
    colour: str | None = option(None, "that card's colour", choices=ALL_COLOURS)
    dealer: str | None = _player("who deals (default: the deal rotates to the left)")
    value: int | None = option(None, "a number card's figure", min=0, max=9)


@dataclass(frozen=True, kw_only=True)
class PressPayload:
    """The launcher's button was pressed."""

    player: str | None = _player("who pressed (default: whoever the launcher faces)")


@dataclass(frozen=True, kw_only=True)
class PlayPayload:
    """A card was played."""

    card: str = option(help="the card's kind", choices=CARD_KINDS)
    colour: str | None = option(
        None, "its colour, or the colour a wild card asks", choices=ALL_COLOURS
    )
    player: str | None = _player("who played it (default: the player whose turn it is)")
    target: str | None = _player("the victim of a Coup Extrême")
    count: int = option(
        1, "how many cards a Poser Tout laid down, itself included", min=1, max=MAX_HAND
    )
    value: int | None = option(None, "a number card's figure", min=0, max=9)


@dataclass(frozen=True, kw_only=True)
class PlayerPayload:
    """The player the action is about."""

    player: str = _player(required=True)


@dataclass(frozen=True, kw_only=True)
class ReloadPayload:
    """The magazine was reshuffled and reloaded."""

    cards: int | None = option(None, "cards loaded (default: the configured load)", min=0, max=200)


@dataclass(frozen=True, kw_only=True)
class CardsSeenPayload:
    """The card-exit beam counted the cards of the last firing."""

    cards: int = option(help="cards counted", min=0, max=MAX_HAND)
    expected: int | None = option(None, "cards the firing meant to throw", min=0, max=MAX_HAND)


@dataclass(frozen=True, kw_only=True)
class SetHandPayload:
    """Correct the estimate of a player's hand."""

    player: str = _player(required=True)
    cards: int = option(help="cards in the hand", min=0, max=MAX_HAND)


@dataclass(frozen=True, kw_only=True)
class ChallengePayload:
    """The player hit by a +4 challenged it."""

    guilty: bool = option(help="whether the card was played against the rules")


@dataclass(frozen=True, kw_only=True)
class LackedPayload:
    """The answer to a Lotso: the players who had no card of the colour."""

    players: list[str] = option(
        [], "the players lacking it (none: all had)", max_length=MAX_PLAYERS - 1, items=NAME
    )


@dataclass(frozen=True)
class NoPayload:
    """Nothing to say but the action itself."""


TABLE_ACTION_PAYLOADS: dict[str, type] = {
    "table.setup": SetupPayload,
    "table.start_round": StartRoundPayload,
    "table.press": PressPayload,
    "table.play": PlayPayload,
    "table.call_uno": PlayerPayload,
    "table.contre_uno": PlayerPayload,
    "table.suggestion": PlayerPayload,
    "table.reload": ReloadPayload,
    "table.cards_seen": CardsSeenPayload,
    "table.jam": NoPayload,
    "table.set_hand": SetHandPayload,
    "table.round_won": PlayerPayload,
    "table.eliminate": PlayerPayload,
    "table.reinstate": PlayerPayload,
    "table.undo": NoPayload,
    "table.redo": NoPayload,
    "table.challenge": ChallengePayload,
    "table.colour_came": NoPayload,
    "table.lacked": LackedPayload,
    "table.mimic_broken": PlayerPayload,
    "table.rules": RulesOptions,  # any subset of the house rules
}
# Mending the round's log: a line (its ``seq``) replaced by what really happened, removed, or an
# event inserted before it. The event is an action and its payload, checked as any other.
MENDABLE = tuple(sorted(TABLE_ACTION_PAYLOADS))


@dataclass(frozen=True, kw_only=True)
class ReplacePayload:
    """A line of the round's log was wrong: what really happened."""

    seq: int = option(help="the line", min=0, max=MAX_LINE)
    action: str = option(help="the action that happened", choices=MENDABLE)
    payload: dict[str, Any] = option({}, "its payload")


@dataclass(frozen=True, kw_only=True)
class RemovePayload:
    """A line of the round's log did not happen."""

    seq: int = option(help="the line", min=0, max=MAX_LINE)


@dataclass(frozen=True, kw_only=True)
class InsertPayload:
    """Something happened before a line of the round's log."""

    before: int = option(help="the line it happened before", min=0, max=MAX_LINE)
    action: str = option(help="the action that happened", choices=MENDABLE)
    payload: dict[str, Any] = option({}, "its payload")


TABLE_ACTION_PAYLOADS |= {
    "table.replace": ReplacePayload,
    "table.remove": RemovePayload,
    "table.insert": InsertPayload,
}
# The JSON schema of each table action's payload.
TABLE_ACTION_SCHEMAS: dict[str, dict[str, Any]] = {
    name: json_schema(payload) for name, payload in TABLE_ACTION_PAYLOADS.items()
}


_BUILDERS: dict[str, Callable[[dict[str, Any]], Event]] = {
    "table.setup": lambda p: Setup(tuple(p["players"]), p.get("dealer")),
    "table.start_round": lambda p: StartRound(
        p.get("start_card"), p.get("colour"), p.get("dealer"), p.get("value")
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
