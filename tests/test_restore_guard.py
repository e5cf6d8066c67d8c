"""A score database in good health is replaced by a backup only on purpose: confirmed, with the
revision the phone saw."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.core.errors import ActionError
from tests.helpers import wired_box

PLAYERS = ["Alice", "Bruno", "Chloé"]


def test_a_healthy_database_is_not_replaced_by_one_stray_request(tmp_path: Path) -> None:
    _engine, hub, scores, _keeper = wired_box(tmp_path, PLAYERS, 1, backups=3)
    try:
        with hub.running():
            hub.dispatch("score.new_game", {"ruleset": "extreme", "name": "Vendredi"})
            scores.storage.backup()
            hands = {p: {"points": 5} for p in PLAYERS}
            hands["Alice"] = {"points": 0}
            hub.dispatch("score.record_round", {"hands": hands, "winner": "Alice"})
            for extra in ({}, {"confirm": True}, {"revision": hub.revision}):
                with pytest.raises(ActionError) as refused:
                    hub.dispatch("storage.restore", {"backup": "scores.1.sqlite3", **extra})
                assert (refused.value.key, refused.value.status) == (
                    "storage.restore_healthy",
                    409,
                )
            seen = hub.revision
            hub.dispatch("table.play", {"card": "skip"})  # the table moved on meanwhile
            with pytest.raises(ActionError) as stale:
                hub.dispatch(
                    "storage.restore",
                    {"backup": "scores.1.sqlite3", "confirm": True, "revision": seen},
                )
            assert (stale.value.key, stale.value.status) == ("errors.stale", 409)
            assert hub.state()["score"]["revision"] == 1  # the evening's round is still there
            assert not list(tmp_path.glob("scores.sqlite3.damaged-*"))
            state = hub.dispatch(
                "storage.restore",
                {"backup": "scores.1.sqlite3", "confirm": True, "revision": hub.revision},
            )
            assert state["storage"]["ok"] and state["score"]["revision"] == 0
            # The database it replaced is a backup the page lists, the newest after the one the
            # restored database got as it opened: the evening's round comes back the same way.
            names = [b["name"] for b in state["storage"]["backups"]]
            assert names[:2] == ["scores.1.sqlite3", "scores.2.sqlite3"]
            state = hub.dispatch(
                "storage.restore",
                {"backup": "scores.2.sqlite3", "confirm": True, "revision": hub.revision},
            )
            assert state["score"]["revision"] == 1
    finally:
        scores.close()
