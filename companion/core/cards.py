"""The card table: every card kind the engine knows, with its effect as data.

The engine reads this table to decide what a played or turned-up card does; the page reads it
from the API to draw its card buttons. A new deck is new entries here (plus the deck's counts in
:mod:`companion.core.scoring.rulesets`) and tests; special effects that are more than "owe N
presses" have a named ``effect`` the engine implements once.

Each entry cites the rule text it follows (``000`` … ``004``, see ``docs/rules.md``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

from .options import DECKS, RulesOptions

Side = Literal["", "light", "dark"]  # "" = any side (and every card of a one-sided deck)
# Who owes a card's presses: the next player, the chosen target, every other player.
PressesTo = Literal["", "next", "target", "others"]
# Presses that end on an event rather than a count: the launcher fired, the colour came out.
Until = Literal["", "fire", "colour"]
# What a turned-up first card does (000 §V, §X): nothing special, the first player is skipped,
# the dealer starts and play goes right, the first player presses, or it goes back in the deck.
StartRule = Literal["play", "skip", "reverse", "owe", "back"]
# Effects that need more than data: a target is chosen, the table answers a question...
Effect = Literal["", "coup_extreme", "lotso", "mimic", "custom", "discard_all", "flip"]

CLASSIC_DECKS = ("classic", "old_sheet", "toy_story", "emoji")
ALL_DECKS = DECKS
ONE_SIDED = tuple(d for d in DECKS if d != "flip")


@dataclass(frozen=True)
class CardRule:
    """One card kind and what it does at a table with the launcher.

    ``presses`` are owed by ``to`` (``until`` makes them open-ended: press until it fires, or
    until the named colour comes out); ``skip`` makes that next player lose the turn;
    ``player_presses`` are then made by whoever played the card, the launcher still on the
    target, the cards going to the target (Coup Extrême). ``stack`` names the family a
    Riposte (003) may answer with. ``option`` is the rules option that puts the card in the
    deck; ``decks`` the decks that hold it; ``side`` the Flip side it is on.
    """

    key: str
    label_fr: str
    label_en: str
    source: str
    decks: tuple[str, ...]
    presses: int = 0
    to: PressesTo = ""
    until: Until = ""
    skip: bool = False
    skip_all: bool = False
    reverse: bool = False
    colour: bool = False
    target: bool = False
    player_presses: int = 0
    start: StartRule = "play"
    option: str = ""
    side: Side = ""
    stack: str = ""
    challenge: bool = False
    effect: Effect = ""

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["decks"] = list(self.decks)
        return data


def owed_by_next(
    key: str,
    label_fr: str,
    label_en: str,
    source: str,
    decks: tuple[str, ...],
    presses: int,
    **rule: Any,
) -> CardRule:
    """A card whose ``presses`` the next player owes, losing the turn: the shape of the +2,
    +4, Appuyer 2x and their kin (000 §V, §X, §XI.E)."""
    return CardRule(key, label_fr, label_en, source, decks, presses, to="next", skip=True, **rule)


CARD_TABLE: tuple[CardRule, ...] = (
    CardRule("number", "Chiffre", "Number", "000 §IV", ALL_DECKS),
    CardRule(
        "reverse",
        "Inversion",
        "Reverse",
        "000 §V Inversion",
        ALL_DECKS,
        reverse=True,
        start="reverse",
    ),
    CardRule(
        "skip",
        "Passer",
        "Skip",
        "000 §V Passer",
        ALL_DECKS,
        skip=True,
        start="skip",
        side="light",
    ),
    owed_by_next(
        "hit2",
        "Appuyer 2x",
        "Hit 2",
        "000 §X Appuyer 2 fois",
        ("extreme",),
        2,
        start="owe",
        stack="two",
    ),
    CardRule(
        "discard_all",
        "Poser tout",
        "Discard All",
        "000 §X Poser Tout",
        ("extreme",),
        effect="discard_all",
    ),
    CardRule("wild", "Joker", "Wild", "000 §V Joker", ALL_DECKS, colour=True),
    CardRule(
        "coup_extreme",
        "Coup Extrême",
        "Extreme Hit",
        "000 §X Coup Extrême",
        ("extreme",),
        presses=1,
        to="target",
        colour=True,
        target=True,
        player_presses=2,
        start="back",
        effect="coup_extreme",
    ),
    CardRule(
        "wild_all_hit",
        "Joker Tous appuient",
        "Wild All Hit",
        "UNO Attack (Mattel manual)",
        ("extreme",),
        presses=1,
        to="others",
        colour=True,
        start="back",
        option="wild_all_hit",
    ),
    owed_by_next(
        "wild_hit_fire",
        "Joker Appuie jusqu'au tir",
        "Wild Hit-Fire",
        "UNO Attack (Mattel manual)",
        ("extreme",),
        1,
        until="fire",
        colour=True,
        start="back",
        option="hit_fire",
    ),
    owed_by_next(
        "draw2",
        "+2",
        "Draw Two",
        "000 §V Carte +2, §X",
        (*CLASSIC_DECKS, "extreme"),
        2,
        start="owe",
        stack="two",
        option="any_deck",
    ),
    owed_by_next(
        "draw4",
        "Super Joker +4",
        "Wild Draw Four",
        "000 §V Super Joker, §X",
        (*CLASSIC_DECKS, "extreme"),
        4,
        colour=True,
        start="back",
        stack="four",
        option="any_deck",
        challenge=True,
    ),
    # UNO Flip (000 §XI.E): light side.
    owed_by_next(
        "draw1",
        "+1",
        "Draw One",
        "000 §XI.E Carte +1",
        ("flip",),
        1,
        start="owe",
        side="light",
        stack="one",
    ),
    owed_by_next(
        "wild_draw2",
        "Carte blanche +2",
        "Wild Draw Two",
        "000 §XI.E Carte blanche +2",
        ("flip",),
        2,
        colour=True,
        start="back",
        side="light",
        stack="two",
        challenge=True,
    ),
    CardRule(
        "flip",
        "Flip",
        "Flip",
        "000 §XI.E Carte Flip",
        ("flip",),
        effect="flip",
    ),
    # UNO Flip: dark side (never a start card: the deck starts light side up, 000 §XI.C).
    owed_by_next(
        "draw5",
        "+5",
        "Draw Five",
        "000 §XI.E Carte +5",
        ("flip",),
        5,
        side="dark",
        stack="five",
    ),
    CardRule(
        "skip_everyone",
        "Passer tous un tour",
        "Skip Everyone",
        "000 §XI.E Carte Passer tous un tour",
        ("flip",),
        skip_all=True,
        side="dark",
    ),
    owed_by_next(
        "wild_draw_colour",
        "Carte blanche Piger une couleur",
        "Wild Draw Colour",
        "000 §XI.E Carte blanche Piger une couleur",
        ("flip",),
        1,
        until="colour",
        colour=True,
        side="dark",
        challenge=True,
    ),
    # UNO Toy Story 3 (002).
    CardRule(
        "lotso",
        "Lotso",
        "Lotso",
        "002 Carte Lotso",
        ("toy_story",),
        colour=True,
        effect="lotso",
    ),
    # UNO Emoji (004).
    CardRule(
        "emoji",
        "Carte Emoji",
        "Emoji card",
        "004 Carte Emoji",
        ("emoji",),
        colour=True,
        effect="mimic",
    ),
    CardRule(
        "custom",
        "Carte à personnaliser",
        "Customisable card",
        "004 Carte à personnaliser",
        ("emoji",),
        colour=True,
        effect="custom",
    ),
)

CARDS: dict[str, CardRule] = {c.key: c for c in CARD_TABLE}
CARD_KINDS: tuple[str, ...] = tuple(CARDS)
# Cards after which the player names a colour.
WILD_KINDS = frozenset(c.key for c in CARD_TABLE if c.colour)


def in_deck(card: CardRule, rules: RulesOptions) -> bool:
    """Whether ``card`` is in the deck the table plays with. Extrême rules played with a classic
    deck (``any_deck``) hold the classic deck's cards: its +2 and +4 are the presses."""
    if rules.deck == "extreme" and rules.any_deck:
        return "classic" in card.decks
    if rules.deck not in card.decks:
        return False
    if card.option and rules.deck == "extreme":
        return bool(getattr(rules, card.option))
    return True


def deck_cards(rules: RulesOptions) -> tuple[CardRule, ...]:
    """Every card kind in the table's deck, in the table's order."""
    return tuple(c for c in CARD_TABLE if in_deck(c, rules))


def counted_deck(rules: RulesOptions) -> str:
    """The deck whose cards are in the players' hands: the ruleset that counts them at a round's
    end. Extrême rules played with a classic deck (``any_deck``) hold classic cards."""
    return "classic" if rules.deck == "extreme" and rules.any_deck else rules.deck


def lowest_number(rules: RulesOptions) -> int:
    """000 §X: the Extrême deck has no 0 (unless played with a classic deck, ``any_deck``)."""
    if rules.deck == "extreme" and not rules.any_deck:
        return 1
    if rules.deck == "flip":
        return 1  # 000 §XI.A: numbers 1 to 9 on both sides
    return 0


def card_table_data() -> list[dict[str, Any]]:
    """The whole table as JSON-ready data, for the page."""
    return [c.to_dict() for c in CARD_TABLE]
