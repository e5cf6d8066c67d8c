"""The camera's action payloads (``camera.*``), declared once: their schemas carry each
field's help (:func:`companion.core.model.json_schema`)."""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.model import option

DECKS = ("extreme", "classic")


@dataclass(frozen=True, kw_only=True)
class AnswerPayload:
    """The answer to the camera's open question, once for every phone: the card (with a Coup
    Extrême's target), or a Poser Tout's count."""

    id: int = option(help="the question's number", min=0)
    kind: str | None = option(
        None, "the card in the camera's names: 7, reverse, draw4…", min_length=1, max_length=20
    )
    colour: str | None = option(None, "its colour; none for a black card", max_length=10)
    target: str | None = option(None, "a Coup Extrême's target", min_length=1, max_length=40)
    count: int | None = option(
        None, "how many cards a Poser Tout laid, itself included", min=1, max=108
    )


@dataclass(frozen=True, kw_only=True)
class QuestionPayload:
    """Nothing was played (or a count left unsaid): the question goes from every phone."""

    id: int = option(help="the question's number", min=0)


@dataclass(frozen=True, kw_only=True)
class SwitchPayload:
    """The camera switched on or off for the evening."""

    on: bool = option(help="on: the camera reads the cards played")


@dataclass(frozen=True, kw_only=True)
class DeckPayload:
    """The guided teach started for a deck."""

    deck: str = option("extreme", "the deck shown, face by face", choices=DECKS)


@dataclass(frozen=True)
class NoPayload:
    """The guided teach moved on: a face skipped, the teach finished or cancelled."""
