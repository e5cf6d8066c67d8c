"""The options the table engine runs with, as plain frozen data.

The engine takes a :class:`RulesOptions` and a :class:`LauncherOptions`; reading them from the
configuration file is :mod:`companion.config`'s job (it builds these same classes), so the core
reads no file. Each field's metadata says what a value may be (``choices``, ``min``/``max``) and
what it means (``help``): the configuration file, the page's house-rules editor and
:func:`rules_schema` all check a value against it.

Rules options are also the table's house rules: the engine keeps a copy in its state, the page
can change it (:class:`companion.core.events.SetRules`) and it is saved with the table.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from .errors import ActionError

# Decks the table can be played with; the keys are those of the scoring rulesets
# (:mod:`companion.core.scoring.rulesets`), which hold each deck's card counts.
DECKS = ("extreme", "classic", "old_sheet", "flip", "toy_story", "emoji")
# Who presses for the customisable card of UNO Emoji (004): a house rule.
CUSTOM_CARD_TARGETS = ("nobody", "next", "player", "others")


def option(default: Any, help: str, **rules: Any) -> Any:
    """A field with its documentation and validation rules."""
    meta = {"help": help, **rules}
    if isinstance(default, list | dict):
        return field(default_factory=lambda: type(default)(default), metadata=meta)
    return field(default=default, metadata=meta)


def _presses(default: int, help: str) -> Any:
    return option(default, help, min=0, max=10)


@dataclass(frozen=True)
class RulesOptions:
    """How the table plays: the deck, the readings where texts differ, the house rules."""

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
    profiles: dict[str, ProfileOptions] = option({}, "custom profiles, [launcher.profiles.NAME]")


_PY_TO_JSON = {bool: "boolean", int: "integer", str: "string"}


def rules_schema() -> dict[str, Any]:
    """The JSON schema of a house-rules change: any subset of the rules options."""
    hints = typing.get_type_hints(RulesOptions)
    props: dict[str, Any] = {}
    for f in fields(RulesOptions):
        prop: dict[str, Any] = {"type": _PY_TO_JSON[hints[f.name]]}
        if "choices" in f.metadata:
            prop["enum"] = list(f.metadata["choices"])
        if "min" in f.metadata:
            prop["minimum"] = f.metadata["min"]
            prop["maximum"] = f.metadata["max"]
        props[f.name] = prop
    return {"type": "object", "properties": props, "required": [], "additionalProperties": False}


def rules_fields() -> list[dict[str, Any]]:
    """Each rules option with its default and help, for the page's house-rules editor."""
    schema = rules_schema()["properties"]
    return [
        {"name": f.name, "default": f.default, "help": f.metadata["help"], **schema[f.name]}
        for f in fields(RulesOptions)
    ]


def with_changes(rules: RulesOptions, changes: Mapping[str, Any]) -> RulesOptions:
    """``rules`` with ``changes`` applied, each checked against the field's metadata."""
    hints = typing.get_type_hints(RulesOptions)
    known = {f.name: f for f in fields(RulesOptions)}
    for name, value in changes.items():
        f = known.get(name)
        if f is None:
            raise ActionError("unknown_field", f"unknown rule {name!r}", {"field": name[:40]})
        tp = hints[name]
        ok = isinstance(value, tp) and not (tp is int and isinstance(value, bool))
        meta = f.metadata
        if ok and "choices" in meta:
            ok = value in meta["choices"]
        if ok and "min" in meta:
            ok = meta["min"] <= value <= meta["max"]
        if not ok:
            raise ActionError(
                "bad_choice",
                f"rule {name!r} cannot be {value!r}",
                {"field": name, "choices": ", ".join(map(str, meta.get("choices", ())))},
            )
    return replace(rules, **dict(changes))
