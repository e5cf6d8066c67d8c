"""The Voice facade: catalog phrases in the table's language, turn policy, cues, never raises."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import replace
from importlib import resources

import pytest

from companion.core.commands import Cue, Eject, Priority, Say, Turn
from companion.i18n import Catalog
from companion.i18n.message import arguments, parse
from companion.speech import SpeechConfig, Voice
from companion.speech.voice import render, slot_for
from tests.doubles import ECHO_ENGINE, RecordingPlayer
from tests.helpers import wait_for


@pytest.fixture
def make_voice(
    closing: Callable[[Voice], Voice],
) -> Callable[..., tuple[Voice, RecordingPlayer]]:
    def make(language: str = "fr", **settings: object) -> tuple[Voice, RecordingPlayer]:
        player = RecordingPlayer()
        config = replace(SpeechConfig(), **settings)  # type: ignore[arg-type]
        voice = Voice(config, Catalog.load(), language, player=player, engine_factory=ECHO_ENGINE)
        return closing(voice), player

    return make


def busy_engine(voice: Voice) -> None:
    """Keep the engine busy for 0.3 s so the next lines wait in the queue."""
    wait_for(lambda: voice.worker.available is not None, timeout=20, what="the engine")
    voice.handle(Say("Hold on", {}, Priority.RESULT))  # unknown key: said as is
    wait_for(
        lambda: voice.worker.stats().submitted == 1 and not voice.worker.stats().pending,
        timeout=20,
        what="the line taken",
    )


def settle(voice: Voice) -> None:
    assert voice.wait_idle(20)


def test_say_is_rendered_in_the_table_language_with_its_voice(make_voice):
    voice, player = make_voice("fr")
    voice.handle(Say("table.press_owed", {"player": "Alice", "presses": 2}, Priority.PROMPT))
    settle(voice)
    voice.set_language("en")
    voice.handle(Say("results.round_winner", {"player": "Bruno", "points": 57}, Priority.RESULT))
    settle(voice)
    assert player.lines() == [
        "roa/fr|Alice, appuie 2 fois.",
        "gmw/en|Bruno wins the round and scores 57 points.",
    ]


def test_a_line_handed_over_keeps_the_language_of_the_moment(make_voice):
    voice, player = make_voice("fr")
    assert voice.wait_idle(20)
    before = voice.worker.stats().submitted
    voice.handle(Say("table.press_owed", {"player": "Alice", "presses": 2}, Priority.PROMPT))
    voice.set_language("en")  # at once, before the voice's thread took the line
    voice.handle(Say("results.round_winner", {"player": "Bruno", "points": 9}, Priority.RESULT))
    settle(voice)
    assert sorted(player.lines()) == [
        "gmw/en|Bruno wins the round and scores 9 points.",
        "roa/fr|Alice, appuie 2 fois.",
    ]
    assert voice.worker.stats().submitted == before + 2
    voice.close()
    voice.handle(Say("table.uno", {"player": "Chloé"}))  # closed: ignored, never raises
    assert voice.wait_idle(1)


@pytest.mark.parametrize(
    ("mode", "spoken_reasons"),
    [
        ("off", []),
        ("reverse_skip", ["reverse", "skip"]),
        ("every_turn", ["turn", "reverse", "skip"]),
    ],
)
def test_turn_announcements_follow_the_setting(make_voice, mode, spoken_reasons):
    voice, player = make_voice("en", turn_announcements=mode)
    for reason in ("turn", "reverse", "skip"):
        voice.handle(Say("table.turn", {"player": reason.title(), "reason": reason}))
        settle(voice)
    turns = [line for line in player.lines() if "turn" in line]
    assert turns == [f"gmw/en|Your turn, {reason.title()}." for reason in spoken_reasons]


def test_a_press_prompt_is_superseded_by_the_next_turn(make_voice):
    voice, player = make_voice("fr", turn_announcements="every_turn")
    busy_engine(voice)
    voice.handle(Say("table.press_owed", {"player": "Alice", "presses": 2}, Priority.PROMPT))
    voice.handle(Say("table.turn", {"player": "Bruno", "reason": "skip"}))
    voice.handle(Say("table.contre_uno", {"player": "Chloé", "presses": 2}, Priority.PENALTY))
    settle(voice)
    said = player.lines()
    assert "roa/fr|Contre-UNO ! Chloé appuie 2 fois." in said
    assert "roa/fr|À toi, Bruno." in said
    assert not [line for line in said if "Alice" in line]
    assert voice.stats().replaced == 1


def test_cues_play_on_the_speaker_unless_disabled(make_voice):
    voice, player = make_voice()
    voice.handle(Cue("ding"))
    voice.handle(Cue("suspense", 0.8))
    assert player.wait_for_count(2, timeout=5)
    assert player.played == [voice.cues.wav("ding"), voice.cues.wav("suspense", 0.8)]
    quiet, quiet_player = make_voice(cues_enabled=False)
    quiet.handle(Cue("ding"))
    assert quiet.wait_idle(5)  # the ding handed over was acted on (and dropped)
    marker = b"played after anything queued before it"
    quiet.output.play_cue(marker)  # the output plays in order: a queued ding would come first
    assert quiet_player.wait_for_count(1, timeout=5)
    assert quiet_player.played == [marker]


def test_cues_are_rendered_off_the_press_path(make_voice, monkeypatch):
    voice, player = make_voice()
    quiet = voice.cues
    wait_for(lambda: quiet.rendered == 6 + 21, timeout=10, what="every cue rendered")

    rendered: list[tuple[object, ...]] = []
    monkeypatch.setattr("companion.speech.sounds.tone_frames", lambda *a: rendered.append(a))
    for level in range(21):
        voice.handle(Cue("suspense", level / 20))
    voice.handle(Cue("error"))
    assert voice.wait_idle(5) and player.wait_for_count(1, timeout=5)
    assert rendered == []  # every WAV came from the cache
    monkeypatch.undo()
    # A new volume is rendered aside; the cues in use are swapped once it is ready.
    voice.set_volume(0.5)
    wait_for(lambda: voice.cues is not quiet, timeout=10, what="the new volume's cues")
    assert voice.cues.volume == pytest.approx(quiet.volume * 0.5)
    assert voice.cues.rendered == quiet.rendered


def test_disabled_speech_still_plays_cues_and_starts_no_engine(make_voice):
    voice, player = make_voice(enabled=False)
    voice.handle(Say("table.turn", {"player": "Alice", "reason": "skip"}))
    voice.handle(Cue("ding"))
    assert player.wait_for_count(1, timeout=5)
    assert voice.worker.available is False
    assert player.played == [voice.cues.wav("ding")]


def test_handle_never_raises(make_voice, caplog):
    voice, _ = make_voice()
    voice.handle(Eject(3))
    voice.handle(Turn(1, "Bruno"))
    voice.handle(None)
    for _ in range(3):
        voice.handle(Cue("trumpet"))  # type: ignore[arg-type]
    voice.handle(Say("table.turn", {"reason": "skip"}))  # missing {player}: template said as is
    voice.set_language("de")
    assert voice.language == "fr"
    assert voice.wait_idle(20)
    errors = [r for r in caplog.records if "could not handle" in r.getMessage()]
    assert len(errors) == 1


def test_standings_are_listed_best_first():
    catalog = Catalog.load()
    say = Say(
        "results.standings",
        {"player1": "Chloé", "points1": 310, "player2": "Alice", "points2": 120},
        Priority.INFO,
    )
    assert render(catalog, say, "fr") == "Classement : Chloé 310 points, Alice 120 points."
    assert render(catalog, say, "en") == "Standings: Chloé 310 points, Alice 120 points."


def test_slots_group_lines_about_the_same_thing():
    assert slot_for(Say("table.turn", {"player": "A"})) == slot_for(
        Say("table.press_owed", {"player": "B"}, Priority.PROMPT)
    )
    uno_a = slot_for(Say("table.uno_reminder", {"player": "A"}, Priority.PROMPT))
    uno_b = slot_for(Say("table.uno_reminder", {"player": "B"}, Priority.PROMPT))
    assert uno_a != uno_b
    assert slot_for(Say("table.contre_uno", {"player": "A"}, Priority.PENALTY)) is None
    assert slot_for(Say("results.game_winner", {}, Priority.RESULT)) is None


def test_results_phrases_exist_in_both_languages_with_the_same_placeholders():
    data = tomllib.loads(resources.files("companion.i18n").joinpath("results.toml").read_text())
    assert set(data["fr"]) == set(data["en"])
    for key, french in data["fr"].items():
        fields = set(arguments(parse(french)))
        assert fields == set(arguments(parse(data["en"][key]))), key
    for key in ("round_winner", "standings", "game_winner"):
        assert key in data["fr"]
