"""The one model of the configuration and of the payloads: how long checking takes.

Prints the time to read the whole example file into typed sections, to check one table.play
payload (with the text checks: valid Unicode, NFC, visible), one house-rules change, and to
import the configuration package in a fresh interpreter. For the choice of a library, see
docs/config.md ("Why its own declarations").
"""

from __future__ import annotations

import subprocess
import sys
import time
import tomllib
from collections.abc import Callable
from pathlib import Path

from companion.config import parse_config
from companion.core.actions import TABLE_ACTION_SCHEMAS
from companion.core.options import RulesOptions, with_changes
from companion.core.payload import validate_payload

ROOT = Path(__file__).resolve().parents[2]
PLAY = {"card": "number", "colour": "red", "player": "Chloé", "value": 7}


def per_call_us(work: Callable[[], object], calls: int) -> float:
    """The best of five runs of ``calls`` calls, in microseconds per call."""
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(calls):
            work()
        best = min(best, time.perf_counter() - start)
    return best / calls * 1e6


def import_ms(module: str) -> float:
    """The best of five imports of ``module`` in a fresh interpreter, in milliseconds."""
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    runs = [
        float(
            subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True
            ).stdout
        )
        for _ in range(5)
    ]
    return min(runs) * 1000


def main() -> None:
    data = tomllib.loads((ROOT / "config.example.toml").read_text(encoding="utf-8"))
    schema = TABLE_ACTION_SCHEMAS["table.play"]
    rules = RulesOptions()
    change = {"deck": "flip", "challenge": True}
    whole = per_call_us(lambda: parse_config(data), 200)
    play = per_call_us(lambda: validate_payload(schema, PLAY), 5000)
    house = per_call_us(lambda: with_changes(rules, change), 5000)
    print(f"config.example.toml read into typed sections: {whole:,.0f} µs")
    print(f"table.play payload checked: {play:.1f} µs")
    print(f"house-rules change checked and applied: {house:.1f} µs")
    print(f"import companion.config (fresh interpreter): {import_ms('companion.config'):.1f} ms")


if __name__ == "__main__":
    main()
