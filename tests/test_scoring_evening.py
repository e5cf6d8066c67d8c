"""The older rule sheet's evening of partner games (001): schedule, marks, winner, consolation."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.core.errors import ActionError
from companion.core.scoring.evening import Evening, schedule

FOUR = ("Ana", "Bo", "Cy", "Di")
EIGHT = (*FOUR, "Ed", "Flo", "Gus", "Hu")


def partners(games: tuple) -> Counter[frozenset[str]]:
    return Counter(frozenset(team) for g in games for team in g.teams)


def test_four_players_play_four_games_with_each_partner_twelve_in_all() -> None:
    games = schedule(FOUR)
    assert len(games) == 12 and {g.table for g in games} == {1}
    assert set(partners(games).values()) == {4} and len(partners(games)) == 6
    for game in games:  # everyone plays every game, partners across the table
        assert sorted(game.seats()) == sorted(FOUR)
        (a1, a2), (b1, b2) = game.teams
        assert game.seats() == (a1, b1, a2, b2)


def test_eight_players_on_two_tables_play_28_games_each() -> None:
    games = schedule(EIGHT)
    assert max(g.number for g in games) == 28 and {g.table for g in games} == {1, 2}
    assert set(partners(games).values()) == {4} and len(partners(games)) == 28
    per_player = Counter(p for g in games for team in g.teams for p in team)
    assert set(per_player.values()) == {28}
    for number in range(1, 29):  # both tables at once, nobody at both
        at_once = [p for g in games if g.number == number for t in g.teams for p in t]
        assert sorted(at_once) == sorted(EIGHT)


def test_marks_winner_and_consolation() -> None:
    evening = Evening.start(FOUR)
    for game in evening.games:
        # The team with Ana wins every game, 10 points: she has 120, each partner 40.
        winners = 0 if "Ana" in game.teams[0] else 1
        evening = evening.record(game.number, game.table, winners, 10)
        assert evening.pending() == () or evening.pending()[0].number == game.number + 1
    assert evening.finished and evening.marks()["Ana"] == 120
    assert evening.winners() == ("Ana",)
    assert set(evening.consolation()) == {"Bo", "Cy", "Di"}  # 40 each: a three-way tie
    again = Evening.from_dict(evening.to_dict())
    assert again.marks() == evening.marks()
    assert evening.forget(12, 1).finished is False


@pytest.mark.parametrize(
    ("players", "key"),
    [(FOUR[:3], "evening.error_size"), (("Ana", "Ana", "Bo", "Cy"), "evening.error_names")],
)
def test_bad_evenings_are_refused(players: tuple[str, ...], key: str) -> None:
    with pytest.raises(ActionError) as refused:
        schedule(players)
    assert refused.value.key == key


def test_bad_results_are_refused_and_change_nothing() -> None:
    evening = Evening.start(FOUR)
    for number, table, winners, points in [
        (13, 1, 0, 5),
        (1, 2, 0, 5),
        (1, 1, 2, 5),
        (1, 1, 0, -1),
    ]:
        with pytest.raises(ActionError):
            evening.record(number, table, winners, points)
    assert evening.results == {}
