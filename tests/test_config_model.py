"""One declaration per section, house rule and payload: the file, the example, the reference, the
JSON schema and the OpenAPI document all come from it; a misspelt key gets "did you mean"."""

from __future__ import annotations

import shutil
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path

import pytest

from companion.config import Config, ConfigError, RulesConfig, load_config, parse_config
from companion.config.render import (
    REFERENCE_END,
    REFERENCE_START,
    example_toml,
    reference_markdown,
    with_reference,
)
from companion.core.actions import TABLE_ACTION_PAYLOADS, TABLE_ACTION_SCHEMAS, table_event
from companion.core.errors import ActionError
from companion.core.model import json_schema, option, parse
from companion.core.options import rules_fields, rules_schema, with_changes
from companion.core.payload import validate_payload

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------- generated files


def test_the_committed_example_is_what_the_declarations_give():
    """`make config-files` rewrites it; edit the declarations, then regenerate."""
    committed = (ROOT / "config.example.toml").read_text(encoding="utf-8")
    assert committed == example_toml()


def test_the_committed_reference_is_what_the_declarations_give():
    committed = (ROOT / "docs" / "config.md").read_text(encoding="utf-8")
    assert with_reference(committed) == committed
    between = committed.split(REFERENCE_START)[1].split(REFERENCE_END)[0]
    assert between.strip() == reference_markdown().strip()


def test_the_example_shows_every_key_at_its_default():
    data = tomllib.loads(example_toml())
    config = parse_config(data)
    assert config.hardware == Config().hardware and config.rules == Config().rules
    # Every key of every section is written (the custom profile is an example of its own).
    assert set(data["rules"]) == {f.name for f in fields(RulesConfig)}
    assert set(data["hardware"]["pins"]) == {f.name for f in fields(type(Config().hardware.pins))}
    assert data["launcher"]["profiles"]["party"]["cards"] == [1, 4, 0, 2]


def test_the_reference_lists_every_key_with_its_limits():
    text = reference_markdown()
    assert "### `[hardware.pins]`" in text and "### `[launcher.profiles.NAME]`" in text
    assert "| `port` | `8080` | a whole number, 1 to 65535 |" in text
    assert '| `language` | `"fr"` | one of `fr`, `en` |' in text
    assert '| `pin` | `""` | a string, 0 to 64 characters |' in text


def test_the_config_command_prints_and_rewrites_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    from companion.cli import main

    assert main(["config", "example"]) == 0
    assert capsys.readouterr().out == example_toml()
    doc = tmp_path / "config.md"
    shutil.copy(ROOT / "docs" / "config.md", doc)
    stale = doc.read_text(encoding="utf-8").replace("| `port` | `8080`", "| `port` | `80`")
    doc.write_text(stale, encoding="utf-8")
    assert main(["config", "reference", "--into", str(doc)]) == 0
    assert doc.read_text(encoding="utf-8") == (ROOT / "docs" / "config.md").read_text("utf-8")


def test_config_check_lists_every_problem_and_starts_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    from companion.cli import main

    path = tmp_path / "box.toml"
    path.write_text('[table]\nlangage = "en"\n[speach]\nrate = 100\n', encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        main(["config", "check", str(path)])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "2 problem(s)" in err
    assert "table.langage: unknown key, did you mean 'language'?" in err
    assert "speach: unknown section, did you mean 'speech'?" in err
    path.write_text('[table]\nlanguage = "en"\n', encoding="utf-8")
    assert main(["config", "check", str(path)]) == 0
    assert f"{path}: ok" in capsys.readouterr().out


# ---------------------------------------------------------------------- did you mean


def test_a_misspelt_key_names_the_one_meant_at_every_depth():
    with pytest.raises(ConfigError) as err:
        parse_config(
            {
                "hardwre": {},
                "hardware": {"pins": {"HIT": 17, "buzer": 16}, "turret": {"zzz": 1}},
                "launcher": {"profiles": {"mine": {"fire_chanse": [1.0]}}},
            }
        )
    problems = err.value.problems
    assert problems[0].startswith("hardwre: unknown section, did you mean 'hardware'? (allowed: ")
    assert "hardware.pins.HIT: unknown key, did you mean 'hit'?" in problems[1]
    assert "hardware.pins.buzer: unknown key, did you mean 'buzzer'?" in problems[2]
    # Nothing near: the list alone.
    assert problems[3].startswith("hardware.turret.zzz: unknown key (allowed: min_angle, ")
    assert "did you mean" not in problems[3]
    assert any(
        p.startswith("launcher.profiles.mine.fire_chanse: unknown key, did you mean 'fire_chance'?")
        for p in problems
    )


def test_a_misspelt_payload_field_names_the_one_meant():
    with pytest.raises(ActionError) as err:
        validate_payload(TABLE_ACTION_SCHEMAS["table.play"], {"card": "skip", "colur": "red"})
    assert err.value.key == "errors.unknown_field_near"
    assert err.value.params == {"field": "colur", "suggestion": "colour"}
    assert "did you mean 'colour'?" in str(err.value)
    with pytest.raises(ActionError) as far:
        validate_payload(TABLE_ACTION_SCHEMAS["table.play"], {"card": "skip", "zzz": 1})
    assert far.value.key == "errors.unknown_field" and "did you mean" not in str(far.value)
    # A house rule misspelt in the table.rules action, or in a change the engine applies.
    with pytest.raises(ActionError) as rule:
        with_changes(RulesConfig(), {"stacking_mixx": True})
    assert rule.value.params["suggestion"] == "stacking_mix"


def test_the_suggestion_is_translated():
    from companion.i18n import Catalog

    catalog = Catalog.load()
    params = {"field": "colur", "suggestion": "colour"}
    assert catalog.text("errors.unknown_field_near", "en", params) == (
        "Unknown field: colur. Did you mean colour?"
    )
    assert "Vouliez-vous dire colour" in catalog.text("errors.unknown_field_near", "fr", params)


# ---------------------------------------------------------------------- the checks


def test_config_texts_pass_the_payload_validators_text_checks():
    decomposed = "Chloe\u0301"
    config = parse_config({"table": {"players": [decomposed, "Bruno"], "dealer": decomposed}})
    assert config.table.players[0] == "Chloé" == config.table.dealer  # NFC, one player
    with pytest.raises(ConfigError) as err:
        parse_config({"table": {"players": ["A\ud800", "B\u202eC", "D"]}})
    problems = err.value.problems
    assert problems[0] == ("table.players[0]: holds a character that is not text (U+D800)")
    assert problems[1].startswith("table.players[1]: would not show as typed")


def test_bad_input_loses_nothing_else():
    """A key at fault keeps its default; every other key of the section is read."""
    problems: list[str] = []
    speech = parse(
        type(Config().speech),
        {"rate": 20, "voice_fr": "roa/fr+f3", "volume": 0.4},
        "speech",
        problems,
    )
    assert problems == ["speech.rate: 20 is below the minimum 80"]
    assert (speech.rate, speech.voice_fr, speech.volume) == (165, "roa/fr+f3", 0.4)


def test_a_file_is_read_once_into_typed_sections(tmp_path: Path):
    path = tmp_path / "box.toml"
    path.write_text(
        '[web]\nport = 8081\n[camera]\nenabled = true\nsource = "0"\n[storage]\n'
        'state_dir = "/srv/uno"\n[speech]\nvolume = 1\n',
        encoding="utf-8",
    )
    config = load_config(path)
    assert config.web.port == 8081 and config.camera.size == (640, 480)
    assert config.storage.state_dir == "/srv/uno"
    assert config.speech.volume == 1.0 and isinstance(config.speech.volume, float)


# ---------------------------------------------------------------------- schemas


def test_the_rules_schema_is_the_declaration():
    schema = rules_schema()
    assert schema["additionalProperties"] is False and schema["required"] == []
    assert list(schema["properties"]) == [f.name for f in fields(RulesConfig)]
    deck = schema["properties"]["deck"]
    assert deck["type"] == "string" and deck["default"] == "extreme"
    assert deck["enum"] == ["extreme", "classic", "old_sheet", "flip", "toy_story", "emoji"]
    assert deck["description"].startswith("the deck on the table")
    presses = schema["properties"]["contre_uno_presses"]
    assert (presses["type"], presses["minimum"], presses["maximum"]) == ("integer", 0, 10)
    assert TABLE_ACTION_SCHEMAS["table.rules"] == schema
    editor = {field["name"]: field for field in rules_fields()}
    assert editor["deck"]["help"] == deck["description"]


def test_a_house_rules_change_is_checked_against_the_declaration():
    assert with_changes(RulesConfig(), {"deck": "flip"}).deck == "flip"
    for change, key in (
        ({"contre_uno_presses": 99}, "errors.bad_range"),
        ({"deck": "tarot"}, "errors.bad_choice"),
        ({"stacking": 1}, "errors.bad_type"),
    ):
        with pytest.raises(ActionError) as err:
            with_changes(RulesConfig(), change)
        assert err.value.key == key and err.value.params["field"] == next(iter(change))


def test_a_declared_payload_gives_its_schema():
    @dataclass(frozen=True, kw_only=True)
    class Rename:
        """A player's new name."""

        player: str = option(help="who", min_length=1, max_length=40)
        name: str = option(help="the new name", min_length=1, max_length=40)
        loud: bool = option(False, "say it")

    schema = json_schema(Rename)
    assert schema == {
        "type": "object",
        "description": "A player's new name.",
        "properties": {
            "player": {"type": "string", "minLength": 1, "maxLength": 40, "description": "who"},
            "name": {
                "type": "string",
                "minLength": 1,
                "maxLength": 40,
                "description": "the new name",
            },
            "loud": {"type": "boolean", "description": "say it", "default": False},
        },
        "required": ["player", "name"],
        "additionalProperties": False,
    }
    assert validate_payload(schema, {"player": "Zoe\u0301", "name": "Zo"}) == {
        "player": "Zoé",
        "name": "Zo",
    }


def test_every_table_action_payload_is_declared_once():
    for name, payload in TABLE_ACTION_PAYLOADS.items():
        schema = TABLE_ACTION_SCHEMAS[name]
        assert schema == json_schema(payload), name
        assert list(schema["properties"]) == [f.name for f in fields(payload)], name
        assert all(prop.get("description") for prop in schema["properties"].values()), name
    play = TABLE_ACTION_SCHEMAS["table.play"]
    assert play["required"] == ["card"] and play["properties"]["count"]["default"] == 1
    assert play["properties"]["player"] == {
        "type": "string",
        "minLength": 1,
        "maxLength": 40,
        "description": "who played it (default: the player whose turn it is)",
    }
    # A mended line names any action but the mending ones.
    mended = TABLE_ACTION_SCHEMAS["table.replace"]["properties"]["action"]["enum"]
    assert "table.play" in mended and "table.replace" not in mended
    with pytest.raises(ActionError) as err:
        table_event("table.setup", {"players": ["Alice", ""]})
    assert err.value.key == "errors.bad_length" and err.value.params["field"] == "players[1]"


def test_the_openapi_document_publishes_the_declared_house_rules():
    from tests.test_web_api import make_app, make_hub

    hub = make_hub()
    doc = make_app(hub).test_client().get("/api/openapi.json").get_json()
    body = doc["paths"]["/api/actions/table.rules"]["post"]["requestBody"]
    payload = body["content"]["application/json"]["schema"]["properties"]["payload"]
    assert payload == rules_schema()
    assert payload["properties"]["challenge_guilty"]["enum"] == ["instead", "replay", "plus_two"]
    play = doc["paths"]["/api/actions/table.play"]["post"]["requestBody"]
    described = play["content"]["application/json"]["schema"]["properties"]["payload"]
    assert described == json_schema(TABLE_ACTION_PAYLOADS["table.play"])
    assert described["properties"]["card"]["description"] == "the card's kind"


def test_the_query_strings_are_their_declarations():
    from companion.web.queries import RoundsQuery, bounds, query_parameters
    from tests.test_web_api import make_app, make_hub

    client = make_app(make_hub()).test_client()
    doc = client.get("/api/openapi.json").get_json()
    params = doc["paths"]["/api/score/rounds"]["get"]["parameters"]
    assert [p for p in params if p["in"] == "query"] == query_parameters(RoundsQuery)
    assert params[-1]["schema"] == {"type": "integer", "minimum": 1, "maximum": 200}
    low, high = bounds(RoundsQuery, "limit")
    assert client.get(f"/api/score/rounds?limit={high + 1}").status_code == 400
    assert client.get(f"/api/score/rounds?limit={low - 1}").status_code == 400


def test_the_services_payloads_are_declared_with_their_help(tmp_path: Path):
    """Every service's actions, as a running box registers them."""
    from companion.app.voice import VoiceSwitch, VoiceVolume
    from companion.daemon import Daemon, DaemonOptions

    options = DaemonOptions(state_dir=tmp_path, simulate=True, web=False, voice=False)
    daemon = Daemon(Config(), options).start()
    try:
        schemas = daemon.hub.action_schemas()
    finally:
        daemon.stop()
    declared = {
        n: s
        for n, s in schemas.items()
        if n.split(".")[0]
        in ("table", "device", "evening", "score", "settings", "players", "storage")
    }
    assert {"table.play", "device.face", "device.test_fire", "evening.record"} <= set(declared)
    assert {"score.correct_round", "settings.update", "players.rename", "storage.restore"} <= set(
        declared
    )
    for name, schema in [*declared.items(), ("page.colours", schemas["page.colours"])]:
        assert all(p.get("description") for p in schema["properties"].values()), name
    assert schemas["device.test_fire"]["properties"]["cards"] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 5,
        "description": "how many cards",
        "default": 1,
    }
    colours = schemas["page.colours"]["properties"]["colours"]
    assert colours["maxProperties"] == 10 and colours["additionalProperties"]["maximum"] == 7
    # The voice's (registered when the box has a voice).
    assert json_schema(VoiceVolume)["properties"]["level"]["maximum"] == 10
    assert json_schema(VoiceSwitch)["required"] == ["enabled"]


def test_a_key_an_older_release_wrote_is_read_past_and_a_misspelt_one_is_not(
    tmp_path: Path,
) -> None:
    old = tmp_path / "old.toml"
    old.write_text("[hardware.ejector]\npull_back_s = 0.1\nfeed_mm_s = 150.0\n", encoding="utf-8")
    assert load_config(old).hardware.ejector.feed_mm_s == 150.0
    old.write_text("[hardware.ejector]\npull_back = 0.1\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="pull_back"):
        load_config(old)
