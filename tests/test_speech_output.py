"""One audio output: cues first, one sound at a time, and a missing sound card is not fatal."""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable

import pytest

from companion.speech import AplayPlayer, AudioOutput, CueSounds, PlayerError, PlayerProcess
from tests.doubles import ManualClock
from tests.helpers import wait_for


class GatedPlayer:
    """Records what it plays; holds the first sound until ``release`` is set."""

    def __init__(self, hold_first: bool = True, seconds: float = 0.0) -> None:
        self.played: list[bytes] = []
        self.started = threading.Event()
        self.release = threading.Event()
        if not hold_first:
            self.release.set()
        self.seconds = seconds
        self.active = 0
        self.most_at_once = 0
        self.lock = threading.Lock()

    def play(self, wav: bytes) -> None:
        with self.lock:
            self.active += 1
            self.most_at_once = max(self.most_at_once, self.active)
        self.started.set()
        self.release.wait(10)
        time.sleep(self.seconds)
        with self.lock:
            self.played.append(wav)
            self.active -= 1


class BrokenPlayer:
    def __init__(self) -> None:
        self.broken = True
        self.calls = 0

    def play(self, wav: bytes) -> None:
        self.calls += 1
        if self.broken:
            raise PlayerError("aplay: audio open error: No such file or directory")


def in_thread(fn: Callable[[], object]) -> threading.Thread:
    thread = threading.Thread(target=fn)
    thread.start()
    return thread


def test_cues_go_before_waiting_speech_but_do_not_cut_a_line():
    player = GatedPlayer()
    output = AudioOutput(player)
    try:
        first = in_thread(lambda: output.play_speech(b"line 1"))
        assert player.started.wait(5)  # line 1 is playing
        second = in_thread(lambda: output.play_speech(b"line 2"))
        wait_for(lambda: output.queued == 1, what="line 2 to wait")
        output.play_cue(b"ding")
        player.release.set()
        first.join(5)
        second.join(5)
        assert player.played == [b"line 1", b"ding", b"line 2"]
    finally:
        output.close()


def test_never_two_sounds_at_once():
    player = GatedPlayer(hold_first=False, seconds=0.005)
    output = AudioOutput(player, cue_max_age=10.0)
    try:
        speakers = [in_thread(lambda i=i: output.play_speech(b"line %d" % i)) for i in range(10)]
        for i in range(20):
            output.play_cue(b"cue %d" % i)
        for thread in speakers:
            thread.join(10)
        assert player.most_at_once == 1
        assert sum(p.startswith(b"line") for p in player.played) == 10
    finally:
        output.close()


def test_a_cue_that_waited_too_long_is_dropped():
    player = GatedPlayer()
    clock = ManualClock()
    output = AudioOutput(player, cue_max_age=0.1, clock=clock)
    try:
        speaking = in_thread(lambda: output.play_speech(b"long line"))
        assert player.started.wait(5)
        output.play_cue(b"old ding")
        clock.advance(0.3)  # the line goes on for 0.3 s
        player.release.set()
        speaking.join(5)
        assert output.play_speech(b"next line")
        assert player.played == [b"long line", b"next line"]
    finally:
        output.close()


def test_a_failing_player_is_logged_once_and_the_output_recovers(caplog):
    caplog.set_level(logging.INFO, logger="companion.speech")
    player = BrokenPlayer()
    output = AudioOutput(player)
    try:
        for _ in range(5):
            output.play_cue(b"ding")
            assert output.play_speech(b"line") is False
        assert not output.available
        warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
        assert len(warnings) == 1 and "audio open error" in warnings[0].getMessage()
        player.broken = False
        assert output.play_speech(b"line") is True
        assert output.available
        assert any("works again" in r.getMessage() for r in caplog.records)
    finally:
        output.close()


def test_whoever_shows_the_sound_hears_when_it_stops_and_starts_working():
    player = BrokenPlayer()
    output = AudioOutput(player)
    changes: list[bool] = []
    output.on_change = lambda: changes.append(output.available)
    try:
        for _ in range(3):
            assert output.play_speech(b"line") is False
        assert changes == [False]  # told once, when it stopped
        player.broken = False
        assert output.play_speech(b"line") is True
        assert changes == [False, True]
    finally:
        output.close()


def test_no_player_drops_everything_at_once():
    output = AudioOutput(None)
    output.play_cue(b"ding")
    assert output.play_speech(b"line") is False
    assert not output.available
    output.close()


def test_close_releases_a_waiting_line():
    player = GatedPlayer()
    output = AudioOutput(player)
    in_thread(lambda: output.play_speech(b"playing"))
    assert player.started.wait(5)
    result: list[bool] = []
    waiting = in_thread(lambda: result.append(output.play_speech(b"waiting")))
    wait_for(lambda: output.queued == 1, what="the line to wait")
    player.release.set()
    output.close()
    waiting.join(5)
    assert result in ([False], [True])  # released either way, never left hanging
    assert not waiting.is_alive()


def test_aplay_plays_a_cue_on_the_null_device():
    AplayPlayer("null").play(CueSounds().wav("ding"))


def test_aplay_on_a_missing_device_says_why():
    with pytest.raises(PlayerError, match="no_such_device"):
        AplayPlayer("no_such_device").play(CueSounds().wav("ding"))


def test_missing_aplay_says_what_to_install():
    with pytest.raises(PlayerError, match="alsa-utils"):
        AplayPlayer(command="/nonexistent/aplay").play(CueSounds().wav("ding"))


def test_aplay_runs_at_the_lowest_priority(tmp_path):
    """A sound may wait a moment, a press may not: the player process is niced to 19."""
    seen = tmp_path / "nice"
    player = tmp_path / "fake-aplay"
    # Reads the sound first (sent once the parent has lowered its priority), then reports.
    player.write_text(f"#!/bin/sh\ncat >/dev/null\ncut -d' ' -f19 /proc/$$/stat > {seen}\n")
    player.chmod(0o755)
    AplayPlayer(command=str(player)).play(CueSounds().wav("ding"))
    assert seen.read_text().strip() == "19"


def test_player_process_plays_in_a_child_and_answers_when_done(tmp_path):
    """The daemon never starts aplay itself: its player process does, and says how it went."""
    heard = tmp_path / "heard"
    fake = tmp_path / "fake-aplay"
    fake.write_text(f"#!/bin/sh\necho $PPID > {tmp_path}/parent\ncat >> {heard}\n")
    fake.chmod(0o755)
    player = PlayerProcess(command=str(fake))
    try:
        ding = CueSounds().wav("ding")
        player.play(ding)
        player.play(ding)
        assert heard.read_bytes() == ding + ding
        assert int((tmp_path / "parent").read_text()) != os.getpid()
    finally:
        player.close()


def test_player_process_reports_aplay_failures_and_survives_its_own_death(tmp_path):
    player = PlayerProcess("no_such_device")
    try:
        with pytest.raises(PlayerError, match="no_such_device"):
            player.play(CueSounds().wav("ding"))
        assert player.process is not None
        player.process.kill()
        with pytest.raises(PlayerError, match="stopped"):
            player.play(CueSounds().wav("ding"))
        player.device = "null"  # the next sound starts a new process, which plays it
        player.play(CueSounds().wav("ding"))
    finally:
        player.close()
    assert player.process is None
