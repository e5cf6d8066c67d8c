"""``uno-companion config``: the configuration file's example, its reference, and a check.

- ``config example``: the commented example file, every key at its default
  (``config.example.toml`` is this output);
- ``config reference [--into FILE]``: the reference of every key (default, what is allowed, what
  it means) in Markdown; ``--into docs/config.md`` rewrites the reference in that document;
- ``config check [FILE]``: read a file as ``run`` would (``--config``, else the usual places)
  and list every problem, without starting anything. Exit status 2 when there is one.

The example and the reference are written from the sections' declarations, so they cannot
disagree with what the program accepts.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from companion import locations

from .common import add_command, load_or_exit


def register(subparsers: Any) -> None:
    parser = add_command(
        subparsers, "config", "the configuration's example, reference, check", __doc__
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    example = actions.add_parser("example", help="print the commented example file")
    example.set_defaults(handler=run_example)
    reference = actions.add_parser("reference", help="print the reference of every key")
    reference.add_argument(
        "--into", type=Path, metavar="FILE", help="rewrite the reference inside FILE instead"
    )
    reference.set_defaults(handler=run_reference)
    check = actions.add_parser("check", help="check a configuration file, start nothing")
    check.add_argument("file", type=Path, nargs="?", help="the file (default: as run finds it)")
    check.set_defaults(handler=run_check)


def run_example(args: argparse.Namespace) -> int:
    from companion.config.render import example_toml

    print(example_toml(), end="")
    return 0


def run_reference(args: argparse.Namespace) -> int:
    from companion.config.render import reference_markdown, with_reference

    if args.into is None:
        print(reference_markdown(), end="")
        return 0
    path: Path = args.into
    path.write_text(with_reference(path.read_text(encoding="utf-8")), encoding="utf-8")
    return 0


def run_check(args: argparse.Namespace) -> int:
    path = locations.config_file(args.file)
    load_or_exit(path)  # every problem listed, exit status 2
    print(f"{path or 'built-in settings'}: ok")
    return 0
