"""The configuration file: defaults, the example file, and clear errors for bad values."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from companion.config import (
    MAX_CONFIG_BYTES,
    CameraConfig,
    Config,
    ConfigError,
    HardwareConfig,
    SpeechConfig,
    StorageConfig,
    WebConfig,
    load_config,
    parse_config,
)
from companion.config.hardware import PinsConfig
from companion.daemon import table_engine

ROOT = Path(__file__).resolve().parents[1]


def test_defaults_are_valid():
    config = load_config(None)
    assert config == Config()
    assert config.launcher.low_warning == 20  # the Tabletop Simulator mod's threshold
    assert config.rules.contre_uno_presses == 2 and config.rules.suggestion_presses == 4


def test_example_file_loads():
    config = load_config(ROOT / "config.example.toml")
    assert config.table.language in ("fr", "en")
    assert config.launcher.profiles["party"].fire_chance == [0.3, 0.6, 1.0]
    # Every section is complete and typed, read once: the example shows the defaults.
    assert config.hardware == HardwareConfig()
    assert config.speech == SpeechConfig()
    assert config.web == WebConfig()
    assert config.camera == CameraConfig()
    assert config.storage == StorageConfig()  # state_dir commented out: the usual places
    assert config == replace(Config(), launcher=config.launcher)
    text = (ROOT / "config.example.toml").read_text(encoding="utf-8")
    assert '# state_dir = "/var/lib/uno-companion"' in text


def test_every_problem_is_listed_with_key_and_allowed_values():
    with pytest.raises(ConfigError) as err:
        parse_config(
            {
                "table": {"players": ["A", "B"], "language": "de", "sead": 1},
                "rules": {"stacking": "yes", "contre_uno_presses": 99},
                "launcher": {
                    "profile": "mine",
                    "profiles": {"mine": {"fire_chance": [1.5], "cards": [3]}},
                },
                "sound": {},
            }
        )
    text = str(err.value)
    assert "table.language: 'de' is not one of fr, en" in text
    assert (
        "table.sead: unknown key, did you mean 'seed'? (allowed: players, dealer, language, seed)"
        in text
    )
    assert "rules.stacking: expected true or false, got 'yes'" in text
    assert "rules.contre_uno_presses: 99 is above the maximum 10" in text
    assert "sound: unknown section" in text
    assert "launcher.profiles.mine.fire_chance: needs one or more chances between 0 and 1" in text
    assert "launcher.profiles.mine.cards: needs pairs (low, high)" in text
    assert len(err.value.problems) == 7


def test_custom_profile_is_used(tmp_path: Path):

    path = tmp_path / "c.toml"
    path.write_text(
        '[launcher]\nprofile = "always3"\n'
        "[launcher.profiles.always3]\nfire_chance = [1.0]\ncards = [3, 3]\n",
        encoding="utf-8",
    )
    engine = table_engine(load_config(path), seed=1)
    from companion.core.events import Press

    assert engine.handle(Press()).fired == 3


def test_unreadable_and_malformed_files(tmp_path: Path):
    with pytest.raises(ConfigError, match="cannot read the file"):
        load_config(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[table\nplayers = 1", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(bad)


def test_dealer_must_be_a_player():
    with pytest.raises(ConfigError, match=r"table\.dealer: 'Zed' is not one of table\.players"):
        parse_config({"table": {"players": ["A", "B"], "dealer": "Zed"}})


def test_rules_and_magazine_from_the_file_reach_the_engine():
    """The deck and house rules in [rules] are the table's; launcher.magazine 0 is the deck left."""
    config = parse_config(
        {"rules": {"deck": "toy_story", "lotso_presses": 2}, "launcher": {"magazine": 0}}
    )
    engine = table_engine(config, seed=1)
    assert engine.rules.deck == "toy_story" and engine.rules.lotso_presses == 2
    assert engine.snapshot()["magazine"] == 112 - 4 * 7 - 1
    with pytest.raises(ConfigError) as err:
        parse_config({"rules": {"deck": "tarot"}})
    assert "rules.deck" in str(err.value)


THREE_MISTAKES = """
[hardware.pins]
hit = "seventeen"

[speech]
volume = 3.0

[web]
port = "eighty"
"""


def test_three_mistakes_in_three_adapter_sections_are_reported_together(tmp_path: Path):
    path = tmp_path / "config.toml"
    path.write_text(THREE_MISTAKES, encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert len(err.value.problems) == 3
    assert [p.split(":")[0] for p in err.value.problems] == [
        "hardware.pins.hit",
        "speech.volume",
        "web.port",
    ]


@pytest.mark.parametrize("command", ["run", "doctor", "simulate"])
def test_run_and_doctor_refuse_a_bad_file_with_every_problem_before_starting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
):
    from companion.cli import main

    path = tmp_path / "config.toml"
    path.write_text(THREE_MISTAKES + '\n[table]\nlanguage = "de"\n', encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        main([command, "--config", str(path), "--state-dir", str(tmp_path / "state")])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    for key in ("hardware.pins.hit", "speech.volume", "web.port", "table.language"):
        assert key in err
    assert "4 problem(s)" in err
    assert not (tmp_path / "state").exists()  # nothing started, nothing written


def test_a_configuration_built_in_code_is_checked_whole_when_the_daemon_starts(tmp_path: Path):
    from companion.daemon import Daemon, DaemonOptions, StartupError

    config = Config(hardware=HardwareConfig(pins=PinsConfig(hit=99)), web=WebConfig(port=-1))
    with pytest.raises(StartupError) as err:
        Daemon(config, DaemonOptions(state_dir=tmp_path, simulate=True, web=False)).start()
    assert "hardware.pins.hit" in str(err.value) and "web.port" in str(err.value)
    assert not list(tmp_path.iterdir())  # checked before the database was opened


CONFIG_WITH_ACCENTS = '[table]\nplayers = ["Zoé", "Bruno", "Chloé"]\n'


@pytest.mark.parametrize(
    "encoding",
    ["utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "cp1252", "latin-1"],
)
def test_common_encodings_are_read(tmp_path: Path, encoding: str):
    # Notepad saves "UTF-8 with BOM", "Unicode" (UTF-16 with BOM) or "ANSI" (Windows-1252).
    path = tmp_path / "config.toml"
    path.write_bytes(CONFIG_WITH_ACCENTS.encode(encoding))
    assert load_config(path).table.players == ["Zoé", "Bruno", "Chloé"]


def test_a_broken_utf16_file_is_a_clear_error_naming_the_encoding(tmp_path: Path):
    path = tmp_path / "config.toml"
    path.write_bytes(CONFIG_WITH_ACCENTS.encode("utf-16") + b"\x00")  # an odd byte at the end
    with pytest.raises(ConfigError, match=r"UTF-16.*save it again as UTF-8"):
        load_config(path)


def test_bytes_in_no_common_encoding_are_a_clear_error(tmp_path: Path):
    path = tmp_path / "config.toml"
    path.write_bytes(b'[table]\nlanguage = "fr"\ndealer = "\x81"\n')
    with pytest.raises(ConfigError, match=r"line 3: byte 0x81 is neither UTF-8 nor Windows-1252"):
        load_config(path)


def _check_in_a_child(path: Path) -> subprocess.CompletedProcess[str]:
    # A child process: a configuration that made the program wait for ever fails the test at
    # the timeout instead of holding the whole run.
    return subprocess.run(
        [sys.executable, "-m", "companion", "config", "check", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_configuration_that_is_no_small_regular_file_is_one_line_and_exit_status_2(
    tmp_path: Path,
) -> None:
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.toml"
    zero.symlink_to("/dev/zero")
    huge = tmp_path / "huge.toml"
    huge.write_text("# " + "x" * (MAX_CONFIG_BYTES + 10) + "\n", encoding="utf-8")
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    cases = {
        fifo: "not a regular file (a FIFO)",
        zero: "not a regular file (a device)",
        tmp_path: "not a regular file (a folder)",
        huge: "larger than 1024 KB",
        deep: "nested too deeply",
        tmp_path / "missing.toml": "cannot read the file",
    }
    for path, words in cases.items():
        done = _check_in_a_child(path)
        assert done.returncode == 2, (path, done.stderr[-300:])
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and words in lines[0] and str(path) in lines[0], lines


def test_threads_that_cannot_start_say_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.cli import main

    def refused(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")  # as under ulimit -v 400 MB

    monkeypatch.setattr(threading.Thread, "start", refused)
    state = ["--state-dir", str(tmp_path / "state")]
    status = main(["simulate", "--no-voice", "--host", "127.0.0.1", "--port", "0", *state])
    assert status == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "ulimit" in err[0] and "can't start new thread" in err[0]
