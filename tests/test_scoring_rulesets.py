"""Rulesets as data: deck compositions and values from the rule books, and user edits."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.core.scoring import (
    CardKind,
    GameSetup,
    HandEntry,
    Ruleset,
    ScoreBook,
    ScoringError,
    builtin_ruleset,
    builtin_rulesets,
)


def values(key: str) -> dict[str, int]:
    return {k.key: k.value for k in builtin_ruleset(key).kinds}


def counts(key: str) -> dict[str, int]:
    return {k.key: k.count for k in builtin_ruleset(key).kinds}


def test_every_builtin_ruleset_is_valid_and_cites_its_book() -> None:
    for ruleset in builtin_rulesets():
        assert ruleset.validate() is ruleset
        assert ruleset.source[:3] in ("000", "001", "002", "004")


def test_classic_deck_and_values_follow_000_sections_i_and_vii() -> None:
    # 000 §I: 108 cards, 19 numbers per colour, 2 +2/Inversion/Passer per colour, 4+4 wilds.
    assert builtin_ruleset("classic").deck_size() == 108
    assert counts("classic")["n0"] == 4 and counts("classic")["n5"] == 8
    # 000 §VII: numbers at face value, +2/Inversion/Passer 20, Joker and Super Joker 50.
    v = values("classic")
    assert (v["n7"], v["draw2"], v["reverse"], v["skip"], v["wild"], v["wild_draw4"]) == (
        7,
        20,
        20,
        20,
        50,
        50,
    )


def test_old_sheet_values_its_wild_draw_four_at_70() -> None:
    # 001 "La marque": passe-partout 50, passe-partout piocher quatre 70 (000 says 50).
    assert values("old_sheet")["wild_draw4"] == 70
    assert values("old_sheet")["wild"] == 50
    assert builtin_ruleset("old_sheet").deck_size() == 108


def test_extreme_values_follow_000_section_x_d() -> None:
    v, c = values("extreme"), counts("extreme")
    assert "n0" not in v  # 000 §X: the 0 cards disappear
    assert [v[f"n{i}"] for i in range(1, 10)] == list(range(1, 10))
    assert (v["hit2"], v["reverse"], v["skip"], v["discard_all"]) == (20, 20, 20, 30)
    assert (v["wild"], v["coup_extreme"], v["wild_draw4"], v["draw2"]) == (50, 50, 50, 20)
    # +2 and Super Joker leave the deck (000 §X) though the §X.D table lists them: count 0.
    assert c["draw2"] == 0 and c["wild_draw4"] == 0
    assert sum(c[f"n{i}"] for i in range(1, 10)) == 72  # 18 per colour
    assert builtin_ruleset("extreme").deck_size() == 112


def test_flip_has_two_sides_of_112_with_000_xi_g_values() -> None:
    flip = builtin_ruleset("flip")
    assert flip.sides == ("light", "dark")
    assert flip.deck_size("light") == 112 and flip.deck_size("dark") == 112
    v = values("flip")
    assert (v["draw1"], v["reverse"], v["skip"], v["flip"], v["wild"], v["wild_draw2"]) == (
        10,
        20,
        20,
        20,
        40,
        50,
    )
    assert (v["draw5"], v["dark_reverse"], v["skip_everyone"], v["dark_flip"]) == (20, 20, 30, 20)
    assert (v["dark_wild"], v["wild_draw_colour"]) == (40, 60)


def test_toy_story_and_emoji_decks_follow_002_and_004() -> None:
    assert builtin_ruleset("toy_story").deck_size() == 112
    assert values("toy_story")["lotso"] == 50 and counts("toy_story")["lotso"] == 4
    emoji = builtin_ruleset("emoji")
    assert emoji.deck_size() == 112
    assert (counts("emoji")["wild"], counts("emoji")["custom"], counts("emoji")["emoji"]) == (
        2,
        2,
        4,
    )
    assert values("emoji")["custom"] == 50 and values("emoji")["emoji"] == 50


def test_a_house_ruleset_plays_end_to_end() -> None:
    classic = builtin_ruleset("classic")
    house = replace(
        classic,
        key="house",
        name_fr="Maison",
        name_en="Maison",
        builtin=False,
        kinds=(
            *(k for k in classic.kinds if k.key not in ("n0", "wild_draw4")),
            CardKind("wild_draw4", "+4", "Wild Draw Four", 100, 2),
            CardKind("joker_fou", "Joker fou", "Mad joker", 75, 1),
        ),
    ).validate()
    assert not house.builtin and house.kind("n0") is None
    again = Ruleset.from_dict(house.to_dict())
    assert again == house
    book = ScoreBook(GameSetup("Maison", ("Ana", "Bo"), again, target=150))
    book.record_round({"Ana": HandEntry.empty(), "Bo": HandEntry.of_cards({"joker_fou": 1})})
    book.record_round({"Ana": HandEntry.empty(), "Bo": HandEntry.of_cards({"wild_draw4": 1})})
    assert book.standings().finished and book.standings().winners == ("Ana",)
    assert book.standings().total("Ana") == 175
    with pytest.raises(ScoringError) as refused:
        ScoreBook(GameSetup("x", ("Ana", "Bo"), again)).record_round(
            {"Ana": HandEntry.empty(), "Bo": HandEntry.of_cards({"wild_draw4": 3})}
        )
    assert refused.value.key == "impossible_count"


@pytest.mark.parametrize(
    ("ruleset", "problem"),
    [
        (Ruleset("bad key!", "x", "x", "", (CardKind("a", "a", "a", 1, 1),)), "ruleset_bad_key"),
        (Ruleset("empty", "x", "x", "", ()), "ruleset_empty"),
        (
            Ruleset("dup", "x", "x", "", (CardKind("a", "a", "a", 1, 1),) * 2),
            "ruleset_duplicate_kind",
        ),
        (Ruleset("neg", "x", "x", "", (CardKind("a", "a", "a", -5, 1),)), "ruleset_bad_kind"),
        (
            Ruleset("side", "x", "x", "", (CardKind("a", "a", "a", 1, 1, side="dark"),)),
            "ruleset_bad_side",
        ),
    ],
)
def test_rulesets_that_make_no_sense_are_refused(ruleset: Ruleset, problem: str) -> None:
    with pytest.raises(ScoringError) as refused:
        ruleset.validate()
    assert refused.value.key == problem
