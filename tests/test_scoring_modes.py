"""Counting modes with worked examples from the rule books (file and section cited per test)."""

from __future__ import annotations

import pytest

from companion.core.limits import MAX_NAME
from companion.core.scoring import (
    GameSetup,
    HandEntry,
    ScoreBook,
    ScoringError,
    builtin_ruleset,
    teams_across,
    teams_alternating,
)

H = HandEntry
FOUR = ("Alice", "Bruno", "Chloé", "David")


def book(ruleset: str = "classic", players: tuple[str, ...] = FOUR, **kw: object) -> ScoreBook:
    return ScoreBook(GameSetup("Soirée", players, builtin_ruleset(ruleset), **kw))  # type: ignore[arg-type]


def test_classic_winner_takes_the_cards_left_in_the_others_hands() -> None:
    # 000 §VII: the first out scores the cards left in the others' hands:
    # numbers at face value, +2/Inversion/Passer 20, Joker/Super Joker 50.
    b = book()
    b.record_round(
        {
            "Alice": H.empty(),
            "Bruno": H.of_cards({"n7": 1, "n3": 2, "draw2": 1}),  # 7 + 6 + 20
            "Chloé": H.of_cards({"wild": 1, "wild_draw4": 1}),  # 100
            "David": H.of_cards({"reverse": 1, "skip": 1, "n0": 1}),  # 40
        }
    )
    s = b.standings()
    assert s.total("Alice") == 173 and s.total("Bruno") == 0
    assert s.rows[0].party == "Alice" and s.rows[0].rounds_won == 1
    assert not s.finished and s.dealer == "Bruno"  # 000 §IV / 001: the deal passes left


def test_first_to_the_target_wins_000_viii() -> None:
    b = book(players=("Ana", "Bo"), target=100)
    b.record_round({"Ana": H.empty(), "Bo": H.of_cards({"wild": 1, "n9": 5})})  # 95
    assert not b.standings().finished
    b.record_round({"Bo": H.empty(), "Ana": H.of_cards({"n4": 1})})
    b.record_round({"Ana": H.empty(), "Bo": H.of_cards({"n5": 1})})  # 100: reaches the target
    s = b.standings()
    assert s.finished and s.winners == ("Ana",) and s.ended_in_round == 3 and s.dealer is None
    with pytest.raises(ScoringError) as over:
        b.record_round({"Ana": H.empty(), "Bo": H.of_points(3)})
    assert over.value.key == "game_over"


def test_old_sheet_counts_wild_draw_four_at_70_where_classic_counts_50() -> None:
    # 001 "La marque" vs 000 §VII: the same hand scores differently by ruleset.
    hand = {"Ana": H.empty(), "Bo": H.of_cards({"wild_draw4": 1, "n2": 1})}
    old, new = book("old_sheet", ("Ana", "Bo")), book("classic", ("Ana", "Bo"))
    old.record_round(hand)
    new.record_round(hand)
    assert old.standings().total("Ana") == 72 and new.standings().total("Ana") == 52


def test_extreme_hand_with_its_own_cards_000_x_d() -> None:
    b = book("extreme", ("Ana", "Bo", "Cy"))
    b.record_round(
        {
            "Cy": H.empty(),
            "Ana": H.of_cards({"hit2": 1, "discard_all": 1, "n9": 1}),  # 20 + 30 + 9
            "Bo": H.of_cards({"coup_extreme": 1, "wild": 1, "reverse": 1, "skip": 1}),  # 140
        }
    )
    assert b.standings().total("Cy") == 199


def test_extreme_deck_refuses_cards_it_does_not_have() -> None:
    b = book("extreme", ("Ana", "Bo"))
    for hand, key in (
        ({"n0": 1}, "unknown_kind"),  # no 0 in Extrême (000 §X)
        ({"wild_draw4": 1}, "impossible_count"),  # no Super Joker either
        ({"wild": 5}, "impossible_count"),  # five Jokers in a 4-Joker deck
    ):
        with pytest.raises(ScoringError) as refused:
            b.record_round({"Ana": H.empty(), "Bo": H.of_cards(hand)})
        assert refused.value.key == key
    assert "5 × Wild is more than the deck holds (4)" in str(refused.value)
    assert b.revision == 0  # nothing recorded


def test_impossible_totals_across_hands_and_too_many_raw_points() -> None:
    b = book()
    with pytest.raises(ScoringError) as refused:
        b.record_round(
            {
                "Alice": H.empty(),
                "Bruno": H.of_cards({"wild": 3}),
                "Chloé": H.of_cards({"wild": 2}),
                "David": H.of_points(0),
            },
            winner="Alice",
        )
    assert refused.value.key == "impossible_total"
    with pytest.raises(ScoringError) as refused:
        b.record_round(
            {
                "Alice": H.empty(),
                "Bruno": H.of_points(5000),
                "Chloé": H.of_points(1),
                "David": H.of_points(1),
            }
        )
    assert refused.value.key == "impossible_points"
    with pytest.raises(ScoringError) as refused:
        b.record_round(
            {
                "Alice": H.empty(),
                "Bruno": H.of_cards({"n3": -1}),
                "Chloé": H.of_points(1),
                "David": H.of_points(1),
            }
        )
    assert refused.value.key == "bad_count"


def test_last_draw_card_cards_count_and_the_card_itself_is_on_the_pile() -> None:
    # 000 §VI: if the last card is a +2 or Super Joker, the next player draws 2 or 4 and they
    # count. The drawn cards go in that player's hand; the last card lies on the discard pile.
    b = book(players=("Ana", "Bo"))
    b.record_round(
        {"Ana": H.empty(), "Bo": H.of_cards({"n5": 1, "n8": 1, "skip": 1})}, last_card="draw2"
    )
    assert b.standings().total("Ana") == 33
    assert b.history()[0].last_card == "draw2"
    assert builtin_ruleset("classic").kind("draw2").draws == 2  # type: ignore[union-attr]
    with pytest.raises(ScoringError) as refused:  # 8 +2 in hand plus the one on the pile
        b.record_round({"Bo": H.empty(), "Ana": H.of_cards({"draw2": 8})}, last_card="draw2")
    assert refused.value.key == "impossible_total"


def test_flip_scores_on_the_side_the_round_ended_on_000_xi_g() -> None:
    b = book("flip", ("Ana", "Bo"))
    # Round 1 ends on the light side: Wild 40 + Wild Draw Two 50 + Draw One 10.
    b.record_round(
        {"Ana": H.empty(), "Bo": H.of_cards({"wild": 1, "wild_draw2": 1, "draw1": 1})},
        side="light",
    )
    # Round 2 ends on the dark side: Wild Draw Colour 60 + Skip Everyone 30 + Draw Five 20 + 9.
    b.record_round(
        {
            "Bo": H.empty(),
            "Ana": H.of_cards(
                {"wild_draw_colour": 1, "skip_everyone": 1, "draw5": 1, "dark_n9": 1}
            ),
        },
        side="dark",
    )
    s = b.standings()
    assert s.total("Ana") == 100 and s.total("Bo") == 119
    assert [v.side for v in b.history()] == ["light", "dark"]
    # A dark card in a hand of a round that ended on the light side is refused.
    with pytest.raises(ScoringError) as refused:
        b.record_round({"Ana": H.empty(), "Bo": H.of_cards({"draw5": 1})}, side="light")
    assert refused.value.key == "kind_wrong_side"
    assert "dark-side card" in str(refused.value)
    with pytest.raises(ScoringError) as refused:
        b.record_round({"Ana": H.empty(), "Bo": H.of_points(3)}, side="grey")
    assert refused.value.key == "bad_side"


def test_toy_story_lotso_is_worth_50_002_pointage() -> None:
    b = book("toy_story", ("Ana", "Bo"))
    b.record_round({"Ana": H.empty(), "Bo": H.of_cards({"lotso": 2, "wild_draw4": 1})})
    assert b.standings().total("Ana") == 150


def test_emoji_cards_are_worth_50_004_pointage() -> None:
    b = book("emoji", ("Ana", "Bo"))
    b.record_round({"Ana": H.empty(), "Bo": H.of_cards({"emoji": 1, "custom": 1, "n1": 1})})
    assert b.standings().total("Ana") == 101
    with pytest.raises(ScoringError):  # only 2 plain wilds in the Emoji deck
        b.record_round({"Ana": H.empty(), "Bo": H.of_cards({"wild": 3})})


def test_lowest_total_wins_000_xi_i_and_001_variante() -> None:
    # Each records their own hand; when someone reaches the target the lowest total wins.
    b = book(players=("Ana", "Bo", "Cy"), mode="lowest_wins", target=100)
    b.record_round({"Ana": H.empty(), "Bo": H.of_points(60), "Cy": H.of_points(30)})
    b.record_round({"Cy": H.empty(), "Bo": H.of_points(45), "Ana": H.of_points(20)})
    s = b.standings()
    assert s.finished and s.winners == ("Ana",) and not s.tie
    assert [(r.party, r.total, r.rank) for r in s.rows] == [
        ("Ana", 20, 1),
        ("Cy", 30, 2),
        ("Bo", 105, 3),
    ]


def test_lowest_total_tie_is_shown_because_the_texts_do_not_break_it() -> None:
    b = book(players=("Ana", "Bo", "Cy"), mode="lowest_wins", target=50)
    b.record_round({"Ana": H.empty(), "Bo": H.of_points(20), "Cy": H.of_points(40)})
    b.record_round({"Bo": H.empty(), "Ana": H.of_points(20), "Cy": H.of_points(15)})
    s = b.standings()
    assert s.finished and s.tie and s.winners == ("Ana", "Bo")
    assert s.rows[0].rank == s.rows[1].rank == 1


def test_defi_eliminates_at_the_target_and_the_final_two_play_heads_up() -> None:
    # 001 "Défi UNO" and 000 §X.I: each adds their own hand; at the target a player is out;
    # with two left they play by the two-player rules (000 §X.H); last one standing wins.
    b = book(players=("Ana", "Bo", "Cy", "Di"), mode="defi", target=100)
    b.record_round(
        {"Ana": H.empty(), "Bo": H.of_points(100), "Cy": H.of_points(40), "Di": H.of_points(10)}
    )
    s = b.standings()
    assert s.active_players == ("Ana", "Cy", "Di") and not s.two_player_final
    assert b.history()[0].eliminated == ("Bo",)
    assert s.dealer == "Cy"  # Ana dealt round 1; Bo is out, so the deal skips to Cy
    with pytest.raises(ScoringError) as refused:  # an eliminated player plays no more
        b.record_round(
            {"Cy": H.empty(), "Bo": H.of_points(5), "Ana": H.of_points(5), "Di": H.of_points(5)}
        )
    assert refused.value.key == "player_eliminated"
    with pytest.raises(ScoringError) as refused:  # every active player needs a hand
        b.record_round({"Cy": H.empty(), "Ana": H.of_points(5)})
    assert refused.value.key == "missing_hand"
    b.record_round({"Cy": H.empty(), "Ana": H.of_points(30), "Di": H.of_points(95)})
    s = b.standings()
    assert s.active_players == ("Ana", "Cy") and s.two_player_final and not s.finished
    b.record_round({"Ana": H.empty(), "Cy": H.of_points(70)})
    s = b.standings()
    assert s.finished and s.winners == ("Ana",) and not s.two_player_final
    assert [(r.party, r.rank, r.eliminated_in) for r in s.rows] == [
        ("Ana", 1, None),
        ("Cy", 2, 3),
        ("Di", 3, 2),
        ("Bo", 4, 1),
    ]


def test_partners_across_the_table_score_the_opponents_cards_001() -> None:
    # 001 "Quatre joueurs": partners face each other; when one goes out, add the two
    # opponents' remaining cards and credit the team; the partner's cards don't count.
    teams = teams_across(FOUR)
    assert teams == (("Alice", "Chloé"), ("Bruno", "David"))
    b = book(teams=teams)
    b.record_round(
        {
            "Alice": H.empty(),
            "Chloé": H.of_cards({"wild": 1}),  # partner: not counted
            "Bruno": H.of_cards({"n8": 1}),
            "David": H.of_cards({"skip": 1}),
        }
    )
    b.record_round({"David": H.empty(), "Alice": H.of_points(30), "Chloé": H.of_points(12)})
    s = b.standings()
    assert s.total("Alice & Chloé") == 28 and s.total("Bruno & David") == 42
    assert s.rows[0].members == ("Bruno", "David")


def test_alternating_teams_for_4_6_8_10_players_001() -> None:
    six = ("A", "B", "C", "D", "E", "F")
    teams = teams_alternating(six)
    assert teams == (("A", "C", "E"), ("B", "D", "F"))
    b = book(players=six, teams=teams, target=100)
    b.record_round(
        {"C": H.empty(), "B": H.of_points(40), "D": H.of_points(35), "F": H.of_points(30)}
    )
    s = b.standings()
    assert s.finished and s.winners == ("A & C & E",)
    with pytest.raises(ScoringError):
        teams_alternating(("A", "B", "C"))


def test_setup_mistakes_are_refused_with_their_key() -> None:
    classic = builtin_ruleset("classic")
    cases = [
        (dict(players=("Solo",)), "too_few_players"),
        (dict(players=("Ana", "Ana")), "duplicate_player"),
        (dict(players=("Ana", "Bo"), mode="fastest"), "bad_mode"),
        (dict(players=("Ana", "Bo"), target=0), "bad_target"),
        (dict(players=FOUR, mode="defi", teams=teams_across(FOUR)), "teams_need_winner_takes"),
        (dict(players=FOUR, teams=(("Alice", "Bruno"),)), "bad_teams"),
        (dict(players=("Ana", "Bo"), first_dealer="Zoé"), "bad_dealer"),
    ]
    for kw, key in cases:
        with pytest.raises(ScoringError) as refused:
            GameSetup("g", ruleset=classic, **kw).validate()  # type: ignore[arg-type]
        assert refused.value.key == key


def test_a_name_the_table_seats_fits_on_the_score_sheet() -> None:
    """The same name length everywhere (once 40 at the table but 30 on the sheet)."""
    longest = "É" * MAX_NAME
    GameSetup("g", ruleset=builtin_ruleset("classic"), players=(longest, "Bo")).validate()
    with pytest.raises(ScoringError) as refused:
        GameSetup("g", ruleset=builtin_ruleset("classic"), players=(longest + "x", "Bo")).validate()
    assert refused.value.key == "bad_player_name"
    assert f"1-{MAX_NAME} characters" in str(refused.value)


def test_winner_is_found_or_must_be_named() -> None:
    b = book(players=("Ana", "Bo", "Cy"))
    with pytest.raises(ScoringError) as refused:
        b.record_round({"Ana": H.of_points(0), "Bo": H.of_points(0), "Cy": H.of_points(9)})
    assert refused.value.key == "winner_unknown"
    b.record_round({"Ana": H.of_points(0), "Bo": H.of_points(0), "Cy": H.of_points(9)}, winner="Bo")
    assert b.standings().total("Bo") == 9
    with pytest.raises(ScoringError) as refused:
        b.record_round({"Ana": H.of_points(4), "Cy": H.of_points(9)}, winner="Ana")
    assert refused.value.key == "winner_has_cards"


def test_dealer_rotates_to_the_left_each_round() -> None:
    b = book(first_dealer="Chloé")
    dealers = []
    for _ in range(5):
        dealers.append(b.standings().dealer)
        b.record_round({p: H.empty() if p == "Alice" else H.of_points(1) for p in FOUR})
    assert dealers == ["Chloé", "David", "Alice", "Bruno", "Chloé"]
    assert [v.dealer for v in b.history()] == dealers
