"""Rules of the table engine, each test citing the rule text it checks.

000 = shared/rules/000 (official Mattel rules, §X UNO Extrême), 001 = the older French-Canadian
sheet, 003 = house variants ("Riposte"). UNO Attack cards: field notes (Mattel UNO Attack manual).
"""

from __future__ import annotations

import pytest

from companion.core.commands import Cue, Eject, Say, Turn
from companion.core.events import (
    CallUno,
    ContreUno,
    Eliminate,
    Jam,
    Play,
    Press,
    Reinstate,
    Reload,
    RoundWon,
    SetHand,
    SetRules,
    Setup,
    StartRound,
    Suggestion,
    Undo,
)
from companion.core.options import LauncherOptions

from .tables import bruno_left_with_one_card, fixed, hands, owed, profile, refused, says, table

# -- 000 §III/§IV: the deal and who starts -------------------------------------------------------


def test_player_left_of_dealer_starts():
    """000 §IV: "Le joueur placé à gauche du donneur commence." (the first player deals)."""
    engine = table()
    snap = engine.snapshot()
    assert snap["dealer"] == "Alice"
    assert snap["active"] == "Bruno"
    assert snap["direction"] == "left"
    assert all(p["hand"] == 7 for p in snap["players"])  # 000 §III: 7 cards each


def test_dealer_rotates_left_each_round():
    """001 "Pour terminer": "On commence ensuite le jeu en effectuant la donne vers la gauche"."""
    engine = table()
    engine.handle(RoundWon("Chloé"))
    engine.handle(StartRound())
    assert engine.snapshot()["dealer"] == "Bruno"
    assert engine.snapshot()["active"] == "Chloé"
    assert engine.snapshot()["round"] == 2


# -- 000 §V / §X: start-card effects -----------------------------------------------------------


def test_start_reverse_dealer_plays_then_right():
    """000 §V Inversion: "le donneur joue en premier, puis le jeu continue vers la droite"."""
    engine = table()
    engine.handle(StartRound(start_card="reverse", colour="red", dealer="Alice"))
    snap = engine.snapshot()
    assert snap["active"] == "Alice" and snap["direction"] == "right"
    engine.handle(Play("number", "red", value=3))
    assert engine.snapshot()["active"] == "David"


def test_start_skip_left_of_dealer_misses_turn():
    """000 §V Passer: "le joueur à la gauche du donneur passe son tour"."""
    engine = table()
    engine.handle(StartRound(start_card="skip", colour="blue", dealer="Alice"))
    assert engine.snapshot()["active"] == "Chloé"


def test_start_hit2_left_of_dealer_presses_twice_then_next_starts():
    """000 §X Appuyer 2 fois, posée en début de partie: the left of the dealer presses twice;
    "Le jeu commence alors avec le joueur suivant (le second joueur à gauche du donneur)"."""
    engine = table()
    engine.handle(StartRound(start_card="hit2", colour="green", dealer="Alice"))
    assert owed(engine) == [("Bruno", 2, "hit2")]
    assert engine.snapshot()["facing"] == "Bruno"
    engine.handle(Press())
    engine.handle(Press())
    snap = engine.snapshot()
    assert snap["owed"] == [] and snap["active"] == "Chloé" and snap["facing"] == "Chloé"


@pytest.mark.parametrize("card", ["number", "wild", "discard_all"])
def test_start_plain_cards_left_of_dealer_starts(card):
    """000 §V Joker: "le joueur placé à gauche du donneur choisit la couleur de départ et joue";
    000 §X Poser Tout posée en début de partie: "le joueur à la gauche du donneur commence"."""
    engine = table()
    engine.handle(StartRound(start_card=card, dealer="Chloé"))
    assert engine.snapshot()["active"] == "David"
    assert engine.snapshot()["owed"] == []


def test_start_wild_draw4_goes_back():
    """000 §V: a Super Joker as first card "le donneur doit la remettre dans la pioche"."""
    engine = table(any_deck=True)
    err = refused(engine, StartRound(start_card="draw4"))
    assert err.key == "errors.start_card_back"


def test_start_draw2_any_deck_presses_two():
    """000 §V Carte +2 at the start: "la même règle s'applique"; any-deck option: 2 presses."""
    engine = table(any_deck=True)
    engine.handle(StartRound(start_card="draw2", colour="red", dealer="Alice"))
    assert owed(engine) == [("Bruno", 2, "draw2")]
    assert engine.snapshot()["active"] == "Chloé"


# -- 000 §X.B and §X.F: pressing instead of drawing ---------------------------------------------


def test_press_nothing_out_next_player():
    """000 §X.B: "Si rien ne se passe, c'est au joueur suivant de jouer."."""
    engine = table()
    out = engine.handle(Press())
    assert out.fired == 0
    assert engine.snapshot()["active"] == "Chloé"
    assert next(c.name for c in out.commands if isinstance(c, Cue)) == "ding"  # 000 §X.A "ding"


def test_press_cards_out_presser_keeps_them_next_player():
    """000 §X.B: "Si des cartes sont distribuées, le joueur doit les ajouter à sa main. C'est
    ensuite au joueur de gauche de jouer"; §X.E: cards sticking out belong to the presser."""
    engine = table(launcher=fixed(3))
    out = engine.handle(Press())
    assert out.fired == 3
    assert Eject(3, seat=1) in out.commands  # to the presser's seat: the cards are his
    snap = engine.snapshot()
    assert snap["players"][1]["hand"] == 10
    assert snap["active"] == "Chloé"
    assert snap["magazine"] == 77


def test_refusing_to_play_is_a_press():
    """000 §X.F: a player who will not play presses, then it is the next player's turn; the
    engine does not need to know why they pressed."""
    engine = table()
    engine.handle(Press("Bruno"))
    assert engine.snapshot()["active"] == "Chloé"


@pytest.mark.parametrize(
    ("event", "status"),
    [(Press("David"), 409), (ContreUno("Zed"), 404)],
    ids=["press-by-the-wrong-player", "unknown-player"],
)
def test_a_refused_event_changes_nothing(event, status):
    engine = table()
    before = engine.snapshot()
    assert refused(engine, event).status == status
    assert engine.snapshot() == before


# -- 000 §X: the Extrême cards --------------------------------------------------------------------


def test_hit2_next_presses_twice_and_loses_turn():
    """000 §X Appuyer 2 fois: "Le joueur suivant doit appuyer deux fois" then "passer son tour"."""
    engine = table()
    out = engine.handle(Play("hit2", "red"))
    assert owed(engine) == [("Chloé", 2, "hit2")]
    assert Turn(2, "Chloé") in out.commands  # the launcher turns to whoever owes the press
    assert "table.press_owed" in says(out)
    refused(engine, Play("number", "red", value=5))  # David may not play before Chloé presses
    engine.handle(Press())
    engine.handle(Press())
    assert engine.snapshot()["active"] == "David"


def test_coup_extreme_target_then_attacker_then_next():
    """000 §X Coup Extrême: "Le désigné appuie", "Le Distributeur est alors dirigé vers le joueur
    qui a été désigné – Attaquant appuie 2x", then "Le jeu continue avec le joueur suivant dans
    le sens de rotation". The launcher stays on the target for the whole attack."""
    engine = table(launcher=fixed(2))
    out = engine.handle(Play("coup_extreme", "yellow", target="David"))
    assert owed(engine) == [
        ("David", 1, "coup_extreme_target"),
        ("Bruno", 2, "coup_extreme_attacker"),
    ]
    assert Turn(3, "David") in out.commands
    out = engine.handle(Press())
    assert not any(isinstance(c, Turn) for c in out.commands)  # still on David
    assert engine.snapshot()["facing"] == "David"
    assert engine.snapshot()["owed"][0]["for"] == "David"
    out = engine.handle(Press("Bruno"))  # the attacker presses ...
    assert Say("table.fired", {"player": "David", "cards": 2}) in out.commands  # ... for David
    out = engine.handle(Press("Bruno"))
    hands = {p["name"]: p["hand"] for p in engine.snapshot()["players"]}
    assert hands["David"] == 7 + 2 * 3 and hands["Bruno"] == 6  # the Coup Extrême left his hand
    assert engine.snapshot()["active"] == "Chloé"
    assert Turn(2, "Chloé") in out.commands


def test_coup_extreme_resume_second_option():
    """000 §X Coup Extrême, the parenthesis: "le deuxième joueur à gauche … du joueur qui a
    retourné la carte" — the 'second' option."""
    engine = table(coup_extreme_resume="second")
    engine.handle(Play("coup_extreme", "red", target="Alice"))
    for _ in range(3):
        engine.handle(Press())
    assert engine.snapshot()["active"] == "David"


def test_coup_extreme_needs_target():
    engine = table()
    err = refused(engine, Play("coup_extreme", "red"))
    assert err.key == "errors.needs_target"


def test_discard_all_lays_down_count():
    """000 §X Poser Tout: the player lays down every card of a colour (count them all)."""
    engine = table()
    engine.handle(Play("discard_all", "yellow", count=4))
    assert engine.snapshot()["players"][1]["hand"] == 3
    assert engine.snapshot()["active"] == "Chloé"


def test_extreme_deck_has_no_zero():
    """000 §X: "Les cartes de couleur numérotées 0 disparaissent"."""
    engine = table()
    refused(engine, Play("number", "red", value=0))
    table(any_deck=True).handle(Play("number", "red", value=0))


def test_reverse_and_skip_many_players():
    """000 §V Inversion changes the direction; Passer skips the next player."""
    engine = table()
    engine.handle(Play("reverse", "red"))  # Bruno reverses
    assert engine.snapshot()["active"] == "Alice"
    engine.handle(Play("skip", "red"))  # Alice skips David
    assert engine.snapshot()["active"] == "Chloé"


# -- 000 §X.H: two players -------------------------------------------------------------------


def test_two_players_reverse_acts_as_skip():
    """000 §X.H: "Jouer une carte Inversion revient à jouer une carte Passer. Le joueur qui joue
    une carte Inversion doit immédiatement jouer une autre carte."."""
    engine = table(["Alice", "Bruno"])
    engine.handle(Play("reverse", "red"))
    assert engine.snapshot()["active"] == "Bruno"


def test_two_players_skip_plays_again():
    """000 §X.H: "Le joueur qui joue une carte Passer doit rejouer immédiatement"."""
    engine = table(["Alice", "Bruno"])
    engine.handle(Play("skip", "red"))
    assert engine.snapshot()["active"] == "Bruno"


def test_two_players_hit2_first_player_resumes():
    """000 §X.H Appuyer 2x: "le deuxième joueur doit appuyer deux fois … Ensuite, le premier
    joueur reprend la main"."""
    engine = table(["Alice", "Bruno"])
    engine.handle(Play("hit2", "red"))
    assert owed(engine) == [("Alice", 2, "hit2")]
    engine.handle(Press())
    engine.handle(Press())
    assert engine.snapshot()["active"] == "Bruno"


def test_two_players_rules_off_reverse_passes_turn():
    engine = table(["Alice", "Bruno"], two_player_rules=False)
    engine.handle(Play("reverse", "red"))
    assert engine.snapshot()["active"] == "Alice"


# -- 000 §X.B, §X.G: penalties ---------------------------------------------------------------


def test_contre_uno_two_presses():
    """000 §X.B Uno: "S'il ne le fait pas, il doit appuyer 2 fois sur le bouton"."""
    engine = table()
    engine.handle(SetHand("Bruno", 2))
    out = engine.handle(Play("number", "red", value=4))
    assert "table.uno_reminder" in says(out)
    assert engine.snapshot()["contre_uno_window"] == "Bruno"
    out = engine.handle(ContreUno("Bruno"))
    assert owed(engine) == [("Bruno", 2, "contre_uno")]
    assert engine.snapshot()["facing"] == "Bruno"
    assert "table.contre_uno" in says(out)


def test_uno_called_closes_window():
    engine = bruno_left_with_one_card()
    engine.handle(CallUno("Bruno"))
    assert engine.snapshot()["contre_uno_window"] is None


def test_contre_uno_window_closes_when_next_player_plays():
    """000 §VI: caught "avant que le joueur suivant n'ait joué"."""
    engine = bruno_left_with_one_card()
    engine.handle(Play("number", "red", value=5))  # Chloé plays
    assert engine.snapshot()["contre_uno_window"] == "Chloé"  # no longer Bruno: Chloé now


def test_suggestion_four_presses():
    """000 §X.G: "Tout joueur suggérant à un autre joueur de jouer une carte doit appuyer 4
    fois"."""
    engine = table()
    engine.handle(Suggestion("David"))
    assert owed(engine) == [("David", 4, "suggestion")]
    for _ in range(4):
        engine.handle(Press())
    assert engine.snapshot()["active"] == "Bruno"  # the turn did not move


def test_penalty_presses_configurable():
    engine = table(suggestion_presses=1, contre_uno_presses=3)
    engine.handle(Suggestion("David"))
    engine.handle(SetHand("Alice", 1))
    engine.handle(ContreUno("Alice"))
    assert owed(engine) == [("David", 1, "suggestion"), ("Alice", 3, "contre_uno")]


# -- UNO Attack family and house rules --------------------------------------------------------


def test_wild_all_hit_each_other_player_from_the_left():
    """UNO Attack Wild All Hit: "each other player, from the left, presses once"."""
    engine = table(wild_all_hit=True)
    engine.handle(Play("wild_all_hit", "red"))
    assert owed(engine) == [
        ("Chloé", 1, "wild_all_hit"),
        ("David", 1, "wild_all_hit"),
        ("Alice", 1, "wild_all_hit"),
    ]
    for _ in range(3):
        engine.handle(Press())
    assert engine.snapshot()["active"] == "Chloé"


def test_wild_all_hit_needs_option():
    err = refused(table(), Play("wild_all_hit", "red"))
    assert err.key == "errors.card_not_in_deck"


def test_hit_fire_presses_until_it_fires():
    """UNO Attack Wild Hit-Fire: "next player presses until it fires, keeps the cards, loses the
    turn"."""
    engine = table(
        hit_fire=True,
        launcher=LauncherOptions(profile="third", profiles={"third": profile([0.0, 0.0, 1.0])}),
    )
    engine.handle(Play("wild_hit_fire", "blue"))
    assert engine.snapshot()["owed"][0]["until_fire"] is True
    assert engine.handle(Press()).fired == 0
    assert engine.handle(Press()).fired == 0
    assert engine.snapshot()["facing"] == "Chloé"
    assert engine.handle(Press()).fired == 3
    snap = engine.snapshot()
    assert snap["owed"] == [] and snap["active"] == "David"
    assert snap["players"][2]["hand"] == 10


def test_stacking_riposte_passes_presses_on():
    """003 "Riposte ou cumulation": instead of drawing, play another +; the next draws the sum."""
    engine = table(stacking=True)
    engine.handle(Play("hit2", "red"))  # Bruno → Chloé owes 2
    engine.handle(Play("hit2", "blue", player="Chloé"))  # Chloé ripostes
    assert owed(engine) == [("David", 4, "hit2")]
    for _ in range(4):
        engine.handle(Press())
    assert engine.snapshot()["active"] == "Alice"


def test_no_stacking_by_default():
    """000 §IX.1: officially, a +2 on a +2 does not stack penalties."""
    engine = table()
    engine.handle(Play("hit2", "red"))
    refused(engine, Play("hit2", "blue", player="Chloé"))


def test_any_deck_draw4_is_four_presses():
    engine = table(any_deck=True)
    engine.handle(Play("draw4", "green"))
    assert owed(engine) == [("Chloé", 4, "draw4")]
    assert engine.snapshot()["active"] == "David"


# -- the launcher magazine (000 §X.C) ------------------------------------------------------------


def test_magazine_low_warning_once_and_reload():
    """000 §X.C: "battre de nouveau les cartes, recharger le Distributeur"; warn under 20."""
    engine = table(launcher=LauncherOptions(profile="fixed", fixed_cards=5, magazine=24))
    out = engine.handle(Press())
    assert "table.magazine_low" in says(out)
    out = engine.handle(Press())
    assert "table.magazine_low" not in says(out)
    out = engine.handle(Reload(60))
    assert engine.snapshot()["magazine"] == 60
    assert "table.reloaded" in says(out)


def test_empty_magazine_press_not_used_up():
    engine = table(launcher=LauncherOptions(profile="fixed", fixed_cards=5, magazine=7))
    assert engine.handle(Press()).fired == 5
    assert engine.handle(Press()).fired == 2  # ran short: only what was left
    assert engine.snapshot()["magazine"] == 0
    active = engine.snapshot()["active"]
    out = engine.handle(Press())
    assert out.fired == 0 and "table.reload_needed" in says(out)
    assert engine.snapshot()["active"] == active  # the press must be made again after reloading
    engine.handle(Reload())  # no count: the configured load
    assert engine.snapshot()["magazine"] == 7


def test_jam_blocks_presses_until_reload():
    engine = table()
    engine.handle(Jam())
    assert engine.snapshot()["needs_reload"] is True
    out = engine.handle(Press())
    assert "table.reload_needed" in says(out)
    engine.handle(Reload())
    assert engine.snapshot()["jam"] is False


# -- 000 §X.I: Jeu défi --------------------------------------------------------------------------


def test_elimination_skips_player_and_last_one_wins():
    """000 §X.I: eliminated at the limit; "C'est le dernier joueur en course qui gagne"."""
    engine = table()
    engine.handle(Eliminate("Chloé"))
    engine.handle(Press())  # Bruno presses: Chloé is skipped
    assert engine.snapshot()["active"] == "David"
    engine.handle(Eliminate("Alice"))
    # 000 §X.I "1v1": the last two play by the two-player rules.
    engine.handle(Play("skip", "red"))
    assert engine.snapshot()["active"] == "David"
    out = engine.handle(Eliminate("David"))
    snap = engine.snapshot()
    assert snap["game_over"] and snap["winner"] == "Bruno"
    assert "table.game_won" in says(out)
    # The winner cannot be eliminated in turn (found by the property test: a player reinstated
    # afterwards then found the turn with an eliminated player).
    assert refused(engine, Eliminate("Bruno")).key == "errors.game_over"
    engine.handle(Reinstate("Alice"))
    snap = engine.snapshot()
    assert not snap["game_over"] and snap["active"] == "Bruno"


def test_eliminated_player_cannot_act():
    engine = table()
    engine.handle(Eliminate("David"))
    refused(engine, Suggestion("David"))


# -- hand estimates ---------------------------------------------------------------------------


def test_hand_estimate_and_round_may_be_over():
    """The estimate: 7 dealt + cards fired − cards played; empty hand → confirm the round."""
    engine = table()
    engine.handle(SetHand("Bruno", 1))
    out = engine.handle(Play("number", "blue", value=9))
    assert engine.snapshot()["round_may_be_over"] == "Bruno"
    assert "table.round_may_be_over" in says(out)
    engine.handle(RoundWon("Bruno"))
    assert engine.snapshot()["round_over"] is True
    refused(engine, Press())


def test_last_card_coup_extreme_still_presses():
    """000 §X.B "Uno + Coup Extrême": the last card is played normally, its presses still run
    (aimed at the target, so the attacker's hand stays empty)."""
    engine = table(launcher=fixed(2))
    engine.handle(SetHand("Bruno", 1))
    engine.handle(Play("coup_extreme", "red", target="David"))
    assert engine.snapshot()["round_may_be_over"] is None  # Bruno still owes two presses
    engine.handle(Press())
    engine.handle(Press())
    assert engine.snapshot()["round_may_be_over"] is None
    engine.handle(Press())
    assert engine.snapshot()["players"][1]["hand"] == 0
    assert engine.snapshot()["players"][3]["hand"] == 7 + 6
    assert engine.snapshot()["round_may_be_over"] == "Bruno"


# -- setup, undo, errors ------------------------------------------------------------------------


def test_setup_reseats_and_validates():
    engine = table()
    engine.handle(Setup(("Zoé", "Yann", "Xavier"), dealer="Yann"))
    snap = engine.snapshot()
    assert [p["name"] for p in snap["players"]] == ["Zoé", "Yann", "Xavier"]
    assert snap["active"] == "Xavier"
    for bad in [("Solo",), ("A", "a"), ("", "B"), tuple(f"P{i}" for i in range(11))]:
        refused(engine, Setup(bad))
    assert [p["name"] for p in engine.snapshot()["players"]] == ["Zoé", "Yann", "Xavier"]


def test_a_setup_in_the_middle_of_a_round_can_be_undone():
    engine = table()
    engine.handle(Play("reverse", "red"))
    during = engine.snapshot()
    engine.handle(Setup(("Zoé", "Yann", "Xavier")))
    engine.handle(Undo())
    assert engine.snapshot() == {**during, "events": during["events"] + 2, "can_undo": True}


def test_a_setup_and_the_deck_of_its_new_game_are_undone_one_after_the_other():
    """The page's "Set up the table" mid-round re-seats and, for a game scored with another
    deck, puts that deck on the table: two Undos give the round back as it was."""
    engine = table()
    engine.handle(Play("reverse", "red"))
    during = engine.snapshot()
    engine.handle(Setup(("Zoé", "Yann", "Xavier")))
    engine.handle(SetRules((("deck", "flip"),)))
    assert engine.snapshot()["rules"]["deck"] == "flip"
    engine.handle(Undo())  # the deck
    assert [p["name"] for p in engine.snapshot()["players"]] == ["Zoé", "Yann", "Xavier"]
    engine.handle(Undo())  # the setup
    assert engine.snapshot() == {**during, "events": during["events"] + 4, "can_undo": True}
    # Once something is played at the new table, the old round is gone for good.
    engine.handle(Setup(("Zoé", "Yann", "Xavier")))
    engine.handle(Play("skip", "red"))
    engine.handle(Undo())
    assert refused(engine, Undo()).key == "errors.nothing_to_undo"


def test_undo_takes_back_a_play_and_a_press_too():
    engine = table(launcher=fixed(3))
    engine.handle(Play("reverse", "red"))
    engine.handle(Undo())
    snap = engine.snapshot()
    assert snap["direction"] == "left" and snap["active"] == "Bruno"
    engine.handle(Press())
    assert hands(engine)["Bruno"] == 10 and engine.snapshot()["magazine"] == 77
    engine.handle(Undo())  # the press did not count (a knocked button): its cards go back
    assert hands(engine)["Bruno"] == 7 and engine.snapshot()["magazine"] == 80
    assert engine.snapshot()["active"] == "Bruno"
    err = refused(engine, Undo())
    assert err.key == "errors.nothing_to_undo"


def test_names_are_matched_without_case():
    engine = table()
    engine.handle(Press("bruno"))
    assert engine.snapshot()["active"] == "Chloé"


def test_wild_colour_is_announced():
    out = table().handle(Play("wild", "green"))
    assert "table.colour_green" in says(out)


def test_contre_uno_twice_is_refused():
    """Two phones catching the same forgotten UNO: one penalty (000 §X.B: 2 presses)."""
    engine = bruno_left_with_one_card()
    engine.handle(ContreUno("Bruno"))
    err = refused(engine, ContreUno("Bruno"))
    assert err.status == 409
    assert owed(engine) == [("Bruno", 2, "contre_uno")]


def test_stacking_without_naming_the_player():
    """The page does not say who ripostes: the player owing the presses is meant (003)."""
    engine = table(stacking=True)
    engine.handle(Play("hit2", "red"))
    engine.handle(Play("hit2", "blue"))
    assert owed(engine) == [("David", 4, "hit2")]


def test_first_start_is_round_one_redealt():
    engine = table()
    engine.handle(StartRound(start_card="skip", colour="red"))
    snap = engine.snapshot()
    assert snap["round"] == 1 and snap["dealer"] == "Alice" and snap["active"] == "Chloé"


def test_no_new_round_after_the_game_is_won():
    engine = table(["Alice", "Bruno"])
    engine.handle(Eliminate("Alice"))
    err = refused(engine, StartRound())
    assert err.key == "errors.game_over"


def test_sensor_report_about_another_firing_is_ignored():
    from companion.core.events import CardsSeen

    engine = table(launcher=fixed(3))
    engine.handle(Press())
    engine.handle(CardsSeen(1, expected=1))  # a test fire of one card, counted
    assert engine.snapshot()["players"][1]["hand"] == 10
    engine.handle(CardsSeen(2, expected=3))  # the real count of Bruno's firing
    assert engine.snapshot()["players"][1]["hand"] == 9
    assert engine.snapshot()["magazine"] == 78
