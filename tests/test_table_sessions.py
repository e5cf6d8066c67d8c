"""The scripted session of each deck (tests/sessions/*.uno) runs line by line without a refusal
and ends where the rules say."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.core.session import LineError, run_script
from companion.core.table import TableEngine
from companion.i18n import Catalog

from .tables import fixed

SESSIONS = Path(__file__).parent / "sessions"


def play_session(name: str) -> list[dict[str, Any]]:
    catalog = Catalog.load()
    lines = (SESSIONS / f"{name}.uno").read_text(encoding="utf-8").splitlines()
    engine = TableEngine(["a", "b"], launcher=fixed(1, magazine=0), seed=1)
    records = []
    for item in run_script(lines, engine, lambda say: catalog.text(say.key, "fr", say.params)):
        assert not isinstance(item, LineError), item
        records.append(item)
    return records


def test_every_deck_has_a_session():
    from companion.core.options import DECKS

    assert {p.stem for p in SESSIONS.glob("*.uno")} == set(DECKS)


def test_extreme_session():
    records = play_session("extreme")
    won = next(r for r in records if r["event"] == "round_won")
    assert won["owed"] == [{"player": "David", "presses": 2, "reason": "hit2"}]
    assert not won["round_over"]
    settled = records[-2]
    assert settled["round_over"] and settled["hands"]["David"] > 7
    assert records[-1]["round"] == 2 and records[-1]["magazine"] == 112 - 29


def test_classic_session():
    records = play_session("classic")
    challenge = next(r for r in records if r["event"] == "challenge")
    assert challenge["owed"] == [{"player": "Bruno", "presses": 6, "reason": "draw4"}]
    assert records[-1]["active"] == "Chloé"


def test_old_sheet_session():
    records = play_session("old_sheet")
    replayed = next(r for r in records if r["event"] == "play" and r["line"] > 12)
    assert replayed["active"] == "David" and replayed["hands"]["Chloé"] == 7 + 4 - 1
    assert records[-1]["owed"] == [] and records[-1]["active"] == "David"


def test_flip_session():
    records = play_session("flip")
    sides = [r["side"] for r in records if r["event"] == "play"]
    assert "dark" in sides and sides[-1] == "light"
    assert any("teal" not in s and "turquoise" in s for r in records for s in r["say"])
    assert records[-1]["owed"] == []


def test_toy_story_session():
    records = play_session("toy_story")
    answers = [r for r in records if r["event"] == "lacked"]
    assert [o["player"] for o in answers[0]["owed"]] == ["Chloé", "David"]
    assert answers[1]["owed"] == [{"player": "David", "presses": 3, "reason": "lotso"}]


@pytest.mark.parametrize("name", ["emoji"])
def test_emoji_session(name):
    records = play_session(name)
    broken = next(r for r in records if r["event"] == "mimic_broken")
    assert broken["owed"] == [{"player": "Chloé", "presses": 4, "reason": "mimic"}]
    custom = next(r for r in records if r["event"] == "play" and len(r["owed"]) == 3)
    assert [o["player"] for o in custom["owed"]] == ["Alice", "Bruno", "Chloé"]
