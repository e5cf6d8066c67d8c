"""Read the score part of the hub's state (``state["score"]``) for the chart and the CSV export.

The scorekeeper's snapshot holds ``game`` (name, players, teams, target...), ``standings``
(``rows`` of parties with totals) and ``history``: one entry per round with each player's hand
(``hands``: ``[{player, hand, points}]``) and the points each party scored (``credited``).
A party is a player, or a team named "A & C".
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import Any

from companion.core.scoring.formats import CSV_FIXED

# Cells a spreadsheet would run as a formula (CSV injection): prefixed with a quote.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _int(value: Any) -> int:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


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


def round_points(score: Mapping[str, Any]) -> list[dict[str, int]]:
    """The points each party scored in each round, oldest first."""
    rounds = []
    for entry in history_of(score):
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


def _cell(value: Any) -> str:
    text = str(value)
    return "'" + text if text.startswith(FORMULA_START) else text


def export_csv(score: Mapping[str, Any]) -> str:
    """The game's rounds as the score sheet ``score.import`` reads back: round, dealer, winner,
    side, then each player's hand points. It starts with a byte-order mark so a spreadsheet opens
    it as UTF-8 (accents intact)."""
    players = players_of(score)
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*CSV_FIXED, *(_cell(p) for p in players)])
    for number, entry in enumerate(history_of(score), start=1):
        points = hand_points(entry)
        writer.writerow(
            [
                _int(entry.get("number")) or number,
                _cell(entry.get("dealer") or ""),
                _cell(entry.get("winner") or ""),
                _cell(entry.get("side") or ""),
                *(points.get(p, "") for p in players),
            ]
        )
    return out.getvalue()
