"""The limits of a table, one home for the engine, the score sheet, the actions and the config."""

from __future__ import annotations

MIN_PLAYERS = 2
MAX_PLAYERS = 10  # UNO is for 2 to 10 players
MAX_NAME = 40  # characters in a player's name
MAX_HAND = 108  # no hand can hold more than a whole deck
# The largest game the box keeps (a file imported is read and checked in a process of its own,
# then refused past these). A game to the highest target (100,000 points) is about 1,000 rounds.
# Kept whole in memory, a round costs about 3 KB, and a change to an early round replays every
# round after it (about 35 µs a round on a PC, 5 to 10 times that on a Pi): at 1,000 rounds such
# a change holds the table a few tens of milliseconds, and a restart reads the game in well under
# a second (docs/robustness.md has the figures).
MAX_GAME_ROUNDS = 1_000
# Log entries (rounds, corrections, deletions, undos, redos) of such a game: every round
# corrected once.
MAX_GAME_ENTRIES = 2 * MAX_GAME_ROUNDS
