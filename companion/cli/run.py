"""``uno-companion run``: the daemon on the box (``simulate`` runs the same on mock pins)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .common import add_config_argument, load_or_exit


def add_daemon_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser)
    parser.add_argument("--state-dir", type=Path, default=None, help="where the database lives")
    parser.add_argument("--host", default=None, help="address of the phone page (web.host)")
    parser.add_argument("--port", type=int, default=None, help="port of the phone page (web.port)")
    parser.add_argument("--no-voice", action="store_true", help="no speech or speaker cues")
    parser.add_argument("--no-web", action="store_true", help="no phone page")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("run", help="run the table on the Raspberry Pi")
    add_daemon_arguments(parser)
    parser.add_argument(
        "--backend",
        choices=("auto", "pigpio", "lgpio", "rpigpio", "mock"),
        default=None,
        help="GPIO library (default: hardware.backend)",
    )
    parser.add_argument("--seed", type=int, default=None, help="launcher random seed")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from companion.daemon import run_daemon

    return run_daemon(load_or_exit(args.config), args, simulate=False)
