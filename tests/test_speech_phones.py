"""The box's phrases for the phones: every ``Say`` of the table and of the box's own
announcements, numbered, the last few kept with their sentence in each language; an
announcement tells the phones without making their edits stale."""

from __future__ import annotations

from typing import Any

from companion.app.hub import Hub
from companion.app.spoken import KEPT, SpokenLines
from companion.core.commands import Say
from companion.core.events import Play, Press
from tests.test_web_api import make_hub


def spoken_hub(**kwargs: Any) -> tuple[Hub, SpokenLines]:
    hub = make_hub()
    lines = SpokenLines(lambda say, lang: f"{lang}:{say.key}", ("fr", "en"), **kwargs)
    hub.attach(lines)
    return hub, lines


def test_the_tables_phrases_reach_the_state_in_every_language() -> None:
    hub, _ = spoken_hub()
    hub.post(Play("hit2"), "phone").result(5)
    spoken = hub.state()["spoken"]
    assert spoken["last"] == 1
    assert spoken["lines"] == [
        {
            "n": 1,
            "key": "table.press_owed",
            "text": {"fr": "fr:table.press_owed", "en": "en:table.press_owed"},
        }
    ]


def test_only_the_last_phrases_are_kept_and_numbers_go_on() -> None:
    hub, _ = spoken_hub()
    for _ in range(KEPT + 3):
        hub.post(Play("hit2"), "phone").result(5)
        hub.post(Press(), "phone").result(5)
        hub.post(Press(), "phone").result(5)
    spoken = hub.state()["spoken"]
    numbers = [line["n"] for line in spoken["lines"]]
    assert len(numbers) == KEPT and numbers[-1] == spoken["last"] > KEPT
    assert numbers == list(range(spoken["last"] - KEPT + 1, spoken["last"] + 1))


def test_an_announcement_is_told_without_making_edits_stale() -> None:
    hub, _ = spoken_hub()
    revision = hub.revision
    hub.announce("score", [Say("results.round_won", {"player": "Alice"})])
    spoken = hub.state()["spoken"]
    assert [line["key"] for line in spoken["lines"]] == ["results.round_won"]
    assert hub.revision == revision


def test_what_the_box_would_not_say_the_phones_do_not_say() -> None:
    hub, _ = spoken_hub(wants=lambda say: say.key != "table.press_owed")
    hub.post(Play("hit2"), "phone").result(5)
    assert hub.state()["spoken"] == {"last": 0, "lines": []}
