"""Waiting longer after each failure in a row: the box's one exponential backoff (a crash loop's
restarts, the speech engine started again, a lost camera looked for again, the slow-down and
lock-out after wrong PINs)."""

from __future__ import annotations


def backoff(failures: int, first: float, longest: float) -> float:
    """The wait after ``failures`` failures in a row: none after none, ``first`` after the
    first, twice the wait before after each next one, never more than ``longest``."""
    if failures <= 0:
        return 0.0
    return float(min(longest, first * 2.0 ** min(failures - 1, 64)))
