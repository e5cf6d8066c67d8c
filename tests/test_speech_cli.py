"""``uno-companion say`` and ``uno-companion sounds``: check a new box's audio setup."""

from __future__ import annotations

import io
import wave

from companion.cli import main
from companion.speech import wav_duration


def test_say_to_wav_writes_real_speech(tmp_path, capsys):
    target = tmp_path / "line.wav"
    assert main(["say", "À toi, Alice.", "--lang", "fr", "--to-wav", str(target)]) == 0
    assert wav_duration(target.read_bytes()) > 0.3
    assert "fr voice roa/fr" in capsys.readouterr().out


def test_say_in_english_uses_the_english_voice(tmp_path, capsys):
    target = tmp_path / "line.wav"
    assert main(["say", "Your turn, Bruno.", "--lang", "en", "--to-wav", str(target)]) == 0
    assert "en voice gmw/en" in capsys.readouterr().out


def test_say_on_the_null_device_succeeds(capsys):
    assert main(["say", "Bonjour.", "--device", "null"]) == 0
    assert "said on null" in capsys.readouterr().out


def test_say_without_a_usable_device_fails_clearly(capsys):
    assert main(["say", "Bonjour.", "--device", "no_such_device"]) == 1
    err = capsys.readouterr().err
    assert "could not play on ALSA device no_such_device" in err
    assert "audio_device" in err and "--to-wav" in err


def test_say_with_a_bad_config_exits_2(tmp_path, capsys):
    config = tmp_path / "box.toml"
    config.write_text('[speech]\nturn_announcements = "always"\n', encoding="utf-8")
    try:
        main(["say", "Bonjour.", "-c", str(config)])
    except SystemExit as exc:
        assert exc.code == 2
    else:
        raise AssertionError("expected exit status 2")
    assert "speech.turn_announcements" in capsys.readouterr().err


def test_sounds_to_dir_writes_every_cue(tmp_path, capsys):
    assert main(["sounds", "--to-dir", str(tmp_path)]) == 0
    names = sorted(p.stem for p in tmp_path.glob("*.wav"))
    assert "ding" in names and "suspense-1.0" in names and "error" in names
    assert len(names) == 9
    for path in tmp_path.glob("*.wav"):
        with wave.open(io.BytesIO(path.read_bytes()), "rb") as reader:
            assert reader.getnframes() > 0
    assert "ding" in capsys.readouterr().out


def test_sounds_on_the_null_device_and_on_a_missing_one(capsys):
    assert main(["sounds", "--device", "null", "--gap", "0"]) == 0
    assert main(["sounds", "--device", "no_such_device", "--gap", "0"]) == 1
    assert "could not play on ALSA device no_such_device" in capsys.readouterr().err
