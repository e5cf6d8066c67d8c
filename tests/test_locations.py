"""Every command finds its configuration file and its state directory the same way."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import locations
from companion.config import ConfigError


def test_config_file_precedence(tmp_path: Path):
    system = tmp_path / "etc.toml"
    home = tmp_path / "home"
    user = home / "uno-companion" / "config.toml"
    env = {"XDG_CONFIG_HOME": str(home)}
    assert locations.config_file(None, env, system) is None  # nothing found: defaults
    user.parent.mkdir(parents=True)
    user.write_text("")
    assert locations.config_file(None, env, system) == user
    system.write_text("")
    assert locations.config_file(None, env, system) == system
    chosen = {**env, locations.CONFIG_ENV: "/srv/box.toml"}
    assert locations.config_file(None, chosen, system) == Path("/srv/box.toml")
    assert locations.config_file(Path("mine.toml"), chosen, system) == Path("mine.toml")


def test_state_dir_precedence():
    storage = {"state_dir": "/var/lib/scores"}
    env = {"XDG_STATE_HOME": "/x/state"}
    assert locations.state_dir(None, environ={}) == (
        Path.home() / ".local" / "state" / "uno-companion"
    )
    assert locations.state_dir(None, environ=env) == Path("/x/state/uno-companion")
    assert locations.state_dir(None, storage, environ=env) == Path("/var/lib/scores")
    systemd = {**env, "STATE_DIRECTORY": "/var/lib/uno-companion:/var/lib/other"}
    assert locations.state_dir(None, storage, environ=systemd) == Path("/var/lib/uno-companion")
    assert locations.state_dir(Path("/tmp/s"), storage, environ=systemd) == Path("/tmp/s")


def test_a_simulation_keeps_its_scores_apart_unless_told():
    env = {"STATE_DIRECTORY": "/var/lib/uno-companion"}
    simulated = locations.state_dir(None, simulate=True, environ=env)
    assert simulated == Path("/var/lib/uno-companion/simulate")
    assert locations.state_dir(Path("/tmp/s"), simulate=True, environ=env) == Path("/tmp/s")


def test_a_bad_storage_setting_names_the_key():
    with pytest.raises(ConfigError, match=r"storage\.state_dir"):
        locations.state_dir(None, {"state_dir": 3}, environ={})
