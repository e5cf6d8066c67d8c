"""Helpers shared by tests and benchmarks (Chromium flags, mock pin timing checks)."""

from __future__ import annotations

import math
from typing import Any

CHROMIUM = "/usr/bin/chromium"
# Debian's Chromium, headless as root, with nothing that reaches outside this machine.
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
    pin: Any, expected: list[tuple[float, float]], tol: float = 0.1
) -> None:
    """gpiozero's check with a length check and ``tol`` seconds of slack per step."""
    states = [(round(s.timestamp, 4), round(float(s.state), 5)) for s in pin.states]
    assert len(states) == len(expected), f"pin went through {states}, expected {expected}"
    for (t, state), (want_t, want_state) in zip(states, expected, strict=True):
        assert math.isclose(state, want_state, abs_tol=1e-6), f"{states} != {expected}"
        assert math.isclose(t, want_t, abs_tol=tol), f"timing {states} vs {expected}"
