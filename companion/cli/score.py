"""``uno-companion score``: replay, list, export and import score sheets.

- ``score replay GAME.json`` recomputes the standings from a JSON game file and prints them
  (exit 1 with the reason if the file is malformed or its stored standings disagree);
- ``score list`` lists the games of the state directory (``--simulate``: the simulation's, kept
  apart; an empty list says where the simulation's games are);
- ``score export GAME_ID --format json|csv`` writes a game to stdout (or ``-o FILE``);
- ``score import FILE`` stores a JSON game, or a CSV score sheet (``--ruleset``, ``--mode``,
  ``--target``, ``--name`` describe a CSV game). A refused file changes nothing;
- ``score restore`` lists the backups; ``score restore NAME`` puts one in place of the database
  (the file it replaces is kept beside it as ``scores.sqlite3.damaged-N``). Stop the service
  first, or restore from the page, which does it while the box runs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from companion.core.scoring import (
    MODES,
    ScoreBook,
    ScoringError,
    Standings,
    find_ruleset,
    game_from_csv,
    game_from_json,
    game_to_csv,
    game_to_json,
)
from companion.storage import (
    DB_NAME,
    Storage,
    StorageError,
    UnknownGame,
    check_backup,
    describe_backups,
    restore_named_backup,
)

from .common import add_config_argument, add_state_dir_argument, load_or_exit, state_dir_or_exit


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("score", help="replay, list, export and import score sheets")
    add_config_argument(parser)
    add_state_dir_argument(parser)
    parser.add_argument(
        "--simulate",
        action="store_true",
        help="the simulation's scores (what 'uno-companion simulate' kept, in the 'simulate' "
        "folder of the state directory)",
    )
    actions = parser.add_subparsers(dest="score_command", metavar="ACTION")

    replay = actions.add_parser("replay", help="recompute and print the standings of a JSON game")
    replay.add_argument("file", type=Path, help="a JSON game file (see docs/scoring.md)")
    replay.set_defaults(handler=_replay)

    listing = actions.add_parser("list", help="list the stored games")
    listing.set_defaults(handler=_list)

    export = actions.add_parser("export", help="write a stored game as JSON or CSV")
    export.add_argument("game_id", help="the game's id (see 'score list')")
    export.add_argument("--format", choices=("json", "csv"), default="json")
    export.add_argument(
        "--lang", choices=("en", "fr"), default="en", help="CSV: the sheet's language"
    )
    export.add_argument("-o", "--output", type=Path, help="file to write (default: stdout)")
    export.set_defaults(handler=_export)

    importer = actions.add_parser("import", help="store a game from a JSON or CSV file")
    importer.add_argument("file", type=Path)
    importer.add_argument("--format", choices=("auto", "json", "csv"), default="auto")
    importer.add_argument("--name", help="CSV: the game's name (default: the file name)")
    importer.add_argument("--ruleset", default="classic", help="CSV: ruleset key")
    importer.add_argument("--mode", choices=MODES, default="winner_takes", help="CSV: counting")
    importer.add_argument("--target", type=int, default=500, help="CSV: target score")
    importer.set_defaults(handler=_import)

    restore = actions.add_parser(
        "restore", help="list the backups, or put one in place of the score database"
    )
    restore.add_argument(
        "backup", nargs="?", help="a backup's name as listed (e.g. scores.2.sqlite3)"
    )
    restore.set_defaults(handler=_restore)

    parser.set_defaults(handler=lambda args: _usage(parser))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def format_standings(book: ScoreBook) -> str:
    """The standings as a small text table."""
    standings: Standings = book.standings()
    setup = book.setup
    lines = [
        f"{setup.name}  ({setup.ruleset.name_en}, {setup.mode}, target {setup.target}, "
        f"{standings.rounds} rounds)"
    ]
    for row in standings.rows:
        out = f"  eliminated in round {row.eliminated_in}" if row.eliminated_in else ""
        lines.append(f"{row.rank:>3}. {row.party:<24} {row.total:>6}{out}")
    if standings.finished:
        verdict = " and ".join(standings.winners)
        tie = " (tie: the rules do not break it)" if standings.tie else ""
        lines.append(f"Game over in round {standings.ended_in_round}: {verdict} won{tie}.")
    else:
        lines.append(f"Game on; next dealer: {standings.dealer}.")
        if standings.two_player_final:
            lines.append("Two players left: play by the two-player rules.")
    return "\n".join(lines)


def _fail(message: str) -> int:
    print(f"uno-companion score: {message}", file=sys.stderr)
    return 1


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        _fail(f"cannot read {path}: {error}")
        return None


def _replay(args: argparse.Namespace) -> int:
    text = _read(args.file)
    if text is None:
        return 1
    try:
        book = game_from_json(text)
    except ScoringError as error:
        return _fail(f"{args.file}: {error}")
    print(format_standings(book))
    return 0


def _state_dir(args: argparse.Namespace, *, simulate: bool | None = None) -> Path:
    simulate = getattr(args, "simulate", False) if simulate is None else simulate
    return state_dir_or_exit(args.state_dir, load_or_exit(args.config), simulate=simulate)


def _open(args: argparse.Namespace) -> Storage:
    return Storage.open(_state_dir(args))


def _list(args: argparse.Namespace) -> int:
    try:
        with _open(args) as storage:
            games = storage.list_games()
    except StorageError as error:
        return _fail(str(error))
    if not games:
        print(f"No games yet in {_state_dir(args)}.")
        _point_at_the_simulation(args)
    for game in games:
        print(
            f"{game.game_id}  {game.date or game.created_at[:10]}  {game.name}  "
            f"[{game.ruleset}, {game.mode}]  {', '.join(game.players)}  ({game.revision} entries)"
        )
    return 0


def _point_at_the_simulation(args: argparse.Namespace) -> None:
    """A box's list is empty, the simulation's is not: say where those games are."""
    if getattr(args, "simulate", False) or args.state_dir is not None:
        return
    simulation = _state_dir(args, simulate=True)
    if not (simulation / DB_NAME).is_file():
        return
    try:
        with Storage.open(simulation) as storage:
            games = len(storage.list_games())
    except StorageError:
        return
    if games:
        print(
            f"The simulation keeps its own scores: {games} game(s) in {simulation} "
            "(uno-companion score --simulate list)."
        )


def _export(args: argparse.Namespace) -> int:
    try:
        with _open(args) as storage:
            book = storage.load_game(args.game_id)
    except UnknownGame:
        return _fail(f"no game {args.game_id!r} (see 'uno-companion score list')")
    except StorageError as error:
        return _fail(str(error))
    text = game_to_json(book) if args.format == "json" else game_to_csv(book, args.lang)
    if args.output is None:
        sys.stdout.write(text)
    else:
        args.output.write_text(text, encoding="utf-8")
    return 0


def _import(args: argparse.Namespace) -> int:
    text = _read(args.file)
    if text is None:
        return 1
    kind = args.format
    if kind == "auto":
        kind = "json" if text.lstrip("\ufeff \t\r\n").startswith("{") else "csv"
    try:
        with _open(args) as storage:
            if kind == "json":
                book = game_from_json(text)
            else:
                ruleset = find_ruleset(args.ruleset, storage.custom_rulesets())
                book = game_from_csv(
                    text,
                    name=args.name or args.file.stem,
                    ruleset=ruleset,
                    mode=args.mode,
                    target=args.target,
                    rulesets=storage.custom_rulesets(),
                )
            game_id = storage.import_game(book)
    except ScoringError as error:
        return _fail(f"{args.file}: {error} (nothing was imported)")
    except StorageError as error:
        return _fail(str(error))
    print(f"Imported {book.setup.name!r} as game {game_id} ({book.revision} entries).")
    print(format_standings(book))
    return 0


def _restore(args: argparse.Namespace) -> int:
    state_dir = _state_dir(args)
    backups = describe_backups(state_dir)
    if args.backup is None:
        if not backups:
            print(f"No backups in {state_dir / 'backups'}.")
            return 0
        print("Backups, newest first (restore one with 'uno-companion score restore NAME'):")
        for backup in backups:
            contents = _contents(state_dir / "backups" / str(backup["name"]))
            print(f"  {backup['name']:<20} saved {backup['saved_at']}  {contents}")
        return 0
    try:
        aside = restore_named_backup(state_dir, args.backup)
    except StorageError as error:
        return _fail(f"{error} (nothing was changed)")
    print(f"Restored {args.backup}; the database it replaced is kept as {aside.name}.")
    return 0


def _contents(path: Path) -> str:
    try:
        games, entries = check_backup(path)
    except StorageError as error:
        return f"(unusable: {error})"
    return f"{games} games, {entries} score entries"
