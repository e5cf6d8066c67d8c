"""Scoring figures: durable rounds per second into SQLite, standings for a 200-round game, and
how long the table is held by a round recorded or corrected while a long game is open.

The last: a box as the daemon wires it (hub, SQLite) with a long game open, the time the hub
thread takes to record a round, to correct round 10 and to correct the tenth round from the
end, each with the state made again after it (as the next answer would): the goal is a round
recorded in the same time whatever the game's length, and a correction costing the rounds after
it, not the whole game. The games reach 100, 250 and 500 rounds (``BENCH_SCORING_ROUNDS``; the
box stops a game at :data:`~companion.core.limits.MAX_GAME_ROUNDS`): each is opened that many
rounds less the ones the figures record.
"""

from __future__ import annotations

import gc
import json
import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.core.scoring import (
    GameSetup,
    HandEntry,
    LogEntry,
    ScoreBook,
    builtin_ruleset,
    make_round,
)
from companion.storage import Storage
from tests.helpers import wired_box

LONG_GAMES = [int(n) for n in os.environ.get("BENCH_SCORING_ROUNDS", "100,250,500").split(",")]

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
    many_games()
    print("scoring: a long game open, the hub thread held by one change (median ms)")
    print(f"{'rounds':>8} {'record':>9} {'correct 10':>11} {'correct n-10':>13}")
    for rounds in LONG_GAMES:
        print(
            f"{rounds:>8} "
            + " ".join(f"{ms:>{w}.1f}" for ms, w in zip(changes(rounds), (9, 11, 13), strict=True))
        )


class _TapClock:
    """A minute passes every :data:`NEW_GAMES_PER_MINUTE` taps: every tap starts a game."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def many_games(taps: int = 1000) -> None:
    """The state's size after ``taps`` "New game" taps, and a round recorded with that many
    games stored (the state made again after it, as the next answer would)."""
    from companion.app.hub import Hub
    from companion.app.score_limits import NEW_GAMES_PER_MINUTE, GameStarts
    from companion.app.scorekeeper import ScoreKeeper
    from companion.core.table import TableEngine

    players = list(PLAYERS)
    hands = {p: {"points": 0 if p == players[0] else 5} for p in players}
    with tempfile.TemporaryDirectory() as state, Storage.open(state, backups=0) as storage:
        clock = _TapClock()
        hub = Hub(TableEngine(players, seed=1))
        keeper = ScoreKeeper(lambda: storage)
        keeper.starts = GameStarts(clock)
        keeper.attach(hub)
        with hub.running():
            sizes, took = {}, {}
            for tap in range(1, taps + 1):
                if tap % NEW_GAMES_PER_MINUTE == 0:
                    clock.now += 61
                hub.dispatch("score.new_game", {"players": players})
                if tap in (1, taps):
                    sizes[tap] = len(json.dumps(hub.state(), ensure_ascii=False).encode())
                    took[tap] = []
                    for _ in range(20):
                        start = time.perf_counter()
                        hub.dispatch("score.record_round", {"hands": hands, "winner": players[0]})
                        took[tap].append(time.perf_counter() - start)
    print(
        f"scoring: the state with 1 game {sizes[1] / 1024:.1f} KB, after {taps} new-game taps "
        f"{sizes[taps] / 1024:.1f} KB; a round recorded (median, max) with 1 game stored "
        f"{statistics.median(took[1]) * 1000:.1f} ms, {max(took[1]) * 1000:.1f} ms; with {taps} "
        f"{statistics.median(took[taps]) * 1000:.1f} ms, {max(took[taps]) * 1000:.1f} ms"
    )


def _light_hands(rng: random.Random) -> dict[str, HandEntry]:
    """A round of a long game: a point or none left in hand, so it stays under the target."""
    winner = rng.choice(PLAYERS)
    return {
        p: HandEntry.empty() if p == winner else HandEntry.of_points(rng.choice((0, 0, 1)))
        for p in PLAYERS
    }


def long_game(rounds: int) -> ScoreBook:
    """Built from its log, as an imported game is."""
    rng = random.Random(rounds)
    setup = GameSetup("long", PLAYERS, builtin_ruleset("classic"), target=100_000)
    log = [LogEntry.recorded(make_round(setup, _light_hands(rng))) for _ in range(rounds)]
    return ScoreBook(setup, log)


def changes(rounds: int, repeats: int = 5) -> tuple[float, float, float]:
    """Milliseconds the hub takes to record a round, correct round 10 and the tenth from the
    end (each with the state after it) with a game of ``rounds`` rounds open (medians)."""
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as state_dir:
        _, hub, scores, keeper = wired_box(Path(state_dir), list(PLAYERS), 1)
        book = long_game(rounds - repeats)  # the rounds recorded below bring it to ``rounds``
        hub.call(lambda: keeper.open_imported(keeper.stored(book, keeper.changes))).result()
        gc.freeze()  # as after an import: the game is out of later collections
        hub.state()

        def held(action: str, payload: dict[str, Any]) -> float:
            start = time.perf_counter()
            hub.dispatch(action, payload)
            hub.state()
            return (time.perf_counter() - start) * 1000

        def hands() -> dict[str, Any]:
            return {p: h.to_dict() for p, h in _light_hands(rng).items()}

        record = [held("score.record_round", {"hands": hands()}) for _ in range(repeats)]
        early = [held("score.correct_round", {"round": 10, "hands": hands()}) for _ in range(3)]
        late = [
            held("score.correct_round", {"round": rounds - 10, "hands": hands()}) for _ in range(3)
        ]
        scores.close()
    return statistics.median(record), statistics.median(early), statistics.median(late)


if __name__ == "__main__":
    main()
