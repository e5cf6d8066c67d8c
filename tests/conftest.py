"""Shared test fixtures and the environment every test runs in."""

from __future__ import annotations

import os
import tempfile

# Every test runs on gpiozero's mock pins, never a probe of real hardware (field notes).
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
os.environ.setdefault("GPIOZERO_MOCK_PIN_CLASS", "mockpwmpin")
# Commands run by the tests (in process or as subprocesses) never read this machine's
# configuration nor write to its score database.
_HOME = tempfile.mkdtemp(prefix="uno-companion-tests-")
for _variable in ("UNO_COMPANION_CONFIG", "STATE_DIRECTORY", "NOTIFY_SOCKET", "WATCHDOG_USEC"):
    os.environ.pop(_variable, None)
os.environ["XDG_CONFIG_HOME"] = os.path.join(_HOME, "config")
os.environ["XDG_STATE_HOME"] = os.path.join(_HOME, "state")
