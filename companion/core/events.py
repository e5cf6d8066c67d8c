"""Events: everything that can happen at the table, as the engine receives it.

A button edge, a tap on a phone and a line of a script all become one of these and are handled to
completion, one at a time, by :class:`companion.core.table.TableEngine`. Player fields take a name;
``None`` means "whoever the rules point at" (the player owing a press, else the active player).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .cards import CARD_KINDS as CARD_KINDS
from .cards import WILD_KINDS as WILD_KINDS

COLOURS = ("red", "yellow", "green", "blue")
# UNO Flip's dark side has its own four colours (000 §XI.A: rose, turquoise, orange, violet).
DARK_COLOURS = ("pink", "teal", "orange", "purple")
ALL_COLOURS = COLOURS + DARK_COLOURS
Colour = str  # one of ALL_COLOURS
# A card kind: a key of :data:`companion.core.cards.CARDS` (every kind and its effect).
CardKind = str
# Where an event came from: a phone's tap, a box button, a script line, the camera, or the box
# itself (its card sensor, its own start-up). Carried by every outcome and the round's log.
Source = Literal["phone", "button", "script", "camera", "box"]
SOURCES: tuple[Source, ...] = ("phone", "button", "script", "camera", "box")


@dataclass(frozen=True)
class Setup:
    """Seat the players (in order, going left) and name the dealer; starts a fresh round."""

    players: tuple[str, ...]
    dealer: str | None = None


@dataclass(frozen=True)
class StartRound:
    """Deal a new round. ``start_card`` is the card turned up to start the discard pile, if known
    (its effect applies, 000 §V and §X); ``dealer`` None rotates the deal to the left."""

    start_card: CardKind | None = None
    colour: Colour | None = None
    dealer: str | None = None
    value: int | None = None  # a number card's figure, if known


@dataclass(frozen=True)
class Press:
    """The launcher button was pressed (by ``player``, or by whoever the launcher faces)."""

    player: str | None = None


@dataclass(frozen=True)
class Play:
    """``player`` (default: the active player) played a card.

    ``target`` names the Coup Extrême victim; ``count`` is how many cards a Poser Tout laid down
    (the Poser Tout itself included) so the hand estimate stays right; ``value`` is a number card's
    figure.
    """

    card: CardKind
    colour: Colour | None = None
    player: str | None = None
    target: str | None = None
    count: int = 1
    value: int | None = None


@dataclass(frozen=True)
class CallUno:
    """``player`` said "UNO!" in time."""

    player: str


@dataclass(frozen=True)
class ContreUno:
    """Someone caught ``player`` who forgot to say UNO (Contre-UNO): 2 presses (000 §X.B)."""

    player: str


@dataclass(frozen=True)
class Suggestion:
    """``player`` suggested a play to someone else: 4 presses (000 §X.G)."""

    player: str


@dataclass(frozen=True)
class Reload:
    """The magazine was reshuffled and reloaded with ``cards`` cards (None: the configured load)."""

    cards: int | None = None


@dataclass(frozen=True)
class CardsSeen:
    """The card-exit sensor counted ``cards`` cards for the last firing (corrects the model).

    ``expected`` is how many the launcher was told to fire, so a report about another firing
    (a test fire from the page) is not taken for the last player's cards. ``doubles``: times two
    cards came out overlapping (counted as two each)."""

    cards: int
    expected: int | None = None
    doubles: int = 0


# What stopped a firing: "jam" (no card came out in time), "stuck" (a card sits in the launcher's
# mouth) or "empty" (no card came out and the magazine was nearly empty).
JamFault = Literal["jam", "stuck", "empty"]


@dataclass(frozen=True)
class Jam:
    """The card-exit sensor stopped a firing short: ``fault`` says why."""

    fault: JamFault = "jam"


@dataclass(frozen=True)
class SetHand:
    """Correct the estimate of ``player``'s hand to ``cards`` cards."""

    player: str
    cards: int


@dataclass(frozen=True)
class RoundWon:
    """``player`` laid their last card: the round is over."""

    player: str


@dataclass(frozen=True)
class Eliminate:
    """``player`` reached the target in a "Jeu défi" game and leaves the table (000 §X.I)."""

    player: str


@dataclass(frozen=True)
class Reinstate:
    """``player`` is back in the game (the score round that eliminated them was undone)."""

    player: str


@dataclass(frozen=True)
class Undo:
    """Take back the last change to the round's log: an event (a press too: the cards it fired
    go back in the count) or a correction."""


@dataclass(frozen=True)
class Redo:
    """Put back what the last :class:`Undo` took back, with the same cards fired."""


@dataclass(frozen=True)
class Replace:
    """Line ``seq`` of the round's log was wrong: it was ``event`` ("a reverse, not a skip").

    The table is recomputed from the log; a press stays what the launcher really did."""

    seq: int
    event: Event


@dataclass(frozen=True)
class Remove:
    """Line ``seq`` of the round's log did not happen (a double tap, a knocked button)."""

    seq: int


@dataclass(frozen=True)
class Insert:
    """``event`` happened before line ``before`` of the round's log ("Bruno played before Chloé
    pressed")."""

    before: int
    event: Event


@dataclass(frozen=True)
class Challenge:
    """The player hit by a +4 (Flip: Wild Draw Two, Wild Draw Colour) challenged it and the table
    saw the hand: ``guilty`` if the card was played with a card of the colour in hand."""

    guilty: bool


@dataclass(frozen=True)
class ColourCame:
    """A card of the colour asked by a Wild Draw Colour came out: the presses end (000 §XI.E)."""


@dataclass(frozen=True)
class Lacked:
    """The answer to a Lotso (002): the players who had no card of the colour (none: all had)."""

    players: tuple[str, ...] = ()


@dataclass(frozen=True)
class MimicBroken:
    """``player`` broke the Emoji face they had to keep until their next turn (004)."""

    player: str


@dataclass(frozen=True)
class Rename:
    """``player`` is called ``name`` from now on: same seat, hand and turn."""

    player: str
    name: str


@dataclass(frozen=True)
class SetRules:
    """Change the table's house rules: ``changes`` are (option, value) pairs."""

    changes: tuple[tuple[str, bool | int | str], ...]


Event = (
    Setup
    | StartRound
    | Press
    | Play
    | CallUno
    | ContreUno
    | Suggestion
    | Reload
    | CardsSeen
    | Jam
    | SetHand
    | RoundWon
    | Eliminate
    | Reinstate
    | Undo
    | Redo
    | Replace
    | Remove
    | Insert
    | Challenge
    | ColourCame
    | Lacked
    | MimicBroken
    | SetRules
    | Rename
)
