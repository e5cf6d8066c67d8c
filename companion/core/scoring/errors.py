"""Errors of the scorekeeper, each carrying a catalog key and its parameters.

The web page shows an error in the player's language with
``Catalog.load().text(error.catalog_key, lang, error.params)``; ``str(error)`` is the English text,
for logs and the command line. The English templates below are the same text as the ``[en]`` table
of ``companion/i18n/scoring.toml`` (a test keeps the two in step).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

ENGLISH: Mapping[str, str] = MappingProxyType(
    {
        # Rulesets
        "ruleset_empty": "ruleset {ruleset}: it has no card kinds",
        "ruleset_bad_key": "ruleset key {key!r}: use 1-40 letters, digits, '_' or '-'",
        "ruleset_duplicate_kind": "ruleset {ruleset}: card kind {kind} is listed twice",
        "ruleset_bad_kind": "ruleset {ruleset}, card kind {kind}: {problem}",
        "ruleset_bad_side": "ruleset {ruleset}, card kind {kind}: side {side!r} is not one of "
        "{sides}",
        "ruleset_unknown": "unknown ruleset {ruleset}",
        "ruleset_builtin": "ruleset {ruleset} is built in: copy it under a new key to edit it",
        # Hands and rounds
        "unknown_kind": "{player}: no card kind {kind!r} in ruleset {ruleset}",
        "kind_wrong_side": "{player}: {kind} is a {kind_side}-side card but the round ended on "
        "the {side} side",
        "bad_count": "{player}: the number of {kind} must be a whole number from 0 up, not "
        "{count!r}",
        "impossible_count": "{player}: {count} × {kind} is more than the deck holds ({deck})",
        "impossible_total": "{count} × {kind} in all hands together is more than the deck holds "
        "({deck})",
        "bad_points": "{player}: points must be a whole number from 0 up, not {points!r}",
        "impossible_points": "{player}: {points} points is more than the whole deck is worth "
        "({most})",
        "hand_needs_one_form": "{player}: give either card counts or raw points, not both or "
        "neither",
        "bad_side": "side {side!r} is not one of this deck's sides: {sides}",
        "unknown_player": "{player} is not a player of this game",
        "missing_hand": "no hand entered for {player}",
        "player_eliminated": "{player} was eliminated in round {round} and plays no more",
        "winner_unknown": "say who went out: no single player has an empty hand",
        "winner_has_cards": "{player} went out, so their hand must be empty (it is worth {points})",
        "game_over": "the game ended in round {round}: start a new game",
        "correction_ends_game": "this change ends the game in round {round} but later rounds "
        "exist: delete rounds after {round} first",
        "no_such_round": "there is no round {round}",
        "nothing_to_undo": "nothing to undo",
        "nothing_to_redo": "nothing to redo",
        "game_full": "this game has reached {limit} rounds, the most a game keeps: start a new "
        "game to go on (this one stays as it is, nothing is lost)",
        "game_log_full": "this game's log is full: a game keeps at most {limit} changes (rounds, "
        "corrections, deletions, undos and redos): start a new game to go on (this one stays as "
        "it is, nothing is lost)",
        "stale_write": "the game changed meanwhile (revision {actual}, expected {expected}): "
        "reload it and try again",
        # Game setup
        "too_few_players": "a game needs {fewest} to {most} players, not {count}",
        "bad_player_name": "player name {player!r}: use 1-{longest} characters, no line breaks",
        "duplicate_player": "{player} is listed twice",
        "name_not_shown": "player name {player} would not show as typed ({code})",
        "bad_mode": "counting mode {mode!r} is not one of {modes}",
        "bad_target": "the target must be a whole number from 1 to 100000, not {target!r}",
        "bad_teams": "teams: {problem}",
        "teams_need_winner_takes": "teams count only with 'winner takes the others' points' (001)",
        "bad_dealer": "first dealer {player!r} is not a player",
        "bad_name": "game name: use 1-80 characters, no line breaks",
        # Import / export
        "import_not_json": "not JSON: {problem} (line {line}, column {column})",
        "import_bad_format": "not an uno-companion game file (field 'format' is {found!r})",
        "import_bad_version": "game format version {found!r} is not supported (this program "
        "reads version {supported})",
        "import_field": "field {field}: {problem}",
        "import_too_long": "field {field}: longer than {longest} characters",
        "import_too_deep": "the file is nested too deeply to be a game",
        "import_entry": "log entry {index}: {problem}",
        "import_standings_mismatch": "the file's standings do not match its rounds: {problem}",
        "import_csv_empty": "the CSV file is empty",
        "import_csv_header": "CSV header: {problem}",
        "import_csv_row": "CSV line {line}: {problem}",
        "import_csv_unreadable": "CSV line {line}: {problem}; nothing was imported",
        "import_too_many_rounds": "the file holds more than {limit} rounds: the box keeps games "
        "of at most {limit} rounds ({entries} log entries); nothing was imported",
        "import_too_many_entries": "the file's log holds {found} entries: the box keeps games of "
        "at most {limit} log entries ({rounds} rounds); nothing was imported",
        "import_unreadable": "the file could not be read ({problem}); nothing was imported",
    }
)


class ScoringError(ValueError):
    """A refused score operation: ``key`` names the message, ``params`` fill it in; ``status``
    is HTTP-like (400 the input is refused, 409 the game's state refuses it)."""

    status = 400

    def __init__(self, key: str, /, **params: object) -> None:
        self.key = key
        self.params: dict[str, object] = {name: _cut(value) for name, value in params.items()}
        super().__init__(english(key, self.params))

    @property
    def catalog_key(self) -> str:
        """The key to look up in :class:`companion.i18n.Catalog`."""
        return f"scoring.error.{self.key}"


class StaleWrite(ScoringError):
    """An append that named an old revision: someone else changed the game first."""

    status = 409

    def __init__(self, expected: int, actual: int) -> None:
        super().__init__("stale_write", expected=expected, actual=actual)
        self.expected = expected
        self.actual = actual


class GameFull(ScoringError):
    """A change to a game that holds as much as the box keeps (``game_full``,
    ``game_log_full``): the change is fine, the game has no room for it."""

    status = 409


SHOWN = 200  # how much of a value from a file a message repeats


def _cut(value: object) -> object:
    """``value`` short enough to repeat in a message (a 100,000-character cell is not echoed)."""
    if isinstance(value, str):
        return value if len(value) <= SHOWN else value[: SHOWN - 1] + "…"
    if value is None or isinstance(value, int | float):
        return value
    shown = repr(value)
    return value if len(shown) <= SHOWN else shown[: SHOWN - 1] + "…"


def english(key: str, params: Mapping[str, object]) -> str:
    """The English text of message ``key`` (the key itself if unknown)."""
    template = ENGLISH.get(key, key)
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return f"{template} {dict(params)!r}"
