"""What a change works out from where it stands equals what the whole game worked out again
gives: the book replaying from its last mark before the changed round, the statistics and the
page's history going on from the rounds they already went through. A seeded run of a few
hundred records, corrections, deletions, undos and redos, in each counting mode, with marks
every few rounds so that every change crosses some."""

from __future__ import annotations

import random

import pytest

from companion.core.scoring import (
    GameSetup,
    HandEntry,
    ScoreBook,
    ScoringError,
    builtin_ruleset,
    teams_across,
)
from companion.core.scoring import history as history_module
from companion.core.scoring import stats as stats_module
from companion.core.scoring import tally as tally_module
from companion.core.scoring.history import History
from companion.core.scoring.stats import RoundsTally, game_tally

PLAYERS = ("Ana", "Bo", "Cy", "Di")
STEPS = 260
CHECK_EVERY = 9  # a full recomputation this often (each costs the whole game)


def _hands(rng: random.Random, players: tuple[str, ...]) -> tuple[dict[str, HandEntry], str]:
    winner = rng.choice(players)
    return {
        p: HandEntry.empty() if p == winner else HandEntry.of_points(rng.choice((0, 1, 2, 5, 9)))
        for p in players
    }, winner


def _step(book: ScoreBook, rng: random.Random) -> None:
    rounds = book.standings().rounds
    roll = rng.random()
    if rounds == 0 or roll < 0.6:
        hands, winner = _hands(rng, book.standings().active_players or PLAYERS)
        book.record_round(hands, winner=winner)
    elif roll < 0.75:
        number = rng.randint(1, rounds)
        players = tuple(p for p, *_ in book.history()[number - 1].hands)
        hands, winner = _hands(rng, players)
        book.correct_round(number, hands, winner=winner)
    elif roll < 0.82:
        book.delete_round(rng.randint(1, rounds))
    elif roll < 0.92:
        book.undo()
    else:
        book.redo()


@pytest.mark.parametrize(
    ("mode", "teams"),
    [("winner_takes", True), ("lowest_wins", False), ("defi", False)],
)
def test_changes_worked_out_from_marks_equal_the_whole_game_again(
    monkeypatch: pytest.MonkeyPatch, mode: str, teams: bool
) -> None:
    for module, name in (
        (tally_module, "MARK_EVERY"),
        (stats_module, "TALLY_MARK_EVERY"),
        (history_module, "HISTORY_MARK_EVERY"),
    ):
        monkeypatch.setattr(module, name, 8)
    setup = GameSetup(
        "incremental",
        PLAYERS,
        builtin_ruleset("classic"),
        mode=mode,
        # Défi eliminates (and so ends) early: its target lets a game go a hundred rounds.
        target={"winner_takes": 100_000, "lowest_wins": 100_000, "defi": 400}[mode],
        teams=teams_across(PLAYERS) if teams else (),
    ).validate()
    rng = random.Random(f"{mode}-{teams}")
    book = ScoreBook(setup)
    tally = RoundsTally(setup)
    history = History()
    refused = checked = 0
    for step in range(1, STEPS + 1):
        revision = book.revision
        try:
            _step(book, rng)
        except ScoringError:  # nothing to undo, a round after the game's end...: nothing changes
            refused += 1
            assert book.revision == revision
        views = book.history()
        tally.sync(views)
        history = History.of(views, previous=history)
        if step % CHECK_EVERY and step != STEPS:
            continue
        checked += 1
        whole = ScoreBook(setup, book.entries, verify=False)
        assert book.standings() == whole.standings()
        assert views == whole.history()
        assert (book.can_undo, book.can_redo) == (whole.can_undo, whole.can_redo)
        assert tally.share(book.standings()) == game_tally(whole)
        again = History.of(whole.history())
        assert history == again
        assert (history.holders, history.costliest) == (again.holders, again.costliest)
        # A copy of the book goes on alike.
        other = book.copy()
        assert other.standings() == book.standings() and other.history() == views
    assert book.standings().rounds > 3 * 8 and checked > 20 and refused < STEPS // 2
