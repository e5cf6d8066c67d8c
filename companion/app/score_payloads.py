"""The score actions' payloads, each declared once: the JSON schema every payload is checked
against and that /api/openapi.json publishes, with each field's help and default."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.core.actions import NAME
from companion.core.limits import (
    MAX_GAME_ENTRIES,
    MAX_GAME_ROUNDS,
    MAX_NAME,
    MAX_PLAYERS,
    MIN_PLAYERS,
)
from companion.core.model import json_schema, option
from companion.core.scoring import MODES

TEAMS = ("none", "across", "alternating")
FORMATS = ("json", "csv")


def _revision() -> Any:
    return option(
        None,
        "the game's revision the change was made on: refused (409) if the game changed since",
        min=0,
        max=10**9,
    )


def _name(help: str) -> Any:
    return option(None, help, min_length=1, max_length=MAX_NAME)


@dataclass(frozen=True, kw_only=True)
class NewGamePayload:
    """Start a game and open it."""

    name: str = option("", "the game's name (default: UNO and the date)", max_length=80)
    players: list[str] | None = option(
        None,
        "the players, in order (default: the table's)",
        min_length=MIN_PLAYERS,
        max_length=MAX_PLAYERS,
        items=NAME,
    )
    ruleset: str = option(
        "extreme",
        "the ruleset: what each card is worth",
        min_length=1,
        max_length=NAME["max_length"],
    )
    mode: str = option("winner_takes", "how the points are counted", choices=MODES)
    target: int = option(500, "the score that ends the game", min=1, max=100_000)
    teams: str = option("none", "partners: none, sitting across or every other seat", choices=TEAMS)
    first_dealer: str | None = _name("who deals first (default: the table's dealer)")


@dataclass(frozen=True, kw_only=True)
class OpenGamePayload:
    """Open a stored game."""

    game: str = option(help="the game's id", min_length=1, max_length=64)


@dataclass(frozen=True, kw_only=True)
class RoundPayload:
    """A round's result: the cards (or points) left in each hand."""

    # Checked in depth by HandEntry and the score book.
    hands: dict[str, Any] = option(help="each player's hand: {cards: {kind: count}} or {points: n}")
    winner: str | None = _name("who went out")
    side: str | None = option(None, "UNO Flip: the side the round ended on", max_length=20)
    last_card: str | None = _name("the last card's kind")
    revision: int | None = _revision()


@dataclass(frozen=True, kw_only=True)
class CorrectionPayload(RoundPayload):
    """A round recorded again, corrected."""

    # Any round of a game (one imported holds at most MAX_GAME_ROUNDS, one played on may hold
    # more): the book refuses one that does not exist.
    round: int = option(help="the round's number", min=1, max=10**6)


@dataclass(frozen=True, kw_only=True)
class DeletionPayload:
    """A round taken out of the game."""

    round: int = option(help="the round's number", min=1, max=10**6)
    revision: int | None = _revision()


@dataclass(frozen=True, kw_only=True)
class UndoPayload:
    """The last change to the game taken back (or, for a redo, made again)."""

    revision: int | None = _revision()


@dataclass(frozen=True)
class AnnouncePayload:
    """The standings said aloud."""


@dataclass(frozen=True, kw_only=True)
class ImportPayload:
    """A game file read and opened as a game of its own."""

    format: str = option("json", "the file's format", choices=FORMATS)
    text: str = option(
        help=f"the file: a game exported as JSON, or a CSV score sheet (at most "
        f"{MAX_GAME_ROUNDS:,} rounds and {MAX_GAME_ENTRIES:,} log entries)",
        min_length=1,
        max_length=5_000_000,
        multiline=True,
    )


SCORE_PAYLOADS: dict[str, type] = {
    "score.new_game": NewGamePayload,
    "score.open_game": OpenGamePayload,
    "score.record_round": RoundPayload,
    "score.correct_round": CorrectionPayload,
    "score.delete_round": DeletionPayload,
    "score.undo": UndoPayload,
    "score.redo": UndoPayload,
    "score.announce": AnnouncePayload,
    "score.import": ImportPayload,
}
SCORE_ACTION_SCHEMAS = {name: json_schema(payload) for name, payload in SCORE_PAYLOADS.items()}
