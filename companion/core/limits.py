"""The limits of a table, one home for the engine, the score sheet, the actions and the config."""

from __future__ import annotations

MIN_PLAYERS = 2
MAX_PLAYERS = 10  # UNO is for 2 to 10 players
MAX_NAME = 40  # characters in a player's name
MAX_HAND = 108  # no hand can hold more than a whole deck
