"""``uno-companion``: the composition root.

Each subcommand lives in its own module here with a ``register(subparsers)`` function that adds
its parser and sets ``handler`` (a function taking the parsed arguments and returning an exit
code). Only this package wires adapters together; the adapters never import each other.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from collections.abc import Mapping, Sequence
from typing import ClassVar

from companion import __version__
from companion.logs import OncePerInterval

# Subcommand modules, in the order ``--help`` lists them.
SUBCOMMANDS = (
    "run",
    "simulate",
    "calibrate",
    "score",
    "say",
    "sounds",
    "doctor",
    "config",
    "safe-stop",
    "vision",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="uno-companion",
        description="The UNO Extrême card launcher, scorekeeper and voice of the table.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        importlib.import_module(f"{__name__}.{name.replace('-', '_')}").register(subparsers)
    return parser


class JournalFormatter(logging.Formatter):
    """Each line starts with its syslog priority (``<3>`` for an error), which journald reads:
    ``journalctl -u uno-companion -p warning`` then shows only what went wrong."""

    PRIORITIES: ClassVar[dict[int, int]] = {
        logging.CRITICAL: 2,
        logging.ERROR: 3,
        logging.WARNING: 4,
        logging.INFO: 6,
        logging.DEBUG: 7,
    }

    def format(self, record: logging.LogRecord) -> str:
        prefix = f"<{self.PRIORITIES.get(record.levelno, 6)}>"
        return prefix + super().format(record).replace("\n", "\n" + prefix)


def log_handler(environ: Mapping[str, str]) -> logging.Handler:
    """Standard error; under systemd (``$JOURNAL_STREAM``) with priorities and no timestamp."""
    handler = logging.StreamHandler(sys.stderr)
    if environ.get("JOURNAL_STREAM"):
        handler.setFormatter(JournalFormatter("%(name)s: %(message)s"))
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(OncePerInterval())  # every part's trouble, once per kind per minute
    return handler


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO, handlers=[log_handler(os.environ)]
    )
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    try:
        return int(args.handler(args))
    except KeyboardInterrupt:
        return 130
