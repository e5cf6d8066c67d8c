"""Read the score part of the hub's state (``state["score"]``) for the chart and the CSV export.

The scorekeeper's snapshot holds ``game`` (name, players, teams, target...), ``standings``
(``rows`` of parties with totals) and ``history``: one entry per round with each player's hand
(``hands``: ``[{player, hand, points}]``) and the points each party scored (``credited``).
A party is a player, or a team named "A & C".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.core.scoring.formats import Pause, SheetRound, sheet_to_csv
from companion.core.scoring.tally import PAUSE_EVERY


def _int(value: Any) -> int:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _party_points(value: Any) -> dict[str, int]:
    """A round's points by party (``credited`` or ``totals``), numbers only."""
    return {str(k): _int(v) for k, v in _mapping(value).items()}


def export_name(score: Mapping[str, Any], ext: str) -> str:
    """The export's file name: the game's name and date ("Soirée du 12-2026-11-26.csv"), with
    what a file name cannot hold taken out."""
    game = _mapping(score.get("game"))
    name = " ".join(str(game.get("name") or "uno").split())
    date = str(game.get("date") or "")
    stem = f"{name} {date}".strip() if date and date not in name else name
    safe = "".join(c if c.isalnum() or c in " -_.,&()'" else "-" for c in stem).strip(" .-")
    return f"{(safe or 'uno')[:80]}.{ext}"


def players_of(score: Mapping[str, Any]) -> list[str]:
    players = _mapping(score.get("game")).get("players") or score.get("players") or []
    return [p for p in players if isinstance(p, str)]


def history_of(score: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    rounds = score.get("history") or score.get("rounds") or []
    return [r for r in rounds if isinstance(r, Mapping)]


def parties_of(score: Mapping[str, Any]) -> list[str]:
    """Who scores: the teams (as "A & C") or the players, in seat order."""
    teams = _mapping(score.get("game")).get("teams") or []
    if teams and all(isinstance(t, list) for t in teams):
        return [" & ".join(str(m) for m in team) for team in teams]
    return players_of(score)


def hand_points(entry: Mapping[str, Any]) -> dict[str, int]:
    """Each player's hand points in one round."""
    hands = entry.get("hands")
    if isinstance(hands, list):
        return {
            str(h["player"]): _int(h.get("points"))
            for h in hands
            if isinstance(h, Mapping) and "player" in h
        }
    return {
        str(p): _int(v.get("points") if isinstance(v, Mapping) else v)
        for p, v in _mapping(hands).items()
    }


def round_points(score: Mapping[str, Any], pause: Pause = None) -> list[dict[str, int]]:
    """The points each party scored in each round, oldest first; ``pause()`` every
    :data:`PAUSE_EVERY` rounds."""
    rounds: list[dict[str, int]] = []
    for number, entry in enumerate(history_of(score), start=1):
        if pause is not None and number % PAUSE_EVERY == 0:
            pause()
        credited = entry.get("credited")
        if isinstance(credited, Mapping):
            rounds.append({str(p): _int(v) for p, v in credited.items()})
        else:
            rounds.append(hand_points(entry))
    return rounds


def target_of(score: Mapping[str, Any]) -> int | None:
    game = _mapping(score.get("game"))
    target = game.get("target", score.get("target"))
    return target if isinstance(target, int) and not isinstance(target, bool) else None


def export_csv(score: Mapping[str, Any], lang: str = "en", pause: Pause = None) -> str:
    """The game's score sheet in ``lang`` (:func:`~companion.core.scoring.formats.sheet_to_csv`):
    what ``score.import`` reads back, the game's target, mode, ruleset and teams included;
    ``pause()`` every :data:`PAUSE_EVERY` rounds, here and there."""
    players = players_of(score)
    rounds = []
    for number, entry in enumerate(history_of(score), start=1):
        if pause is not None and number % PAUSE_EVERY == 0:
            pause()
        entered = hand_points(entry)
        hands = entry.get("hands")
        # A player without a hand (the winner's partner, someone eliminated) stays empty.
        given = {
            str(h.get("player")): h.get("points")
            for h in (hands if isinstance(hands, list) else [])
            if isinstance(h, Mapping)
        }
        points = {p: pts for p, pts in entered.items() if given.get(p, pts) is not None}
        rounds.append(
            SheetRound(
                _int(entry.get("number")) or number,
                str(entry.get("dealer") or ""),
                str(entry.get("winner") or ""),
                str(entry.get("side") or ""),
                {p: points.get(p) for p in players if p in points},
                _party_points(entry.get("credited")),
                _party_points(entry.get("totals")),
            )
        )
    return sheet_to_csv(_mapping(score.get("game")), rounds, lang, pause)
