"""The game file formats: JSON (the whole game, lossless) and CSV (a score sheet).

Pure functions from text to objects and back. Reading checks everything and raises one
:class:`ScoringError` naming the problem (field, log entry or CSV line), so an import either
succeeds completely or changes nothing. ``docs/scoring.md`` documents both formats.

JSON, version 1::

    {"format": "uno-companion/game", "version": 1,
     "game": {"id", "name", "date", "players", "mode", "target", "teams", "first_dealer",
              "ruleset": {...}},
     "log": [{"seq": 1, "type": "round_recorded", "at": "...", "round": {...}}, ...],
     "standings": {...}}        # derived; optional on import, checked when present

CSV (a score sheet, in English or French): the game's settings (name, date, target, counting
mode, ruleset, teams), a header ``round,dealer,winner,side,<player>...`` (``manche;donneur;
gagnant;côté``) then one line per round with the points left in each player's hand (empty: no
hand entered). Card detail and corrections are not kept.

Over 500 lines: both formats' readers and writers stay together, so a change to one format is
read beside the other's and the error each raises for the same fault stays the same.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from companion.core.limits import MAX_GAME_ROUNDS
from companion.core.scoring.book import ScoreBook, Standings
from companion.core.scoring.errors import ScoringError
from companion.core.scoring.model import GameSetup, HandEntry, LogEntry, check_new_names
from companion.core.scoring.rulesets import Ruleset, builtin_rulesets, find_ruleset
from companion.core.scoring.size import check_game_size, too_many_rounds
from companion.core.scoring.tally import PAUSE_EVERY

FORMAT_NAME = "uno-companion/game"
FORMAT_VERSION = 1
CSV_FIXED = ("round", "dealer", "winner", "side")
CSV_HEAD_ROWS = 3  # at most, before the rounds: the settings' names and values, the header
MAX_TEXT = 20_000_000  # a game file bigger than this is not a game file
Pause = Callable[[], None] | None


def game_to_dict(book: ScoreBook) -> dict[str, Any]:
    log = []
    for seq, entry in enumerate(book.entries, start=1):
        log.append({"seq": seq, **entry.to_dict()})
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "game": book.setup.to_dict(),
        "log": log,
        "standings": book.standings().to_dict(),
    }


def game_to_json(book: ScoreBook, indent: int | None = 2) -> str:
    """The game file of ``book``."""
    return json.dumps(game_to_dict(book), ensure_ascii=False, indent=indent) + "\n"


def game_from_json(text: str) -> ScoreBook:
    """Read a JSON game file; the log is replayed, and stored standings must match it."""
    return game_from_dict(_read_json(text))


def _read_json(text: str) -> Any:
    """The data in a JSON file, or an error saying where it stops being JSON (or that it is
    nested deeper than a game file ever is)."""
    if len(text) > MAX_TEXT:
        raise ScoringError("import_field", field="(file)", problem="is too large")
    try:
        return json.loads(text.removeprefix("\ufeff"))  # the mark an editor may write first
    except json.JSONDecodeError as error:
        raise ScoringError(
            "import_not_json",
            problem=error.msg,
            kind=_json_problem(error.msg),
            line=error.lineno,
            column=error.colno,
        ) from error
    except RecursionError:  # [[[[... deeper than the parser goes
        raise ScoringError("import_too_deep") from None


# The json module's messages (English), as the kinds the catalog words in each language.
_JSON_PROBLEMS = (
    ("Expecting value", "value"),
    ("Expecting ','", "comma"),
    ("Illegal trailing comma", "comma"),
    ("Expecting ':'", "colon"),
    ("Expecting property name", "name"),
    ("Unterminated string", "string"),
    ("Invalid control character", "control"),
    ("Invalid \\", "escape"),
    ("Extra data", "extra"),
)


def _json_problem(message: str) -> str:
    return next((kind for start, kind in _JSON_PROBLEMS if message.startswith(start)), "other")


def _csv_problem(message: str) -> str:
    """The csv module's error (English) as the kind the catalog words in each language."""
    kinds = (("field larger than field limit", "cell"), ("NUL", "nul"), ("new-line", "newline"))
    return next((kind for part, kind in kinds if part in message), "other")


def game_from_dict(data: Any) -> ScoreBook:
    """The game a file's data describes, replayed and checked; one over the box's limits
    (:data:`MAX_GAME_ROUNDS`, :data:`MAX_GAME_ENTRIES`) is refused before it is replayed."""
    if not isinstance(data, Mapping):
        raise ScoringError("import_bad_format", found=type(data).__name__)
    if data.get("format") != FORMAT_NAME:
        raise ScoringError("import_bad_format", found=data.get("format"))
    if data.get("version") != FORMAT_VERSION:
        raise ScoringError(
            "import_bad_version", found=data.get("version"), supported=FORMAT_VERSION
        )
    setup = GameSetup.from_dict(data.get("game"), "game")
    check_new_names(setup.players)
    log = data.get("log")
    if not isinstance(log, list):
        raise ScoringError("import_field", field="log", problem="must be a list")
    check_game_size(log)
    entries = []
    for index, item in enumerate(log, start=1):
        if isinstance(item, Mapping) and item.get("seq", index) != index:
            raise ScoringError(
                "import_entry",
                index=index,
                problem=f"seq is {_shown(item.get('seq'))}, not {index}",
            )
        entries.append(LogEntry.from_dict(item, f"log[{index}]"))
    book = ScoreBook(setup, entries)
    stored = data.get("standings")
    if stored is not None:
        problem = standings_difference(stored, book.standings())
        if problem:
            raise ScoringError("import_standings_mismatch", problem=problem)
    return book


def standings_difference(stored: Any, derived: Standings) -> str:
    """Empty if ``stored`` (from a file) agrees with ``derived``; else what differs."""
    if not isinstance(stored, Mapping):
        return "'standings' must be an object"
    expected = derived.to_dict()
    for name in ("rounds", "finished", "winners", "tie", "dealer"):
        if stored.get(name) != expected[name]:
            return f"{name} is {stored.get(name)!r} in the file but {expected[name]!r} replayed"
    rows = stored.get("rows")
    if not isinstance(rows, list):
        return "'standings.rows' must be a list"
    file_totals = {r.get("party"): r.get("total") for r in rows if isinstance(r, Mapping)}
    for row in derived.rows:
        if file_totals.get(row.party) != row.total:
            return (
                f"{row.party} has {file_totals.get(row.party)!r} in the file but "
                f"{row.total} replayed"
            )
    return ""


def ruleset_to_json(ruleset: Ruleset) -> str:
    return json.dumps(ruleset.to_dict(), ensure_ascii=False, indent=2) + "\n"


def ruleset_from_json(text: str) -> Ruleset:
    return Ruleset.from_dict(_read_json(text))


# -- CSV --------------------------------------------------------------------------------------

# The sheet's words in each language: the game's settings row, then the rounds' columns. A
# French sheet separates its columns with ';' (a French spreadsheet reads ',' as the decimal
# comma and would open the sheet as one column).
CSV_WORDS: Mapping[str, Mapping[str, str]] = {
    "en": {
        "game": "game", "date": "date", "target": "target", "mode": "mode",
        "ruleset": "ruleset", "teams": "teams",
        "round": "round", "dealer": "dealer", "winner": "winner", "side": "side",
        "scored": "points", "total": "total",
        "mode_winner_takes": "Winner scores the others' cards",
        "mode_lowest_wins": "Lowest total wins", "mode_defi": "Défi (elimination)",
    },
    "fr": {
        "game": "partie", "date": "date", "target": "objectif", "mode": "mode",
        "ruleset": "règles", "teams": "équipes",
        "round": "manche", "dealer": "donneur", "winner": "gagnant", "side": "côté",
        "scored": "points", "total": "total",
        "mode_winner_takes": "Le gagnant marque les points des autres",
        "mode_lowest_wins": "Le plus petit total gagne", "mode_defi": "Défi (élimination)",
    },
}  # fmt: skip
CSV_SEPARATORS: Mapping[str, str] = {"en": ",", "fr": ";"}
CSV_SETTINGS = ("game", "date", "target", "mode", "ruleset", "teams")
# Cells a spreadsheet would run as a formula (CSV injection) are written after a quote; the
# import takes that quote off again.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
TEAM_SEPARATOR = " / "
# A party's columns after the hands: "Zoé — points" (scored this round), "Zoé — total".
SCORE_COLUMN = " — "


class SheetRound(NamedTuple):
    """One line of a score sheet: the points left in each hand (``None``: none entered)."""

    number: int
    dealer: str
    winner: str
    side: str
    points: Mapping[str, int | None]
    credited: Mapping[str, int] = {}  # party: points scored this round
    totals: Mapping[str, int] = {}  # party: its total after this round


def sheet_to_csv(
    game: Mapping[str, Any], rounds: Iterable[SheetRound], lang: str = "en", pause: Pause = None
) -> str:
    """A score sheet in ``lang``: a byte-order mark (a spreadsheet then reads UTF-8), the game's
    settings (name, date, target, counting mode, ruleset, teams) and a line per round. ``game``
    is :meth:`GameSetup.to_dict` (or the page's copy of it); ``pause()`` every
    :data:`PAUSE_EVERY` rounds."""
    words = CSV_WORDS.get(lang, CSV_WORDS["en"])
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, delimiter=CSV_SEPARATORS.get(lang, ","), lineterminator="\n")
    players = [str(p) for p in game.get("players") or ()]
    ruleset = game.get("ruleset")
    teams = TEAM_SEPARATOR.join(" & ".join(map(str, team)) for team in game.get("teams") or ())
    writer.writerow([words[k] for k in CSV_SETTINGS])
    mode = str(game.get("mode", ""))
    writer.writerow(
        [
            _guarded(game.get("name", "")),
            game.get("date", ""),
            game.get("target", ""),
            words.get("mode_" + mode, mode),
            _ruleset_cell(ruleset, lang),
            _guarded(teams),
        ]
    )
    parties = [" & ".join(map(str, team)) for team in game.get("teams") or ()] or players
    scores = [f"{party}{SCORE_COLUMN}{words[w]}" for party in parties for w in ("scored", "total")]
    writer.writerow(
        [*(words[k] for k in CSV_FIXED), *map(_guarded, players), *map(_guarded, scores)]
    )
    for count, line in enumerate(rounds, start=1):
        if pause is not None and count % PAUSE_EVERY == 0:
            pause()
        cells = ["" if line.points.get(p) is None else str(line.points[p]) for p in players]
        scored = [
            str(value.get(party, "")) for party in parties for value in (line.credited, line.totals)
        ]
        writer.writerow(
            [
                line.number,
                _guarded(line.dealer),
                _guarded(line.winner),
                _guarded(line.side),
                *cells,
                *scored,
            ]
        )
    return out.getvalue()


def game_to_csv(book: ScoreBook, lang: str = "en") -> str:
    rounds = (
        SheetRound(
            v.number,
            v.dealer,
            v.winner,
            v.side,
            {p: pts for p, _, pts in v.hands},
            dict(v.credited),
            dict(v.totals),
        )
        for v in book.history()
    )
    return sheet_to_csv(book.setup.to_dict(), rounds, lang)


def _ruleset_cell(ruleset: object, lang: str = "en") -> str:
    """A built-in ruleset by its name in ``lang``; a custom one whole, as JSON, so the sheet comes
    back on a box that does not have it."""
    if not isinstance(ruleset, Mapping):
        return str(ruleset or "")
    key = str(ruleset.get("key", ""))
    builtin = next((r for r in builtin_rulesets() if r.key == key), None)
    if not key or builtin is not None:
        return builtin.name(lang) if builtin is not None else key
    return json.dumps(ruleset, ensure_ascii=False, separators=(",", ":"))


def _ruleset_named(cell: str, rulesets: Sequence[Ruleset]) -> Ruleset:
    """The ruleset a sheet names: by key (older sheets), or by its name in either language."""
    folded = cell.casefold()
    for ruleset in [*rulesets, *builtin_rulesets()]:
        if folded in (ruleset.name_fr.casefold(), ruleset.name_en.casefold()):
            return ruleset
    return find_ruleset(cell, rulesets)


def _mode_named(cell: str) -> str:
    """The counting mode a sheet names: by key (older sheets), or by its words in either
    language."""
    folded = cell.strip().casefold()
    for words in CSV_WORDS.values():
        for key, text in words.items():
            if key.startswith("mode_") and text.casefold() == folded:
                return key.removeprefix("mode_")
    return cell.strip()


def _guarded(value: object) -> str:
    text = str(value)
    return "'" + text if text.startswith(FORMULA_START) else text


def _unguarded(cell: str) -> str:
    """A cell as it was before :func:`_guarded` (a quote the export put before a formula-like
    text comes off; any other leading quote stays)."""
    return cell[1:] if cell.startswith("'") and cell[1:].startswith(FORMULA_START) else cell


def _shown(value: object, limit: int = 40) -> str:
    """A value from the file as a message repeats it: quoted, and cut if long."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _words(lang: str, keys: Sequence[str]) -> list[str]:
    return [CSV_WORDS[lang][k] for k in keys]


def _fixed_columns(header: Sequence[str]) -> str | None:
    """The language of a round header (its first four columns), or ``None``."""
    start = [cell.casefold() for cell in header[: len(CSV_FIXED)]]
    for lang in CSV_WORDS:
        if start == _words(lang, CSV_FIXED):
            return lang
    return None


def _sheet_settings(rows: Sequence[tuple[int, list[str]]]) -> dict[str, str]:
    """The settings row under a settings header (``game,date,target...`` in either language),
    by setting name; empty for a sheet that starts with its rounds."""
    header = [cell.strip().casefold() for cell in rows[0][1]]
    for lang in CSV_WORDS:
        names = {CSV_WORDS[lang][k]: k for k in CSV_SETTINGS}
        if header and header[0] == CSV_WORDS[lang]["game"]:
            if len(rows) < 2:
                raise ScoringError("import_csv_header", problem="the game's settings are missing")
            values = [cell.strip() for cell in rows[1][1]]
            return {names[h]: v for h, v in zip(header, values, strict=False) if h in names}
    return {}


def _sheet_number(cell: str | None, default: int) -> int:
    if not cell:
        return default
    if not cell.isdigit():
        raise ScoringError("import_csv_header", problem=f"target is {_shown(cell)}, not a number")
    return int(cell)


def _separator(text: str) -> str:
    """The column separator of a sheet: ',' or ';' (what a French spreadsheet saves), or a tab."""
    header = text.split("\n", 1)[0]
    return max((",", ";", "\t"), key=header.count)


def game_from_csv(
    text: str,
    *,
    name: str,
    ruleset: Ruleset,
    mode: str = "winner_takes",
    target: int = 500,
    teams: Sequence[Sequence[str]] = (),
    date: str = "",
    game_id: str = "",
    rulesets: Sequence[Ruleset] = (),
) -> ScoreBook:
    """Read a CSV score sheet (either language, ',' ';' or tab between columns, with or without
    a byte-order mark) into a new game whose hands are raw points. The sheet's own settings row
    (what :func:`sheet_to_csv` writes) wins over the arguments, which describe a sheet without
    one; its ruleset is a built-in one or one of ``rulesets``."""
    if len(text) > MAX_TEXT:
        raise ScoringError("import_field", field="(file)", problem="is too large")
    text = text.lstrip("\ufeff")  # the byte-order mark a spreadsheet writes first
    reader = csv.reader(io.StringIO(text), delimiter=_separator(text))
    lines: list[list[str]] = []
    filled = 0  # lines not blank: a settings row and its values, the header, the rounds
    try:
        for row in reader:  # a sheet longer than the box keeps is not read to its end
            lines.append(row)
            filled += any(c.strip() for c in row)
            if filled > MAX_GAME_ROUNDS + CSV_HEAD_ROWS:
                raise too_many_rounds()
    except csv.Error as error:  # a cell over the csv module's limit (128 K), a stray NUL...
        raise ScoringError(
            "import_csv_unreadable",
            line=reader.line_num,
            problem=str(error),
            kind=_csv_problem(str(error)),
            limit=csv.field_size_limit(),
        ) from None
    rows = [
        (number, row) for number, row in enumerate(lines, start=1) if any(c.strip() for c in row)
    ]
    if not rows:
        raise ScoringError("import_csv_empty")
    settings = _sheet_settings(rows)
    if settings:
        rows = rows[2:]
        name = _unguarded(settings.get("game", "")) or name
        date = settings.get("date", date)
        target = _sheet_number(settings.get("target"), target)
        mode = _mode_named(settings.get("mode") or "") or mode
        written_rules = settings.get("ruleset", "").strip()
        if written_rules:
            try:
                ruleset = (
                    ruleset_from_json(written_rules)  # a custom ruleset, written whole
                    if written_rules.startswith("{")
                    else _ruleset_named(written_rules, rulesets)
                )
            except ScoringError as error:
                raise ScoringError("import_csv_header", problem=str(error)) from error
        written = _unguarded(settings.get("teams", ""))
        teams = [t.split(" & ") for t in written.split(TEAM_SEPARATOR)] if written else teams
    if not rows:
        raise ScoringError("import_csv_empty")
    if len(rows) - 1 > MAX_GAME_ROUNDS:  # the header, then the rounds
        raise too_many_rounds()
    _, header = rows[0]
    header = [_unguarded(cell.strip()) for cell in header]
    if _fixed_columns(header) is None:
        raise ScoringError(
            "import_csv_header",
            problem=f"must start with {','.join(CSV_FIXED)} (or {';'.join(_words('fr', CSV_FIXED))}"
            "), then the players, in columns separated by ',' or ';'",
        )
    # The players' hands, then (sheets written since scores were added) each party's points and
    # total, which the import derives again from the hands.
    hand_columns = header[len(CSV_FIXED) :]
    scored_words = {w[k] for w in CSV_WORDS.values() for k in ("scored", "total")}
    ends = [
        i
        for i, cell in enumerate(hand_columns)
        if SCORE_COLUMN in cell and cell.rsplit(SCORE_COLUMN, 1)[1].casefold() in scored_words
    ]
    players = tuple(hand_columns[: ends[0]] if ends else hand_columns)
    try:
        check_new_names(players)
    except ScoringError as error:
        raise ScoringError("import_csv_header", problem=str(error)) from error
    first_dealer = (
        _unguarded(rows[1][1][1].strip()) if len(rows) > 1 and len(rows[1][1]) > 1 else ""
    )
    try:
        setup = GameSetup(
            name=name,
            players=players,
            ruleset=ruleset,
            mode=mode,
            target=target,
            teams=tuple(tuple(t) for t in teams),
            first_dealer=first_dealer,
            date=date,
            game_id=game_id,
        ).validate()
    except ScoringError as error:
        raise ScoringError("import_csv_header", problem=str(error)) from error
    book = ScoreBook(setup)
    for expected_round, (line, row) in enumerate(rows[1:], start=1):
        cells = [_unguarded(cell.strip()) for cell in row]
        if len(cells) != len(header):
            raise ScoringError(
                "import_csv_row",
                line=line,
                problem=f"{len(cells)} fields, the header has {len(header)}",
            )
        number, dealer, winner, side = cells[: len(CSV_FIXED)]
        if number != str(expected_round):
            raise ScoringError(
                "import_csv_row",
                line=line,
                problem=f"round is {_shown(number)}, expected {expected_round}",
            )
        hands: dict[str, HandEntry] = {}
        hand_cells = cells[len(CSV_FIXED) : len(CSV_FIXED) + len(players)]
        for player, cell in zip(players, hand_cells, strict=True):
            if cell == "":
                continue
            if not cell.isdigit():
                raise ScoringError(
                    "import_csv_row",
                    line=line,
                    problem=f"{player}: {_shown(cell)} is not a number of points",
                )
            hands[player] = HandEntry.of_points(int(cell))
        expected_dealer = book.standings().dealer
        if dealer and dealer != expected_dealer:
            raise ScoringError(
                "import_csv_row",
                line=line,
                problem=f"dealer is {_shown(dealer)} but the deal passes "
                f"to the left, to {expected_dealer!r}",
            )
        try:
            book.record_round(hands, winner=winner or None, side=side or None)
        except ScoringError as error:
            raise ScoringError("import_csv_row", line=line, problem=str(error)) from error
    return book
