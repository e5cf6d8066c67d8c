"""Counting a burst from its dark spells (:func:`companion.devices.sensor.count_burst`): the
exit pinch's fan slows a firing's later cards, so each spell is judged against the card
expected at that moment; a real double (one card plus an overlap, at the same speed) is
still two cards.
"""

from __future__ import annotations

import pytest

from companion.devices.config import CardSensorConfig, EjectorConfig
from companion.devices.ejector import fan_duty, passing_duties
from companion.devices.sensor import count_burst

BEAM = CardSensorConfig()  # 60 ms a card at full duty; a double past 1.5 cards
FIVE = passing_duties(EjectorConfig(), 5)
OVERLAP = 1.7  # a double: one card and 70 % of another, at the same speed

# Five-card firings of the feed's simulation (hardware/sim, MuJoCo, the default fan), in ms:
# each card's dark spell at the beam, stack by stack.
SIMULATED_FIVES = [
    [68.0, 71.0, 99.0, 110.5, 117.0],
    [59.5, 64.0, 73.5, 90.0, 97.0],
    [85.5, 102.5, 102.5, 120.0, 141.0],
    [65.5, 80.5, 104.5, 138.0, 127.5],
    [59.5, 66.0, 80.0, 109.0, 118.5],
    [64.5, 66.5, 77.5, 108.5, 102.5],
    [57.0, 75.0, 100.0, 130.0, 166.0],  # the range a user measured on the simulation
]
SIMULATED_TWOS = [[99.5, 120.0], [87.0, 96.0], [132.0, 145.5], [87.5, 117.5]]


def seconds(ms: list[float]) -> list[float]:
    return [m / 1000 for m in ms]


def test_the_duties_are_the_fan_steps_each_card_passes_at() -> None:
    fan = EjectorConfig().exit_fan
    # The duty steps down as soon as a card is in the beam: card k passes at step k + 1.
    assert pytest.approx([fan_duty(1.0, fan, k, 5) for k in (1, 2, 3, 4, 4)]) == FIVE
    assert passing_duties(EjectorConfig(), 1) == [1.0]
    assert passing_duties(EjectorConfig(exit_fan=0.0), 3) == [1.0, 1.0, 1.0]


@pytest.mark.parametrize("burst", SIMULATED_FIVES)
def test_a_burst_slowed_by_the_fan_is_five_single_cards(burst: list[float]) -> None:
    assert count_burst(seconds(burst), BEAM, FIVE) == [1, 1, 1, 1, 1]
    # One fixed limit (1.5 cards of 60 ms) took a slowed card for two.
    assert any(dark >= 90 for dark in burst)


@pytest.mark.parametrize("burst", SIMULATED_TWOS)
def test_a_two_card_burst_thrown_at_the_last_step_is_two_cards(burst: list[float]) -> None:
    assert count_burst(seconds(burst), BEAM, passing_duties(EjectorConfig(), 2)) == [1, 1]


@pytest.mark.parametrize("burst", SIMULATED_FIVES)
@pytest.mark.parametrize("at", range(1, 5))
def test_a_real_double_in_a_slowed_burst_is_two_cards(burst: list[float], at: int) -> None:
    darks = seconds(burst)
    darks[at] *= OVERLAP  # that card brought the next one with it, overlapping
    counts = count_burst(darks, BEAM, FIVE)
    assert counts[at] == 2
    assert counts[:at] + counts[at + 1 :] == [1] * 4  # the cards around it are still single


@pytest.mark.parametrize("cards", [1, 2, 5])
def test_a_double_first_is_judged_against_the_calibrated_card(cards: int) -> None:
    # The first spell has no card before it: card_pass_s at the duty it passes at.
    duties = passing_duties(EjectorConfig(), cards)
    first = 0.06 / duties[0]
    assert count_burst([first * OVERLAP], BEAM, duties) == [2]
    assert count_burst([first * 1.4], BEAM, duties) == [1]  # a slow card: still one


def test_a_double_at_full_speed_and_a_triple_are_counted() -> None:
    assert count_burst([0.06 * OVERLAP], BEAM) == [2]
    assert count_burst([0.06, 0.06 * 2.9, 0.06], BEAM) == [1, 3, 1]
    assert count_burst([0.06, 0.085], BEAM) == [1, 1]  # a little slow: one card
    assert count_burst([], BEAM) == []


def test_the_last_single_card_sets_the_pace_a_double_does_not() -> None:
    # With no fan the duty stays: a card as slow as the last single one is one card, one far
    # slower than it is two, even though both are under 1.5 x card_pass_s... and over it.
    assert count_burst([0.08, 0.11, 0.13], BEAM) == [1, 1, 1]
    assert count_burst([0.06, 0.06 * OVERLAP, 0.065], BEAM) == [1, 2, 1]
    # After a double, the next spell is judged against the last single card, not the double.
    assert count_burst([0.06, 0.2, 0.11], BEAM) == [1, 3, 2]


def test_a_card_is_never_expected_faster_than_card_pass_s_at_its_duty() -> None:
    # A short flicker before a card must not make the card after it look like a double.
    assert count_burst([0.01, 0.06], BEAM) == [1, 1]
    # A duty of 0 (the pinch stopped) does not make the expected time endless.
    assert count_burst([0.5], BEAM, [0.0]) == [1]
