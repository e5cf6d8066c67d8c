"""Shared test helpers."""

from __future__ import annotations

import os

# Every test runs on gpiozero's mock pins, never a probe of real hardware (field notes).
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
os.environ.setdefault("GPIOZERO_MOCK_PIN_CLASS", "mockpwmpin")
