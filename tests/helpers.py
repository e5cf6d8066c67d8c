"""Helpers shared by tests and benchmarks: Chromium flags, mock pin timing checks, waiting on
another thread."""

from __future__ import annotations

import math
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

# Debian's Chromium headless shell (package chromium-headless-shell, same sources and version as
# the chromium package): Chromium's own headless browser, the one Playwright runs for headless
# tests. `chromium --headless` drives the whole desktop browser, windows, tab strip and address bar
# included, and keeps them up to date at every navigation: a third more CPU per browser test.
CHROMIUM = "/usr/bin/chromium-headless-shell"
# Headless as root, with nothing that reaches outside this machine.
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}


def assert_states_and_times(
    pin: Any, expected: list[tuple[float | None, float]], tol: float = 0.1
) -> None:
    """gpiozero's check with a length check and ``tol`` seconds of slack per step; a ``None``
    time is not checked (e.g. the first change of a part timed on another thread's clock)."""
    states = [(round(s.timestamp, 4), round(float(s.state), 5)) for s in pin.states]
    assert len(states) == len(expected), f"pin went through {states}, expected {expected}"
    for (t, state), (want_t, want_state) in zip(states, expected, strict=True):
        assert math.isclose(state, want_state, abs_tol=1e-6), f"{states} != {expected}"
        if want_t is not None:
            assert math.isclose(t, want_t, abs_tol=tol), f"timing {states} vs {expected}"


def wait_for(condition: Callable[[], Any], timeout: float = 10.0, what: str = "") -> Any:
    """Poll ``condition`` until it returns something true (returned) or fail after ``timeout``.

    For state owned by another thread that offers nothing to wait on (a page, a process).
    """
    deadline = time.monotonic() + timeout
    delay = 0.001
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what or condition}")
        time.sleep(delay)  # back off: 1 ms, 2 ms, ... 50 ms between looks
        delay = min(delay * 2, 0.05)


def kill_after_lines(
    child: subprocess.Popen[str], word: str, count: int, rng: random.Random, jitter: float
) -> tuple[list[str], str]:
    """Let ``child`` print ``count`` lines starting with ``word``, run on for a random moment
    of up to ``jitter`` seconds, then SIGKILL it: a kill in the middle of its work, however fast
    the machine. Returns every line it printed and its standard error."""
    assert child.stdout is not None
    lines: list[str] = []
    while count > 0:
        line = child.stdout.readline()
        if not line:
            break  # the child ended on its own: the caller's checks say why
        lines.append(line)
        count -= line.startswith(word)
    time.sleep(rng.uniform(0.0, jitter))
    child.send_signal(signal.SIGKILL)
    # Read the rest through the same buffered file: communicate() would read the pipe itself
    # and miss what readline() already took into the buffer.
    with child.stdout:
        rest = child.stdout.read()
    err = ""
    if child.stderr is not None:
        with child.stderr:
            err = child.stderr.read()
    child.wait(timeout=10)
    return lines + rest.splitlines(keepends=True), err


def python_child(script: str, *args: str) -> subprocess.Popen[str]:
    """``script`` run by this Python in a child process that imports this checkout, its output
    read as text: the program a SIGKILL test kills."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    return subprocess.Popen(
        [sys.executable, "-c", script, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )


class WiredBox(NamedTuple):
    """The parts of a box :func:`wired_box` wires."""

    engine: Any
    hub: Any
    scores: Any
    keeper: Any


def wired_box(state_dir: Path, players: list[str], seed: int, **storage: Any) -> WiredBox:
    """The engine, hub, score storage and score keeper as the daemon wires them (the storage
    started, both attached to the hub)."""
    from companion.app.hub import Hub
    from companion.core.table import TableEngine
    from companion.daemon import score_keeper, score_storage

    engine = TableEngine(players, seed=seed)
    hub = Hub(engine)
    scores = score_storage(state_dir, **storage)
    scores.start()
    keeper = score_keeper(scores)
    scores.attach(hub)
    keeper.attach(hub)
    return WiredBox(engine, hub, scores, keeper)


def hardware_section(raw: dict[str, Any]) -> Any:
    """The ``[hardware]`` section of a file holding ``raw`` (a ConfigError lists its problems)."""
    from companion.config import parse_config

    return parse_config({"hardware": raw}).hardware
