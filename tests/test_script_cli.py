"""``uno-companion simulate --script``: the scripted session on the command line."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.core.script import ScriptError, parse_line

EXAMPLE = """\
# A worked example: four players, Alice deals, Bruno starts.
players Alice Bruno Chloé David
play 7 red                       # Bruno
play hit2 red                    # Chloé: David presses twice
press
press
play coup_extreme blue target Bruno   # Alice attacks Bruno
press                            # Bruno, once
press                            # Alice, twice
press
play bogus                       # a bad line: reported, the session goes on
play reverse blue                # Bruno reverses: Alice is next
"""


def simulate(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", "simulate", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_script_from_stdin_traces_every_event():
    """Run through the daemon on mock pins: every line's record, and after each firing the
    box's own record (the beam counted the cards, written into the press that fired them)."""
    result = simulate("--script", "-", "--seed", "4", stdin=EXAMPLE)
    assert result.returncode == 0, result.stderr
    every = [json.loads(line) for line in result.stdout.splitlines()]
    final = every.pop()  # the round's log as it ends, each line's card whole
    assert final["event"] == "final"
    assert next(line["card"] for line in final["log"] if line["event"] == "play") == {
        "kind": "number",
        "colour": "red",
        "value": 7,
    }
    # The script's lines; the beam's counts are written into the presses they count.
    assert {line["source"] for line in final["log"]} == {"script"}
    records = [r for r in every if r["source"] != "box"]
    assert len(records) == 10  # 11 event lines, one of them bad
    required = {"event", "active", "direction", "facing", "owed", "fired", "magazine", "say"}
    assert all(required <= set(r) for r in every)
    assert "sounds" in records[0]
    hit2 = records[2]
    assert hit2["owed"] == [{"player": "David", "presses": 2, "reason": "hit2"}]
    assert hit2["facing"] == "David" and hit2["active"] == "Alice"
    coup = records[5]
    assert [o["player"] for o in coup["owed"]] == ["Bruno", "Alice"]
    assert coup["say"] == ["Coup Extrême d'Alice sur Bruno !"]
    assert records[-1]["direction"] == "right" and records[-1]["active"] == "Alice"
    assert "line 11: unknown card 'bogus'" in result.stderr
    # Every record names its card and its source, and the log line it became.
    assert records[1]["card"] == {"kind": "number", "colour": "red", "value": 7}
    assert records[3]["card"] is None and {r["source"] for r in records} == {"script"}
    assert [r["seq"] for r in records[1:4]] == [1, 2, 3]
    # The box counted each firing right after it, into the press's own line of the log.
    fired = [r for r in every if r["ejections"]]
    counted = [r for r in every if r["source"] == "box"]
    assert fired and [r["event"] for r in counted] == ["cards_seen"] * len(fired)
    for press, count in zip(fired, counted, strict=True):
        assert every.index(count) == every.index(press) + 1
        assert count["line"] == press["line"] and count["seq"] == press["seq"]
        assert count["hands"] == press["hands"]  # the beam saw what the launcher meant


def test_a_script_mends_a_line_of_the_round_log():
    """The skip was a reverse: ``fix`` replaces line 1, the table is recomputed."""
    script = "players Alice Bruno Chloé David\nplay skip red\npress\nfix 1 play reverse red\n"
    result = simulate("--script", "-", "--seed", "4", "--lang", "en", stdin=script)
    assert result.returncode == 0, result.stderr
    *_, fixed, final = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(line["event"], line["card"]) for line in final["log"]] == [
        ("play", {"kind": "reverse", "colour": "red"}),
        ("press", None),
    ]
    assert fixed["event"] == "replace" and fixed["card"] == {"kind": "reverse", "colour": "red"}
    assert fixed["direction"] == "right" and fixed["active"] == "David"  # Alice pressed
    assert fixed["say"][0] == "Corrected (line 1): the table is recomputed."
    assert fixed["ejections"] == []  # the press's cards are not fired again


def test_same_seed_same_output_and_english(tmp_path: Path):
    script = tmp_path / "s.txt"
    script.write_text(EXAMPLE, encoding="utf-8")
    first = simulate("--script", str(script), "--seed", "9")
    again = simulate("--script", str(script), "--seed", "9")
    assert first.stdout == again.stdout
    english = simulate("--script", str(script), "--seed", "9", "--lang", "en")
    assert "Coup Extrême from Alice on Bruno!" in english.stdout


def test_strict_stops_at_first_bad_line():
    result = simulate("--script", "-", "--strict", stdin="players A B\npress\nfly away\npress\n")
    assert result.returncode == 1
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["line"] for r in records if r["source"] == "script"] == [1, 2]
    assert {r["line"] for r in records} == {1, 2}
    assert "line 3: unknown command 'fly'" in result.stderr


def test_missing_script_file_is_a_clear_error(tmp_path: Path):
    result = simulate("--script", str(tmp_path / "nope.txt"))
    assert result.returncode == 2
    assert "cannot read the script" in result.stderr
    assert "Traceback" not in result.stderr


def test_bad_config_is_reported_with_keys(tmp_path: Path):
    config = tmp_path / "c.toml"
    config.write_text('[table]\nplayers = ["A"]\ncolour = 3\n[launcher]\nprofile = "wild"\n')
    result = simulate("--script", "-", "--config", str(config), stdin="press\n")
    assert result.returncode == 2
    assert "table.colour: unknown key" in result.stderr
    assert "table.players: UNO is for 2 to 10 players" in result.stderr
    assert "launcher.profile: 'wild' is not one of authentic, gentle, fixed" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("press", ("table.press", {})),
        ("press 'Anne Marie'", ("table.press", {"player": "Anne Marie"})),
        ("play 7 rouge", ("table.play", {"card": "number", "value": 7, "colour": "red"})),
        (
            "play coup_extreme green target Chloé by Bruno",
            (
                "table.play",
                {"card": "coup_extreme", "colour": "green", "target": "Chloé", "player": "Bruno"},
            ),
        ),
        (
            "play discard_all yellow count 4",
            ("table.play", {"card": "discard_all", "colour": "yellow", "count": 4}),
        ),
        ("contre-uno Alice", ("table.contre_uno", {"player": "Alice"})),
        ("forgot-uno Alice", ("table.contre_uno", {"player": "Alice"})),
        ("suggest David  # penalty", ("table.suggestion", {"player": "David"})),
        ("start hit2 red", ("table.start_round", {"start_card": "hit2", "colour": "red"})),
        ("reload 70", ("table.reload", {"cards": 70})),
        ("hand Alice 3", ("table.set_hand", {"player": "Alice", "cards": 3})),
        ("redo", ("table.redo", {})),
        ("drop 12", ("table.remove", {"seq": 12})),
        (
            "fix 3 play reverse bleu",
            (
                "table.replace",
                {
                    "seq": 3,
                    "action": "table.play",
                    "payload": {"card": "reverse", "colour": "blue"},
                },
            ),
        ),
        (
            "insert 4 hand 'Anne Marie' 2",
            (
                "table.insert",
                {
                    "before": 4,
                    "action": "table.set_hand",
                    "payload": {"player": "Anne Marie", "cards": 2},
                },
            ),
        ),
        ("   # only a comment", None),
        ("", None),
    ],
)
def test_parse_line(line, expected):
    assert parse_line(line) == expected


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("play", "play needs a card"),
        ("play 7 mauve", "unexpected 'mauve'"),
        ("reload lots", "reload must be a whole number"),
        ("press A B", "press takes 0 to 1 argument(s), got 2"),
        ("play 'unclosed", "cannot split the line"),
        ("hand Alice", "hand takes 2 argument(s), got 1"),
        ("fix 3", "fix takes a line number and what happened"),
        ("insert x play 5 red", "insert's line number must be a whole number"),
    ],
)
def test_parse_errors_say_what_was_expected(line, message):
    with pytest.raises(ScriptError, match=re.escape(message)):
        parse_line(line)
