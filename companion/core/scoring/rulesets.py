"""Rulesets as data: the card kinds of a deck, what each is worth and how many the deck holds.

Every built-in ruleset cites the rule book it follows (files in ``/work/shared/rules``, see
``docs/scoring.md``). Number cards are one kind per face value (``n0`` … ``n9``) so a hand can be
tapped in card by card and checked against the deck. UNO Flip cards have two faces: each kind says
which ``side`` it is on, and a hand is counted on the side the round ended on (000 §XI.G).

A house ruleset comes with the game file that carries it; :meth:`Ruleset.validate` refuses a
deck that makes no sense.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from companion.core.limits import MAX_LABEL, MAX_NOTES
from companion.core.scoring.errors import ScoringError

KEY_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
NO_SIDE = ""  # the single side of an ordinary deck
MAX_KINDS = 200
MAX_VALUE = 1000
MAX_COUNT = 1000


@dataclass(frozen=True)
class CardKind:
    """One kind of card: ``count`` copies in the deck, each worth ``value`` points.

    ``number`` is the face value of a number card (None for action cards), so the keypad can lay
    number cards out by value. ``draws`` is how many cards the next player draws when this is the
    last card of a round (000 §VI: those cards still count), for the page's reminder.
    """

    key: str
    label_fr: str
    label_en: str
    value: int
    count: int
    side: str = NO_SIDE
    number: int | None = None
    draws: int = 0

    def label(self, lang: str) -> str:
        return self.label_fr if lang == "fr" else self.label_en

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "key": self.key,
            "label_fr": self.label_fr,
            "label_en": self.label_en,
            "value": self.value,
            "count": self.count,
        }
        if self.side:
            data["side"] = self.side
        if self.number is not None:
            data["number"] = self.number
        if self.draws:
            data["draws"] = self.draws
        return data


@dataclass(frozen=True)
class Ruleset:
    """A deck and its scoring: ``kinds`` in keypad order, ``sides`` (one, or light/dark for Flip).

    ``source`` cites the rule text the values come from; ``notes`` says, in English, any choice
    made where texts disagree or say nothing.
    """

    key: str
    name_fr: str
    name_en: str
    source: str
    kinds: tuple[CardKind, ...]
    sides: tuple[str, ...] = (NO_SIDE,)
    notes: str = ""
    builtin: bool = field(default=False, compare=False)  # provenance, not content

    def name(self, lang: str) -> str:
        return self.name_fr if lang == "fr" else self.name_en

    def kind(self, key: str) -> CardKind | None:
        for kind in self.kinds:
            if kind.key == key:
                return kind
        return None

    def kinds_on(self, side: str) -> tuple[CardKind, ...]:
        return tuple(k for k in self.kinds if k.side == side)

    def deck_size(self, side: str | None = None) -> int:
        """Cards in the deck (for Flip, counted on one side: each card has both faces)."""
        side = self.sides[0] if side is None else side
        return sum(k.count for k in self.kinds_on(side))

    def deck_points(self, side: str) -> int:
        """What the whole deck is worth on ``side``: no hand can be worth more."""
        worth = self._deck_points.get(side)
        return sum(k.count * k.value for k in self.kinds_on(side)) if worth is None else worth

    @cached_property
    def _deck_points(self) -> dict[str, int]:
        # Asked for every hand of every round replayed: worked out once per ruleset.
        return {side: sum(k.count * k.value for k in self.kinds_on(side)) for side in self.sides}

    @property
    def default_side(self) -> str:
        return self.sides[0]

    def validate(self) -> Ruleset:
        """Raise :class:`ScoringError` if the ruleset cannot be played; return it otherwise."""
        if not KEY_PATTERN.match(self.key):
            raise ScoringError("ruleset_bad_key", key=self.key)
        if not self.kinds:
            raise ScoringError("ruleset_empty", ruleset=self.key)
        if len(self.kinds) > MAX_KINDS:
            raise ScoringError(
                "ruleset_bad_kind", ruleset=self.key, kind="*", problem="too many card kinds"
            )
        if not self.sides or len(set(self.sides)) != len(self.sides):
            raise ScoringError(
                "ruleset_bad_kind", ruleset=self.key, kind="*", problem="sides must be distinct"
            )
        seen: set[str] = set()
        for kind in self.kinds:
            if kind.key in seen:
                raise ScoringError("ruleset_duplicate_kind", ruleset=self.key, kind=kind.key)
            seen.add(kind.key)
            problem = _kind_problem(kind)
            if problem:
                raise ScoringError(
                    "ruleset_bad_kind", ruleset=self.key, kind=kind.key, problem=problem
                )
            if kind.side not in self.sides:
                raise ScoringError(
                    "ruleset_bad_side",
                    ruleset=self.key,
                    kind=kind.key,
                    side=kind.side,
                    sides=", ".join(repr(s) for s in self.sides),
                )
        return self

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name_fr": self.name_fr,
            "name_en": self.name_en,
            "source": self.source,
            "sides": list(self.sides),
            "notes": self.notes,
            "kinds": [k.to_dict() for k in self.kinds],
        }

    @classmethod
    def from_dict(cls, data: Any, where: str = "ruleset") -> Ruleset:
        """Build and validate a ruleset from JSON-like data; errors name the field at fault."""
        if not isinstance(data, Mapping):
            raise ScoringError("import_field", field=where, problem="must be an object")
        kinds_data = data.get("kinds")
        if not isinstance(kinds_data, list):
            raise ScoringError("import_field", field=f"{where}.kinds", problem="must be a list")
        sides = data.get("sides", [NO_SIDE])
        if not isinstance(sides, list) or not all(isinstance(s, str) for s in sides):
            raise ScoringError(
                "import_field", field=f"{where}.sides", problem="must be a list of names"
            )
        kinds = tuple(
            _kind_from_dict(item, f"{where}.kinds[{i}]") for i, item in enumerate(kinds_data)
        )
        ruleset = cls(
            key=_text(data, "key", where),
            name_fr=_text(data, "name_fr", where),
            name_en=_text(data, "name_en", where, default=None),
            source=_text(data, "source", where, default=""),
            kinds=kinds,
            sides=tuple(sides),
            notes=_text(data, "notes", where, default="", longest=MAX_NOTES),
        )
        return ruleset.validate()


def _kind_problem(kind: CardKind) -> str:
    if not KEY_PATTERN.match(kind.key):
        return "key must be 1-40 letters, digits, '_' or '-'"
    if not kind.label_fr.strip() or not kind.label_en.strip():
        return "needs a French and an English label"
    for name, number, top in (
        ("value", kind.value, MAX_VALUE),
        ("count", kind.count, MAX_COUNT),
        ("draws", kind.draws, 100),
    ):
        if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= top:
            return f"{name} must be a whole number from 0 to {top}"
    if kind.number is not None and (
        isinstance(kind.number, bool) or not isinstance(kind.number, int)
    ):
        return "number must be a whole number"
    return ""


def bounded_text(value: Any, field: str, longest: int) -> str:
    """``value`` when it is text of at most ``longest`` characters; else the error naming
    ``field``."""
    if not isinstance(value, str):
        raise ScoringError("import_field", field=field, problem="must be text")
    if len(value) > longest:
        raise ScoringError("import_too_long", field=field, longest=longest)
    return value


def _text(
    data: Mapping[str, Any],
    name: str,
    where: str,
    default: str | None = "\0",
    longest: int = MAX_LABEL,
) -> str:
    value = data.get(name)
    if value is None:
        if default == "\0":
            raise ScoringError("import_field", field=f"{where}.{name}", problem="is missing")
        if default is None:  # name_en falls back to the French name
            value = data.get("name_fr", "")
        else:
            return default
    return bounded_text(value, f"{where}.{name}", longest)


def _int(data: Mapping[str, Any], name: str, where: str, default: int | None = None) -> int:
    value = data.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScoringError(
            "import_field", field=f"{where}.{name}", problem="must be a whole number"
        )
    return value


def _kind_from_dict(data: Any, where: str) -> CardKind:
    if not isinstance(data, Mapping):
        raise ScoringError("import_field", field=where, problem="must be an object")
    number = data.get("number")
    if number is not None and (isinstance(number, bool) or not isinstance(number, int)):
        raise ScoringError("import_field", field=f"{where}.number", problem="must be a number")
    return CardKind(
        key=_text(data, "key", where),
        label_fr=_text(data, "label_fr", where),
        label_en=_text(data, "label_en", where),
        value=_int(data, "value", where),
        count=_int(data, "count", where),
        side=_text(data, "side", where, default=NO_SIDE),
        number=number,
        draws=_int(data, "draws", where, default=0),
    )


# ---------------------------------------------------------------------------------------------
# Built-in rulesets


def _numbers(
    low: int, high: int, per_value: int, zeros: int = 0, side: str = NO_SIDE, prefix: str = "n"
) -> tuple[CardKind, ...]:
    kinds = []
    if zeros:
        kinds.append(CardKind(f"{prefix}0", "0", "0", 0, zeros, side, number=0))
    for face in range(low, high + 1):
        kinds.append(CardKind(f"{prefix}{face}", str(face), str(face), face, per_value, side, face))
    return tuple(kinds)


def _classic_actions(wild_draw4_value: int, wilds: int = 4) -> tuple[CardKind, ...]:
    return (
        CardKind("draw2", "+2", "Draw Two", 20, 8, draws=2),
        CardKind("reverse", "Inversion", "Reverse", 20, 8),
        CardKind("skip", "Passer", "Skip", 20, 8),
        CardKind("wild", "Joker", "Wild", 50, wilds),
        CardKind("wild_draw4", "Super Joker (+4)", "Wild Draw Four", wild_draw4_value, 4, draws=4),
    )


def classic() -> Ruleset:
    return Ruleset(
        key="classic",
        name_fr="UNO classique",
        name_en="Classic UNO",
        source="000 §I (deck), §VII (values)",
        kinds=_numbers(1, 9, 8, zeros=4) + _classic_actions(50),
        notes="Official Mattel text. Wild Draw Four (Super Joker) is worth 50.",
        builtin=True,
    )


def old_sheet() -> Ruleset:
    return Ruleset(
        key="old_sheet",
        name_fr="Ancienne règle (001)",
        name_en="Older rule sheet (001)",
        source="001 'La marque' (values), 'Le jeu comporte 108 cartes' (deck)",
        kinds=(
            *_numbers(1, 9, 8, zeros=4),
            CardKind("draw2", "Piocher deux cartes", "Draw Two", 20, 8, draws=2),
            CardKind("reverse", "Inverser", "Reverse", 20, 8),
            CardKind("skip", "Passer son tour", "Skip", 20, 8),
            CardKind("wild", "Passe-partout", "Wild", 50, 4),
            CardKind("wild_draw4", "Passe-partout +4", "Wild Draw Four", 70, 4, draws=4),
        ),
        notes="The older French-Canadian sheet: Wild Draw Four is worth 70 there (50 in 000).",
        builtin=True,
    )


def extreme() -> Ruleset:
    return Ruleset(
        key="extreme",
        name_fr="UNO Extrême",
        name_en="UNO Extreme",
        source="000 §X (deck changes), §X.D (values)",
        kinds=(
            *_numbers(1, 9, 8),
            CardKind("hit2", "Appuyer 2x", "Hit 2", 20, 8),
            CardKind("reverse", "Inversion", "Reverse", 20, 8),
            CardKind("skip", "Passer", "Skip", 20, 8),
            CardKind("discard_all", "Poser tout", "Discard All", 30, 8),
            CardKind("wild", "Joker", "Wild", 50, 4),
            CardKind("coup_extreme", "Coup Extrême", "Extreme Hit", 50, 4),
            CardKind("draw2", "+2", "Draw Two", 20, 0, draws=2),
            CardKind("wild_draw4", "Super Joker (+4)", "Wild Draw Four", 50, 0, draws=4),
        ),
        notes=(
            "No 0 cards, no +2 and no Super Joker in this deck (000 §X), although the §X.D table "
            "still lists +2 (20) and Super Joker (50): they are kept with count 0, so a hand "
            "holding one is refused. Playing Extrême rules with a classic deck ('any_deck'): use "
            "the classic ruleset, whose values are the same. 000 gives no counts for the action "
            "cards: 8 of each coloured action and 4 of each wild make the 112-card box."
        ),
        builtin=True,
    )


def flip() -> Ruleset:
    light, dark = "light", "dark"
    return Ruleset(
        key="flip",
        name_fr="UNO Flip",
        name_en="UNO Flip",
        source="000 §XI.A (deck), §XI.G (values)",
        kinds=(
            *_numbers(1, 9, 8, side=light),
            CardKind("draw1", "+1", "Draw One", 10, 8, light, draws=1),
            CardKind("reverse", "Inversion", "Reverse", 20, 8, light),
            CardKind("skip", "Passer", "Skip", 20, 8, light),
            CardKind("flip", "Flip", "Flip", 20, 8, light),
            CardKind("wild", "Carte blanche", "Wild", 40, 4, light),
            CardKind("wild_draw2", "Carte blanche +2", "Wild Draw Two", 50, 4, light, draws=2),
            *_numbers(1, 9, 8, side=dark, prefix="dark_n"),
            CardKind("draw5", "+5", "Draw Five", 20, 8, dark, draws=5),
            CardKind("dark_reverse", "Inversion", "Reverse", 20, 8, dark),
            CardKind("skip_everyone", "Passer tous un tour", "Skip Everyone", 30, 8, dark),
            CardKind("dark_flip", "Flip", "Flip", 20, 8, dark),
            CardKind("dark_wild", "Carte blanche", "Wild", 40, 4, dark),
            CardKind(
                "wild_draw_colour",
                "Carte blanche Piger une couleur",
                "Wild Draw Colour",
                60,
                4,
                dark,
            ),
        ),
        sides=(light, dark),
        notes=(
            "112 double-sided cards; a hand counts on the side the round ended on (000 §XI.B, "
            "§XI.G). The §XI.A table says '8 par couleur' for action cards but the 112 total "
            "needs 8 in all (2 per colour)."
        ),
        builtin=True,
    )


def toy_story() -> Ruleset:
    return Ruleset(
        key="toy_story",
        name_fr="UNO Toy Story 3",
        name_en="UNO Toy Story 3",
        source="002 'Contenu' (deck), 'Pointage' (values)",
        kinds=_numbers(1, 9, 8, zeros=4)
        + _classic_actions(50)
        + (CardKind("lotso", "Lotso", "Lotso", 50, 4),),
        notes="112 cards: the classic deck plus 4 Lotso cards worth 50.",
        builtin=True,
    )


def emoji() -> Ruleset:
    return Ruleset(
        key="emoji",
        name_fr="UNO Emoji",
        name_en="UNO Emoji",
        source="004 'Contenu' (deck), 'Pointage' (values)",
        kinds=_numbers(1, 9, 8, zeros=4)
        + _classic_actions(50, wilds=2)
        + (
            CardKind("custom", "Carte à personnaliser", "Customisable card", 50, 2),
            CardKind("emoji", "Carte Emoji", "Emoji card", 50, 4),
        ),
        notes="112 cards: only 2 plain wilds, plus 2 customisable and 4 Emoji cards, all 50.",
        builtin=True,
    )


def builtin_rulesets() -> tuple[Ruleset, ...]:
    """Every built-in ruleset, in the order the page lists them."""
    return (classic(), old_sheet(), extreme(), flip(), toy_story(), emoji())


def builtin_ruleset(key: str) -> Ruleset:
    for ruleset in builtin_rulesets():
        if ruleset.key == key:
            return ruleset
    raise ScoringError("ruleset_unknown", ruleset=key)


def find_ruleset(key: str, custom: Iterable[Ruleset] = ()) -> Ruleset:
    """A built-in ruleset or one of ``custom`` by key."""
    for ruleset in custom:
        if ruleset.key == key:
            return ruleset
    return builtin_ruleset(key)
