"""The scripted session of each deck (tests/sessions/*.uno), run through the real daemon on mock
pins as ``simulate --script`` runs it: every line taken, the same records as the rules alone give
and the table ending where the rules say, the box counting every firing it makes (its own
``cards_seen`` events), and the table's memory putting the same table back on the next start."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.cli.replay import ScriptReplay, replay_script, scratch_directory
from companion.config import Config, LauncherConfig, TableConfig
from companion.core.session import LineError
from companion.core.table import TableEngine
from companion.i18n import Catalog

from .tables import fixed, traced

SESSIONS = Path(__file__).parent / "sessions"
CONFIG = Config(
    table=TableConfig(players=["a", "b"]),
    launcher=LauncherConfig(profile="fixed", fixed_cards=1, magazine=0),
)


def play_session(name: str, state_dir: Path) -> list[dict[str, Any]]:
    """The script's records (the box's own events checked and left out)."""
    lines = (SESSIONS / f"{name}.uno").read_text(encoding="utf-8").splitlines()
    records = []
    for item in replay_script(CONFIG, lines, seed=1, lang="fr", state_dir=state_dir):
        assert not isinstance(item, LineError), item
        records.append(item)
    box = [r for r in records if r["source"] == "box"]
    fired = [r for r in records if r["ejections"]]
    # The box counts each firing right after it, on the same script line, and agrees.
    assert [(r["event"], r["line"]) for r in box] == [("cards_seen", r["line"]) for r in fired]
    assert all(r["hands"] == f["hands"] for r, f in zip(box, fired, strict=True))
    assert {r["source"] for r in records} <= {"script", "box"}
    script = [r for r in records if r["source"] == "script"]
    assert len({r["line"] for r in script}) == len(script)  # one record a line
    # The same records as the rules alone give (the box's lines take log numbers of their own).
    assert [_but_seq(r) for r in script] == [_but_seq(r) for r in _by_the_rules(lines)]
    _comes_back(state_dir, records[-1])
    return script


def _by_the_rules(lines: list[str]) -> list[dict[str, Any]]:
    catalog = Catalog.load()
    engine = TableEngine(["a", "b"], launcher=fixed(1, magazine=0), seed=1)
    render = lambda say: catalog.text(say.key, "fr", say.params)  # noqa: E731
    return [r for r in traced(lines, engine, render) if isinstance(r, dict)]


def _but_seq(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k != "seq"}


def _comes_back(state_dir: Path, last: dict[str, Any]) -> None:
    """The table's memory, written line by line: the next start puts the same table back."""
    again: list[dict[str, Any]] = []
    with ScriptReplay(CONFIG, seed=7, lang="fr", trace=again.append, state_dir=state_dir) as box:
        table = box.daemon.hub.state()["table"]
    assert again == []  # nothing happened by itself at the start
    shown = {"active", "direction", "facing", "magazine", "round", "phase", "side", "winner"}
    assert {k: table[k] for k in shown} == {k: last[k] for k in shown}
    assert {p["name"]: p["hand"] for p in table["players"]} == last["hands"]


@pytest.fixture
def session() -> Any:
    with scratch_directory() as state_dir:  # as simulate --script keeps it
        yield lambda name: play_session(name, Path(state_dir))


def test_every_deck_has_a_session():
    from companion.core.options import DECKS

    assert {p.stem for p in SESSIONS.glob("*.uno")} == set(DECKS)


def test_extreme_session(session):
    records = session("extreme")
    won = next(r for r in records if r["event"] == "round_won")
    assert won["owed"] == [{"player": "David", "presses": 2, "reason": "hit2"}]
    assert not won["round_over"]
    settled = records[-2]
    assert settled["round_over"] and settled["hands"]["David"] > 7
    assert records[-1]["round"] == 2 and records[-1]["magazine"] == 112 - 29


def test_classic_session(session):
    records = session("classic")
    challenge = next(r for r in records if r["event"] == "challenge")
    assert challenge["owed"] == [{"player": "Bruno", "presses": 6, "reason": "draw4"}]
    assert records[-1]["active"] == "Chloé"


def test_old_sheet_session(session):
    records = session("old_sheet")
    replayed = next(r for r in records if r["event"] == "play" and r["line"] > 12)
    assert replayed["active"] == "David" and replayed["hands"]["Chloé"] == 7 + 4 - 1
    assert records[-1]["owed"] == [] and records[-1]["active"] == "David"


def test_flip_session(session):
    records = session("flip")
    sides = [r["side"] for r in records if r["event"] == "play"]
    assert "dark" in sides and sides[-1] == "light"
    assert any("teal" not in s and "turquoise" in s for r in records for s in r["say"])
    assert records[-1]["owed"] == []


def test_toy_story_session(session):
    records = session("toy_story")
    answers = [r for r in records if r["event"] == "lacked"]
    assert [o["player"] for o in answers[0]["owed"]] == ["Chloé", "David"]
    assert answers[1]["owed"] == [{"player": "David", "presses": 3, "reason": "lotso"}]


def test_emoji_session(session):
    records = session("emoji")
    broken = next(r for r in records if r["event"] == "mimic_broken")
    assert broken["owed"] == [{"player": "Chloé", "presses": 4, "reason": "mimic"}]
    custom = next(r for r in records if r["event"] == "play" and len(r["owed"]) == 3)
    assert [o["player"] for o in custom["owed"]] == ["Alice", "Bruno", "Chloé"]
