"""The launcher model against the measured real launcher (field notes: 800 presses)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.core.firing import AUTHENTIC, GENTLE, FiringModel, fixed_profile

MEASURED_CHANCE = (0.18, 0.50, 0.59, 0.55, 1.0)


@pytest.mark.slow
def test_authentic_matches_its_table_over_100000_presses():
    """Chance to fire per press count within ±0.01; mean presses per firing 2.4–2.6."""
    launcher = FiringModel(AUTHENTIC, magazine=10**9, low_warning=0, rng=random.Random(2024))
    attempts = [0] * 5
    fires = [0] * 5
    firings = 0
    cards = 0
    forced_cards: list[int] = []
    for _ in range(100_000):
        k = launcher.presses_since_fire  # presses since the last firing before this one
        result = launcher.press()
        attempts[k] += 1
        if result.fired:
            fires[k] += 1
            firings += 1
            cards += result.cards
            if result.forced:
                forced_cards.append(result.cards)
    for k, measured in enumerate(MEASURED_CHANCE):
        assert fires[k] / attempts[k] == pytest.approx(measured, abs=0.01), f"press {k + 1}"
    assert 2.4 <= 100_000 / firings <= 2.6
    # Field notes: mean ≈ 5 cards per firing, ≈ 7.2 on the forced 5th press.
    assert cards / firings == pytest.approx(5.0, abs=0.3)
    assert sum(forced_cards) / len(forced_cards) == pytest.approx(7.5, abs=0.4)


def test_fixed_profile_always_fires_n():
    launcher = FiringModel(fixed_profile(3), magazine=30, low_warning=20, rng=random.Random(1))
    assert [launcher.press().cards for _ in range(4)] == [3, 3, 3, 3]
    assert launcher.magazine == 18 and launcher.low


def test_gentle_never_more_than_four_cards():
    launcher = FiringModel(GENTLE, magazine=10**6, low_warning=0, rng=random.Random(5))
    assert max(launcher.press().cards for _ in range(5000)) <= 4


def test_suspense_rises_with_chance():
    launcher = FiringModel(AUTHENTIC, magazine=100, low_warning=0, rng=random.Random(0))
    assert launcher.suspense() == pytest.approx(0.18)
    launcher.presses_since_fire = 4
    assert launcher.suspense() == 1.0


@given(st.integers(0, 200), st.lists(st.booleans(), max_size=200), st.integers())
def test_magazine_never_negative(start, actions, seed):
    launcher = FiringModel(AUTHENTIC, magazine=start, low_warning=20, rng=random.Random(seed))
    for reload in actions:
        if reload:
            launcher.reload(start)
        else:
            result = launcher.press()
            assert 0 <= result.cards <= result.wanted
        assert launcher.magazine >= 0
