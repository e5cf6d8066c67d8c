"""The one exponential backoff: none before a failure, then doubling up to its ceiling."""

from __future__ import annotations

from companion.core.backoff import backoff


def test_the_wait_doubles_after_each_failure_up_to_the_longest() -> None:
    assert [backoff(n, 2.0, 60.0) for n in range(8)] == [0, 2, 4, 8, 16, 32, 60, 60]
    assert backoff(-1, 2.0, 60.0) == 0.0


def test_a_very_long_run_of_failures_stays_at_the_longest() -> None:
    assert backoff(10_000, 0.25, 30.0) == 30.0
