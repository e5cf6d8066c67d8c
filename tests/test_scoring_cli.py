"""``uno-companion score``: replay, import, list and export against a state directory."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main
from companion.core.scoring import GameSetup, HandEntry, ScoreBook, builtin_ruleset, game_to_json

H = HandEntry


def game_file(tmp_path: Path) -> Path:
    b = ScoreBook(
        GameSetup(
            "Défi du soir", ("Ana", "Bo", "Cy"), builtin_ruleset("extreme"), mode="defi", target=60
        )
    )
    b.record_round(
        {"Ana": H.empty(), "Bo": H.of_cards({"coup_extreme": 2, "n9": 1}), "Cy": H.of_points(10)}
    )
    b.record_round({"Cy": H.empty(), "Ana": H.of_points(5)})
    path = tmp_path / "game.json"
    path.write_text(game_to_json(b), encoding="utf-8")
    return path


def test_replay_prints_the_standings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "replay", str(game_file(tmp_path))]) == 0
    out = capsys.readouterr().out
    assert "Bo" in out and "eliminated in round 1" in out
    assert "Two players left" in out


def test_replay_of_a_bad_file_fails_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "uno-companion/game", "version": 1, "game": 3}')
    assert main(["score", "replay", str(bad)]) == 1
    assert "field game: must be an object" in capsys.readouterr().err
    assert main(["score", "replay", str(tmp_path / "missing.json")]) == 1


def test_import_list_export_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = ["score", "--state-dir", str(tmp_path / "state")]
    assert main([*state, "import", str(game_file(tmp_path))]) == 0
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("round,dealer,winner,side,Ana,Bo\n1,Ana,Ana,,0,17\n", encoding="utf-8")
    assert main([*state, "import", str(sheet), "--target", "200"]) == 0
    broken = tmp_path / "broken.csv"
    broken.write_text("round,dealer,winner,side,Ana,Bo\n1,,Ana,,0,x\n", encoding="utf-8")
    capsys.readouterr()
    assert main([*state, "import", str(broken)]) == 1
    assert "CSV line 2" in capsys.readouterr().err
    assert main([*state, "list"]) == 0
    listing = capsys.readouterr().out.splitlines()
    assert len(listing) == 2 and "Défi du soir" in listing[0]
    game_id = listing[1].split()[0]
    assert main([*state, "export", game_id, "--format", "csv"]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [
        # the settings an import needs: target, rules... by their names
        "sheet,,200,Winner scores the others' cards,Classic UNO,",
        "round,dealer,winner,side,Ana,Bo,Ana — points,Ana — total,Bo — points,Bo — total",
        "1,Ana,Ana,,0,17,17,17,0,0",
    ]
    assert main([*state, "export", game_id, "--format", "csv", "--lang", "fr"]) == 0
    assert capsys.readouterr().out.splitlines()[2:] == [
        "manche;donneur;gagnant;côté;Ana;Bo;Ana — points;Ana — total;Bo — points;Bo — total",
        "1;Ana;Ana;;0;17;17;17;0;0",
    ]
    out = tmp_path / "out.json"
    assert main([*state, "export", game_id, "-o", str(out)]) == 0
    assert main(["score", "replay", str(out)]) == 0
    assert main([*state, "export", "nope"]) == 1


def test_score_list_finds_the_simulations_games_or_says_where_they_are(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``simulate`` keeps its scores apart from a box's: ``score --simulate`` reads them, and a
    box's empty list names the folder where the simulation's games are."""
    for name in ("STATE_DIRECTORY", "UNO_COMPANION_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert main(["score", "--simulate", "import", str(game_file(tmp_path))]) == 0
    capsys.readouterr()
    assert main(["score", "list"]) == 0
    said = capsys.readouterr().out
    simulation = tmp_path / "xdg" / "uno-companion" / "simulate"
    assert f"No games yet in {tmp_path / 'xdg' / 'uno-companion'}." in said
    assert f"1 game(s) in {simulation}" in said and "score --simulate list" in said
    assert main(["score", "--simulate", "list"]) == 0
    assert "Défi du soir" in capsys.readouterr().out
