"""SIGKILL at random moments while rounds are recorded: no acknowledged round is ever lost."""

from __future__ import annotations

import random
import signal
from pathlib import Path

import pytest

from companion.storage import Storage
from tests.helpers import kill_after_lines, python_child

CHILD = r"""
import sys
from companion.core.scoring import GameSetup, HandEntry, builtin_ruleset
from companion.storage import Storage
from tests.helpers import kill_after_lines

storage = Storage.open(sys.argv[1], backups=0)
game_id = storage.settings_get("crash_game")
if game_id is None:
    setup = GameSetup("crash", ("Ana", "Bo", "Cy"), builtin_ruleset("classic"), target=100000)
    game_id = storage.create_game(setup)
    storage.settings_put("crash_game", game_id)
book = storage.load_game(game_id)
# Rounds until killed. A parent slowed by a busy machine may kill late: each child writes at
# most 15 (the parent kills after 8 at most), so 30 children stay short of the 500 rounds a game
# keeps, and waits for its kill there.
for _ in range(15):
    n = book.revision + 1
    entry = book.new_record(
        {"Ana": HandEntry.empty(), "Bo": HandEntry.of_points(n % 50), "Cy": HandEntry.of_points(1)},
        at=f"ack-{n}",
    )
    seq = storage.append_entry(game_id, entry, expected_revision=book.revision)
    book.apply(entry)
    print(f"ack {seq}", flush=True)
import time
time.sleep(600)
"""


@pytest.mark.slow
def test_acknowledged_rounds_survive_sigkill(tmp_path: Path) -> None:
    rng = random.Random(20240503)
    acked: set[int] = set()
    kills = 30
    for _ in range(kills):
        child = python_child(CHILD, str(tmp_path))
        # One kill in five lands while the child starts (opening, creating the game); the
        # others after a few acknowledged rounds, at a random moment of the next write.
        acks = 0 if rng.random() < 0.2 else rng.randint(1, 8)
        lines, err = kill_after_lines(child, "ack", acks, rng, jitter=0.1 if acks == 0 else 0.01)
        assert child.returncode == -signal.SIGKILL, err
        acked |= {int(line.split()[1]) for line in lines if line.strip()}
        with Storage.open(tmp_path, backups=0) as storage:
            assert storage.integrity_check() == "ok"
            game_id = storage.settings_get("crash_game")
            if game_id is None:
                assert not acked  # killed before the game was even created
                continue
            book = storage.load_game(game_id)
            stored = {seq for seq, entry in enumerate(book.entries, start=1)}
            assert acked <= stored, f"lost acknowledged rounds {sorted(acked - stored)}"
            assert [e.at for e in book.entries] == [f"ack-{n}" for n in sorted(stored)]
            assert book.standings().rounds == book.revision
    assert len(acked) > kills  # the child really recorded rounds between kills
