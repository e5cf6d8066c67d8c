"""Scoring figures: durable rounds per second into SQLite, and standings for a 200-round game."""

from __future__ import annotations

import random
import tempfile
import time

from companion.core.scoring import GameSetup, HandEntry, ScoreBook, builtin_ruleset
from companion.storage import Storage

PLAYERS = ("Ana", "Bo", "Cy", "Di")


def _hands(rng: random.Random) -> dict[str, HandEntry]:
    winner = rng.choice(PLAYERS)
    return {
        p: HandEntry.empty()
        if p == winner
        else HandEntry.of_cards({"n7": rng.randint(1, 2), "skip": rng.randint(0, 1)})
        for p in PLAYERS
    }


def main() -> None:
    rng = random.Random(7)
    setup = GameSetup("bench", PLAYERS, builtin_ruleset("classic"), target=100_000)
    with tempfile.TemporaryDirectory() as state, Storage.open(state, backups=0) as storage:
        game_id = storage.create_game(setup)
        book = storage.load_game(game_id)
        count, start = 200, time.perf_counter()
        for _ in range(count):
            entry = book.new_record(_hands(rng))
            storage.append_entry(game_id, entry, expected_revision=book.revision)
            book.apply(entry)
        elapsed = time.perf_counter() - start
        print(
            f"scoring: {count / elapsed:.0f} rounds/s recorded to SQLite (durable commits, "
            f"200-round game)"
        )
        entries = book.entries
    start = time.perf_counter()
    repeats = 20
    for _ in range(repeats):
        ScoreBook(setup, entries, verify=False).standings()
    per = (time.perf_counter() - start) / repeats
    print(f"scoring: {per * 1000:.1f} ms to derive standings of a 200-round game from its log")
    start = time.perf_counter()
    ScoreBook(setup, entries)
    print(
        f"scoring: {(time.perf_counter() - start) * 1000:.0f} ms to import-check a 200-round "
        "log entry by entry"
    )


if __name__ == "__main__":
    main()
