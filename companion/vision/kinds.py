"""The cards a camera can tell apart, named as the script language names them, and the rules prior.

A read is a kind (``"7"``, ``"reverse"``, ``"draw4"`` …) and a colour (``"red"`` … or ``""`` for a
card that has none until its player names one). The prior is the rule every play obeys: the new
top card matches the one below in colour or in kind, or it is a wild; after a wild anything may
follow (the camera cannot hear the colour named).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.core.events import COLOURS, WILD_KINDS
from companion.core.script import CARD_ALIASES, COLOUR_ALIASES

NUMBERS = tuple(str(n) for n in range(10))
# The faces of each deck the reader knows (the Extrême deck has no 0, 000 §X).
EXTREME_KINDS = (
    *NUMBERS[1:],
    "reverse",
    "skip",
    "hit2",
    "discard_all",
    "wild",
    "coup_extreme",
)
CLASSIC_KINDS = (*NUMBERS, "reverse", "skip", "draw2", "wild", "draw4")
KINDS: tuple[str, ...] = (*NUMBERS, "reverse", "skip", "hit2", "discard_all", "draw2")
KINDS += ("wild", "coup_extreme", "draw4")
# Cards with no colour of their own (black, four-colour face).
COLOURLESS = frozenset(k for k in KINDS if k in WILD_KINDS)
CARD_COLOURS: tuple[str, ...] = COLOURS
# Names a labels file may use besides the script's own (French, symbols).
_KIND_ALIASES = {**CARD_ALIASES, "wild_draw4": "draw4", "+2": "draw2", "+4": "draw4"}


@dataclass(frozen=True)
class Card:
    """One card face: its kind and its colour (``""`` for a wild)."""

    kind: str
    colour: str

    def __str__(self) -> str:
        return f"{self.kind} {self.colour}".strip()


def faces(kinds: tuple[str, ...] = KINDS) -> tuple[Card, ...]:
    """Every distinct face of ``kinds``: each coloured kind in the four colours, wilds once."""
    found: list[Card] = []
    for kind in kinds:
        if kind in COLOURLESS:
            found.append(Card(kind, ""))
        else:
            found += [Card(kind, colour) for colour in CARD_COLOURS]
    return tuple(found)


def deck_faces(deck: str) -> tuple[Card, ...]:
    """The faces of the ``extreme`` or ``classic`` deck."""
    return faces(EXTREME_KINDS if deck == "extreme" else CLASSIC_KINDS)


def parse_card(kind: str, colour: str) -> Card:
    """A card from a labels line (script names, French or English); ValueError names the fault."""
    key = kind.strip().casefold()
    key = key if key in NUMBERS else _KIND_ALIASES.get(key, key)
    if key not in KINDS:
        raise ValueError(f"unknown card kind {kind!r} (one of {', '.join(KINDS)})")
    name = colour.strip().casefold()
    if key in COLOURLESS:
        return Card(key, "")
    found = COLOUR_ALIASES.get(name, "")
    if found not in CARD_COLOURS:
        raise ValueError(f"card {key!r} needs a colour (red, yellow, green, blue), got {colour!r}")
    return Card(key, found)


def may_follow(previous: Card | None, new: Card) -> bool:
    """Whether ``new`` may be played on ``previous`` (unknown previous: anything may)."""
    if previous is None or new.kind in COLOURLESS or previous.kind in COLOURLESS:
        return True
    return new.colour == previous.colour or new.kind == previous.kind


# An impossible read keeps this share of its probability: it can still win when nothing else
# fits (a missed play), but it is never sure.
PRIOR_PENALTY = 0.05


def rank(
    kinds: Mapping[str, float],
    colours: Mapping[str, float],
    previous: Card | None,
    unassigned: float = 0.0,
) -> tuple[tuple[tuple[Card, float], ...], bool]:
    """The four likeliest faces, with their probabilities (a kind's times a colour's, ``"black"``
    for the wilds), weighed by the rules prior; and whether the rules allow the best. What is
    ``unassigned`` (no card of this deck) stays out of every face."""
    cards = [
        (Card(kind, ""), p * colours["black"])
        if kind in COLOURLESS
        else (Card(kind, colour), p * colours[colour])
        for kind, p in kinds.items()
        for colour in (("",) if kind in COLOURLESS else CARD_COLOURS)
    ]
    weighed = [(c, p if may_follow(previous, c) else p * PRIOR_PENALTY) for c, p in cards]
    total = max(sum(p for _, p in weighed) + unassigned, 1e-12)
    ranked = sorted(((c, p / total) for c, p in weighed), key=lambda cp: -cp[1])[:4]
    return tuple(ranked), may_follow(previous, ranked[0][0])
