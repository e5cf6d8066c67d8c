"""The table engine, room by room.

- :mod:`.state`: what changes during a game (seats, owed presses, the phase);
- :mod:`.turns`: turn order and direction, the phase checks;
- :mod:`.presses`: owed presses, what a press fires, the magazine;
- :mod:`.effects`: a played card and each deck's special effects (the card table is data in
  :mod:`companion.core.cards`);
- :mod:`.hands`: hand estimates; :mod:`.calls`: UNO, Contre-UNO, suggestion, the round won;
- :mod:`.answers`: what the table answers when a card asks (challenge, Lotso, Emoji);
- :mod:`.rounds`: seating, the deal, players leaving and coming back, house rules;
- :mod:`.view`: the snapshot; :mod:`.engine`: :class:`TableEngine`, the facade.
"""

from ..firing import profile_from_options
from .engine import Outcome, TableEngine
from .state import HAND_SIZE, PHASE_MOVES, Checkpoint, Owed, Phase, Seat, TableState

__all__ = [
    "HAND_SIZE",
    "PHASE_MOVES",
    "Checkpoint",
    "Outcome",
    "Owed",
    "Phase",
    "Seat",
    "TableEngine",
    "TableState",
    "profile_from_options",
]
