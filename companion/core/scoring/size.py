"""How big a game the box keeps: a file's log checked against :data:`MAX_GAME_ENTRIES` and
:data:`MAX_GAME_ROUNDS` before it is replayed (a Pi holds a game that size comfortably)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.core.limits import MAX_GAME_ENTRIES, MAX_GAME_ROUNDS
from companion.core.scoring.errors import ScoringError


def check_game_size(log: Sequence[Any]) -> None:
    """Refuse a log longer than the box keeps: more entries than :data:`MAX_GAME_ENTRIES`, or
    more recorded rounds than :data:`MAX_GAME_ROUNDS`."""
    if len(log) > MAX_GAME_ENTRIES:
        raise ScoringError(
            "import_too_many_entries",
            found=len(log),
            limit=MAX_GAME_ENTRIES,
            rounds=MAX_GAME_ROUNDS,
        )
    recorded = sum(
        1 for item in log if isinstance(item, Mapping) and item.get("type") == "round_recorded"
    )
    if recorded > MAX_GAME_ROUNDS:
        raise too_many_rounds()


def too_many_rounds() -> ScoringError:
    """The refusal of a game with more rounds than :data:`MAX_GAME_ROUNDS`."""
    return ScoringError("import_too_many_rounds", limit=MAX_GAME_ROUNDS, entries=MAX_GAME_ENTRIES)
