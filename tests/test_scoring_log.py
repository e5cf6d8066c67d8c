"""The append-only log: corrections, deletions, undo and redo; totals always derived."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.scoring import (
    GameSetup,
    HandEntry,
    LogEntry,
    ScoreBook,
    ScoringError,
    StaleWrite,
    builtin_ruleset,
)

H = HandEntry
PLAYERS = ("Ana", "Bo", "Cy")


def new_book(target: int = 500, mode: str = "winner_takes") -> ScoreBook:
    return ScoreBook(GameSetup("g", PLAYERS, builtin_ruleset("classic"), mode=mode, target=target))


def hands(winner: str, points: int) -> dict[str, HandEntry]:
    return {p: H.empty() if p == winner else H.of_points(points) for p in PLAYERS}


def test_correct_any_past_round_and_keep_the_correction_in_the_log() -> None:
    b = new_book()
    b.record_round(hands("Ana", 10))
    b.record_round(hands("Bo", 20))
    b.record_round(hands("Ana", 5))
    b.correct_round(2, hands("Cy", 7))
    s = b.standings()
    assert (s.total("Ana"), s.total("Bo"), s.total("Cy")) == (30, 0, 14)
    assert [e.type for e in b.entries] == ["round_recorded"] * 3 + ["round_corrected"]
    assert b.history()[1].edits == (2, 4)  # recorded by entry 2, corrected by entry 4
    assert b.revision == 4


def test_undo_and_redo_walk_back_and_forth_and_a_new_entry_clears_redo() -> None:
    b = new_book()
    b.record_round(hands("Ana", 10))
    b.correct_round(1, hands("Bo", 10))
    b.undo()
    assert b.standings().total("Ana") == 20 and b.can_redo
    b.undo()
    assert b.standings().rounds == 0 and not b.can_undo
    with pytest.raises(ScoringError) as refused:
        b.undo()
    assert refused.value.key == "nothing_to_undo"
    b.redo()
    b.redo()
    assert b.standings().total("Bo") == 20
    b.undo()
    b.record_round(hands("Cy", 1))
    assert not b.can_redo
    with pytest.raises(ScoringError) as refused:
        b.redo()
    assert refused.value.key == "nothing_to_redo"
    assert [e.type for e in b.entries].count("undo") == 3  # undo entries are logged too


def test_delete_a_round_and_undo_the_deletion() -> None:
    b = new_book()
    b.record_round(hands("Ana", 10))
    b.record_round(hands("Bo", 3))
    b.delete_round(1)
    assert b.standings().rounds == 1 and b.standings().total("Ana") == 0
    assert b.history()[0].round_id == 2 and b.history()[0].number == 1
    b.undo()
    assert b.standings().total("Ana") == 20
    with pytest.raises(ScoringError) as refused:
        b.delete_round(3)
    assert refused.value.key == "no_such_round"


def test_a_correction_that_would_end_the_game_early_is_refused() -> None:
    b = new_book(target=100)
    b.record_round(hands("Ana", 10))
    b.record_round(hands("Bo", 10))
    with pytest.raises(ScoringError) as refused:
        b.correct_round(1, hands("Ana", 60))  # 120: would end in round 1
    assert refused.value.key == "correction_ends_game"
    assert b.revision == 2 and b.standings().total("Ana") == 20


def test_a_stale_revision_is_refused() -> None:
    b = new_book()
    entry = b.new_record(hands("Ana", 3))
    b.apply(entry, expected_revision=0)
    with pytest.raises(StaleWrite) as refused:
        b.apply(b.new_record(hands("Bo", 3)), expected_revision=0)
    assert refused.value.key == "stale_write" and refused.value.actual == 1


def test_new_entries_are_checked_without_changing_the_book() -> None:
    b = new_book()
    entry = b.new_record(hands("Ana", 3))
    assert b.revision == 0 and b.check(entry).total("Ana") == 6
    with pytest.raises(ScoringError):
        b.apply(LogEntry.corrected(99, entry.round))  # type: ignore[arg-type]
    assert b.revision == 0


operations = st.lists(
    st.one_of(
        st.tuples(st.just("record"), st.sampled_from(PLAYERS), st.integers(0, 60)),
        st.tuples(
            st.just("correct"), st.integers(1, 8), st.sampled_from(PLAYERS), st.integers(0, 60)
        ),
        st.tuples(st.just("delete"), st.integers(1, 8)),
        st.just(("undo",)),
        st.just(("redo",)),
    ),
    max_size=30,
)


@settings(max_examples=150, deadline=None)
@given(operations)
def test_totals_always_equal_the_sum_of_the_rounds_in_effect(ops: list[tuple]) -> None:  # type: ignore[type-arg]
    b = new_book(target=100_000)
    model: list[tuple[str, int]] = []  # the rounds we expect, each (winner, others' points)
    undo: list[list[tuple[str, int]]] = []
    redo: list[list[tuple[str, int]]] = []
    for op in ops:
        before = list(model)
        try:
            if op[0] == "record":
                b.record_round(hands(op[1], op[2]))
                model.append((op[1], op[2]))
            elif op[0] == "correct":
                b.correct_round(op[1], hands(op[2], op[3]))
                model[op[1] - 1] = (op[2], op[3])
            elif op[0] == "delete":
                b.delete_round(op[1])
                del model[op[1] - 1]
            elif op[0] == "undo":
                b.undo()
                redo.append(model)
                model = undo.pop()
                continue
            else:
                b.redo()
                undo.append(model)
                model = redo.pop()
                continue
        except ScoringError:
            assert model == before
            continue
        undo.append(before)
        redo.clear()
    s = b.standings()
    for player in PLAYERS:
        expected = sum(2 * pts for winner, pts in model if winner == player)
        assert s.total(player) == expected
    assert s.rounds == len(model)
    again = ScoreBook(b.setup, b.entries)
    assert again.standings() == s
