"""Scorekeeping, pure: rulesets as data, hands checked against the deck, counting modes, teams,
an append-only round log with everything derived from it, stats, and the game file formats.

The page and the command line use :class:`ScoreBook` (one game) built from a :class:`GameSetup`;
``docs/scoring.md`` lists the rulesets, counting modes and file formats.
"""

from companion.core.scoring.book import RoundView, ScoreBook, StandingRow, Standings, derive
from companion.core.scoring.errors import GameFull, ScoringError, StaleWrite
from companion.core.scoring.formats import (
    FORMAT_VERSION,
    game_from_csv,
    game_from_dict,
    game_from_json,
    game_to_csv,
    game_to_dict,
    game_to_json,
    ruleset_from_json,
    ruleset_to_json,
)
from companion.core.scoring.model import (
    MODES,
    GameSetup,
    HandEntry,
    LogEntry,
    RoundData,
    check_hand,
    check_round,
    make_round,
    teams_across,
    teams_alternating,
)
from companion.core.scoring.rulesets import (
    CardKind,
    Ruleset,
    builtin_ruleset,
    builtin_rulesets,
    find_ruleset,
)
from companion.core.scoring.stats import HeadToHead, PlayerStats, Stats, compute_stats

__all__ = [
    "FORMAT_VERSION",
    "MODES",
    "CardKind",
    "GameFull",
    "GameSetup",
    "HandEntry",
    "HeadToHead",
    "LogEntry",
    "PlayerStats",
    "RoundData",
    "RoundView",
    "Ruleset",
    "ScoreBook",
    "ScoringError",
    "StaleWrite",
    "StandingRow",
    "Standings",
    "Stats",
    "builtin_ruleset",
    "builtin_rulesets",
    "check_hand",
    "check_round",
    "compute_stats",
    "derive",
    "find_ruleset",
    "game_from_csv",
    "game_from_dict",
    "game_from_json",
    "game_to_csv",
    "game_to_dict",
    "game_to_json",
    "make_round",
    "ruleset_from_json",
    "ruleset_to_json",
    "teams_across",
    "teams_alternating",
]
