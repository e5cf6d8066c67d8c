"""The firing model: the core's model of the real launcher (ejection profiles, the magazine,
the suspense level). The hardware that fires is ``companion.devices``' launcher.

The real UNO Extrême launcher indexes a disc with unevenly spaced detents; only some presses fire.
Measured on a real one (field notes, 800 presses): the chance to fire on the k-th press since the
last firing is about 0.18, 0.50, 0.59, 0.55 and it always fires by the 5th; about 5 cards come out
per firing, more on the forced 5th. :data:`AUTHENTIC` reproduces that.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .errors import ActionError
from .options import LauncherOptions


@dataclass(frozen=True)
class EjectionProfile:
    """How the launcher decides whether a press fires and how many cards come out.

    ``fire_chance[k-1]`` is the chance to fire on the k-th press since the last firing; the last
    entry repeats. ``cards`` is a list of (low, high) uniform draws that are summed for the number
    of cards per firing; ``forced_extra`` is one more draw added when the firing was certain
    (chance 1.0 after misses), the bigger burst of the real launcher's forced 5th press.
    """

    name: str
    fire_chance: tuple[float, ...]
    cards: tuple[tuple[int, int], ...]
    forced_extra: tuple[int, int] = (0, 0)

    def chance(self, press_number: int) -> float:
        """Chance to fire on press ``press_number`` (1-based) since the last firing."""
        index = min(press_number, len(self.fire_chance)) - 1
        return self.fire_chance[max(index, 0)]


AUTHENTIC = EjectionProfile(
    name="authentic",
    fire_chance=(0.18, 0.50, 0.59, 0.55, 1.0),
    cards=((1, 3), (0, 3), (0, 3)),  # the measured mod's rand(1..3)+rand(0..3)+rand(0..3)
    forced_extra=(0, 5),
)

# For young players: fires a little less often early on and never more than 4 cards.
GENTLE = EjectionProfile(
    name="gentle",
    fire_chance=(0.15, 0.35, 0.45, 0.55, 0.7, 1.0),
    cards=((1, 2), (0, 2)),
)


BUILTIN_PROFILES = ("authentic", "gentle", "fixed")  # a custom profile takes any other name


def fixed_profile(cards: int) -> EjectionProfile:
    """Fires on every press, always ``cards`` cards: for teaching the rules."""
    return EjectionProfile(name="fixed", fire_chance=(1.0,), cards=((cards, cards),))


@dataclass(frozen=True, slots=True)
class Firing:
    """What one press did: ``cards`` fired (0 = nothing), whether it was forced."""

    fired: bool
    cards: int
    forced: bool
    wanted: int  # cards the profile drew; more than ``cards`` when the magazine ran short


MISSED = Firing(fired=False, cards=0, forced=False, wanted=0)  # a press that fired nothing


class FiringModel:
    """The magazine and the press counter since the last firing.

    ``rng`` is injected so a whole session is reproducible from one seed.
    """

    def __init__(
        self, profile: EjectionProfile, magazine: int, low_warning: int, rng: random.Random
    ) -> None:
        self.profile = profile
        self.magazine = magazine
        self.low_warning = low_warning
        self.presses_since_fire = 0
        self._rng = rng
        self._outcomes: dict[tuple[int, bool, int], Firing] = {}

    def random_source(self) -> random.Random:
        """The random sequence the presses draw from: saved and put back with the table, so
        the presses after a restart are the ones that would have come (the real launcher's
        irregular disc does not forget its position either)."""
        return self._rng

    @property
    def low(self) -> bool:
        return self.magazine < self.low_warning

    @property
    def empty(self) -> bool:
        return self.magazine <= 0

    def next_chance(self) -> float:
        """Chance that the next press fires."""
        return self.profile.chance(self.presses_since_fire + 1)

    def suspense(self) -> float:
        """0..1: how close the launcher is to firing, for the suspense sound to follow."""
        return round(self.next_chance(), 3)

    def press(self) -> Firing:
        """One press of the button. Never takes the magazine below zero."""
        self.presses_since_fire += 1
        chance = self.profile.chance(self.presses_since_fire)
        # Draw even when certain so the random stream does not depend on the chance table.
        roll = self._rng.random()
        if roll >= chance:
            return MISSED
        forced = chance >= 1.0 and self.presses_since_fire > 1
        wanted = self._draw_cards(forced)
        self.presses_since_fire = 0
        cards = min(wanted, max(self.magazine, 0))
        self.magazine -= cards
        # One object per outcome: a round's log holds hundreds of presses and few outcomes.
        key = (cards, forced, wanted)
        firing = self._outcomes.get(key)
        if firing is None:
            firing = self._outcomes[key] = Firing(True, cards, forced, wanted)
        return firing

    def _draw_cards(self, forced: bool) -> int:
        wanted = sum(self._rng.randint(lo, hi) for lo, hi in self.profile.cards)
        if forced:
            lo, hi = self.profile.forced_extra
            wanted += self._rng.randint(lo, hi)
        return wanted

    def redraw(self, firing: Firing) -> None:
        """Draw again what the live press that gave ``firing`` drew, using none of it: a table
        put back from its log goes on with the random sequence where the live one was."""
        self._rng.random()
        if firing.fired:
            self._draw_cards(firing.forced)

    def replay(self, firing: Firing) -> None:
        """A press whose outcome is already known (the log's fact): counted, never re-rolled."""
        if firing.fired:
            self.presses_since_fire = 0
            self.magazine = max(0, self.magazine - firing.cards)
        else:
            self.presses_since_fire += 1

    def reload(self, cards: int) -> None:
        if not 0 <= cards <= 200:
            raise ActionError(
                "bad_reload", "a reload is 0 to 200 cards", {"cards": cards}, status=400
            )
        self.magazine = cards

    def correct(self, delta: int) -> None:
        """The card sensor saw ``delta`` more (or fewer) cards than the model fired."""
        self.magazine = max(0, self.magazine - delta)


def profile_from_options(options: LauncherOptions) -> EjectionProfile:
    """The ejection profile named by ``launcher.profile``."""
    if options.profile == "authentic":
        return AUTHENTIC
    if options.profile == "gentle":
        return GENTLE
    if options.profile == "fixed":
        return fixed_profile(options.fixed_cards)
    custom = options.profiles[options.profile]
    pairs = tuple(zip(custom.cards[::2], custom.cards[1::2], strict=True))
    extra = (custom.forced_extra[0], custom.forced_extra[1])
    return EjectionProfile(options.profile, tuple(custom.fire_chance), pairs, extra)
