"""How big a game the box keeps: a file's log checked against :data:`MAX_GAME_ENTRIES` and
:data:`MAX_GAME_ROUNDS` before it is replayed, and a game played on the box stopped at the same
limits (a Pi holds a game that size comfortably, and the box's own export of it imports back)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.core.limits import MAX_GAME_ENTRIES, MAX_GAME_ROUNDS
from companion.core.scoring.errors import GameFull, ScoringError


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


def check_room(entry_type: str, entries: int, recorded: int) -> None:
    """Refuse an entry of ``entry_type`` to a game whose log holds ``entries`` entries, of which
    ``recorded`` recorded rounds, if the game would then be larger than a file the box imports:
    a round past :data:`MAX_GAME_ROUNDS` recorded (``game_full``), an entry past
    :data:`MAX_GAME_ENTRIES` or, as the last of them, any but an undo (``game_log_full``).
    Rounds count as the import counts them: every round recorded, even one since deleted or
    undone."""
    # The log's last place is kept for an undo: whatever change filled the log (a mistaken
    # correction, a deletion) can still be taken back once, as every change on the box can.
    # Without it a wrong tap at the limit would stay for good; with it the log still never
    # holds more than a file may.
    room = MAX_GAME_ENTRIES if entry_type == "undo" else MAX_GAME_ENTRIES - 1
    if entries >= room:
        raise GameFull("game_log_full", limit=MAX_GAME_ENTRIES, entries=entries)
    if entry_type == "round_recorded" and recorded >= MAX_GAME_ROUNDS:
        raise GameFull("game_full", limit=MAX_GAME_ROUNDS, rounds=recorded)
