"""The round's phase moves only as the one table of moves says (``PHASE_MOVES``)."""

from __future__ import annotations

from typing import get_args

import pytest

from companion.core.errors import ActionError
from companion.core.events import Eliminate, StartRound
from companion.core.table import PHASE_MOVES, Phase, TableEngine
from companion.core.table.state import PhaseMoveError, Seat, TableState


def test_every_phase_has_its_moves_and_every_move_ends_in_a_phase() -> None:
    phases = set(get_args(Phase))
    assert set(PHASE_MOVES) == phases
    assert all(moves <= phases for moves in PHASE_MOVES.values())


def test_a_move_the_table_does_not_hold_is_refused_and_changes_nothing() -> None:
    state = TableState(seats=[Seat("Ana"), Seat("Bo")])
    state.move_to("over")
    with pytest.raises(PhaseMoveError, match="'over' to 'settling'"):
        state.move_to("settling")
    assert state.phase == "over"


def test_a_game_won_by_the_last_player_in_goes_on_only_through_play() -> None:
    engine = TableEngine(["Ana", "Bo", "Cy"], seed=1)
    engine.handle(Eliminate("Bo"))
    engine.handle(Eliminate("Cy"))
    assert engine.state.phase == "game_over"
    assert "over" not in PHASE_MOVES["game_over"]
    with pytest.raises(ActionError):  # no deal once the game is won
        engine.handle(StartRound())
    assert engine.state.phase == "game_over"
