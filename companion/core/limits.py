"""The limits of a table, one home for the engine, the score sheet, the actions and the config."""

from __future__ import annotations

MIN_PLAYERS = 2
MAX_PLAYERS = 10  # UNO is for 2 to 10 players
MAX_NAME = 40  # characters in a player's name
MAX_HAND = 108  # no hand can hold more than a whole deck
# The largest game the box keeps (a file imported is read and checked in a process of its own,
# then refused past these; a game played on the box stops at them, scoring/size.py). A game to
# 500 points is 5 to 30 rounds; 500 rounds is a season of evenings in one game. Kept whole in
# memory, a round costs about 3 KB, and a change to an early round replays every round after it
# on the way to the page: at 500 rounds that holds the table about 6 ms on a PC (5 to 10 times
# that on a Pi), within a press's usual answer time; at 1,000 it was measured at 10 to 14 ms, a
# press then waiting up to 2.5 times its usual p99 (docs/robustness.md has the figures).
MAX_GAME_ROUNDS = 500
# Log entries (rounds, corrections, deletions, undos, redos) of such a game: every round
# corrected once.
MAX_GAME_ENTRIES = 2 * MAX_GAME_ROUNDS
# The longest texts a stored game may carry (a file imported, a game made on the box): every
# state and live event lists the stored games, so one long field would reach every phone at
# every change. An id is a short key (the page and the CLI name a game by it), a date an ISO
# timestamp, a ruleset's notes a paragraph.
MAX_GAME_ID = 64
MAX_DATE = 40
MAX_GAME_NAME = 80
MAX_NOTES = 2_000
MAX_LABEL = 200  # a ruleset's names and source, a card's labels
