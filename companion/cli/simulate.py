"""``uno-companion simulate``: the whole table without hardware.

With ``--script FILE`` it runs a scripted session through the real daemon on mock pins, on a
virtual clock, and writes one JSON object per handled event to standard output: the script's
lines and the box's own events (see the README's "Script language"), then the ``final`` line
(the round's log as it ends); bad lines are reported on standard error with their line number
and the session goes on (``--strict`` stops at the first).
The table starts as configured, in a fresh state directory unless ``--state-dir`` names one.

With ``--camera-frames DIR`` as well, the camera replays a folder of frames (``frames.json`` and
the pictures; or one such folder a round) and the script's ``play`` lines are the camera's to
read (see :mod:`companion.cli.replay`). Without a script it starts the daemon on gpiozero's mock
pins.
"""

from __future__ import annotations

import argparse
from typing import Any

from companion.i18n import LANGUAGES

from .common import add_command, load_or_exit
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
    if args.script is None:
        return run_daemon(config, args, simulate=True)
    from .replay import run_camera_evening, run_script_file

    if args.camera_frames is not None:
        return run_camera_evening(config, args)
    return run_script_file(config, args)
