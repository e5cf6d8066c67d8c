"""``uno-companion simulate``: the whole table without hardware.

With ``--camera-frames DIR`` the camera replays a folder of frames (``frames.json`` and the
pictures; or one such folder a round) through the real daemon; with a script as well, the
script's ``play`` lines are the camera's to read (see :mod:`companion.cli.replay`).

With ``--script FILE`` it runs a scripted session through the engine and writes one JSON object
per event to standard output (see the README's "Script language"); bad lines are reported on
standard error with their line number and the session goes on (``--strict`` stops at the first).
Without a script it starts the daemon on gpiozero's mock pins.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.core.commands import Say
from companion.core.session import LineError, run_script
from companion.core.table.view import final_record
from companion.i18n import LANGUAGES, Catalog

from .common import add_command, choose_seed, load_or_exit
from .run import add_daemon_arguments, run_daemon


def register(subparsers: Any) -> None:
    parser = add_command(
        subparsers, "simulate", "run the table on mock hardware (or replay a script)", __doc__
    )
    add_daemon_arguments(parser)
    parser.add_argument("--script", help="script file to replay ('-' for standard input)")
    parser.add_argument("--seed", type=int, default=None, help="launcher random seed")
    parser.add_argument("--strict", action="store_true", help="stop at the first bad line")
    parser.add_argument("--lang", choices=LANGUAGES, help="language of the 'say' phrases")
    parser.add_argument(
        "--camera-frames",
        metavar="DIR",
        help="replay a folder of camera frames (frames.json) as the camera's view of the pile",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    config = load_or_exit(args.config)
    if args.camera_frames is not None and args.script is not None:
        from .replay import run_camera_evening

        return run_camera_evening(config, args)
    if args.script is None:
        return run_daemon(config, args, simulate=True)
    return run_script_file(config, args)


def run_script_file(config: Any, args: argparse.Namespace) -> int:
    from companion.daemon import table_engine

    seed = choose_seed(config, args.seed)
    engine = table_engine(config, seed)
    catalog = Catalog.load()
    lang = args.lang or config.table.language

    def render(say: Say) -> str:
        return catalog.text(say.key, lang, say.params)

    try:
        if args.script == "-":
            lines = sys.stdin.read().splitlines()
        else:
            lines = Path(args.script).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        print(f"uno-companion: cannot read the script {args.script}: {exc}", file=sys.stderr)
        return 2
    errors = 0
    for item in run_script(lines, engine, render):
        if isinstance(item, LineError):
            errors += 1
            print(f"line {item.line}: {item.message}  [{item.text.strip()}]", file=sys.stderr)
            if args.strict:
                return 1
            continue
        print(json.dumps(item, ensure_ascii=False), flush=False)
    print(json.dumps(final_record(engine, engine.log), ensure_ascii=False))
    sys.stdout.flush()
    return 1 if errors and args.strict else 0
