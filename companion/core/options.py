"""The options the table engine runs with, as plain frozen data.

The engine takes a :class:`RulesOptions` and a :class:`LauncherOptions`; reading them from the
configuration file is :mod:`companion.config`'s job (it builds these same classes), so the core
reads no file. Each field is declared once (:func:`companion.core.model.option`): what a value may
be (``choices``, ``min``/``max``) and what it means (``help``). The configuration file, the page's
house-rules editor, the ``table.rules`` action and :func:`rules_schema` all read that declaration.

Rules options are also the table's house rules: the engine keeps a copy in its state, the page
can change it (:class:`companion.core.events.SetRules`) and it is saved with the table.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from .model import json_schema, option
from .payload import validate_payload

# Decks the table can be played with; the keys are those of the scoring rulesets
# (:mod:`companion.core.scoring.rulesets`), which hold each deck's card counts.
DECKS = ("extreme", "classic", "old_sheet", "flip", "toy_story", "emoji")
# Who presses for the customisable card of UNO Emoji (004): a house rule.
CUSTOM_CARD_TARGETS = ("nobody", "next", "player", "others")


def _presses(default: int, help: str) -> Any:
    return option(default, help, min=0, max=10)


@dataclass(frozen=True)
class RulesOptions:
    """How the table plays: the deck, the readings where texts differ, the house rules.

    Rule book 000 (official UNO Extrême, section X) unless said otherwise (docs/rules.md). The
    file's values are the table's defaults; the phone page's house-rules editor changes them
    for one table."""

    deck: str = option(
        "extreme",
        "the deck on the table: extreme (000 §X), classic (000), old_sheet (001), flip (000 §XI), "
        "toy_story (002) or emoji (004); the launcher replaces the draw pile with any of them",
        choices=DECKS,
    )
    two_player_rules: bool = option(
        True,
        "000 §X.H: with two players Inversion acts as Passer, Passer and Appuyer 2x give "
        "the turn back",
    )
    contre_uno_presses: int = _presses(2, "presses owed for a forgotten UNO (000 §X.B: 2)")
    suggestion_presses: int = _presses(
        4, "presses owed for suggesting a play to another player (000 §X.G: 4)"
    )
    wild_all_hit: bool = option(False, "UNO Attack: Wild All Hit, each other player presses once")
    hit_fire: bool = option(False, "UNO Attack: Wild Hit-Fire, next player presses until it fires")
    stacking: bool = option(
        False, "003 'Riposte': an owed press can be passed on by playing another press card"
    )
    stacking_mix: bool = option(
        False,
        "house rule: a Riposte may answer a +2 with a +4 and the other way round (003 forbids it)",
    )
    any_deck: bool = option(
        False, "play Extrême with a classic deck: +2 and +4 become 2 and 4 presses"
    )
    coup_extreme_resume: str = option(
        "next",
        "000 §X Coup Extrême: play goes on with the player after the attacker ('next', the "
        "rule's sentence) or the one after that ('second', the rule's parenthesis)",
        choices=("next", "second"),
    )
    uno_reminder: bool = option(True, "remind a player whose hand is estimated at one card")
    contre_uno_grace: int = option(
        3,
        "seconds the phones leave a player to say UNO before offering Contre-UNO plainly: 000 "
        "§VI asks for UNO 'immédiatement' and allows Contre-UNO until the next player plays (a "
        "short grace, 3); 001 wants it said before the card touches the pile (0)",
        min=0,
        max=30,
    )
    challenge: bool = option(
        False,
        "the player hit by a +4 (a Wild Draw Two or Draw Colour in Flip) may challenge it "
        "(000 §XI.E, 001 'Pénalisations', 002, 004)",
    )
    challenge_guilty: str = option(
        "instead",
        "a guilty player presses the penalty 'instead' of the victim (000 §XI.E, 002, 004), "
        "'replay': takes the card back and plays another (001), 'plus_two': presses 2 more (003)",
        choices=("instead", "replay", "plus_two"),
    )
    challenge_presses: int = _presses(
        2, "extra presses for a challenger who was wrong (000 §XI.E, 001, 002, 004: 2)"
    )
    lotso_presses: int = _presses(3, "Toy Story 3 Lotso: presses for each player lacking (002: 3)")
    mimic_presses: int = _presses(4, "Emoji: presses for breaking the mimic (004: 4)")
    custom_card_presses: int = _presses(
        0, "Emoji customisable card: presses it costs (a house rule, 004)"
    )
    custom_card_to: str = option(
        "next",
        "Emoji customisable card: who presses (next player, the player who played it, every "
        "other player, or nobody)",
        choices=CUSTOM_CARD_TARGETS,
    )
    custom_card_skip: bool = option(
        False, "Emoji customisable card: the next player also loses their turn"
    )
    seven_swap: bool = option(
        False, "003 0/7 variant: a 7 swaps hands with a chosen player (the hand estimates follow)"
    )
    zero_pass: bool = option(
        False, "003 0/7 variant: a 0 passes every hand to the next player in the play direction"
    )


@dataclass(frozen=True)
class ProfileOptions:
    """An ejection profile: when the launcher fires and how many cards it throws."""

    fire_chance: list[float] = option(
        [0.18, 0.50, 0.59, 0.55, 1.0],
        "chance to fire on the k-th press since the last firing; the last entry repeats",
    )
    cards: list[int] = option(
        [1, 3, 0, 3, 0, 3],
        "cards per firing: (low, high) pairs of uniform draws, summed (authentic: 1-3, 0-3, 0-3)",
    )
    forced_extra: list[int] = option(
        [0, 5], "extra (low, high) cards added when the firing was forced by the last chance 1.0"
    )


@dataclass(frozen=True)
class LauncherOptions:
    """The card launcher as the table models it: its profile and its magazine."""

    profile: str = option(
        "authentic", "ejection profile: authentic, gentle, fixed or a custom name"
    )
    magazine: int = option(
        0,
        "cards loaded at each deal (0: what is left of the deck after dealing, 000 §X.A)",
        min=0,
        max=200,
    )
    low_warning: int = option(20, "warn to reload below this many cards", min=0, max=200)
    fixed_cards: int = option(2, "cards per press for the 'fixed' profile", min=0, max=13)
    profiles: dict[str, ProfileOptions] = option(
        {},
        "a custom profile: chance to fire on the 1st, 2nd... press since the last firing (the "
        "last entry repeats), cards per firing as (low, high) uniform draws summed, extra cards "
        "on a forced firing",
        example={
            "party": ProfileOptions(
                fire_chance=[0.3, 0.6, 1.0], cards=[1, 4, 0, 2], forced_extra=[0, 3]
            )
        },
    )


def rules_schema() -> dict[str, Any]:
    """The JSON schema of a house-rules change: any subset of the rules options."""
    return json_schema(RulesOptions)


# What the page's house-rules editor reads of each rule.
_EDITOR_KEYS = ("type", "enum", "minimum", "maximum")


def rules_fields() -> list[dict[str, Any]]:
    """Each rules option with its default and help, for the page's house-rules editor."""
    schema = rules_schema()["properties"]
    return [
        {
            "name": f.name,
            "default": f.default,
            "help": f.metadata["help"],
            **{k: v for k, v in schema[f.name].items() if k in _EDITOR_KEYS},
        }
        for f in fields(RulesOptions)
    ]


def with_changes(rules: RulesOptions, changes: Mapping[str, Any]) -> RulesOptions:
    """``rules`` with ``changes`` applied, each checked against the field's declaration."""
    return replace(rules, **validate_payload(_checked_schema(), dict(changes)))


@functools.cache
def _checked_schema() -> dict[str, Any]:
    """:func:`rules_schema`, built once for :func:`with_changes` (which only reads it)."""
    return rules_schema()
