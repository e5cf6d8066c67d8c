"""Run every benchmark area in turn: ``python -m tests.bench [AREA ...]``."""

from __future__ import annotations

import importlib
import sys

AREAS = (
    "engine",
    "daemon",
    "devices",
    "speech",
    "scoring",
    "receipts",
    "imports",
    "web",
    "pin",
    "clients",
    "vision",
    "camera",
    "config",
)


def main(argv: list[str]) -> int:
    chosen = argv or list(AREAS)
    unknown = [a for a in chosen if a not in AREAS]
    if unknown:
        print(f"unknown area(s): {', '.join(unknown)} (choose from {', '.join(AREAS)})")
        return 2
    for area in chosen:
        print(f"\n== {area} ==", flush=True)
        importlib.import_module(f"tests.bench.{area}").main()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
