"""JSON and CSV game files, refusal of malformed files, stats and the message catalog."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from companion.core.scoring import (
    GameSetup,
    HandEntry,
    ScoreBook,
    ScoringError,
    builtin_ruleset,
    compute_stats,
    game_from_csv,
    game_from_json,
    game_to_csv,
    game_to_json,
    teams_across,
)
from companion.core.scoring.errors import ENGLISH
from companion.i18n import Catalog

H = HandEntry
PLAYERS = ("Ana", "Bo", "Cy")


def sample() -> ScoreBook:
    b = ScoreBook(GameSetup("Vendredi", PLAYERS, builtin_ruleset("flip"), date="2024-05-03"))
    b.record_round(
        {"Ana": H.empty(), "Bo": H.of_cards({"wild": 1}), "Cy": H.of_points(12)}, side="light"
    )
    b.record_round(
        {"Bo": H.empty(), "Ana": H.of_cards({"draw5": 2}), "Cy": H.of_points(3)},
        side="dark",
        at="2024-05-03T21:00:00Z",
    )
    b.correct_round(1, {"Ana": H.empty(), "Bo": H.of_cards({"wild": 1}), "Cy": H.of_points(2)})
    b.undo()
    return b


def test_json_round_trip_keeps_the_whole_log() -> None:
    b = sample()
    text = game_to_json(b)
    data = json.loads(text)
    assert data["format"] == "uno-companion/game" and data["version"] == 1
    assert [e["type"] for e in data["log"]] == [
        "round_recorded",
        "round_recorded",
        "round_corrected",
        "undo",
    ]
    again = game_from_json(text)
    assert again.entries == b.entries and again.standings() == b.standings()
    assert again.setup.ruleset == b.setup.ruleset


@pytest.mark.parametrize(
    ("mangle", "key", "words"),
    [
        (lambda t: t[:-20], "import_not_json", "line"),
        (lambda t: t.replace('"uno-companion/game"', '"other"'), "import_bad_format", "other"),
        (lambda t: t.replace('"version": 1', '"version": 9'), "import_bad_version", "9"),
        (lambda t: t.replace('"players": [', '"players": 3, "x": ['), "import_field", "players"),
        (lambda t: t.replace('"wild": 1', '"wild": 9'), "import_entry", "deck holds"),
        (lambda t: t.replace('"type": "undo"', '"type": "oops"'), "import_field", "log[4].type"),
        (lambda t: t.replace('"seq": 2', '"seq": 7'), "import_entry", "seq"),
        (lambda t: t.replace('"total": 52', '"total": 53'), "import_standings_mismatch", "53"),
    ],
)
def test_malformed_json_is_refused_naming_the_problem(mangle, key: str, words: str) -> None:  # type: ignore[no-untyped-def]
    text = game_to_json(sample())
    bad = mangle(text)
    assert bad != text
    with pytest.raises(ScoringError) as refused:
        game_from_json(bad)
    assert refused.value.key == key
    assert words in str(refused.value)


@pytest.mark.parametrize(
    ("field", "place", "longest"),
    [
        ("id", lambda data: data["game"], 64),
        ("date", lambda data: data["game"], 40),
        ("name", lambda data: data["game"], 80),
        ("notes", lambda data: data["game"]["ruleset"], 2_000),
        ("at", lambda data: data["log"][0], 40),
    ],
)
def test_a_field_past_its_size_is_refused_naming_it(field: str, place, longest: int) -> None:  # type: ignore[no-untyped-def]
    # Every stored game is listed to every phone: one 4 MB id would be sent at every change.
    data = json.loads(game_to_json(sample()))
    place(data)[field] = "x" * longest
    game_from_json(json.dumps(data))  # at the limit: kept
    place(data)[field] = "x" * 4_000_000
    with pytest.raises(ScoringError) as refused:
        game_from_json(json.dumps(data))
    assert refused.value.key == "import_too_long"
    assert field in refused.value.params["field"] and str(longest) in str(refused.value)
    french = Catalog.load().text("scoring.error.import_too_long", "fr", refused.value.params)
    assert f"plus de {longest} caractères" in french


def test_csv_export_then_import_gives_the_same_standings() -> None:
    b = ScoreBook(GameSetup("Sheet", PLAYERS, builtin_ruleset("classic"), first_dealer="Bo"))
    b.record_round({"Ana": H.empty(), "Bo": H.of_cards({"n9": 1}), "Cy": H.of_points(12)})
    b.record_round({"Cy": H.empty(), "Bo": H.of_points(30), "Ana": H.of_points(0)})
    text = game_to_csv(b)
    # The hands left, then each one's points this round and running total; readable names.
    assert text.splitlines()[1:] == [
        "Sheet,,500,Winner scores the others' cards,Classic UNO,",
        "round,dealer,winner,side,Ana,Bo,Cy,Ana — points,Ana — total,Bo — points,Bo — total,"
        "Cy — points,Cy — total",
        "1,Bo,Ana,,0,9,12,21,21,0,0,0,0",
        "2,Cy,Cy,,0,30,0,0,21,0,0,30,30",
    ]
    again = game_from_csv(text, name="Sheet", ruleset=builtin_ruleset("classic"))
    assert again.standings() == b.standings()
    assert again.setup.mode == "winner_takes" and again.setup.ruleset.key == "classic"
    french = game_to_csv(b, "fr")
    assert (
        french.splitlines()[1]
        == "Sheet;;500;Le gagnant marque les points des autres;UNO classique;"
    )
    assert game_from_csv(french, name="?", ruleset=builtin_ruleset("extreme")).standings() == (
        b.standings()
    )


@pytest.mark.parametrize(
    "sheet",
    [
        # as the box wrote them before the scores and the readable names
        "\ufeffgame,date,target,mode,ruleset,teams\nSheet,,500,winner_takes,classic,\n"
        "round,dealer,winner,side,Ana,Bo,Cy\n1,Bo,Ana,,0,9,12\n2,Cy,Cy,,0,30,0\n",
        "\ufeffpartie;date;objectif;mode;règles;équipes\nSheet;;500;winner_takes;classic;\n"
        "manche;donneur;gagnant;côté;Ana;Bo;Cy\n1;Bo;Ana;;0;9;12\n2;Cy;Cy;;0;30;0\n",
        "round,dealer,winner,side,Ana,Bo,Cy\n1,Bo,Ana,,0,9,12\n2,Cy,Cy,,0,30,0\n",
    ],
)
def test_every_sheet_the_box_wrote_before_still_comes_back(sheet: str) -> None:
    b = ScoreBook(GameSetup("Sheet", PLAYERS, builtin_ruleset("classic"), first_dealer="Bo"))
    b.record_round({"Ana": H.empty(), "Bo": H.of_points(9), "Cy": H.of_points(12)})
    b.record_round({"Cy": H.empty(), "Bo": H.of_points(30), "Ana": H.of_points(0)})
    again = game_from_csv(sheet, name="Sheet", ruleset=builtin_ruleset("classic"))
    assert again.standings() == b.standings() and again.setup.players == PLAYERS


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_sheet_of_a_custom_ruleset_comes_back_on_a_box_without_it(lang: str) -> None:
    house = replace(
        builtin_ruleset("classic"),
        key="maison",
        name_fr="Règles de la maison",
        name_en="House rules",
        builtin=False,
    )
    b = ScoreBook(GameSetup("Maison", PLAYERS, house, target=200))
    b.record_round({"Ana": H.empty(), "Bo": H.of_points(30), "Cy": H.of_points(12)})
    text = game_to_csv(b, lang)
    # no rulesets of its own on this box: the sheet carries the whole ruleset
    again = game_from_csv(text, name="?", ruleset=builtin_ruleset("classic"))
    assert again.setup.ruleset == house and again.setup.target == 200
    assert again.standings() == b.standings()
    # a built-in ruleset is written by its name only
    assert ",Classic UNO," in game_to_csv(
        ScoreBook(GameSetup("S", PLAYERS, builtin_ruleset("classic")))
    )
    broken = text.replace('"key"', '"clé"', 1)
    with pytest.raises(ScoringError) as refused:
        game_from_csv(broken, name="?", ruleset=builtin_ruleset("classic"))
    assert refused.value.key == "import_csv_header"


@pytest.mark.parametrize(
    ("text", "key", "words"),
    [
        ("", "import_csv_empty", "empty"),
        ("player,points\nAna,3\n", "import_csv_header", "must start with"),
        ("round,dealer,winner,side,Ana,Ana\n", "import_csv_header", "twice"),
        ("round,dealer,winner,side,Ana,Bo\n1,,Ana,,0\n", "import_csv_row", "line 2"),
        ("round,dealer,winner,side,Ana,Bo\n1,,Ana,,0,lots\n", "import_csv_row", "'lots'"),
        ("round,dealer,winner,side,Ana,Bo\n2,,Ana,,0,5\n", "import_csv_row", "expected 1"),
        ("round,dealer,winner,side,Ana,Bo\n1,,Zed,,0,5\n", "import_csv_row", "Zed"),
        (
            "round,dealer,winner,side,Ana,Bo\n1,,Ana,,0,5\n2,Ana,Bo,,5,0\n",
            "import_csv_row",
            "to the left",
        ),
        ("round,dealer,winner,side,Ana,Bo\n1,,Ana,,0,99999\n", "import_csv_row", "deck is worth"),
    ],
)
def test_malformed_csv_is_refused_naming_the_line(text: str, key: str, words: str) -> None:
    with pytest.raises(ScoringError) as refused:
        game_from_csv(text, name="x", ruleset=builtin_ruleset("classic"))
    assert refused.value.key == key
    assert words in str(refused.value)


def test_stats_over_games_wins_averages_best_round_and_head_to_head() -> None:
    classic = builtin_ruleset("classic")
    g1 = ScoreBook(GameSetup("one", ("Ana", "Bo"), classic, target=50))
    g1.record_round({"Ana": H.empty(), "Bo": H.of_points(30)})
    g1.record_round({"Ana": H.empty(), "Bo": H.of_points(25)})
    g2 = ScoreBook(GameSetup("two", ("Ana", "Bo", "Cy"), classic, mode="lowest_wins", target=40))
    g2.record_round({"Cy": H.empty(), "Ana": H.of_points(45), "Bo": H.of_points(10)})
    g3 = ScoreBook(GameSetup("three", ("Ana", "Bo"), classic))  # unfinished
    g3.record_round({"Bo": H.empty(), "Ana": H.of_points(70)})
    stats = compute_stats([g1, g2, g3])
    ana, bo = stats.player("Ana"), stats.player("Bo")
    assert (ana.games, ana.finished_games, ana.wins) == (3, 2, 1)
    assert stats.player("Cy").wins == 1
    assert ana.best_round is not None and (ana.best_round.points, ana.best_round.game) == (
        30,
        "one",
    )
    assert bo.best_round is not None and bo.best_round.points == 70
    assert bo.average_hand == pytest.approx((30 + 25 + 10 + 0) / 4)
    h2h = stats.versus("Ana", "Bo")
    assert (h2h.games, h2h.ahead, h2h.behind) == (2, 1, 1)
    assert stats.versus("Cy", "Ana").ahead == 1


def test_team_wins_count_for_each_member() -> None:
    four = ("A", "B", "C", "D")
    g = ScoreBook(
        GameSetup("t", four, builtin_ruleset("classic"), teams=teams_across(four), target=10)
    )
    g.record_round({"A": H.empty(), "B": H.of_points(6), "D": H.of_points(6)})
    stats = compute_stats([g])
    assert stats.player("A").wins == stats.player("C").wins == 1
    assert stats.player("B").wins == 0
    assert stats.versus("A", "C").games == 0 and stats.versus("A", "B").ahead == 1


def test_every_error_has_french_and_english_text_and_english_matches_str() -> None:
    catalog = Catalog.load()
    for key, english in ENGLISH.items():
        assert catalog.text(f"scoring.error.{key}", "en") == english
        assert f"scoring.error.{key}" in catalog.keys("fr")
    for ruleset in (builtin_ruleset(k) for k in ("classic", "flip", "extreme")):
        assert catalog.text(f"scoring.ruleset.{ruleset.key}", "fr") == ruleset.name_fr
        for kind in ruleset.kinds:
            if kind.number is None:
                assert catalog.text(f"scoring.kind.{ruleset.key}.{kind.key}", "fr") == kind.label_fr
    for mode in ("winner_takes", "lowest_wins", "defi"):
        assert catalog.text(f"scoring.mode.{mode}", "en") != f"scoring.mode.{mode}"
    try:
        ScoreBook(GameSetup("x", ("A", "B"), builtin_ruleset("classic"))).record_round(
            {"A": H.empty(), "B": H.of_cards({"wild": 5})}
        )
    except ScoringError as error:
        french = catalog.text(error.catalog_key, "fr", error.params)
        assert french == "B : 5 × Joker, c’est plus que n’en contient le paquet (4)"
    else:
        pytest.fail("five wilds accepted")


def test_a_sheet_saved_by_a_french_spreadsheet_is_read() -> None:
    # Semicolons between columns and a byte-order mark first, as a French spreadsheet saves it.
    text = "\ufeffround;dealer;winner;side;Ana;Bo\n1;;Ana;;0;12\n2;;Bo;;7;0\n"
    book = game_from_csv(text, name="Sheet", ruleset=builtin_ruleset("classic"))
    assert [r.winner for r in book.history()] == ["Ana", "Bo"]


def test_a_refused_header_names_the_separators() -> None:
    with pytest.raises(ScoringError) as refused:
        game_from_csv("Manche|Ana|Bo\n", name="x", ruleset=builtin_ruleset("classic"))
    assert "separated by ',' or ';'" in str(refused.value)


def test_import_refusals_read_whole_in_french() -> None:
    """The json and csv modules' own English never shows inside a French message; a game file
    that an editor saved with a byte-order mark is read."""
    catalog = Catalog.load()
    assert game_from_json("\ufeff" + game_to_json(sample())).standings() == sample().standings()
    for broken, words in (
        ('{"format": ', "une valeur manque"),
        ('{"format": "x" "y"}', "virgule"),
        ('{"format": "x"} trailing', "du texte suit"),
    ):
        with pytest.raises(ScoringError) as refused:
            game_from_json(broken)
        french = catalog.text(refused.value.catalog_key, "fr", refused.value.params)
        assert words in french and "Expecting" not in french and "Extra" not in french
    row = "round,dealer,winner,side,Ana,Bo\n1,,Ana,,0," + "9" * 200_000 + "\n"
    with pytest.raises(ScoringError) as refused:
        game_from_csv(row, name="Sheet", ruleset=builtin_ruleset("classic"))
    french = catalog.text(refused.value.catalog_key, "fr", refused.value.params)
    assert french == "ligne CSV 2 : une case dépasse 131072 caractères ; rien n’a été importé"
    english = catalog.text(refused.value.catalog_key, "en", refused.value.params)
    assert "field larger than field limit" in english
