"""``uno-companion run``: the daemon on the box (``simulate`` runs the same on mock pins)."""

from __future__ import annotations

import argparse
import logging
from typing import Any

from companion.config import Config

from .common import (
    add_config_argument,
    add_state_dir_argument,
    choose_seed,
    load_or_exit,
    state_dir_or_exit,
)

log = logging.getLogger("companion.daemon")


def add_daemon_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser)
    add_state_dir_argument(parser)
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
    return run_daemon(load_or_exit(args.config), args, simulate=False)


def run_daemon(config: Config, args: argparse.Namespace, *, simulate: bool) -> int:
    """``run`` and ``simulate``: start the daemon, serve until a signal, stop cleanly."""
    from companion.daemon import Daemon, DaemonOptions, StartupError  # pulls in every adapter

    options = DaemonOptions(
        simulate=simulate,
        backend=getattr(args, "backend", None),
        state_dir=state_dir_or_exit(args.state_dir, config, simulate=simulate),
        seed=choose_seed(config, getattr(args, "seed", None)),
        web=not args.no_web,
        voice=not args.no_voice,
        host=args.host,
        port=args.port,
    )
    daemon = Daemon(config, options)
    try:
        daemon.start()
    except StartupError as exc:
        log.error("%s", exc)
        print(f"uno-companion: {exc}")
        return 2
    daemon.install_signal_handlers()
    try:
        if simulate:
            from companion.terminal import TerminalTable

            TerminalTable(daemon).run()
        else:
            log.info("table ready at %s", " or ".join(daemon.urls) or "(no page)")
            daemon.wait()
    finally:
        daemon.stop()
    return 0
