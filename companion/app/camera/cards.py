"""The one mapping between the camera's names for a card and the table's.

The reader names a card by its face: ``"7"`` (a number card is its figure), ``"reverse"``,
``"draw4"``…, and a colour (``""`` for a black card). The table names it by kind (``number``
with its ``value``), colour (``None`` for a black card) and, for a log line, as
:func:`~companion.core.table.view.card_of` gives it. Everything that turns one into the other
goes through here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.core.cards import CARDS, in_deck, lowest_number
from companion.core.events import Play
from companion.core.options import RulesOptions

from ..inputs import CardRead


def is_number(kind: str) -> bool:
    return kind.isdigit()


def card_read(kind: str, colour: str, *, sure: bool = True, target: str | None = None) -> CardRead:
    """The notice for a card the camera read."""
    value = int(kind) if is_number(kind) else None
    card = "number" if value is not None else kind
    return CardRead(card, colour or None, value=value, sure=sure, target=target)  # type: ignore[arg-type,unused-ignore]


def play_payload(kind: str, colour: str) -> dict[str, Any]:
    """The ``table.play`` payload a phone sends for this card."""
    payload: dict[str, Any] = {"card": "number" if is_number(kind) else kind}
    if is_number(kind):
        payload["value"] = int(kind)
    if colour:
        payload["colour"] = colour
    return payload


def play_event(kind: str, colour: str, **extra: Any) -> Play:
    """The table's event for this card (``target``, ``count`` as the rules want them)."""
    value = int(kind) if is_number(kind) else None
    card = "number" if value is not None else kind
    return Play(card, colour or None, value=value, **extra)  # type: ignore[arg-type,unused-ignore]


def face_of(card: Mapping[str, Any] | None) -> tuple[str, str] | None:
    """The camera's name of a table card (a log line's ``card``, or a ``table.play`` payload
    whose kind is under ``card``); ``None`` for a number card whose figure is not known."""
    if not card:
        return None
    kind = card.get("kind", card.get("card"))
    if not isinstance(kind, str):
        return None
    if kind == "number":
        value = card.get("value")
        if value is None:
            return None
        kind = str(value)
    return kind, str(card.get("colour") or "")


def words(kind: str | None, colour: str) -> dict[str, str | None]:
    """A card as the state names it for the page: ``{"kind", "colour"}`` in the camera's names
    (``kind`` ``None``: a card laid that could not be read)."""
    return {"kind": kind, "colour": colour}


def in_table_deck(kind: str, rules: RulesOptions, side: str = "") -> bool:
    """Whether the deck on the table holds cards of ``kind`` (the camera's name), on the side
    in play: no 0 on an Extrême table, no +2 or +4 unless it is played with a classic deck."""
    rule = CARDS.get("number" if is_number(kind) else kind)
    if rule is None or not in_deck(rule, rules) or (rule.side and side and rule.side != side):
        return False
    return not is_number(kind) or int(kind) >= lowest_number(rules)
